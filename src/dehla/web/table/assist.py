"""Hints, undo and claims at a table: what a seat's ``hint``, ``undo``, ``claim`` and ``claim_answer`` do.

* A **hint** says what the strongest bot would play for the seat, from the seat's observation alone
  (``play.hints``), thought out in a thread off the event loop; the request is logged (a record hand's
  ``hints``) and the answer goes to the asking window only, dropped if the table moved on meanwhile.
* An **undo** takes back the seat's own last card of the hand in play and the bots' actions after it, refused
  once any person has acted after it; it is logged, and the record keeps only the decisions that stood.
* Both are off at rated tables and wherever the host turned them off.
* A **claim** of every remaining trick (or ten) is proved by the exact solver on the true cards
  (``play.claims``) off the event loop, while the people of the other team are asked; bots accept it when it
  holds.  A claim accepted by all is logged, then its proving line of play is committed like any action;
  a refused claim says only that it was refused.  Other processes serving the table hear of the claim, take
  their people's answers and pass them on (``heard``); the process where it was made settles it and says so.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Literal, Protocol

from dehla.engine.actions import Action, Play, parse_action
from dehla.engine.events import Event
from dehla.engine.observe import Observation
from dehla.engine.state import Match, Phase
from dehla.play.claims import CLAIMS, Claim, claim_line
from dehla.play.hints import HINT_TEMPLATES, Hint, hint_for, web_words
from dehla.web.log import ActionEntry, LogEntry, claim_entry, hint_entry, undo_entry
from dehla.web.messages import WebError, english, register
from dehla.web.protocol import ClaimAnswerRequest, ClaimRequest, HintRequest
from dehla.web.schema import ClaimNotes, HintMessage, ServerMessage
from dehla.web.table.claims import PendingClaim
from dehla.web.table.replica import Replica
from dehla.web.table.seats import SeatInfo
from dehla.web.table.views import Listener, dumps

__all__ = ["AssistedTable", "hint", "undo", "claim", "claim_answer", "heard"]

log = logging.getLogger("dehla.web")

register(HINT_TEMPLATES)
register(
    {
        "assists_off": "Hints and undo are off at this table.",
        "assists_rated": "Hints and undo are off at rated tables.",
        "hint_not_your_turn": "A hint is given only on your turn.",
        "hint_busy": "Your hint is on its way.",
        "no_hint": "No hint could be found this time.",
        "nothing_to_undo": "You have no card of this hand to take back.",
        "undo_after_person": "{seat} has acted since your card: it can no longer be taken back.",
        "undone": "{seat} took back {card}.",
        "claim_not_now": "You can claim the rest of the hand only on your turn, while the cards are played.",
        "bad_claim": "Claim every remaining trick or every remaining ten.",
        "claim_pending": "A claim is waiting for its answers.",
        "no_claim": "There is no claim waiting for your answer.",
        "claim_tricks": "{seat} claims every remaining trick.",
        "claim_tens": "{seat} claims every remaining ten.",
        "claim_refused": "The claim was refused.",
        "claim_accepted": "The claim of {seat} was accepted: the hand is played out as claimed.",
    }
)


class AssistedTable(Protocol):
    """What hints, undo and claims read and call of a table (``TableSession``'s public interface)."""

    seats: list[SeatInfo]
    match: Match | None
    status: str
    seq: int
    game_seq: int
    rated: bool
    assists: bool
    hand_log: list[ActionEntry]
    claim: PendingClaim | None
    hinting: set[int]
    replica: Replica

    def broadcast(self) -> None: ...

    def send_all(self, message: ServerMessage) -> None: ...

    def person_in_control(self, seat: int, now: float) -> bool: ...

    def later(self, work: Awaitable[None]) -> None: ...

    async def decide(self, step: Callable[[], Awaitable[None]]) -> None: ...

    async def step(self, entry: LogEntry, lease: bool = False) -> tuple[Event, ...]: ...

    async def commit(self, seat: int, action: Action, by: str, lease: bool = False) -> None: ...


def _seat(client: Listener) -> int:
    if client.seat is None:
        raise WebError("watcher", "forbidden")
    return client.seat


def _playing(table: AssistedTable) -> Match:
    match = table.match
    if match is None or table.status != "playing":
        raise WebError("match_not_started" if table.status == "waiting" else "match_over", "conflict")
    return match


def _check_assists(table: AssistedTable) -> None:
    if table.rated:
        raise WebError("assists_rated", "forbidden")
    if not table.assists:
        raise WebError("assists_off", "forbidden")


def notice(code: str, **params: int | str) -> ServerMessage:
    return {"type": "notice", "code": code, "params": dict(params), "message": english(code, params)}


# -- hints ---------------------------------------------------------------------------------------


async def hint(table: AssistedTable, client: Listener, request: HintRequest) -> None:
    """Log the seat's hint request and think it out off the event loop; the answer goes to ``client`` only."""
    seat = _seat(client)
    _check_assists(table)
    match = _playing(table)
    if match.to_act != seat or match.is_chance:
        raise WebError("hint_not_your_turn", "conflict")
    if not table.game_seq <= request["version"] <= table.seq:
        raise WebError("stale", "conflict")
    if seat in table.hinting:
        raise WebError("hint_busy", "busy")
    observation = match.observe(seat)  # the seat's own view: the hint sees nothing the seat may not
    await table.step(hint_entry(seat, len(match.actions)))
    table.hinting.add(seat)
    table.later(_answer_hint(table, client, seat, observation, table.game_seq))


async def _answer_hint(table: AssistedTable, client: Listener, seat: int, observation: Observation, at: int) -> None:
    try:
        found: Hint | None = await asyncio.to_thread(hint_for, observation)
    except Exception:
        log.exception("a hint failed")
        found = None
    finally:
        table.hinting.discard(seat)
    if table.game_seq != at or client.seat != seat:
        return  # the table moved on (or the window left the seat): the hint no longer fits
    if found is None:
        client.push(dumps(notice("no_hint")))
        return
    message: HintMessage = {
        "type": "hint",
        "version": at,
        "action": str(found.action),
        "words": [
            {"code": word.code, "params": dict(word.params), "message": english(word.code, word.params)}
            for word in web_words(found)
        ],
    }
    client.push(dumps(message))


# -- undo ----------------------------------------------------------------------------------------


async def undo(table: AssistedTable, client: Listener) -> None:
    """Take back the seat's last card of this hand and the bots' actions after it (before any person acted)."""
    seat = _seat(client)
    _check_assists(table)
    match = _playing(table)
    if table.claim is not None:
        raise WebError("claim_pending", "conflict")
    entries = table.hand_log
    mine = next((index for index in range(len(entries) - 1, -1, -1) if entries[index]["seat"] == seat), None)
    if (
        mine is None
        or match.is_chance
        or match.is_over
        or entries[mine]["by"] != "person"
        or not isinstance(parse_action(entries[mine]["action"]), Play)
    ):
        raise WebError("nothing_to_undo", "conflict")
    for entry in entries[mine + 1 :]:
        if entry["by"] != "bot" or table.seats[entry["seat"]].kind != "bot":
            raise WebError("undo_after_person", "conflict", seat=entry["seat"])
    card = entries[mine]["action"]
    await table.step(undo_entry(seat, len(entries) - mine, card))
    table.send_all(notice("undone", seat=seat, card=card))
    table.broadcast()


# -- claims --------------------------------------------------------------------------------------


async def claim(table: AssistedTable, client: Listener, request: ClaimRequest) -> None:
    """The seat claims the rest of the hand: prove it off the event loop and ask the other team's people."""
    seat = _seat(client)
    match = _playing(table)
    what = request["what"]
    if what not in CLAIMS:
        raise WebError("bad_claim")
    if match.phase is not Phase.PLAY or match.to_act != seat:
        raise WebError("claim_not_now", "conflict")
    if table.claim is not None:
        raise WebError("claim_pending", "conflict")
    now = time.monotonic()
    people = {
        other for other in range(len(table.seats)) if other % 2 != seat % 2 and table.person_in_control(other, now)
    }
    others = {other for other in range(len(table.seats)) if other % 2 != seat % 2}
    pending = PendingClaim(seat, what, table.game_seq, people, bots=bool(others - people))
    table.claim = pending
    table.send_all(notice(f"claim_{what}", seat=seat))
    table.replica.publish({"k": "claim", "seat": seat, "what": what, "v": pending.version, "waiting": sorted(people)})
    table.broadcast()
    table.later(_prove(table, pending, match.clone()))


async def _prove(table: AssistedTable, pending: PendingClaim, position: Match) -> None:
    try:
        line = await asyncio.to_thread(claim_line, position, Claim(pending.seat, pending.what))
    except Exception:
        log.exception("a claim's proof failed")
        line = None
    pending.proved, pending.line = True, line
    await table.decide(lambda: _settle(table, pending))


async def claim_answer(table: AssistedTable, client: Listener, request: ClaimAnswerRequest) -> None:
    """A person of the other team accepts or refuses the claim waiting for them."""
    seat = _seat(client)
    pending = table.claim
    if pending is None or seat not in pending.waiting:
        raise WebError("no_claim", "conflict")
    if not pending.owner:  # the process where the claim was made settles it
        table.replica.publish({"k": "answer", "seat": seat, "accept": request["accept"], "v": pending.version})
        pending.waiting.discard(seat)
        table.broadcast()
        return
    if not request["accept"]:
        _refuse(table, pending)
        return
    pending.waiting.discard(seat)
    await _settle(table, pending)


def heard(table: AssistedTable, note: ClaimNotes) -> None:
    """A note about a claim from another process serving the table: a claim made there (kept here as a copy to
    show and answer), an answer given there (settled here if the claim was made here), or the claim settled."""
    pending = table.claim
    if note["k"] == "claim":
        if note["v"] < table.game_seq:
            return  # the table has moved on since
        waiting = {seat for seat in note["waiting"] if 0 <= seat < len(table.seats)}
        table.claim = PendingClaim(note["seat"], note["what"], note["v"], waiting, owner=False)
        table.send_all(notice(f"claim_{note['what']}", seat=note["seat"]))
        table.broadcast()
        return
    if pending is None or pending.version != note["v"]:
        return
    if note["k"] == "answer":
        if note["seat"] not in pending.waiting:
            return
        if pending.owner and not note["accept"]:
            _refuse(table, pending)
            return
        pending.waiting.discard(note["seat"])
        if pending.owner:
            table.later(table.decide(lambda: _settle(table, pending)))
        else:
            table.broadcast()
        return
    if not pending.owner:  # settled where it was made
        _closed(table, note["seat"], note["outcome"])


def _closed(
    table: AssistedTable, seat: int, outcome: Literal["refused", "accepted"], version: int | None = None
) -> None:
    """The claim of ``seat`` is over: dropped, everyone told its outcome (a refusal only that: no card, no reason)
    and shown the table without it.  Where it was made (``version`` given), the other processes serving the
    table are told too."""
    table.claim = None
    table.send_all(notice("claim_refused") if outcome == "refused" else notice("claim_accepted", seat=seat))
    table.broadcast()
    if version is not None:
        table.replica.publish({"k": "settled", "seat": seat, "outcome": outcome, "v": version})


def _refuse(table: AssistedTable, pending: PendingClaim) -> None:
    """The claim made here is refused."""
    _closed(table, pending.seat, "refused", pending.version)


async def _settle(table: AssistedTable, pending: PendingClaim) -> None:
    """Decide the claim once its proof is in: a bot of the other team refuses it at once when it does not hold;
    otherwise the people of the other team are waited for, and it is accepted when it holds and all agreed."""
    if table.claim is not pending:
        return  # refused, or dropped when the table moved on
    if table.game_seq != pending.version:
        table.claim = None
        table.broadcast()
        return
    if not pending.proved:
        table.broadcast()
        return
    if pending.line is None and (pending.bots or not pending.waiting):
        # a bot refuses a claim that does not hold; people who all accepted one cannot make it hold
        _refuse(table, pending)
        return
    if pending.waiting:
        table.broadcast()
        return
    line = pending.line
    if line is None:  # pragma: no cover - refused above once nobody is left to answer
        _refuse(table, pending)
        return
    table.claim = None  # before the log's await: an answer heard meanwhile finds no claim to settle again
    await table.step(claim_entry(pending.seat, pending.what))
    _closed(table, pending.seat, "accepted", pending.version)
    for action in line:
        match = table.match
        assert match is not None and match.to_act is not None
        await table.commit(match.to_act, action, "claim")
