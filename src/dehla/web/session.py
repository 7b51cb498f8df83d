"""The table session: one table's seats, match, timers, bot turns, host commands and chat.

The server is authoritative: a client sends an intent, the engine decides
whether it is legal, the step is appended to the table's log (``dehla.web.log``)
in storage, and only then applied and broadcast.  Automatic steps (the deal,
bots, a person's seat after the grace time, the turn timer) go through the same
path from the session's driver task, after the table's ``trick_pause`` when a
trick has just finished.

What each listener receives is built in ``TableSession.state_message``: the
seat's own ``Observation.to_json()``, or for watchers the public view of
``protocol.watcher_view``, plus public table info and the finished trick (whose
cards were all played face up).  No other code path sends card information;
chat carries only what people typed.

Many processes may serve one table (PostgreSQL storage): each keeps a copy,
every step is appended to the log with the version checked (``StaleLog`` when
another process got there first: the copy catches up and decides again), and
copies are brought up to date from the log when the cluster's bus says it grew
(``poke``).  The same ``_apply`` changes a copy whether this process wrote the
entry or read it.  Only the process holding the table's lease runs its driver
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

from dehla.bots import BOTS, Bot, make_bot
from dehla.engine.actions import Action, parse_action
from dehla.engine.events import Event
from dehla.engine.observe import ObservationJSON, action_text_for
from dehla.engine.state import Match, draw_first_dealer
from dehla.errors import DehlaError
from dehla.record import replay, to_record
from dehla.rules import Rules, parse_rules
from dehla.web.botpool import BotPool
from dehla.web.chat import CHAT_KEPT, MAX_CHAT, REACTIONS, TableChat
from dehla.web.driver import TableDriver
from dehla.web.log import (
    LogEntry,
    action_entry,
    deal_entry,
    match_entry,
    replay_log,
    seat_entry,
    upgrade_entry,
)
from dehla.web.messages import WebError, english, register
from dehla.web.protocol import (
    ActRequest,
    ClientMessage,
)
from dehla.web.ratings import Rating, rate_match
from dehla.web.replica import Bus, Replica
from dehla.web.schema import (
    FinishedTrick,
    FinishedTrickView,
    Heard,
    LastAction,
    MatchSummary,
    SeatView,
    ServerMessage,
    StateMessage,
    TableInfo,
    TableMeta,
    read_meta,
)
from dehla.web.seating import Seating
from dehla.web.seats import SeatInfo
from dehla.web.settings import (
    DEFAULT_BOT_DELAY,
    DEFAULT_TRICK_PAUSE,
    TableSettings,
)
from dehla.web.step import apply_entry
from dehla.web.storage import FinishedMatch, LeaseLost, StaleLog, Storage, TableRow
from dehla.web.views import (
    Listener,
    Views,
    dumps,
    dumps_state,
    encode,
    error_message,
    finished_trick_of,
    illegal_reason,
)
from dehla.web.visibility import hash_token, match_audience, new_token, token_matches
from dehla.web.yours import family_of

T = TypeVar("T")

__all__ = ["TableSession", "SessionContext", "SeatInfo", "Listener", "Bus", "hash_token", "new_token",
           "illegal_reason", "finished_trick_of", "REACTIONS", "MAX_CHAT", "CHAT_KEPT"]

log = logging.getLogger("dehla.web")

#: How long the runner of a table gives the process that wrote a match's last action to keep it, in seconds.
KEEP_FINISHED_AFTER = 3.0

register({
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
    "seat_taken": "Seat {seat} is taken.",
    "seat_reserved": "Seat {seat} is kept for the person who was invited to it.",
    "seat_bot_until_hand_end": "Seat {seat} is played by a bot until the end of this hand; join between hands.",
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
})

def new_table_id() -> str:
    """A table's id: short, random, and only letters and digits (it goes in links)."""
    return secrets.token_urlsafe(8).replace("-", "x").replace("_", "y")


@dataclass(frozen=True)
class SessionContext:
    """What every session of a server shares: storage, timings, the OS random source for deals, and, when
    other processes serve the same tables, the bus to them; search bots think in ``bot_pool`` if there is one."""

    storage: Storage
    bot_delay: float = DEFAULT_BOT_DELAY
    hand_pause: float = 20.0
    deal_rng: random.Random = field(default_factory=random.SystemRandom)
    bus: Bus | None = None
    bot_pool: BotPool | None = None



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
    #: Tasks of the session's own (kept until done: the loop holds tasks only weakly).
    background: set[asyncio.Future[None]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.driver = TableDriver(self)
        self.replica = Replica(self, self.context.bus)
        self.seating = Seating(self)

    # -- making and restoring ------------------------------------------------------------------

    @classmethod
    def new(cls, context: SessionContext, settings: TableSettings, player: str | None = None,
            table_id: str | None = None) -> tuple[TableSession, dict[int, str], str]:
        """A new table from validated settings, made by ``player``; returns it, every person seat's token and the
        watch token.  The creator's seat belongs to the creator from the start."""
        seats: list[SeatInfo] = []
        tokens: dict[int, str] = {}
        for number, spec in enumerate(settings.seats):
            if spec.kind == "bot":
                seats.append(SeatInfo("bot", spec.bot, spec.name))
                continue
            token = new_token()
            tokens[number] = token
            mine = spec.kind == "me"
            seats.append(SeatInfo("person", spec.bot, spec.name, hash_token(token), claimed=mine,
                                  player=player if mine else spec.player))
        watch = new_token()
        session = cls(
            context=context,
            table_id=table_id or new_table_id(),
            title=settings.title,
            rules=settings.rules,
            seats=seats,
            grace=settings.grace,
            timer=settings.timer,
            created=time.time(),
            listed=settings.listed,
            first_listed=settings.listed,
            rated=settings.rated,
            watchers_allowed=settings.watchers_allowed,
            trick_pause=settings.trick_pause,
            host=settings.me,
            watch_hash=hash_token(watch),
            rng=random.Random(context.deal_rng.getrandbits(64)),
        )
        session._make_bots()
        return session, tokens, watch

    @classmethod
    async def restore(cls, context: SessionContext, row: TableRow, default_pause: float) -> TableSession:
        """Rebuild a table from its metadata row and its log, folding the log's entries with ``_apply``: the same
        step as live play and as catching up with another process.

        A row or entry that is not what the server writes raises ``DehlaError`` naming the field.
        """
        meta = read_meta(row.meta, row.table_id)
        rules = parse_rules(meta["rules"])
        session = cls(
            context=context,
            table_id=row.table_id,
            title=meta.get("title", ""),
            rules=rules,
            seats=[SeatInfo.from_meta(seat) for seat in meta["seats"]],
            grace=float(meta.get("grace", 60)),
            timer=meta.get("timer"),
            created=row.created,
            listed=meta.get("listed", True),
            watchers_allowed=meta.get("watchers_allowed", True),
            trick_pause=float(meta.get("trick_pause", default_pause)),
            host=meta.get("host"),
            watch_hash=meta.get("watch_hash"),
            rated=meta.get("rated", False),
            rng=random.Random(context.deal_rng.getrandbits(64)),
        )
        entries = [upgrade_entry(raw) for raw in await context.storage.load_log(row.table_id)]
        # a table made before the first setting was kept: as listed as now, unless the host ever changed it
        changed = any(entry["type"] == "settings" for entry in entries)
        session.first_listed = meta.get("first_listed", session.listed if not changed else False)
        for entry in entries:
            session.seq += 1
            session._apply(entry)
        session.status = meta.get("status", "waiting")
        session.match_no = max(meta.get("match_no", 0), session.match_no)
        if session.match is not None and session.status == "waiting":
            session.status = "playing"  # the server stopped between starting the match and saving the status
        if session.match is not None and session.match.is_over and context.bus is not None:
            session.status = "over"  # the log says so, whatever the row (another process may not have saved it yet)
        now = time.monotonic()
        session.turn_started = now
        session.hand_ended = now
        session.trick_ended = now - session.trick_pause  # shown again, but nobody waits for it twice
        for seat in session.people_seated():
            session.disconnected_at[seat] = now  # nobody is connected after a restart: grace starts now
        session._make_bots()
        return session

    def _make_bots(self) -> None:
        for seat in range(len(self.seats)):
            self.make_bot(seat)

    def make_bot(self, seat: int) -> None:
        seed = self.rng.getrandbits(63)
        self.bot_seeds[seat] = seed
        self.bots[seat] = make_bot(self.seats[seat].bot, seed)

    def meta(self) -> TableMeta:
        return {
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
        }

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
        return next((number for number, info in enumerate(self.seats) if token_matches(info.token_hash, token)),
                    None)

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
        """What anyone may know about the table (no cards, no tokens): seats, status, options, deadlines."""
        seats: list[SeatView] = []
        for number, info in enumerate(self.seats):
            seats.append({
                "seat": number,
                "team": number % 2,
                "kind": info.kind,
                "name": info.name,
                "bot": info.bot,
                "bot_label": BOTS[info.bot].label if info.bot in BOTS else info.bot,
                "claimed": info.claimed,
                "connected": self.connected(number),
                "auto": not self.person_in_control(number, now),
            })
        return {
            "id": self.table_id,
            "title": self.title,
            "rules": self.rules.to_json(),
            "options": self.rules.options(),
            "preset": self.rules.preset,
            "players": self.rules.players,
            "status": self.status,
            "match_no": self.match_no,
            "grace": self.grace,
            "timer": self.timer,
            "seats": seats,
            "ready": sorted(self.ready),
            "watchers": sum(1 for client in self.clients if client.seat is None)
            + self.replica.watchers_elsewhere(),
            "private": self.private,
            "listed": self.listed,
            "watchers_allowed": self.watchers_allowed,
            "host": self.host,
            "trick_pause": self.trick_pause,
            "rated": self.rated,
        }

    def finished_trick_view(self, now: float) -> FinishedTrickView | None:
        if self.finished_trick is None:
            return None
        left = max(0.0, self.trick_ended + self.trick_pause - now)
        return {**self.finished_trick, "pause": round(left, 2)}

    def state_message(self, client: Listener, info: TableInfo, views: Views,
                      deadline: float | None, finished: FinishedTrickView | None) -> StateMessage:
        """The full state for one listener: its seat's observation, or the watcher view."""
        seat = client.seat
        observation: ObservationJSON | None = None
        if self.match is not None:
            # The scored hands of the match only grow: send them once, then only when a hand is added.
            known = (self.match_no, views.hands(seat))
            observation = views.view(seat, with_hands=client.hands_sent != known)
            client.hands_sent = known
        last = self.last
        if last is not None:
            last = {**last, "action": action_text_for(last["action"], last["seat"], seat)}
        message: StateMessage = {
            "type": "state",
            "version": self.seq,
            "seat": seat,
            "table": info,
            "observation": observation,
            "last": last,
            "deadline": deadline,
            "finished_trick": finished,
        }
        if seat is not None:
            message["you"] = {"host": seat == self.host}
        return message

    def broadcast(self) -> None:
        """Send every listener its newest state (a slow one gets only the newest, see the transport's outbox).

        A state depends only on the listener's seat and on whether it still needs the scored hands, so
        each distinct state is built and encoded once per broadcast (watchers share one).
        """
        if not self.clients:
            return
        now = time.monotonic()
        info = self.public_info(now)
        deadline = self.driver.deadline(now)
        finished = self.finished_trick_view(now)
        views = Views(self.match)
        table_text = encode(info)
        texts: dict[tuple[int | None, bool], tuple[str, str]] = {}
        for client in list(self.clients):
            seat = client.seat
            key = (seat, self.match is not None and client.hands_sent != (self.match_no, views.hands(seat)))
            sent = texts.get(key)
            if sent is None:
                message = self.state_message(client, info, views, deadline, finished)
                full = message["observation"] is not None and "hands" in message["observation"]["match"]
                sent = texts[key] = (dumps_state(message, table_text), "state_full" if full else "state")
            elif self.match is not None:
                client.hands_sent = (self.match_no, views.hands(seat))
            client.push(sent[0], sent[1])

    def send_all(self, message: ServerMessage) -> None:
        """A message for every listener; a chat line or reaction is not sent to those who blocked its speaker."""
        text = dumps(message)
        speaker = message["seat"] if message["type"] in ("chat", "reaction") else None
        for client in list(self.clients):
            if speaker is None or self._hears(client, speaker):
                client.push(text)

    def _hears(self, client: Listener, seat: int) -> bool:
        """Whether ``client`` is sent what the person at ``seat`` says (not if its player blocked theirs)."""
        return self.seats[seat].player not in self.blocking.get(client, ())

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
        """Act on one validated message; a refusal raises ``WebError`` and changes nothing.

        When another process wrote the log first (``StaleLog``), this copy catches
        up and the message is decided again against the new state: an action sent
        with the version it was chosen at is then refused as ``stale``.
        """
        await self._decide(lambda: self._dispatch(client, request))

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

    async def _dispatch(self, client: Listener, request: ClientMessage) -> None:
        if request["type"] == "hello":
            await self.seating.hello(client, request)
        elif client not in self.clients:
            raise WebError("watcher")
        elif request["type"] == "act":
            await self._person_act(client, request)
        elif request["type"] == "next":
            seat = self._require_seat(client)
            if self.match is None or not self.match.is_chance or not self.match.results:
                raise WebError("no_hand_to_move_on", "conflict")
            self.ready.add(seat)
            self.replica.publish({"k": "ready", "seat": seat, "v": self.seq})
            self.broadcast()
        elif request["type"] in ("start", "rematch"):
            # a first match starts from a waiting table, a rematch from a finished one
            starting = request["type"] == "start"
            needed, refusal = ("waiting", "match_started") if starting else ("over", "rematch_not_yet")
            self._require_seat(client)
            if self.status != needed:
                raise WebError(refusal, "conflict")
            await self.start_match()
            self.broadcast()
        elif request["type"] == "chat":
            self._chat(client, request["text"])
        elif request["type"] == "react":
            self._react(client, request["reaction"])
        elif request["type"] == "report":
            await self._report(client, request["chat"])
        elif request["type"] == "seat":
            await self.seating.seat_command(client, request)
        elif request["type"] == "settings":
            await self.seating.settings_command(client, request)
        else:  # pragma: no cover - "ping" is answered by the transport
            raise WebError("bad_message")

    def _require_seat(self, client: Listener) -> int:
        if client.seat is None:
            raise WebError("watcher", "forbidden")
        return client.seat

    def require_host(self, client: Listener) -> int:
        seat = self._require_seat(client)
        if seat != self.host:
            raise WebError("not_host", "forbidden")
        return seat

    def move_windows_off(self, seat: int, keep: Listener | None) -> None:
        self.seating.move_windows_off(seat, keep)

    def send_chat_log(self, client: Listener) -> None:
        lines = [line for line in self.chat.log() if self._hears(client, line["seat"])]
        client.push(dumps({"type": "chat_log", "messages": lines}))

    async def _person_act(self, client: Listener, fields: ActRequest) -> None:
        seat = self._require_seat(client)
        match = self.match
        if match is None or self.status != "playing":
            raise WebError("match_not_started" if self.status == "waiting" else "match_over", "conflict")
        if not self.game_seq <= fields["version"] <= self.seq:
            raise WebError("stale", "conflict")
        if match.to_act != seat:
            if match.to_act is None:
                raise WebError("waiting_for_deal", "conflict")
            raise WebError("not_your_turn", "conflict", seat=match.to_act)
        try:
            action = parse_action(fields["action"])
        except DehlaError:
            raise WebError("bad_action", text=str(fields["action"])[:16]) from None
        if not match.is_legal(action):
            raise illegal_reason(match.observe(seat), action)
        await self.commit(seat, action, "person")

    # -- chat and reactions --------------------------------------------------------------------

    def _chat(self, client: Listener, text: str) -> None:
        """A short line of plain text to everyone at the table (``chat.TableChat``), here and on other processes."""
        seat = self._require_seat(client)
        message = self.chat.line(seat, self.seats[seat].name, text)
        self.send_all(message)
        self.replica.publish({"k": "chat", "m": message})

    async def invite_player(self, host: str | None, seat_value: object, player: str, name: str) -> None:
        """The host keeps an open seat for ``player`` (a friend): a seat nobody took yet, or any other seat between
        hands; the seat's old link no longer opens it."""
        await self._decide(lambda: self.seating.invite_player(host, seat_value, player, name))

    def blocks_changed(self, player: str, blocked: frozenset[str]) -> None:
        for client in list(self.clients):
            if client.player == player:
                self.blocking[client] = blocked

    async def _report(self, client: Listener, chat_id: int) -> None:
        """Someone reports a chat line to the admins (``dehla admin reports``); they are told it was sent."""
        if client.player is None:
            raise WebError("no_player", "forbidden")
        line = next((line for line in self.chat.log() if line["id"] == chat_id), None)
        if line is None:
            raise WebError("no_chat_line", "not_found")
        await self.context.storage.report(self.table_id, client.player, self.seats[line["seat"]].player,
                                          line["name"], line["text"])
        client.push(dumps({"type": "notice", "code": "reported", "params": {},
                           "message": english("reported", {})}))

    def _react(self, client: Listener, reaction: str) -> None:
        seat = self._require_seat(client)
        message = self.chat.reaction(seat, self.seats[seat].name, reaction)
        self.send_all(message)
        self.replica.publish({"k": "react", "m": message})

    # -- seats and settings --------------------------------------------------------------------

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
            await self.context.storage.append(self.table_id, self.seq, entry,
                                              lease=bus.node if lease and bus is not None else None)
        except (StaleLog, LeaseLost):
            raise
        except Exception as error:
            log.exception("table %s: cannot save entry %s", self.table_id, self.seq)
            raise WebError("storage", "unavailable") from error
        self.seq += 1

    async def step(self, entry: LogEntry, lease: bool = False) -> tuple[Event, ...]:
        """Append an entry, then apply it to this copy (the one way a table changes)."""
        await self._append(entry, lease)
        return self._apply(entry)

    def _apply(self, entry: LogEntry) -> tuple[Event, ...]:
        """Change this copy by one committed log entry (``step.apply_entry``, the one step of live play, catching up
        and restoring), then follow up what it says: the turn's clock, a seat's bot, a seat whose link changed,
        watchers the settings no longer admit."""
        applied = apply_entry(self, entry)
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
        self.broadcast()
        match = self.match
        if match is not None and match.is_over:
            await self.finish()

    async def deal(self, lease: bool = False) -> None:
        match = self.match
        assert match is not None and match.is_chance
        await self.step(deal_entry(match.random_deal(self.context.deal_rng)), lease)
        self.broadcast()

    async def start_when_seated(self) -> None:
        """Start the first match once every person's seat has been taken (bots fill the others)."""
        if self.status == "waiting" and all(info.kind == "bot" or info.claimed for info in self.seats):
            await self.start_match()

    async def start_match(self) -> None:
        first = draw_first_dealer(self.rules.players, self.context.deal_rng)
        await self.step(match_entry(self.match_no + 1, first))
        await self.save_meta()
        self.broadcast()

    async def finish(self) -> None:
        match = self.match
        assert match is not None and match.is_over
        self.status = "over"
        await self.save_meta()
        await self._save_finished(self.match_no, match, await self._log_entries())
        if self.rated:
            await self._rate(self.match_no, match)
        self.broadcast()

    async def _rate(self, match_no: int, match: Match) -> None:
        """Rate the players who began a rated match (once, whichever process gets there first)."""
        began = self.match_players
        if match.winner is None or len(began) != len(self.seats):
            return  # not every seat had a player when it began: nothing to rate
        leavers = {player for seat, player in began.items() if self.seats[seat].player != player}
        family = family_of(self.rules.preset)
        storage = self.context.storage
        current = {player: Rating(*values) for player, values in (await storage.ratings(family, list(began.values())))
                   .items()}
        new = rate_match(began, match.winner, leavers, current)
        names = {player: self.seats[seat].name for seat, player in began.items()}
        await storage.save_ratings(self.table_id, match_no, family,
                                   {player: (names[player], value.mu, value.sigma, value.matches)
                                    for player, value in new.items()}, time.time())

    async def _log_entries(self) -> list[LogEntry]:
        return [upgrade_entry(raw) for raw in await self.context.storage.load_log(self.table_id)]

    async def _save_finished(self, match_no: int, match: Match, entries: list[LogEntry]) -> None:
        """Keep a finished match with its summary, its record and who may see it (``visibility``)."""
        names = [info.name for info in self.seats]
        summary: MatchSummary = {
            "title": self.title,
            "preset": self.rules.preset,
            "rules": self.rules.to_json(),
            "players": names,
            "score": list(match.score),
            "winner": match.winner,
            "hands": len(match.results),
        }
        audience = match_audience(entries, match_no, self.first_listed, [info.to_meta() for info in self.seats],
                                  self.watch_hash)
        seats = tuple((info.player, seat) for seat, info in enumerate(self.seats) if info.player is not None)
        await self.context.storage.save_finished(FinishedMatch(
            self.table_id, match_no, time.time(), summary, to_record(match, names), audience.listed,
            tuple(sorted(audience.players)), tuple(sorted(audience.hashes)), seats))

    async def keep_finished(self) -> int:
        """Save every finished match of the log that storage lacks (its process died between the last action and
        the save); returns how many.  Any process may do it: the same log gives the same record."""
        kept = await self.context.storage.finished_numbers(self.table_id)
        if set(range(1, self.match_no + (1 if self.status == "over" else 0))) <= kept:
            return 0
        replayed = replay_log(self.rules, await self.context.storage.load_log(self.table_id))
        saved = 0
        for match_no, record in replayed.records.items():
            if match_no in kept:
                continue
            match = replay(record)
            if match.is_over:
                await self._save_finished(match_no, match, replayed.entries)
                if self.rated and match_no == self.match_no:
                    await self._rate(match_no, match)  # rated once, whoever gets there first
                log.warning("table %s: match %d was finished but not kept; kept it from the log",
                            self.table_id, match_no)
                saved += 1
        return saved

    async def _keep_finished_soon(self) -> None:
        """The runner's check that another process's last action was followed by its finished match."""
        await asyncio.sleep(KEEP_FINISHED_AFTER)
        try:
            await self.keep_finished()
        except Exception:
            log.exception("table %s: cannot keep its finished match from the log", self.table_id)

    def _later(self, work: Awaitable[None]) -> None:
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
        self.replica.hear(heard)

    def heard_own(self, heard: Heard) -> None:
        self.replica.heard_own(heard)

    def forget_nodes(self, live: set[str]) -> None:
        self.replica.forget_nodes(live)

    def apply_committed(self, raw: object) -> None:
        """Apply an entry another process committed (read back or heard on the channel), then broadcast."""
        entry = upgrade_entry(raw)
        self.seq += 1
        self._apply(entry)
        match = self.match
        if match is not None and match.is_over and self.status == "playing":
            # the process that wrote the last action keeps the finished record; if it dies first, the runner does
            self.status = "over"
            if self.driving:
                self._later(self._keep_finished_soon())
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
