"""A table's log: ``dehla-record/1`` matches written one step at a time, plus seat events.

Each entry is committed to storage before it changes the table, so the log is
the truth.  The entries are the parts of a ``dehla-record/1`` record (SPEC 4.2),
one at a time, and the seat changes that happen between them:

* ``{"type": "match", "match_no": N, "first_dealer": D}`` — a match starts (a record's ``first_dealer``);
* ``{"type": "deal", "cards": [...], "open_draw"?: "7H"}`` — a hand is dealt (a record hand's ``cards``
  and ``open_draw``);
* ``{"type": "action", "seat": S, "action": "10H", "by": "person"|"bot"|"timer"}`` — an accepted decision
  (one item of a record hand's ``actions``; ``seat`` and ``by`` say who made it);
* ``{"type": "seat", "seat": S, "kind", "bot", "name", "token_hash", "claimed"}`` — the whole new state of
  one seat (a person took it, an invite was issued, a bot replaced it, a name changed);
* ``{"type": "settings", "listed", "watchers_allowed", "trick_pause", "watch_hash"}`` — the host changed who may
  see the table or the trick pause (in the log, not only the table's row, so every process serving the table
  applies it in the same order as everything else).

Restoring a table builds the current match's record from the log and replays it
with ``dehla.record.replay`` (the same code as ``dehla replay``), so there is one
way to rebuild a match.  Logs written before this format (``{"k": "match" | "deal"
| "act", ...}``) are read through ``upgrade_entry``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dehla.cards import cards_text, parse_card, parse_cards
from dehla.engine.actions import Action, Deal
from dehla.engine.events import Event
from dehla.engine.state import Match
from dehla.errors import DehlaError
from dehla.record import FORMAT, replay
from dehla.rules import Rules

__all__ = ["match_entry", "deal_entry", "action_entry", "seat_entry", "settings_entry", "deal_of", "upgrade_entry",
           "Replayed", "replay_log", "SETTINGS_FIELDS"]

#: The fields of a ``settings`` entry: the table's settings the host may change while it runs.
SETTINGS_FIELDS = ("listed", "watchers_allowed", "trick_pause", "watch_hash")


def match_entry(match_no: int, first_dealer: int) -> dict[str, Any]:
    return {"type": "match", "match_no": match_no, "first_dealer": first_dealer}


def deal_entry(deal: Deal) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": "deal", "cards": [cards_text(hand) for hand in deal.hands]}
    if deal.open_draw is not None:
        entry["open_draw"] = str(deal.open_draw)
    return entry


def action_entry(seat: int, action: Action, by: str) -> dict[str, Any]:
    return {"type": "action", "seat": seat, "action": str(action), "by": by}


def seat_entry(seat: int, state: dict[str, Any]) -> dict[str, Any]:
    """A seat event: ``state`` is the seat's whole new state, so applying events in order is enough."""
    return {"type": "seat", "seat": seat, **state}


def settings_entry(listed: bool, watchers_allowed: bool, trick_pause: float, watch_hash: str | None) -> dict[str, Any]:
    """The host's settings, whole (applying the entries in order is enough)."""
    return {"type": "settings", "listed": listed, "watchers_allowed": watchers_allowed, "trick_pause": trick_pause,
            "watch_hash": watch_hash}


def deal_of(entry: dict[str, Any]) -> Deal:
    """The ``Deal`` a ``deal`` entry records (its cards by seat and the open-draw card)."""
    draw = entry.get("open_draw")
    return Deal([parse_cards(hand) for hand in entry["cards"]], None if draw is None else parse_card(draw))


def upgrade_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry in today's form; entries of the first log format (``"k"``) are translated."""
    kind = entry.get("k")
    if kind is None:
        return entry
    if kind == "match":
        return match_entry(int(entry["no"]), int(entry["first_dealer"]))
    if kind == "deal":
        upgraded: dict[str, Any] = {"type": "deal", "cards": list(entry["hands"])}
        if entry.get("open_draw") is not None:
            upgraded["open_draw"] = entry["open_draw"]
        return upgraded
    if kind == "act":
        return {"type": "action", "seat": int(entry["seat"]), "action": entry["a"], "by": entry.get("by", "person")}
    raise DehlaError(f"unknown log entry {kind!r}")


@dataclass
class Replayed:
    """What a table's log says: the match in play, the last action and its events, and the seat events."""

    match: Match | None = None
    match_no: int = 0
    #: ``{"seat", "action", "by"}`` of the last action of the hand in play, or ``None`` after a deal.
    last: dict[str, Any] | None = None
    #: The events of the last step of the match, and the hand it was in (to show a finished trick again).
    last_events: tuple[Event, ...] = ()
    last_hand: int = 0
    seat_events: list[dict[str, Any]] = field(default_factory=list)
    #: The last ``settings`` entry, if the host ever changed them.
    settings: dict[str, Any] | None = None


def replay_log(rules: Rules, entries: list[dict[str, Any]]) -> Replayed:
    """Fold a table's log: the current match is rebuilt by replaying its record (``dehla.record.replay``)."""
    result = Replayed()
    record: dict[str, Any] | None = None
    for raw in entries:
        entry = upgrade_entry(raw)
        kind = entry.get("type")
        if kind == "match":
            record = {"format": FORMAT, "rules": rules.to_json(), "first_dealer": int(entry["first_dealer"]),
                      "hands": []}
            result.match_no = int(entry["match_no"])
            result.last = None
        elif kind == "deal":
            if record is None:
                raise DehlaError("a deal before any match in the log")
            hand: dict[str, Any] = {"cards": list(entry["cards"]), "actions": []}
            if entry.get("open_draw") is not None:
                hand["open_draw"] = entry["open_draw"]
            record["hands"].append(hand)
            result.last = None
        elif kind == "action":
            if record is None or not record["hands"]:
                raise DehlaError("an action before any deal in the log")
            record["hands"][-1]["actions"].append(str(entry["action"]))
            result.last = {"seat": int(entry["seat"]), "action": str(entry["action"]), "by": entry.get("by", "person")}
        elif kind == "seat":
            result.seat_events.append(entry)
        elif kind == "settings":
            result.settings = entry
        else:
            raise DehlaError(f"unknown log entry {kind!r}")
    if record is not None:

        def step(match: Match, hand: int, index: int | None, action: Action | Deal, events: tuple[Event, ...]) -> None:
            result.last_events = events
            result.last_hand = hand

        result.match = replay(record, on_step=step)
    return result
