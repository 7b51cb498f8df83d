"""A table's log: ``dehla-record/1`` matches written one step at a time, plus seat events.

Each entry is committed to storage before it changes the table, so the log is
the truth.  The entries are the parts of a ``dehla-record/1`` record (SPEC 4.2),
one at a time, and the seat changes that happen between them:

* ``{"type": "match", "match_no": N, "first_dealer": D}`` — a match starts (a record's ``first_dealer``);
* ``{"type": "deal", "cards": [...], "open_draw"?: "7H", "seed"?: HEX}`` — a hand is dealt (a record hand's
  ``cards`` and ``open_draw``; ``seed``, kept secret until the hand is over, is what the cards were derived from,
  ``dehla.engine.fairdeal``);
* ``{"type": "action", "seat": S, "action": "10H", "by": "person"|"bot"|"timer"}`` — an accepted decision
  (one item of a record hand's ``actions``; ``seat`` and ``by`` say who made it);
* ``{"type": "seat", "seat": S, "kind", "bot", "name", "token_hash", "claimed"}`` — the whole new state of
  one seat (a person took it, an invite was issued, a bot replaced it, a name changed);
* ``{"type": "settings", "listed", "watchers_allowed", "trick_pause", "watch_hash", "assists"?}`` — the host
  changed who may see the table, the trick pause or whether hints and undo are allowed (in the log, not only
  the table's row, so every process serving the table applies it in the same order as everything else);
* ``{"type": "hint", "seat": S, "at": I}`` — seat ``S`` asked for a hint before the hand's action ``I``
  (a record hand's ``hints``);
* ``{"type": "undo", "seat": S, "count": K, "card": "AH"}`` — seat ``S`` took back its card ``AH`` and the bots'
  actions after it: the hand's last ``K`` actions no longer stand (a record hand's ``undos``);
* ``{"type": "claim", "seat": S, "what": "tricks"|"tens"}`` — seat ``S``'s claim of the rest of the hand was
  proved and accepted; the action entries that follow (``by`` "claim") are the line of play that proves it
  (a record hand's ``claim``);
* ``{"type": "seal", "hand": N, "seed": HEX}`` — the seed of the match's hand ``N`` (0-based), drawn when the hand
  before it ended so that its commitment is shown on the result screen before the deal; secret until hand ``N``
  is over, and the ``deal`` entry of hand ``N`` carries the same seed.

Restoring a table builds the current match's record from the log and replays it
with ``dehla.record.replay`` (the same code as ``dehla replay``), so there is one
way to rebuild a match.  Logs written before this format (``{"k": "match" | "deal"
| "act", ...}``) are read through ``upgrade_entry``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal, NotRequired, TypedDict

from dehla.cards import cards_text, parse_card, parse_cards
from dehla.engine.actions import Action, Deal
from dehla.engine.events import Event
from dehla.engine.fairdeal import seed_from_hex
from dehla.engine.state import Match
from dehla.errors import DehlaError
from dehla.record import FORMAT, RecordHandJSON, RecordJSON, replay
from dehla.rules import Rules
from dehla.web.schema import Fields, LastAction, SeatState, read_seat_state

__all__ = [
    "match_entry",
    "deal_entry",
    "action_entry",
    "seat_entry",
    "settings_entry",
    "deal_of",
    "seed_of",
    "match_seeds",
    "upgrade_entry",
    "Replayed",
    "replay_log",
    "SETTINGS_FIELDS",
    "LogEntry",
    "MatchEntry",
    "DealEntry",
    "ActionEntry",
    "SeatEntry",
    "SettingsEntry",
    "HintEntry",
    "UndoEntry",
    "ClaimEntry",
    "hint_entry",
    "undo_entry",
    "claim_entry",
    "SealEntry",
    "seal_entry",
    "last_action",
    "annotate",
]

#: The fields of a ``settings`` entry: the table's settings the host may change while it runs.
SETTINGS_FIELDS = ("listed", "watchers_allowed", "trick_pause", "watch_hash")


class MatchEntry(TypedDict):
    type: Literal["match"]
    match_no: int
    first_dealer: int


class DealEntry(TypedDict):
    type: Literal["deal"]
    cards: list[str]
    open_draw: NotRequired[str]
    #: The seed the cards follow from (hex; secret until the hand is over); logs written before seeds lack it.
    seed: NotRequired[str]


class ActionEntry(TypedDict):
    type: Literal["action"]
    seat: int
    action: str
    by: str


class SeatEntry(SeatState):
    type: Literal["seat"]
    seat: int


class SettingsEntry(TypedDict):
    type: Literal["settings"]
    listed: bool
    watchers_allowed: bool
    trick_pause: float
    watch_hash: str | None
    assists: NotRequired[bool]


class HintEntry(TypedDict):
    type: Literal["hint"]
    seat: int
    at: int


class UndoEntry(TypedDict):
    type: Literal["undo"]
    seat: int
    count: int
    card: str


class ClaimEntry(TypedDict):
    type: Literal["claim"]
    seat: int
    what: str


#: An entry of a table's log (the forms listed in the module's docstring).
class SealEntry(TypedDict):
    type: Literal["seal"]
    hand: int
    #: The hand's seed (hex), drawn before its deal so that its commitment can be shown first; never sent.
    seed: str


LogEntry = (
    MatchEntry | DealEntry | ActionEntry | SeatEntry | SettingsEntry | HintEntry | UndoEntry | ClaimEntry | SealEntry
)


def match_entry(match_no: int, first_dealer: int) -> MatchEntry:
    return {"type": "match", "match_no": match_no, "first_dealer": first_dealer}


def deal_entry(deal: Deal, seed: bytes | None = None) -> DealEntry:
    entry: DealEntry = {"type": "deal", "cards": [cards_text(hand) for hand in deal.hands]}
    if deal.open_draw is not None:
        entry["open_draw"] = str(deal.open_draw)
    if seed is not None:
        entry["seed"] = seed.hex()
    return entry


def action_entry(seat: int, action: Action, by: str) -> ActionEntry:
    return {"type": "action", "seat": seat, "action": str(action), "by": by}


def seat_entry(seat: int, state: SeatState) -> SeatEntry:
    """A seat event: ``state`` is the seat's whole new state, so applying events in order is enough."""
    return {"type": "seat", "seat": seat, **state}


def settings_entry(
    listed: bool, watchers_allowed: bool, trick_pause: float, watch_hash: str | None, assists: bool = True
) -> SettingsEntry:
    """The host's settings, whole (applying the entries in order is enough)."""
    return {
        "type": "settings",
        "listed": listed,
        "watchers_allowed": watchers_allowed,
        "trick_pause": trick_pause,
        "watch_hash": watch_hash,
        "assists": assists,
    }


def hint_entry(seat: int, at: int) -> HintEntry:
    return {"type": "hint", "seat": seat, "at": at}


def undo_entry(seat: int, count: int, card: str) -> UndoEntry:
    return {"type": "undo", "seat": seat, "count": count, "card": card}


def claim_entry(seat: int, what: str) -> ClaimEntry:
    return {"type": "claim", "seat": seat, "what": what}


def seal_entry(hand: int, seed: bytes) -> SealEntry:
    return {"type": "seal", "hand": hand, "seed": seed.hex()}


def deal_of(entry: DealEntry) -> Deal:
    """The ``Deal`` a ``deal`` entry records (its cards by seat and the open-draw card)."""
    draw = entry.get("open_draw")
    return Deal([parse_cards(hand) for hand in entry["cards"]], None if draw is None else parse_card(draw))


def seed_of(entry: DealEntry) -> bytes | None:
    """The seed a ``deal`` entry's cards were derived from, or ``None`` (a deal logged before seeds)."""
    seed = entry.get("seed")
    return None if seed is None else bytes.fromhex(seed)


def match_seeds(entries: Iterable[LogEntry], match_no: int) -> list[bytes | None]:
    """The seed of each hand of match ``match_no``, in order (``None`` for a hand dealt without one)."""
    seeds: list[bytes | None] = []
    current = None
    for entry in entries:
        if entry["type"] == "match":
            current = entry["match_no"]
        elif entry["type"] == "deal" and current == match_no:
            seeds.append(seed_of(entry))
    return seeds


def _deal(cards: list[str], draw: str | None, seed: str | None = None) -> DealEntry:
    entry: DealEntry = {"type": "deal", "cards": cards}
    if draw is not None:
        entry["open_draw"] = draw
    if seed is not None:
        try:
            bytes.fromhex(seed)
        except ValueError:
            raise DehlaError(f"log entry: 'seed' must be hexadecimal, not {seed[:40]!r}") from None
        entry["seed"] = seed
    return entry


def upgrade_entry(raw: object) -> LogEntry:
    """A stored entry, checked, in today's form; entries of the first log format (``"k"``) are translated.

    A wrong entry raises ``DehlaError`` naming the field.
    """
    fields = Fields(raw, "log entry")
    data = fields.data
    kind = data.get("k")
    if kind == "match":
        return match_entry(fields.integer("no"), fields.integer("first_dealer"))
    if kind == "deal":
        return _deal(fields.texts("hands"), fields.optional_text("open_draw"))
    if kind == "act":
        return {
            "type": "action",
            "seat": fields.integer("seat"),
            "action": fields.text("a"),
            "by": fields.text("by") if "by" in data else "person",
        }
    if kind is not None:
        raise DehlaError(f"unknown log entry {kind!r}")
    kind = data.get("type")
    if kind == "match":
        return match_entry(fields.integer("match_no"), fields.integer("first_dealer"))
    if kind == "deal":
        return _deal(fields.texts("cards"), fields.optional_text("open_draw"), fields.optional_text("seed"))
    if kind == "action":
        return {
            "type": "action",
            "seat": fields.integer("seat"),
            "action": fields.text("action"),
            "by": fields.text("by") if "by" in data else "person",
        }
    if kind == "seat":
        return seat_entry(fields.integer("seat"), read_seat_state(fields))
    if kind == "settings":
        return settings_entry(
            fields.flag("listed"),
            fields.flag("watchers_allowed"),
            fields.number("trick_pause"),
            fields.optional_text("watch_hash"),
            fields.flag("assists") if "assists" in data else True,
        )
    if kind == "hint":
        return hint_entry(fields.integer("seat"), fields.integer("at"))
    if kind == "undo":
        return undo_entry(fields.integer("seat"), fields.integer("count"), fields.text("card"))
    if kind == "claim":
        return claim_entry(fields.integer("seat"), fields.text("what"))
    if kind == "seal":
        return seal_entry(fields.integer("hand"), seed_from_hex(fields.text("seed"), "log entry: 'seed'"))
    raise DehlaError(f"unknown log entry {kind!r}")


def last_action(entry: ActionEntry) -> LastAction:
    """The ``{"seat", "action", "by"}`` an action entry shows as the last action."""
    return {"seat": entry["seat"], "action": entry["action"], "by": entry["by"]}


@dataclass
class Replayed:
    """What a table's log says: the match in play, the last action and its events, and the seat events."""

    match: Match | None = None
    match_no: int = 0
    #: ``{"seat", "action", "by"}`` of the last action of the hand in play, or ``None`` after a deal.
    last: LastAction | None = None
    #: The events of the last step of the match, and the hand it was in (to show a finished trick again).
    last_events: tuple[Event, ...] = ()
    last_hand: int = 0
    seat_events: list[SeatEntry] = field(default_factory=list)
    #: The last ``settings`` entry, if the host ever changed them.
    settings: SettingsEntry | None = None
    #: Every match of the log as a ``dehla-record/1`` record, by match number (the last one may still be in play).
    records: dict[int, RecordJSON] = field(default_factory=dict)
    #: Every entry, checked (``upgrade_entry``), in order.
    entries: list[LogEntry] = field(default_factory=list)


def replay_log(rules: Rules, entries: Iterable[object]) -> Replayed:
    """Fold a table's log: the current match is rebuilt by replaying its record (``dehla.record.replay``)."""
    result = Replayed()
    record: RecordJSON | None = None
    for raw in entries:
        entry = upgrade_entry(raw)
        result.entries.append(entry)
        if entry["type"] == "match":
            record = {"format": FORMAT, "rules": rules.to_json(), "first_dealer": entry["first_dealer"], "hands": []}
            result.records[entry["match_no"]] = record
            result.match_no = entry["match_no"]
            result.last = None
        elif entry["type"] == "deal":
            if record is None:
                raise DehlaError("a deal before any match in the log")
            hand: RecordHandJSON = {"cards": list(entry["cards"]), "actions": []}
            if "open_draw" in entry:
                hand["open_draw"] = entry["open_draw"]
            record["hands"].append(hand)
            result.last = None
        elif entry["type"] == "action":
            if record is None or not record["hands"]:
                raise DehlaError("an action before any deal in the log")
            record["hands"][-1]["actions"].append(entry["action"])
            result.last = last_action(entry)
        elif entry["type"] == "seat":
            result.seat_events.append(entry)
        elif entry["type"] == "settings":
            result.settings = entry
        elif entry["type"] == "seal":
            continue  # the next hand's seed: its deal entry carries it again
        elif record is not None and record["hands"]:
            annotate(record["hands"][-1], entry)
    if record is not None:

        def step(match: Match, hand: int, index: int | None, action: Action | Deal, events: tuple[Event, ...]) -> None:
            result.last_events = events
            result.last_hand = hand

        result.match = replay(record, on_step=step)
    return result


def annotate(hand: RecordHandJSON, entry: HintEntry | UndoEntry | ClaimEntry) -> None:
    """Write a hint, an undo or a claim into its record hand as an optional annotation (docs/records.md): an undo
    also takes its actions off the hand, whose ``actions`` hold only the decisions that stood."""
    actions = hand["actions"]
    if entry["type"] == "hint":
        hand.setdefault("hints", []).append({"seat": entry["seat"], "at": entry["at"]})
    elif entry["type"] == "undo":
        count = min(entry["count"], len(actions))
        del actions[len(actions) - count :]
        hand.setdefault("undos", []).append({"seat": entry["seat"], "at": len(actions), "card": entry["card"]})
    else:
        hand["claim"] = {"seat": entry["seat"], "what": entry["what"], "at": len(actions)}
