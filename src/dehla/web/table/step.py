"""The one step of a table: a committed log entry applied to the table's state.

Live play (after the append), catching up with what another process wrote, and
restoring a table after a restart all change a table by this function and
nothing else.  It reads and writes only the state the log decides (seats, the
host's settings, the match and the log's position); it does no I/O, knows no
listener and reads no clock, and says what else must follow (``Applied``):
the session then times the turn, makes a seat's bot again, moves windows off
a seat whose link changed, sends away watchers the settings no longer admit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from dehla.engine.actions import parse_action
from dehla.engine.events import Event
from dehla.engine.state import Match
from dehla.errors import DehlaError
from dehla.record import replay, to_record
from dehla.rules import Rules
from dehla.web.log import ActionEntry, LogEntry, deal_of, last_action, seed_of
from dehla.web.schema import FinishedTrick, LastAction
from dehla.web.table.seats import SeatInfo
from dehla.web.table.views import finished_trick_of

__all__ = ["TableState", "Applied", "apply_entry"]


class TableState(Protocol):
    """What a table's log decides (``TableSession`` holds it)."""

    rules: Rules
    seats: list[SeatInfo]
    listed: bool
    watchers_allowed: bool
    trick_pause: float
    watch_hash: str | None
    match: Match | None
    match_no: int
    status: str
    seq: int
    game_seq: int
    last: LastAction | None
    finished_trick: FinishedTrick | None
    match_players: dict[int, str]
    ready: set[int]
    #: The seed of each hand of the match dealt so far (``None`` for a deal logged without one); secret until the
    #: hand is over.
    seeds: list[bytes | None]
    #: The next hand's seed and number, drawn when a hand ended (a ``seal`` entry) so that its commitment is shown
    #: before its deal; ``None`` once dealt.  Secret until that hand is over.
    next_seed: tuple[int, bytes] | None
    #: The action entries of the hand in play, in order (who made each: an undo may take back only bots' moves).
    hand_log: list[ActionEntry]
    #: Hints and undo are allowed here (the host's setting; never at a rated table).
    assists: bool


@dataclass(frozen=True)
class Applied:
    """What an entry changed that the session must follow up: the match's events, whether the game moved (the turn
    starts again; ``hand_over`` when a hand was scored), the seat whose bot is made again and the seat whose link
    changed, and whether the settings admit fewer watchers than before."""

    events: tuple[Event, ...] = ()
    game: bool = False
    hand_over: bool = False
    new_bot: int | None = None
    new_link: int | None = None
    stricter: bool = False


def apply_entry(state: TableState, entry: LogEntry) -> Applied:
    """Apply one committed entry (``log.upgrade_entry``'d) to ``state``, whose ``seq`` already counts it."""
    if entry["type"] == "match":
        state.game_seq = state.seq
        state.match_players = {seat: info.player for seat, info in enumerate(state.seats) if info.player}
        state.match = Match(state.rules, entry["first_dealer"])
        state.match_no = entry["match_no"]
        state.seeds = []
        state.next_seed = None
        state.status = "playing"
        state.last = None
        state.ready.clear()
        state.finished_trick = None
        state.hand_log.clear()
        return Applied(game=True)
    if entry["type"] == "deal":
        match = _match(state, "deal")
        match.apply(deal_of(entry))
        state.seeds.append(seed_of(entry))
        state.next_seed = None
        state.hand_log.clear()
        state.last = None
        state.ready.clear()
        state.finished_trick = None
        return Applied(game=True)
    if entry["type"] == "action":
        match = _match(state, "action")
        hand = match.hand_number
        events = match.apply(parse_action(entry["action"]))
        state.hand_log.append(entry)
        state.last = last_action(entry)
        state.finished_trick = finished_trick_of(events, hand)
        return Applied(events=events, game=True, hand_over=match.is_chance and bool(match.results))
    if entry["type"] == "seat":
        seat = entry["seat"]
        old, new = state.seats[seat], SeatInfo.from_meta(entry)
        state.seats[seat] = new
        relinked = new.token_hash != old.token_hash
        if relinked:
            state.ready.discard(seat)
        remade = new.bot != old.bot or new.kind != old.kind or relinked
        return Applied(new_bot=seat if remade else None, new_link=seat if relinked else None)
    if entry["type"] == "undo":
        match = _match(state, "undo")
        count = min(entry["count"], len(state.hand_log))
        state.match = rewound(match, count)
        del state.hand_log[len(state.hand_log) - count :]
        state.last = last_action(state.hand_log[-1]) if state.hand_log else None
        state.finished_trick = None
        return Applied(game=True)
    if entry["type"] == "seal":
        state.next_seed = (entry["hand"], bytes.fromhex(entry["seed"]))
        return Applied()
    if entry["type"] == "hint" or entry["type"] == "claim":
        return Applied()  # annotations: the claim's line of play follows as action entries
    listed, watchers = entry["listed"], entry["watchers_allowed"]
    state.assists = bool(entry.get("assists", True))
    stricter = (state.listed and not listed) or (state.watchers_allowed and not watchers)
    state.listed, state.watchers_allowed = listed, watchers
    state.trick_pause = float(entry["trick_pause"])
    state.watch_hash = entry["watch_hash"]
    return Applied(stricter=stricter)


def _match(state: TableState, kind: str) -> Match:
    """The match a deal or an action belongs to (and the game's position moves to this entry)."""
    if state.match is None:
        raise DehlaError(f"a {kind} before any match in the log")
    state.game_seq = state.seq
    return state.match


def rewound(match: Match, count: int) -> Match:
    """``match`` with the last ``count`` actions of its hand in play taken back: its record, shortened, replayed
    (``dehla.record.replay``, the one way a match is rebuilt)."""
    record = to_record(match)
    actions = record["hands"][-1]["actions"]
    del actions[len(actions) - count :]
    return replay(record)
