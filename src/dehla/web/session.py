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
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from dehla.bots import BOTS, Bot, make_bot
from dehla.cards import TENS_MASK, cards_of
from dehla.engine.actions import Action, Call, Hide, Play, Reveal, parse_action
from dehla.engine.events import CentreCollected, Event, HandEnded, Trick
from dehla.engine.observe import Observation, action_text_for
from dehla.engine.state import Match, draw_first_dealer
from dehla.errors import DehlaError
from dehla.record import to_record
from dehla.rules import Rules, parse_rules
from dehla.web.log import action_entry, deal_entry, match_entry, replay_log, seat_entry
from dehla.web.messages import WebError, english, register
from dehla.web.protocol import RateLimiter, watcher_view
from dehla.web.settings import (
    DEFAULT_BOT_DELAY,
    DEFAULT_TRICK_PAUSE,
    TableSettings,
    check_bot,
    check_trick_pause,
    clean_name,
    default_bot,
)
from dehla.web.storage import FinishedMatch, Storage, TableRow

__all__ = ["TableSession", "SessionContext", "SeatInfo", "Listener", "hash_token", "new_token", "illegal_reason",
           "finished_trick_of", "REACTIONS", "MAX_CHAT", "CHAT_KEPT"]

log = logging.getLogger("dehla.web")

#: Longest chat message, in characters; how many are kept per table; the chat rate (per second) and burst.
MAX_CHAT = 200
CHAT_KEPT = 50
CHAT_RATE = 1.0
CHAT_BURST = 5.0
#: The quick reactions a seated person may send.
REACTIONS = ("👍", "👏", "😮", "😂", "🙏", "🔥")

register({
    "not_your_turn": "It is not your turn (waiting for {seat}).",
    "waiting_for_deal": "It is not your turn: the next hand is about to be dealt.",
    "must_follow": "You must follow {suit}: play one of {cards}.",
    "must_trump": "You asked for the trump, so you must play a trump ({suit}): one of {cards}.",
    "not_held": "You do not hold {card}.",
    "hidden_card": "{card} is the hidden trump card, still face down.",
    "illegal": "{card} cannot be played now.",
    "illegal_action": "{text} is not allowed now.",
    "must_call": "Trump must be called first.",
    "must_hide": "A card must be hidden for trump first.",
    "no_call_now": "Trump is not called now.",
    "no_hide_now": "No card is hidden now.",
    "no_hidden_trump": "There is no hidden trump in this game.",
    "reveal_automatic": "The hidden trump is turned up by itself in this game.",
    "trump_revealed": "The trump has already been revealed.",
    "reveal_leader": "The leader of a trick cannot ask for the trump.",
    "reveal_can_follow": "You can follow {suit}, so you cannot ask for the trump.",
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
    "chat_too_long": "A chat message can be at most {max} characters.",
    "chat_empty": "A chat message needs some text.",
    "chat_rate": "You are chatting too fast; wait a moment.",
    "bad_reaction": "That reaction is not offered.",
    "moved_elsewhere": "This seat is now open in another window.",
})


def hash_token(token: str) -> str:
    """Seat and watch tokens are stored only as hashes: a database leak gives no seat."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def _token_matches(stored: str | None, token: str) -> bool:
    return stored is not None and secrets.compare_digest(stored, hash_token(token))


class Listener(Protocol):
    """A connection as the session sees it (the transport's ``Client``): its seat and an outbox."""

    seat: int | None
    #: How many scored hands this listener has been sent; later states carry only the new ones.
    hands_sent: tuple[int, int]

    def push(self, text: str, kind: str = "other") -> None: ...

    def close_after_sending(self) -> None:
        """Close the connection once what is queued has been sent (a watcher the table no longer admits)."""
        ...


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def error_message(error: WebError) -> dict[str, Any]:
    """The wire form of a refusal: the browser words it from ``code`` and ``params``."""
    return {"type": "error", "code": error.code, "params": error.params, "message": str(error)}


@dataclass
class SeatInfo:
    """One seat: a person's seat (with a secret token once issued) or a bot's; ``bot`` stands in for a person."""

    kind: str
    bot: str
    name: str
    token_hash: str | None = None
    claimed: bool = False

    def to_meta(self) -> dict[str, Any]:
        return {"kind": self.kind, "bot": self.bot, "name": self.name, "token_hash": self.token_hash,
                "claimed": self.claimed}

    @classmethod
    def from_meta(cls, data: dict[str, Any]) -> SeatInfo:
        bot = data.get("bot") or default_bot()
        if bot not in BOTS or BOTS[bot].measurement_only:
            bot = default_bot()
        return cls(str(data["kind"]), bot, str(data["name"]), data.get("token_hash"), bool(data.get("claimed")))

    @property
    def invited(self) -> bool:
        """An invite seat nobody has opened yet: it is kept for the person with the link."""
        return self.kind == "person" and not self.claimed


@dataclass(frozen=True)
class SessionContext:
    """What every session of a server shares: storage, timings and the OS random source for deals."""

    storage: Storage
    bot_delay: float = DEFAULT_BOT_DELAY
    hand_pause: float = 20.0
    deal_rng: random.Random = field(default_factory=random.SystemRandom)


def illegal_reason(observation: Observation, action: Action) -> WebError:
    """Why ``action`` is not legal for the seat that observes: a code with params for the browser.

    Worked out from the observation's hand and legal actions (the engine's
    rules), never by re-deciding a trick here.
    """
    phase = observation.phase
    legal = observation.legal_actions
    if isinstance(action, Play | Reveal) and phase in ("call", "hide"):
        return WebError("must_call" if phase == "call" else "must_hide")
    if isinstance(action, Play):
        card = action.card
        if card not in observation.hand:
            if observation.hidden_card == card:
                return WebError("hidden_card", card=str(card))
            return WebError("not_held", card=str(card))
        plays = [item.card for item in legal if isinstance(item, Play)]
        led = observation.led
        if led is not None and plays and all(item.suit == led for item in plays):
            return WebError("must_follow", suit=led.name, cards=[str(item) for item in plays])
        trump = observation.trump
        if trump is not None and plays and all(item.suit == trump for item in plays):
            return WebError("must_trump", suit=trump.name, cards=[str(item) for item in plays])
        return WebError("illegal", card=str(card))
    if isinstance(action, Call):
        return WebError("no_call_now")
    if isinstance(action, Hide):
        if phase != "hide":
            return WebError("no_hide_now")
        return WebError("not_held", card=str(action.card))
    if isinstance(action, Reveal):
        trump_rule = observation.rules.trump
        if trump_rule not in ("hidden", "hidden_auto"):
            return WebError("no_hidden_trump")
        if trump_rule == "hidden_auto":
            return WebError("reveal_automatic")
        if not observation.trump_hidden:
            return WebError("trump_revealed")
        if not observation.trick or observation.led is None:
            return WebError("reveal_leader")
        return WebError("reveal_can_follow", suit=observation.led.name)
    return WebError("illegal_action", text=str(action))  # pragma: no cover - every action kind is above


def finished_trick_of(events: Iterable[Event], hand: int) -> dict[str, Any] | None:
    """The finished trick in the events of one step, in the state's ``finished_trick`` form (without ``pause``)."""
    trick: Trick | None = None
    collected: CentreCollected | None = None
    last = False
    for event in events:
        if isinstance(event, Trick):
            trick = event
        elif isinstance(event, CentreCollected):
            collected = event
        elif isinstance(event, HandEnded):
            last = True
    if trick is None:
        return None
    seats = trick.seats
    return {
        "number": trick.number,
        "hand": hand,
        "leader": trick.leader,
        "cards": [{"seat": seat, "card": str(card)} for seat, card in zip(seats, trick.cards)],
        "winner": trick.winner,
        "winning_card": str(trick.cards[seats.index(trick.winner)]),
        "collected": None if collected is None else {
            "seat": collected.seat,
            "team": collected.team,
            "cards": collected.mask.bit_count(),
            "tens": [str(card) for card in cards_of(collected.mask & TENS_MASK)],
        },
        "last_of_hand": last,
    }


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
    status: str = "waiting"  # waiting | playing | over
    match_no: int = 0
    match: Match | None = None
    seq: int = 0
    last: dict[str, Any] | None = None
    #: The trick just finished (``finished_trick_of``), shown until the next step; when it finished.
    finished_trick: dict[str, Any] | None = None
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
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_KEPT))
    chat_count: int = 0
    chat_limits: dict[int, RateLimiter] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    driver: asyncio.Task[None] | None = None

    # -- making and restoring ------------------------------------------------------------------

    @classmethod
    def new(cls, context: SessionContext, settings: TableSettings) -> tuple[TableSession, dict[int, str], str]:
        """A new table from validated settings; returns it, every person seat's token and the watch token."""
        seats: list[SeatInfo] = []
        tokens: dict[int, str] = {}
        for number, spec in enumerate(settings.seats):
            if spec.kind == "bot":
                seats.append(SeatInfo("bot", spec.bot, spec.name))
                continue
            token = new_token()
            tokens[number] = token
            seats.append(SeatInfo("person", spec.bot, spec.name, hash_token(token), claimed=spec.kind == "me"))
        watch = new_token()
        session = cls(
            context=context,
            table_id=secrets.token_urlsafe(8).replace("-", "x").replace("_", "y"),
            title=settings.title,
            rules=settings.rules,
            seats=seats,
            grace=settings.grace,
            timer=settings.timer,
            created=time.time(),
            listed=settings.listed,
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
        """Rebuild a table from its metadata row and its log (replayed through ``dehla.record``)."""
        meta = row.meta
        rules = parse_rules(meta["rules"])
        session = cls(
            context=context,
            table_id=row.table_id,
            title=str(meta.get("title", "")),
            rules=rules,
            seats=[SeatInfo.from_meta(seat) for seat in meta["seats"]],
            grace=float(meta.get("grace", 60)),
            timer=meta.get("timer"),
            created=row.created,
            listed=bool(meta.get("listed", True)),
            watchers_allowed=bool(meta.get("watchers_allowed", True)),
            trick_pause=float(meta.get("trick_pause", default_pause)),
            host=meta.get("host"),
            watch_hash=meta.get("watch_hash"),
            status=str(meta.get("status", "waiting")),
            match_no=int(meta.get("match_no", 0)),
            rng=random.Random(context.deal_rng.getrandbits(64)),
        )
        entries = await context.storage.load_log(row.table_id)
        replayed = replay_log(rules, entries)
        for event in replayed.seat_events:
            session.seats[int(event["seat"])] = SeatInfo.from_meta(event)
        session.match = replayed.match
        session.match_no = max(session.match_no, replayed.match_no)
        session.last = replayed.last
        session.finished_trick = finished_trick_of(replayed.last_events, replayed.last_hand)
        session.seq = len(entries)
        if session.match is not None and session.status == "waiting":
            session.status = "playing"  # the server stopped between starting the match and saving the status
        now = time.monotonic()
        session.turn_started = now
        session.hand_ended = now
        session.trick_ended = now - session.trick_pause  # shown again, but nobody waits for it twice
        for seat in session.people_seated():
            session.disconnected_at[seat] = now  # nobody is connected after a restart: grace starts now
        session._make_bots()
        return session

    def _make_bots(self) -> None:
        self.bots = {seat: make_bot(info.bot, self.rng.getrandbits(63)) for seat, info in enumerate(self.seats)}

    def meta(self) -> dict[str, Any]:
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
        }

    async def save_meta(self) -> None:
        await self.context.storage.update_table(self.table_id, self.meta())

    # -- who plays each seat -------------------------------------------------------------------

    def connected(self, seat: int) -> bool:
        return any(client.seat == seat for client in self.clients)

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
        return next((number for number, info in enumerate(self.seats) if _token_matches(info.token_hash, token)),
                    None)

    def may_watch(self, watch: str | None) -> bool:
        """Watchers need the table to allow them and, for a table not in the lobby, its watch link."""
        if not self.watchers_allowed:
            return False
        return self.listed or (watch is not None and _token_matches(self.watch_hash, watch))

    @property
    def private(self) -> bool:
        """A table not shown in the lobby: its seats and its view are only for people with a link."""
        return not self.listed

    def between_hands(self) -> bool:
        match = self.match
        return self.status != "playing" or match is None or match.is_chance or match.is_over

    # -- views ---------------------------------------------------------------------------------

    def public_info(self, now: float) -> dict[str, Any]:
        """What anyone may know about the table (no cards, no tokens): seats, status, options, deadlines."""
        seats = []
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
            "watchers": sum(1 for client in self.clients if client.seat is None),
            "private": self.private,
            "listed": self.listed,
            "watchers_allowed": self.watchers_allowed,
            "host": self.host,
            "trick_pause": self.trick_pause,
        }

    def finished_trick_view(self, now: float) -> dict[str, Any] | None:
        if self.finished_trick is None:
            return None
        left = max(0.0, self.trick_ended + self.trick_pause - now)
        return {**self.finished_trick, "pause": round(left, 2)}

    def state_message(self, client: Listener, info: dict[str, Any], cache: dict[int | None, dict[str, Any]],
                      deadline: float | None, finished: dict[str, Any] | None) -> dict[str, Any]:
        """The full state for one listener: its seat's observation, or the watcher view."""
        seat = client.seat
        observation: dict[str, Any] | None = None
        if self.match is not None:
            if seat not in cache:
                view = self.match.observe(seat).to_json() if seat is not None else watcher_view(self.match)
                cache[seat] = dict(view)  # a plain dict: the message below may leave out hands already sent
            observation = cache[seat]
            # The scored hands of the match only grow: send them once, then only when a hand is added.
            known = (self.match_no, len(observation["match"]["hands"]))
            if client.hands_sent == known:
                observation = {**observation, "match": {key: value for key, value in observation["match"].items()
                                                        if key != "hands"}}
            client.hands_sent = known
        last = self.last
        if last is not None:
            last = {**last, "action": action_text_for(last["action"], last["seat"], seat)}
        message: dict[str, Any] = {
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
        """Send every listener its newest state (a slow one gets only the newest, see the transport's outbox)."""
        now = time.monotonic()
        info = self.public_info(now)
        deadline = self._deadline(now)
        finished = self.finished_trick_view(now)
        cache: dict[int | None, dict[str, Any]] = {}
        for client in list(self.clients):
            message = self.state_message(client, info, cache, deadline, finished)
            full = message["observation"] is not None and "hands" in message["observation"]["match"]
            client.push(_dumps(message), "state_full" if full else "state")

    def _send_all(self, message: dict[str, Any]) -> None:
        text = _dumps(message)
        for client in list(self.clients):
            client.push(text)

    # -- connections ---------------------------------------------------------------------------

    async def disconnect(self, client: Listener) -> None:
        async with self.lock:
            if client not in self.clients:
                return
            self.clients.discard(client)
            self.moved.discard(client)
            if client.seat is not None and not self.connected(client.seat):
                self.disconnected_at[client.seat] = time.monotonic()
            self.broadcast()
        self.changed.set()

    async def handle(self, client: Listener, kind: str, fields: dict[str, Any]) -> None:
        """Act on one validated message; a refusal raises ``WebError`` and changes nothing."""
        async with self.lock:
            if kind == "hello":
                await self._hello(client, fields)
            elif client not in self.clients:
                raise WebError("watcher")
            elif kind == "act":
                await self._person_act(client, fields)
            elif kind == "next":
                seat = self._require_seat(client)
                if self.match is None or not self.match.is_chance or not self.match.results:
                    raise WebError("no_hand_to_move_on", "conflict")
                self.ready.add(seat)
                self.broadcast()
            elif kind == "start":
                self._require_seat(client)
                if self.status != "waiting":
                    raise WebError("match_started", "conflict")
                await self.start_match()
                self.broadcast()
            elif kind == "rematch":
                self._require_seat(client)
                if self.status != "over":
                    raise WebError("rematch_not_yet", "conflict")
                await self.start_match()
                self.broadcast()
            elif kind == "chat":
                self._chat(client, fields["text"])
            elif kind == "react":
                self._react(client, fields["reaction"])
            elif kind == "seat":
                await self._seat_command(client, fields)
            elif kind == "settings":
                await self._settings_command(client, fields)
            else:  # pragma: no cover - the protocol admits only the kinds above
                raise WebError("bad_message")
        self.changed.set()

    def _require_seat(self, client: Listener) -> int:
        if client.seat is None:
            raise WebError("watcher", "forbidden")
        return client.seat

    def _require_host(self, client: Listener) -> int:
        seat = self._require_seat(client)
        if seat != self.host:
            raise WebError("not_host", "forbidden")
        return seat

    async def _hello(self, client: Listener, fields: dict[str, Any]) -> None:
        """Take the seat of a token (moving it from another window), or watch (with a watch link if needed)."""
        token = fields.get("token")
        seat = self.seat_for_token(token) if token else None
        if seat is None:
            was_seated = client.seat is not None and client in self.clients
            if self.may_watch(fields.get("watch")) or was_seated:
                client.seat = None
                self.clients.add(client)
                self._send_chat_log(client)
                self.broadcast()
            if token:
                raise WebError("bad_token", "forbidden")
            if client not in self.clients:
                raise WebError("watchers_not_allowed", "forbidden")
            return
        for other in list(self.clients):
            if other is not client and other.seat == seat:
                # One seat, one window: the older window is told, and watches without cards from now on.
                other.seat = None
                self.moved.add(other)
                other.push(_dumps({"type": "notice", "code": "moved_elsewhere", "params": {},
                                   "message": english("moved_elsewhere", {})}))
        client.seat = seat
        self.clients.add(client)
        self.moved.discard(client)
        info = self.seats[seat]
        changed = not info.claimed
        info.claimed = True
        if "name" in fields:
            name = clean_name(fields["name"], info.name)
            changed = changed or name != info.name
            info.name = name
        self.disconnected_at.pop(seat, None)
        if changed:
            await self._seat_event(seat)
        self._send_chat_log(client)
        if self.status == "waiting" and all(item.kind == "bot" or item.claimed for item in self.seats):
            await self.start_match()
        self.broadcast()

    def _send_chat_log(self, client: Listener) -> None:
        client.push(_dumps({"type": "chat_log", "messages": list(self.chat)}))

    async def _person_act(self, client: Listener, fields: dict[str, Any]) -> None:
        seat = self._require_seat(client)
        match = self.match
        if match is None or self.status != "playing":
            raise WebError("match_not_started" if self.status == "waiting" else "match_over", "conflict")
        if "version" in fields and fields["version"] != self.seq:
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
        await self._commit(seat, action, "person")

    # -- chat and reactions --------------------------------------------------------------------

    def _speaker(self, client: Listener) -> int:
        seat = self._require_seat(client)
        limiter = self.chat_limits.setdefault(seat, RateLimiter(CHAT_RATE, CHAT_BURST))
        if not limiter.allow():
            raise WebError("chat_rate", "conflict")
        return seat

    def _chat(self, client: Listener, text: str) -> None:
        """A short line of plain text to everyone at the table; kept in memory (the last ``CHAT_KEPT``)."""
        self._require_seat(client)
        text = " ".join(text.split())
        if len(text) > MAX_CHAT:
            raise WebError("chat_too_long", max=MAX_CHAT)
        if not text:
            raise WebError("chat_empty")
        seat = self._speaker(client)
        self.chat_count += 1
        message = {"type": "chat", "id": self.chat_count, "seat": seat, "name": self.seats[seat].name, "text": text,
                   "at": round(time.time(), 3)}
        self.chat.append(message)
        self._send_all(message)

    def _react(self, client: Listener, reaction: str) -> None:
        self._require_seat(client)
        if reaction not in REACTIONS:
            raise WebError("bad_reaction")
        seat = self._speaker(client)
        self._send_all({"type": "reaction", "seat": seat, "name": self.seats[seat].name, "reaction": reaction})

    # -- seats and settings --------------------------------------------------------------------

    async def _seat_event(self, seat: int) -> None:
        """Log a seat's new state (the log is the truth), then keep the metadata row in step."""
        await self._append(seat_entry(seat, self.seats[seat].to_meta()))
        await self.save_meta()

    def _check_seat(self, seat: object) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise WebError("bad_seat", max=len(self.seats) - 1)
        return seat

    async def join(self, seat_value: object, name: object) -> tuple[int, str]:
        """A stranger takes a bot seat of a listed table between hands (the lobby's "Replace the bot")."""
        async with self.lock:
            seat = self._check_seat(seat_value)
            info = self.seats[seat]
            if info.kind == "person" and info.claimed:
                raise WebError("seat_taken", "conflict", seat=seat)
            if info.invited:
                raise WebError("seat_reserved", "conflict", seat=seat)
            if self.private:
                raise WebError("table_private", "forbidden")
            if not self.between_hands():
                raise WebError("seat_bot_until_hand_end", "conflict", seat=seat)
            token = new_token()
            self.seats[seat] = SeatInfo("person", info.bot, clean_name(name, f"Player {seat}"), hash_token(token),
                                        claimed=True)
            self.disconnected_at[seat] = time.monotonic()
            await self._seat_event(seat)
            if self.status == "waiting" and all(item.kind == "bot" or item.claimed for item in self.seats):
                await self.start_match()
            self.broadcast()
        self.changed.set()
        return seat, token

    async def _seat_command(self, client: Listener, fields: dict[str, Any]) -> None:
        """The host replaces a seat with a bot or a fresh invite, before the match or between hands."""
        host = self._require_host(client)
        seat = self._check_seat(fields["seat"])
        if seat == host:
            raise WebError("own_seat", "conflict")
        if not self.between_hands():
            raise WebError("not_between_hands", "conflict")
        old = self.seats[seat]
        kind = fields["kind"]
        token: str | None = None
        if kind == "bot":
            bot = check_bot(fields.get("bot") or old.bot, seat)
            self.seats[seat] = SeatInfo("bot", bot, f"Bot {seat}")
        elif kind == "invite":
            bot = check_bot(fields.get("bot") or old.bot, seat)
            token = new_token()
            self.seats[seat] = SeatInfo("person", bot, f"Player {seat}", hash_token(token))
        else:
            raise WebError("seat_kind", seat=seat)
        self.bots[seat] = make_bot(self.seats[seat].bot, self.rng.getrandbits(63))
        for other in list(self.clients):
            if other.seat == seat:
                other.seat = None  # the old link is void: that window only watches now
                self.moved.add(other)
        self.disconnected_at.pop(seat, None)
        self.ready.discard(seat)
        await self._seat_event(seat)
        if token is not None:
            client.push(_dumps({"type": "invite", "seat": seat, "token": token}))
        if self.status == "waiting" and all(item.kind == "bot" or item.claimed for item in self.seats):
            await self.start_match()
        self.broadcast()

    async def _settings_command(self, client: Listener, fields: dict[str, Any]) -> None:
        """The host chooses whether the table is in the lobby, whether watchers may come, and the trick pause."""
        self._require_host(client)
        pause = check_trick_pause(fields["trick_pause"]) if "trick_pause" in fields else self.trick_pause
        listed = bool(fields.get("listed", self.listed))
        watchers = bool(fields.get("watchers_allowed", self.watchers_allowed))
        new_link = not listed and watchers and (self.listed or not self.watchers_allowed)
        stricter = (self.listed and not listed) or (self.watchers_allowed and not watchers)
        self.listed, self.watchers_allowed, self.trick_pause = listed, watchers, pause
        if stricter:
            self._send_watchers_away()
        if new_link:
            # Watchers of a private table need a link; only its hash is kept, so the host gets a fresh one.
            watch = new_token()
            self.watch_hash = hash_token(watch)
            client.push(_dumps({"type": "watch_token", "token": watch}))
        await self.save_meta()
        self.broadcast()

    def _send_watchers_away(self) -> None:
        """Watchers who came in under the old settings leave: each is told why, then its socket is closed."""
        refusal = WebError("watchers_not_allowed", "forbidden")
        for other in list(self.clients):
            if other.seat is None and other not in self.moved:
                self.clients.discard(other)
                other.push(_dumps(error_message(refusal)))
                other.close_after_sending()

    # -- the log -------------------------------------------------------------------------------

    async def _append(self, entry: dict[str, Any]) -> None:
        """Commit an entry to storage; only then may it change the table."""
        try:
            await self.context.storage.append(self.table_id, self.seq, entry)
        except Exception as error:
            log.exception("table %s: cannot save entry %s", self.table_id, self.seq)
            raise WebError("storage", "unavailable") from error
        self.seq += 1

    async def _commit(self, seat: int, action: Action, by: str) -> None:
        match = self.match
        assert match is not None
        hand = match.hand_number
        await self._append(action_entry(seat, action, by))
        events = match.apply(action)
        self.last = {"seat": seat, "action": str(action), "by": by}
        self._after_step(events, hand)
        if match.is_over:
            await self._finish()

    async def deal(self) -> None:
        match = self.match
        assert match is not None and match.is_chance
        deal = match.random_deal(self.context.deal_rng)
        await self._append(deal_entry(deal))
        match.apply(deal)
        self.last = None
        self.ready.clear()
        self._after_step((), match.hand_number)

    async def start_match(self) -> None:
        first = draw_first_dealer(self.rules.players, self.context.deal_rng)
        number = self.match_no + 1
        await self._append(match_entry(number, first))
        self.match = Match(self.rules, first)
        self.match_no = number
        self.status = "playing"
        self.last = None
        self.ready.clear()
        await self.save_meta()
        self._after_step((), 0)

    def _after_step(self, events: tuple[Event, ...], hand: int) -> None:
        now = time.monotonic()
        self.turn_started = now
        self.finished_trick = finished_trick_of(events, hand)
        if self.finished_trick is not None:
            self.trick_ended = now
        match = self.match
        if match is not None and match.is_chance and match.results:
            self.hand_ended = now
        self.broadcast()

    async def _finish(self) -> None:
        match = self.match
        assert match is not None and match.is_over
        self.status = "over"
        await self.save_meta()
        record = to_record(match, [info.name for info in self.seats])
        summary = {
            "title": self.title,
            "preset": self.rules.preset,
            "rules": self.rules.to_json(),
            "players": [info.name for info in self.seats],
            "score": list(match.score),
            "winner": match.winner,
            "hands": len(match.results),
        }
        await self.context.storage.save_finished(FinishedMatch(self.table_id, self.match_no, time.time(), summary,
                                                               record))
        self.broadcast()

    # -- the driver: deals, bots, grace time and the turn timer --------------------------------

    def _deadline(self, now: float) -> float | None:
        """Seconds until the turn timer (or the grace time) plays for the seat to act, if either applies."""
        match = self.match
        if match is None or match.to_act is None or self.status != "playing":
            return None
        seat = match.to_act
        if not self.person_in_control(seat, now):
            return None
        due = self._person_due(seat)
        return None if due is None else max(0.0, round(due - now, 1))

    def start_driver(self) -> None:
        self.driver = asyncio.get_running_loop().create_task(self._drive(), name=f"table-{self.table_id}")

    async def stop_driver(self) -> None:
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.driver

    def _person_due(self, seat: int) -> float | None:
        times = []
        if self.timer:
            # the turn timer starts once a just-finished trick has been shown
            started = self.turn_started + (self.trick_pause if self.finished_trick is not None else 0.0)
            times.append(started + self.timer)
        if not self.connected(seat):
            left = self.disconnected_at.get(seat, self.turn_started)
            times.append(left + self.grace)
        return min(times) if times else None

    def _next_due(self) -> float | None:
        """When the next automatic step is due (monotonic time), or ``None`` to wait for a person.

        Bots and the deal wait until a finished trick has been shown for ``trick_pause``.
        """
        match = self.match
        if match is None or self.status != "playing":
            return None
        now = time.monotonic()
        if match.is_over:
            return now
        shown = self.trick_ended + self.trick_pause if self.finished_trick is not None else 0.0
        if match.is_chance:
            if not match.results:
                return now
            waiting = [seat for seat in self.people_seated()
                       if self.person_in_control(seat, now) and seat not in self.ready]
            if not waiting:
                return max(self.hand_ended + self.context.bot_delay, shown)
            return max(self.hand_ended + self.context.hand_pause, shown)
        seat = match.to_act
        assert seat is not None
        if not self.person_in_control(seat, now):
            return max(self.turn_started + self.context.bot_delay, shown)
        return self._person_due(seat)

    async def _drive(self) -> None:
        while True:
            try:
                due = self._next_due()
                now = time.monotonic()
                if due is not None and due <= now:
                    await self._automatic()
                    continue
                self.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), None if due is None else due - now)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: automatic step failed", self.table_id)
                await asyncio.sleep(1.0)

    async def _automatic(self) -> None:
        async with self.lock:
            match = self.match
            due = self._next_due()
            if match is None or due is None or due > time.monotonic():
                return
            if match.is_over:
                if self.status == "playing":
                    await self._finish()
                return
            if match.is_chance:
                await self.deal()
                return
            seat = match.to_act
            assert seat is not None
            version = self.seq
            observation = match.observe(seat)
            by = "timer" if self.person_in_control(seat, time.monotonic()) else "bot"
            bot = self.bots[seat]
        try:
            action = await asyncio.to_thread(bot.act, observation)
        except Exception:
            log.exception("table %s: bot %s failed; playing a random legal action", self.table_id, bot.name)
            action = self.rng.choice(observation.legal_actions)
        async with self.lock:
            if self.seq != version or self.match is not match or match.to_act != seat:
                return  # a person acted meanwhile
            if not match.is_legal(action):
                log.error("table %s: bot %s chose illegal %s", self.table_id, bot.name, action)
                action = self.rng.choice(match.legal_actions())
            await self._commit(seat, action, by)
