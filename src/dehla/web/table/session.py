"""The table session: one table's seats, match, timers, bot turns, host commands and chat.

The server is authoritative: a client sends an intent, the engine decides
whether it is legal, the step is appended to the table's log (``dehla.web.log``)
in storage, and only then applied and broadcast.  Automatic steps (the deal,
bots, a person's seat after the grace time, the turn timer) go through the same
path from the session's driver task, after the table's ``trick_pause`` when a
trick has just finished.

What each listener receives is built in ``broadcast.state_message``: the
seat's own ``Observation.to_json()``, or for watchers the public view of
``protocol.watcher_view``, plus public table info and the finished trick (whose
cards were all played face up).  No other code path sends card information;
chat carries only what people typed.

The session holds the table's state and its lock; its collaborators hold the
rest: ``commands`` (what a listener's message does), ``seating`` (who sits
where), ``broadcast`` (what is sent), ``archive`` (finished matches kept and
rated), ``replica`` (the other processes), ``driver`` (bots and timers),
``step`` (one log entry applied), ``making`` (a table made or restored).

Many processes may serve one table (PostgreSQL storage): each keeps a copy,
every step is appended to the log with the version checked (``StaleLog`` when
another process got there first: the copy catches up and decides again), and
copies are brought up to date from the log when the cluster's bus says it grew
(``poke``).  The same ``apply_logged`` changes a copy whether this process wrote
the entry or read it.  Only the process holding the table's lease runs its driver
(bots, timers); presence, chat, reactions and "next hand" travel on the bus.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from dehla.bots import Bot, make_bot
from dehla.engine.actions import Action
from dehla.engine.events import Event
from dehla.engine.fairdeal import SEED_BYTES, deal_from_seed
from dehla.engine.state import Match, draw_first_dealer
from dehla.rules import Rules
from dehla.web.botpool import BotPool
from dehla.web.daily_deal import FixedDeal
from dehla.web.log import (
    ActionEntry,
    LogEntry,
    action_entry,
    deal_entry,
    match_entry,
    seal_entry,
    seat_entry,
    upgrade_entry,
)
from dehla.web.messages import WebError, register
from dehla.web.protocol import (
    ClientMessage,
)
from dehla.web.schema import (
    FinishedTrick,
    Heard,
    LastAction,
    ServerMessage,
    TableInfo,
    TableMeta,
)
from dehla.web.settings import (
    DEFAULT_BOT_DELAY,
    DEFAULT_TRICK_PAUSE,
)
from dehla.web.storage import LeaseLost, StaleLog, Storage
from dehla.web.table import assist
from dehla.web.table.archive import keep_finished, log_entries, rate, save_finished
from dehla.web.table.broadcast import broadcast, hears, public_info, send_all
from dehla.web.table.chat import CHAT_KEPT, MAX_CHAT, REACTIONS, TableChat
from dehla.web.table.claims import PendingClaim
from dehla.web.table.commands import dispatch, require_seat
from dehla.web.table.driver import TableDriver
from dehla.web.table.replica import Bus, Replica
from dehla.web.table.seating import Seating
from dehla.web.table.seats import SeatInfo
from dehla.web.table.step import apply_entry
from dehla.web.table.views import (
    Listener,
    dumps,
    error_message,
    finished_trick_of,
    illegal_reason,
)
from dehla.web.visibility import hash_token, new_token, token_matches

T = TypeVar("T")

__all__ = [
    "TableSession",
    "SessionContext",
    "SeatInfo",
    "Listener",
    "Bus",
    "hash_token",
    "new_token",
    "illegal_reason",
    "finished_trick_of",
    "REACTIONS",
    "MAX_CHAT",
    "CHAT_KEPT",
]

log = logging.getLogger("dehla.web")

#: How long the runner of a table gives the process that wrote a match's last action to keep it, in seconds.
KEEP_FINISHED_AFTER = 3.0

register(
    {
        "not_your_turn": "It is not your turn (waiting for {seat}).",
        "waiting_for_deal": "It is not your turn: the next hand is about to be dealt.",
        "bad_action": "{text} is not an action (a card such as 10H, call S, hide 10H or reveal).",
        "stale": "The table has moved on since you chose; look again.",
        "not_now": "That cannot be done now.",
        "match_not_started": "The match has not started.",
        "match_over": "The match is over.",
        "match_started": "The match has already started.",
        "no_hand_to_move_on": "There is no hand to move on from.",
        "rematch_not_yet": "A rematch can start only when the match is over.",
        "watcher": "You are watching; take a seat to play.",
        "bad_token": "That seat link is not valid for this table.",
        "storage": "The server could not save that; please try again.",
        "no_table": "There is no such table.",
        "bad_seat": "Choose a seat from 0 to {max}.",
        "seat_taken": "That seat ({seat}) is taken.",
        "seat_reserved": "That seat ({seat}) is kept for the person who was invited to it.",
        "seat_bot_until_hand_end": "That seat ({seat}) is played by a bot until the end of this hand; "
        "join between hands.",
        "table_private": "This table is private: only its host can change its seats.",
        "not_host": "Only the host of the table can do that.",
        "not_between_hands": "Seats can be changed only before the match or between hands.",
        "own_seat": "You cannot replace your own seat.",
        "watchers_not_allowed": "Watching this table needs a watch link from its host.",
        "moved_elsewhere": "This seat is now open in another window.",
        "seat_owned": "This seat ({seat}) belongs to the person who opened its invite link first. Ask the host for a "
        "link of your own.",
        "invite_reused": "Someone else opened the invite link of {seat}; they were not seated.",
        "banned": "You may not play at tables here; you may still watch the open ones.",
        "no_chat_line": "That chat line is no longer kept.",
        "reported": "Thank you: the chat line was reported to the server's admins.",
    }
)


def new_deal_seed() -> bytes:
    """A hand's secret seed, from the operating system's random source (``secrets``)."""
    return secrets.token_bytes(SEED_BYTES)


def dealt_seed(
    match: Match, fixed: FixedDeal | None, sealed: tuple[int, bytes] | None, new_seed: Callable[[], bytes]
) -> bytes:
    """The secret seed a hand is dealt from, committed to before its deal and revealed after the hand: the one
    sealed for it when the hand before ended, else a new one (the match's first hand); a fixed deal's own."""
    if fixed is not None:
        return fixed.seed
    if sealed is not None and sealed[0] == match.hand_number:
        return sealed[1]
    return new_seed()


def new_table_id() -> str:
    """A table's id: short, random, and only letters and digits (it goes in links)."""
    return secrets.token_urlsafe(8).replace("-", "x").replace("_", "y")


@dataclass(frozen=True)
class SessionContext:
    """What every session of a server shares: storage, timings, the OS random source for first dealers and bot
    seeds, where each hand's seed comes from (``secrets``; a test may make it reproducible), and, when other
    processes serve the same tables, the bus to them; search bots think in ``bot_pool`` if there is one."""

    storage: Storage
    bot_delay: float = DEFAULT_BOT_DELAY
    hand_pause: float = 20.0
    deal_rng: random.Random = field(default_factory=random.SystemRandom)
    bus: Bus | None = None
    bot_pool: BotPool | None = None
    new_seed: Callable[[], bytes] = new_deal_seed


@dataclass
class TableSession:
    """A table: seats, settings, the match in play and its log position, who is connected, and the chat."""

    context: SessionContext
    table_id: str
    title: str
    rules: Rules
    seats: list[SeatInfo]
    grace: float
    timer: float | None
    created: float
    listed: bool = True
    watchers_allowed: bool = True
    trick_pause: float = DEFAULT_TRICK_PAUSE
    host: int | None = None
    watch_hash: str | None = None
    #: Whether the table was listed when it was made (``visibility.match_audience`` starts from it).
    first_listed: bool = True
    #: Matches here change the players' ratings (``ratings``).
    rated: bool = False
    #: The player of each seat when the match in play began (a rated match rates them).
    match_players: dict[int, str] = field(default_factory=dict)
    status: str = "waiting"  # waiting | playing | over
    match_no: int = 0
    match: Match | None = None
    seq: int = 0
    #: The log's length after its last match, deal or action: an action chosen at a version from here to ``seq``
    #: was chosen at the position the game is in now (seat and settings entries do not move the game).
    game_seq: int = 0
    last: LastAction | None = None
    #: The trick just finished (``finished_trick_of``), shown until the next step; when it finished.
    finished_trick: FinishedTrick | None = None
    trick_ended: float = 0.0
    ready: set[int] = field(default_factory=set)
    clients: set[Listener] = field(default_factory=set)
    #: Windows whose seat was taken by a newer window (or voided by the host): they watch without a watch link.
    moved: set[Listener] = field(default_factory=set)
    disconnected_at: dict[int, float] = field(default_factory=dict)
    turn_started: float = 0.0
    hand_ended: float = 0.0
    bots: dict[int, Bot] = field(default_factory=dict)
    #: The table's own random source: bot seeds and the fallback when a bot fails (never the global one).
    rng: random.Random = field(default_factory=random.Random)
    chat: TableChat = field(default_factory=TableChat)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    #: The table's automatic steps (``driver.TableDriver``), run only where the table's lease is held.
    driver: TableDriver = field(init=False)
    #: Who sits where, and the host's seat and settings commands (``seating.Seating``).
    seating: Seating = field(init=False)
    #: Each seat's bot seed (a search bot thinking in the pool is rebuilt from its name and seed).
    bot_seeds: dict[int, int] = field(default_factory=dict)
    #: This copy among the processes serving the table (``replica.Replica``): its place in the log, the others'
    #: windows, the notes between them.
    replica: Replica = field(init=False)
    #: The players each listener here has blocked: their chat lines and reactions are not sent to it.
    blocking: dict[Listener, frozenset[str]] = field(default_factory=dict)
    #: The seed of each hand of the match in play (secret until its hand is over; ``None`` for an old deal).
    seeds: list[bytes | None] = field(default_factory=list)
    next_seed: tuple[int, bytes] | None = None  # the next hand's (number, seed) from ``seal_next_hand`` to its deal
    #: Tasks of the session's own (kept until done: the loop holds tasks only weakly).
    background: set[asyncio.Future[None]] = field(default_factory=set)
    #: A table that plays one given deal and ends after it (the daily duplicate's), or ``None``: random deals.
    fixed: FixedDeal | None = None
    #: Hints and undo against bots allowed (the host's setting; never at a rated table).
    assists: bool = True
    #: The action entries of the hand in play (``step``): who made each, for undo.
    hand_log: list[ActionEntry] = field(default_factory=list)
    #: A claim waiting for its proof and answers (``assist``), or a copy of one made in another process.
    claim: PendingClaim | None = None
    #: Seats whose hint is being thought out.
    hinting: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.driver = TableDriver(self)
        self.replica = Replica(self, self.context.bus)
        self.seating = Seating(self)

    # -- bots and metadata -------------------------------------------------------------------

    def make_bots(self) -> None:
        """A fresh bot (and seed) for every seat, from the table's own random source."""
        for seat in range(len(self.seats)):
            self.make_bot(seat)

    def make_bot(self, seat: int) -> None:
        seed = self.rng.getrandbits(63)
        self.bot_seeds[seat] = seed
        self.bots[seat] = make_bot(self.seats[seat].bot, seed)

    def meta(self) -> TableMeta:
        meta: TableMeta = {
            "title": self.title,
            "rules": self.rules.to_json(),
            "seats": [seat.to_meta() for seat in self.seats],
            "grace": self.grace,
            "timer": self.timer,
            "status": self.status,
            "match_no": self.match_no,
            "listed": self.listed,
            "watchers_allowed": self.watchers_allowed,
            "trick_pause": self.trick_pause,
            "host": self.host,
            "watch_hash": self.watch_hash,
            "first_listed": self.first_listed,
            "rated": self.rated,
            "assists": self.assists,
        }
        return meta if self.fixed is None else {**meta, "fixed_deal": self.fixed.to_json()}

    async def save_meta(self) -> None:
        await self.context.storage.update_table(self.table_id, self.meta())

    # -- who plays each seat -------------------------------------------------------------------

    def connected(self, seat: int) -> bool:
        """Someone holds the seat's window here or on another process serving the table."""
        return any(client.seat == seat for client in self.clients) or self.replica.connected_elsewhere(seat)

    def person_in_control(self, seat: int, now: float) -> bool:
        """True while a person decides for ``seat``; otherwise its bot does (a bot seat, an open seat, grace over)."""
        info = self.seats[seat]
        if info.kind != "person" or not info.claimed:
            return False
        if self.connected(seat):
            return True
        left = self.disconnected_at.get(seat)
        return left is None or now - left < self.grace

    def people_seated(self) -> list[int]:
        return [seat for seat, info in enumerate(self.seats) if info.kind == "person" and info.claimed]

    def admits(self, listener: Listener) -> bool:
        """True once ``listener`` has said hello and may hear the table (seated or watching)."""
        return listener in self.clients

    def seat_for_token(self, token: str) -> int | None:
        return next((number for number, info in enumerate(self.seats) if token_matches(info.token_hash, token)), None)

    def seat_of_player(self, player: str | None) -> int | None:
        """The seat that belongs to ``player`` (their identity opens it without its link), if any."""
        if player is None:
            return None
        return next((seat for seat, info in enumerate(self.seats) if info.player == player), None)

    def may_watch(self, watch: str | None) -> bool:
        """Watchers need the table to allow them and, for a table not in the lobby, its watch link."""
        if not self.watchers_allowed:
            return False
        return self.listed or (watch is not None and token_matches(self.watch_hash, watch))

    @property
    def private(self) -> bool:
        """A table not shown in the lobby: its seats and its view are only for people with a link."""
        return not self.listed

    def between_hands(self) -> bool:
        match = self.match
        return self.status != "playing" or match is None or match.is_chance or match.is_over

    # -- views ---------------------------------------------------------------------------------

    def public_info(self, now: float) -> TableInfo:
        """What anyone may know about the table (``broadcast.public_info``)."""
        return public_info(self, now)

    def broadcast(self) -> None:
        """Send every listener its newest state (``broadcast.broadcast``)."""
        broadcast(self)

    def send_all(self, message: ServerMessage) -> None:
        """A message for every listener but those who blocked its speaker (``broadcast.send_all``)."""
        send_all(self, message)

    # -- connections ---------------------------------------------------------------------------

    async def disconnect(self, client: Listener) -> None:
        async with self.lock:
            if client not in self.clients:
                return
            self.clients.discard(client)
            self.moved.discard(client)
            self.blocking.pop(client, None)
            if client.seat is not None and not self.connected(client.seat):
                self.disconnected_at[client.seat] = time.monotonic()
            self.broadcast()
            self.replica.publish_presence()
        self.changed.set()

    async def handle(self, client: Listener, request: ClientMessage) -> None:
        """Act on one validated message; a refusal raises ``WebError`` and changes nothing.  When another process
        wrote the log first (``StaleLog``), this copy catches up and decides the message again against the new
        state: an action sent with the version it was chosen at is then refused as ``stale``."""
        await self._decide(lambda: dispatch(self, client, request))

    async def decide(self, step: Callable[[], Awaitable[None]]) -> None:
        """Run ``step`` under the table's lock against the newest log (a background task's decision)."""
        await self._decide(step)

    async def _decide(self, step: Callable[[], Awaitable[T]]) -> T:
        """Run ``step`` under the lock against the newest log, catching up and deciding again when another
        process wrote first; ``stale`` after three such losses."""
        async with self.lock:
            if self.replica.behind:
                await self.catch_up_locked()
            for _ in range(3):
                try:
                    answer = await step()
                    break
                except StaleLog:
                    await self.catch_up_locked()
            else:
                raise WebError("stale", "conflict")
        self.changed.set()
        return answer

    def require_host(self, client: Listener) -> int:
        seat = require_seat(client)
        if seat != self.host:
            raise WebError("not_host", "forbidden")
        return seat

    def move_windows_off(self, seat: int, keep: Listener | None) -> None:
        self.seating.move_windows_off(seat, keep)

    def send_chat_log(self, client: Listener) -> None:
        lines = [line for line in self.chat.log() if hears(self, client, line["seat"])]
        client.push(dumps({"type": "chat_log", "messages": lines}))

    # -- players, seats and settings ----------------------------------------------------------

    async def invite_player(self, host: str | None, seat_value: object, player: str, name: str) -> None:
        """The host keeps an open seat for ``player`` (a friend): a seat nobody took yet, or any other seat between
        hands; the seat's old link no longer opens it."""
        await self._decide(lambda: self.seating.invite_player(host, seat_value, player, name))

    def blocks_changed(self, player: str, blocked: frozenset[str]) -> None:
        for client in list(self.clients):
            if client.player == player:
                self.blocking[client] = blocked

    async def seat_event(self, seat: int, info: SeatInfo) -> None:
        """Log a seat's new state (the log is the truth), apply it, then keep the metadata row in step."""
        await self.step(seat_entry(seat, info.to_meta()))
        await self.save_meta()

    async def join(self, seat_value: object, name: object, player: str | None = None) -> tuple[int, str]:
        """A stranger takes a bot seat of a listed table between hands (the lobby's "Replace the bot")."""
        return await self._decide(lambda: self.seating.join(seat_value, name, player))

    def _send_watchers_away(self) -> None:
        """Watchers who came in under the old settings leave: each is told why, then its socket is closed."""
        refusal = WebError("watchers_not_allowed", "forbidden")
        for other in list(self.clients):
            if other.seat is None and other not in self.moved:
                self.clients.discard(other)
                other.push(dumps(error_message(refusal)))
                other.close_after_sending()
        self.replica.publish_presence()

    # -- the log -------------------------------------------------------------------------------

    async def _append(self, entry: LogEntry, lease: bool = False) -> None:
        """Commit an entry to storage; only then may it change the table.

        ``lease``: a step of the driver (a bot, the deal, a timer), refused with
        ``LeaseLost`` unless this process still runs the table.
        """
        bus = self.context.bus
        try:
            await self.context.storage.append(
                self.table_id, self.seq, entry, lease=bus.node if lease and bus is not None else None
            )
        except (StaleLog, LeaseLost):
            raise
        except Exception as error:
            log.exception("table %s: cannot save entry %s", self.table_id, self.seq)
            raise WebError("storage", "unavailable") from error
        self.seq += 1

    async def step(self, entry: LogEntry, lease: bool = False) -> tuple[Event, ...]:
        """Append an entry, then apply it to this copy (the one way a table changes)."""
        await self._append(entry, lease)
        return self.apply_logged(entry)

    def apply_logged(self, entry: LogEntry) -> tuple[Event, ...]:
        """Change this copy by one committed log entry (``step.apply_entry``, the one step of live play, catching up
        and restoring), then follow up what it says: the turn's clock, a seat's bot, a seat whose link changed,
        watchers the settings no longer admit."""
        applied = apply_entry(self, entry)
        if applied.game and self.claim is not None and self.claim.version != self.game_seq:
            self.claim = None  # the table moved on: a claim made before stands no more
        if applied.game:
            now = time.monotonic()
            self.turn_started = now
            if self.finished_trick is not None:
                self.trick_ended = now
            if applied.hand_over:
                self.hand_ended = now
        if applied.new_bot is not None:
            self.make_bot(applied.new_bot)
        if applied.new_link is not None:
            # a new token voids the old link: windows on it only watch from then on; nobody holds the new link yet,
            # so a person who joined has the grace time to open it
            seat = applied.new_link
            for other in list(self.clients):
                if other.seat == seat:
                    other.seat = None
                    self.moved.add(other)
            self.disconnected_at[seat] = time.monotonic()
            self.replica.publish_presence()
        if applied.stricter:
            self._send_watchers_away()
        return applied.events

    async def commit(self, seat: int, action: Action, by: str, lease: bool = False) -> None:
        await self.step(action_entry(seat, action, by), lease)
        await seal_next_hand(self, lease)
        self.broadcast()
        match = self.match
        if match is not None and (match.is_over or (self.fixed is not None and match.results)):
            await self.finish()

    async def deal(self, lease: bool = False) -> None:
        match = self.match
        assert match is not None and match.is_chance
        seed = dealt_seed(match, self.fixed, self.next_seed, self.context.new_seed)
        await self.step(deal_entry(deal_from_seed(self.rules, seed, match.hand_number), seed), lease)
        self.broadcast()

    async def start_when_seated(self) -> None:
        """Start the first match once every person's seat has been taken (bots fill the others)."""
        if self.status == "waiting" and all(info.kind == "bot" or info.claimed for info in self.seats):
            await self.start_match()

    async def start_match(self) -> None:
        players, fixed = self.rules.players, self.fixed
        first = draw_first_dealer(players, self.context.deal_rng) if fixed is None else fixed.first_dealer(players)
        await self.step(match_entry(self.match_no + 1, first))
        await self.save_meta()
        self.broadcast()

    async def finish(self) -> None:
        match = self.match
        assert match is not None and (match.is_over or self.fixed is not None)
        self.status = "over"
        await self.save_meta()
        await save_finished(self, self.match_no, match, await log_entries(self))
        if self.rated:
            await rate(self, self.match_no, match)
        self.broadcast()

    async def keep_finished(self) -> int:
        """Save the finished matches of the log that storage lacks (``archive.keep_finished``); returns how many."""
        return await keep_finished(self)

    async def _keep_finished_soon(self) -> None:
        """The runner's check that another process's last action was followed by its finished match."""
        await asyncio.sleep(KEEP_FINISHED_AFTER)
        try:
            await self.keep_finished()
        except Exception:
            log.exception("table %s: cannot keep its finished match from the log", self.table_id)

    def later(self, work: Awaitable[None]) -> None:
        """Run ``work`` as a task of the session's own (a hint or a claim's proof thought out meanwhile)."""
        task = asyncio.ensure_future(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    # -- other processes serving this table (``replica.Replica``) --------------------------------

    @property
    def driving(self) -> bool:
        return self.driver.running

    @property
    def behind(self) -> bool:
        """The log has grown past this copy and nobody here has needed it yet (caught up on first use)."""
        return self.replica.behind

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    @property
    def storage(self) -> Storage:
        return self.context.storage

    def poke(self, seq: int, entry: object = None) -> None:
        self.replica.poke(seq, entry)

    async def catch_up(self) -> None:
        await self.replica.catch_up()

    async def catch_up_locked(self) -> None:
        await self.replica.catch_up_locked()

    def hear(self, heard: Heard) -> None:
        note = heard["note"]
        if note["k"] == "claim" or note["k"] == "answer" or note["k"] == "settled":
            assist.heard(self, note)  # a claim's notes (``assist``); the rest are the replica's
        else:
            self.replica.hear(heard)

    def heard_own(self, heard: Heard) -> None:
        self.replica.heard_own(heard)

    def forget_nodes(self, live: set[str]) -> None:
        self.replica.forget_nodes(live)

    def apply_committed(self, raw: object) -> None:
        """Apply an entry another process committed (read back or heard on the channel), then broadcast."""
        entry = upgrade_entry(raw)
        self.seq += 1
        self.apply_logged(entry)
        match = self.match
        if match is not None and match.is_over and self.status == "playing":
            # the process that wrote the last action keeps the finished record; if it dies first, the runner does
            self.status = "over"
            if self.driving:
                self.later(self._keep_finished_soon())
        self.broadcast()

    # -- the driver's view of the table (``driver.DrivenTable``) ---------------------------------

    @property
    def finished_trick_shown(self) -> bool:
        return self.finished_trick is not None

    @property
    def bot_delay(self) -> float:
        return self.context.bot_delay

    @property
    def hand_pause(self) -> float:
        return self.context.hand_pause

    @property
    def bot_pool(self) -> BotPool | None:
        return self.context.bot_pool

    def start_driver(self) -> None:
        self.driver.start()

    async def stop_driver(self) -> None:
        await self.driver.stop()


async def seal_next_hand(table: TableSession, lease: bool) -> None:
    """When a hand has just ended and another follows, draw the next hand's seed now (a ``seal`` entry), so that
    its commitment is shown on the result screen before its deal (a table playing one given deal has none)."""
    match = table.match
    if match is None or table.fixed is not None or not match.is_chance or not match.results or match.is_over:
        return
    await table.step(seal_entry(match.hand_number, table.context.new_seed()), lease)
