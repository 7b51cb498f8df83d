"""What a table sends its listeners: the public table info, each listener's full state, and the messages for all.

A listener's state is its seat's ``Observation.to_json()``, or for watchers the watcher view (``views.Views``),
plus the public table info and the finished trick (whose cards were all played face up).  No other code path
sends card information; chat carries only what people typed, and a chat line or reaction is not sent to a
listener whose player blocked its speaker.
"""

from __future__ import annotations

import time
from typing import Protocol

from dehla.bots import BOTS
from dehla.engine.fairdeal import commitment_of
from dehla.engine.observe import ObservationJSON, action_text_for
from dehla.engine.state import Match
from dehla.rules import Rules
from dehla.web.daily_deal import FixedDeal
from dehla.web.schema import (
    DealSeal,
    FinishedTrick,
    FinishedTrickView,
    LastAction,
    NextSeal,
    SeatView,
    ServerMessage,
    StateMessage,
    TableInfo,
)
from dehla.web.table.claims import PendingClaim
from dehla.web.table.driver import TableDriver
from dehla.web.table.replica import Replica
from dehla.web.table.seats import SeatInfo
from dehla.web.table.views import Listener, Views, dumps, dumps_state, encode

__all__ = ["ShownTable", "deal_seal", "next_seal", "public_info", "state_message", "broadcast", "send_all", "hears"]


class ShownTable(Protocol):
    """What is shown of a table (``TableSession``'s public interface)."""

    table_id: str
    title: str
    rules: Rules
    seats: list[SeatInfo]
    status: str
    match_no: int
    grace: float
    timer: float | None
    ready: set[int]
    clients: set[Listener]
    listed: bool
    watchers_allowed: bool
    host: int | None
    trick_pause: float
    rated: bool
    #: The one deal the table plays, if it plays only one (the daily duplicate's).
    fixed: FixedDeal | None
    assists: bool
    claim: PendingClaim | None
    match: Match | None
    seq: int
    last: LastAction | None
    finished_trick: FinishedTrick | None
    trick_ended: float
    seeds: list[bytes | None]
    next_seed: tuple[int, bytes] | None
    blocking: dict[Listener, frozenset[str]]
    replica: Replica
    driver: TableDriver

    @property
    def private(self) -> bool: ...

    def connected(self, seat: int) -> bool: ...

    def person_in_control(self, seat: int, now: float) -> bool: ...


def public_info(table: ShownTable, now: float) -> TableInfo:
    """What anyone may know about the table (no cards, no tokens): seats, status, options, deadlines."""
    seats: list[SeatView] = []
    for number, info in enumerate(table.seats):
        seats.append(
            {
                "seat": number,
                "team": number % 2,
                "kind": info.kind,
                "name": info.name,
                "bot": info.bot,
                "bot_label": BOTS[info.bot].label if info.bot in BOTS else info.bot,
                "claimed": info.claimed,
                "connected": table.connected(number),
                "auto": not table.person_in_control(number, now),
            }
        )
    return {
        "id": table.table_id,
        "title": table.title,
        "rules": table.rules.to_json(),
        "options": table.rules.options(),
        "preset": table.rules.preset,
        "players": table.rules.players,
        "status": table.status,
        "match_no": table.match_no,
        "grace": table.grace,
        "timer": table.timer,
        "seats": seats,
        "ready": sorted(table.ready),
        "watchers": sum(1 for client in table.clients if client.seat is None) + table.replica.watchers_elsewhere(),
        "private": table.private,
        "listed": table.listed,
        "watchers_allowed": table.watchers_allowed,
        "host": table.host,
        "trick_pause": table.trick_pause,
        "rated": table.rated,
        "deal": deal_seal(table),
        "next_deal": next_seal(table),
        "one_deal": table.fixed is not None,
        "assists": table.assists and not table.rated,
        "claim": table.claim.view() if table.claim is not None else None,
    }


def deal_seal(table: ShownTable) -> DealSeal | None:
    """The latest hand's commitment, sent to everyone from its deal on; its seed only once the hand is over (the
    seed gives away every seat's cards)."""
    match = table.match
    if match is None or not table.seeds:
        return None
    hand = len(table.seeds) - 1
    seed = table.seeds[hand]
    if seed is None:
        return None
    over = hand < len(match.results)
    return {"hand": hand, "commitment": commitment_of(seed), "seed": seed.hex() if over else None}


def next_seal(table: ShownTable) -> NextSeal | None:
    """The next hand's commitment, from the moment its seed is drawn (the hand before ended) to its deal; never
    its seed."""
    sealed = table.next_seed
    match = table.match
    if sealed is None or match is None or not match.is_chance or sealed[0] != match.hand_number:
        return None
    return {"hand": sealed[0], "commitment": commitment_of(sealed[1])}


def finished_trick_view(table: ShownTable, now: float) -> FinishedTrickView | None:
    if table.finished_trick is None:
        return None
    left = max(0.0, table.trick_ended + table.trick_pause - now)
    return {**table.finished_trick, "pause": round(left, 2)}


def state_message(
    table: ShownTable,
    client: Listener,
    info: TableInfo,
    views: Views,
    deadline: float | None,
    finished: FinishedTrickView | None,
) -> StateMessage:
    """The full state for one listener: its seat's observation, or the watcher view."""
    seat = client.seat
    observation: ObservationJSON | None = None
    if table.match is not None:
        # The scored hands of the match only grow: send them once, then only when a hand is added.
        known = (table.match_no, views.hands(seat))
        observation = views.view(seat, with_hands=client.hands_sent != known)
        client.hands_sent = known
    last = table.last
    if last is not None:
        last = {**last, "action": action_text_for(last["action"], last["seat"], seat)}
    message: StateMessage = {
        "type": "state",
        "version": table.seq,
        "seat": seat,
        "table": info,
        "observation": observation,
        "last": last,
        "deadline": deadline,
        "finished_trick": finished,
    }
    if seat is not None:
        message["you"] = {"host": seat == table.host}
    return message


def broadcast(table: ShownTable) -> None:
    """Send every listener its newest state (a slow one gets only the newest, see the transport's outbox).

    A state depends only on the listener's seat and on whether it still needs the scored hands, so
    each distinct state is built and encoded once per broadcast (watchers share one).
    """
    if not table.clients:
        return
    now = time.monotonic()
    info = public_info(table, now)
    deadline = table.driver.deadline(now)
    finished = finished_trick_view(table, now)
    views = Views(table.match)
    table_text = encode(info)
    texts: dict[tuple[int | None, bool], tuple[str, str]] = {}
    for client in list(table.clients):
        seat = client.seat
        key = (seat, table.match is not None and client.hands_sent != (table.match_no, views.hands(seat)))
        sent = texts.get(key)
        if sent is None:
            message = state_message(table, client, info, views, deadline, finished)
            full = message["observation"] is not None and "hands" in message["observation"]["match"]
            sent = texts[key] = (dumps_state(message, table_text), "state_full" if full else "state")
        elif table.match is not None:
            client.hands_sent = (table.match_no, views.hands(seat))
        client.push(sent[0], sent[1])


def send_all(table: ShownTable, message: ServerMessage) -> None:
    """A message for every listener; a chat line or reaction is not sent to those who blocked its speaker."""
    text = dumps(message)
    speaker = message["seat"] if message["type"] in ("chat", "reaction") else None
    for client in list(table.clients):
        if speaker is None or hears(table, client, speaker):
            client.push(text)


def hears(table: ShownTable, client: Listener, seat: int) -> bool:
    """Whether ``client`` is sent what the person at ``seat`` says (not if its player blocked theirs)."""
    return table.seats[seat].player not in table.blocking.get(client, ())
