"""The table service: tables, seats, bots, timers and the log that makes every accepted action durable.

One ``Table`` holds one match at a time (a rematch starts the next one at the
same table).  The server is authoritative: a client sends an action's text,
the engine decides whether it is legal, the action is appended to the table's
log in storage (committed), then applied and broadcast.  Automatic moves (the
deal, bots, a person's seat after the grace time, the turn timer) go through
the same path from the table's driver task.

What each client receives is built in ``Table.state_message``: the seat's own
``Observation.to_json()``, or for watchers the public view of
``protocol.watcher_view``.  No other code path sends card information.
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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from dehla.bots import BOTS, Bot, bot_names, make_bot
from dehla.cards import cards_text, parse_card, parse_cards
from dehla.engine.actions import Action, Deal, parse_action
from dehla.engine.observe import action_text_for
from dehla.engine.state import Match, draw_first_dealer
from dehla.errors import DehlaError
from dehla.record import to_record
from dehla.rules import Rules, parse_rules
from dehla.web.protocol import ProtocolError, watcher_view
from dehla.web.storage import FinishedMatch, Storage, TableRow

__all__ = ["TableService", "Table", "Client", "SeatInfo", "hash_token", "default_bot"]

log = logging.getLogger("dehla.web")

MAX_NAME = 24
MAX_TABLES_LISTED = 200


def hash_token(token: str) -> str:
    """Seat tokens are stored only as hashes: a database leak gives no seat."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def default_bot() -> str:
    """The bot used when none is chosen: the easiest bot above the random beginner, if there is one."""
    names = bot_names(for_people=True)
    above = [name for name in names if BOTS[name].level > 0]
    return above[0] if above else names[0]


def clean_name(value: object, fallback: str) -> str:
    if not isinstance(value, str):
        return fallback
    text = " ".join(value.split())[:MAX_NAME]
    return text if text and text.isprintable() else fallback


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
        return cls(data["kind"], bot, data["name"], data.get("token_hash"), bool(data.get("claimed")))


class Client:
    """One WebSocket connection: its seat (``None`` for a watcher) and an outbox its writer drains.

    A newer full state replaces an older one still waiting in the outbox, so a
    slow client never holds up a table and never falls behind by more than one state.
    """

    MAX_OUTBOX = 64

    def __init__(self, send: Callable[[str], Awaitable[None]]) -> None:
        self.send = send
        self.seat: int | None = None
        self.outbox: deque[tuple[str, str]] = deque()
        self.wake = asyncio.Event()
        self.closed = False
        #: How many scored hands this client has been sent; later states carry only the new ones.
        self.hands_sent: tuple[int, int] = (-1, -1)

    def push(self, text: str, kind: str = "other") -> None:
        if self.closed:
            return
        if kind in ("state", "state_full"):
            # a newer state replaces older unsent ones, except one carrying scored hands the newer one omits
            self.outbox = deque(item for item in self.outbox if item[0] != "state")
        elif len(self.outbox) >= self.MAX_OUTBOX:
            return
        self.outbox.append((kind, text))
        self.wake.set()

    async def run_writer(self) -> None:
        """Send queued messages until the connection closes."""
        while not self.closed:
            await self.wake.wait()
            self.wake.clear()
            while self.outbox and not self.closed:
                _, text = self.outbox.popleft()
                await self.send(text)


@dataclass
class Table:
    """A table: seats, options, the match in play and its log position, and who is connected."""

    table_id: str
    title: str
    rules: Rules
    seats: list[SeatInfo]
    grace: float
    timer: float | None
    created: float
    status: str = "waiting"  # waiting | playing | over
    match_no: int = 0
    match: Match | None = None
    seq: int = 0
    last: dict[str, Any] | None = None
    ready: set[int] = field(default_factory=set)
    clients: set[Client] = field(default_factory=set)
    disconnected_at: dict[int, float] = field(default_factory=dict)
    turn_started: float = 0.0
    hand_ended: float = 0.0
    bots: dict[int, Bot] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    driver: asyncio.Task[None] | None = None

    # -- metadata ------------------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "rules": self.rules.to_json(),
            "seats": [seat.to_meta() for seat in self.seats],
            "grace": self.grace,
            "timer": self.timer,
            "status": self.status,
            "match_no": self.match_no,
        }

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

    # -- views ---------------------------------------------------------------------------------

    def public_info(self, now: float) -> dict[str, Any]:
        """What anyone may know about the table (no cards): seats, status, options, deadlines."""
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
        }

    def state_message(self, client: Client, info: dict[str, Any], cache: dict[int | None, dict[str, Any]],
                      deadline: float | None) -> dict[str, Any]:
        """The full state for one client: its seat's observation, or the watcher view."""
        seat = client.seat
        observation: dict[str, Any] | None = None
        if self.match is not None:
            if seat not in cache:
                cache[seat] = self.match.observe(seat).to_json() if seat is not None else watcher_view(self.match)
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
        return {
            "type": "state",
            "version": self.seq,
            "seat": seat,
            "table": info,
            "observation": observation,
            "last": last,
            "deadline": deadline,
        }


class TableService:
    """All tables of a server: creation, seats, play, timers, storage and broadcasts."""

    def __init__(
        self,
        storage: Storage,
        *,
        bot_delay: float = 0.7,
        hand_pause: float = 20.0,
        rng: random.Random | None = None,
    ) -> None:
        self.storage = storage
        self.bot_delay = bot_delay
        self.hand_pause = hand_pause
        self.rng = rng or random.SystemRandom()
        self.tables: dict[str, Table] = {}
        self.started = False

    # -- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Open storage and resume every table from its log."""
        await self.storage.open()
        for row in await self.storage.load_tables():
            try:
                table = await self._restore(row)
            except (DehlaError, KeyError, TypeError, ValueError) as error:
                log.error("table %s cannot be restored: %s", row.table_id, error)
                continue
            self.tables[table.table_id] = table
            self._start_driver(table)
        self.started = True

    async def stop(self) -> None:
        for table in self.tables.values():
            if table.driver is not None:
                table.driver.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await table.driver
        await self.storage.close()
        self.started = False

    async def _restore(self, row: TableRow) -> Table:
        meta = row.meta
        rules = parse_rules(meta["rules"])
        table = Table(
            table_id=row.table_id,
            title=meta.get("title", ""),
            rules=rules,
            seats=[SeatInfo.from_meta(seat) for seat in meta["seats"]],
            grace=float(meta.get("grace", 60)),
            timer=meta.get("timer"),
            created=row.created,
            status=meta.get("status", "waiting"),
            match_no=int(meta.get("match_no", 0)),
        )
        entries = await self.storage.load_log(row.table_id)
        for entry in entries:
            _apply_entry(table, entry)
        table.seq = len(entries)
        if table.match is not None and table.status == "waiting":
            table.status = "playing"  # the server stopped between starting the match and saving the status
        now = time.monotonic()
        table.turn_started = now
        table.hand_ended = now
        for seat in table.people_seated():
            table.disconnected_at[seat] = now  # nobody is connected after a restart: grace starts now
        self._make_bots(table)
        return table

    def _make_bots(self, table: Table) -> None:
        table.bots = {seat: make_bot(info.bot, self.rng.getrandbits(63)) for seat, info in enumerate(table.seats)}

    # -- creating and joining ------------------------------------------------------------------

    async def create_table(self, spec: object) -> tuple[Table, int | None, dict[int, str]]:
        """Create a table from the lobby's request; returns it, the creator's seat and every person seat's token."""
        if not isinstance(spec, dict):
            raise DehlaError("a table is described by a JSON object with \"rules\" and \"seats\"")
        unknown = sorted(set(spec) - {"rules", "seats", "grace", "timer", "title", "name"})
        if unknown:
            raise DehlaError(f"unknown field {unknown[0]!r}; fields are rules, seats, grace, timer, title, name")
        rules = parse_rules(spec.get("rules", "pagat"))
        players = rules.players
        seats_spec = spec.get("seats")
        if seats_spec is None:
            seats_spec = [{"kind": "me"}] + [{"kind": "bot"}] * (players - 1)
        if not isinstance(seats_spec, list) or len(seats_spec) != players:
            raise DehlaError(f"\"seats\" must list {players} seats for {rules.preset}")
        grace = _number(spec.get("grace", 60), "grace", 0, 3600)
        timer_value = spec.get("timer")
        timer = None if timer_value in (None, 0) else _number(timer_value, "timer", 1, 600)
        me: int | None = None
        seats: list[SeatInfo] = []
        tokens: dict[int, str] = {}
        creator = clean_name(spec.get("name"), "")
        for number, seat in enumerate(seats_spec):
            if not isinstance(seat, dict):
                raise DehlaError(f"seat {number} must be an object with a \"kind\" (me, person or bot)")
            kind = seat.get("kind")
            bot = seat.get("bot") or default_bot()
            if bot not in BOTS or BOTS[bot].measurement_only:
                offered = ", ".join(bot_names(for_people=True))
                raise DehlaError(f"seat {number}: unknown bot {bot!r}; bots are: {offered}")
            if kind == "bot":
                seats.append(SeatInfo("bot", bot, clean_name(seat.get("name"), f"Bot {number}")))
            elif kind in ("me", "person"):
                if kind == "me":
                    if me is not None:
                        raise DehlaError("only one seat can be \"me\"")
                    me = number
                token = secrets.token_urlsafe(24)
                tokens[number] = token
                fallback = (creator or f"Player {number}") if kind == "me" else f"Player {number}"
                seats.append(SeatInfo("person", bot, clean_name(seat.get("name"), fallback), hash_token(token),
                                      claimed=kind == "me"))
            else:
                raise DehlaError(f"seat {number}: kind must be \"me\", \"person\" or \"bot\", not {kind!r}")
        title = clean_name(spec.get("title"), "")
        table = Table(
            table_id=secrets.token_urlsafe(8).replace("-", "x").replace("_", "y"),
            title=title,
            rules=rules,
            seats=seats,
            grace=grace,
            timer=timer,
            created=time.time(),
        )
        self._make_bots(table)
        await self.storage.create_table(TableRow(table.table_id, table.meta(), table.created))
        self.tables[table.table_id] = table
        async with table.lock:
            if all(info.kind == "bot" or info.claimed for info in seats):
                await self._start_match(table)
        self._start_driver(table)
        return table, me, tokens

    async def join(self, table_id: str, seat: object, name: object) -> str:
        """Take an open person seat, or replace a bot between hands; returns the new seat token."""
        table = self.get(table_id)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(table.seats):
            raise DehlaError(f"seat must be a seat number 0..{len(table.seats) - 1}")
        async with table.lock:
            info = table.seats[seat]
            if info.kind == "person" and info.claimed:
                raise DehlaError(f"seat {seat} is taken")
            if info.kind == "bot":
                in_hand = table.match is not None and not table.match.is_chance and not table.match.is_over
                if in_hand:
                    raise DehlaError(f"seat {seat} is played by a bot until the end of this hand; join between hands")
            token = secrets.token_urlsafe(24)
            info.kind = "person"
            info.claimed = True
            info.token_hash = hash_token(token)
            info.name = clean_name(name, f"Player {seat}")
            table.disconnected_at[seat] = time.monotonic()
            await self.storage.update_table(table.table_id, table.meta())
            if table.status == "waiting" and all(item.kind == "bot" or item.claimed for item in table.seats):
                await self._start_match(table)
            self._broadcast(table)
        table.changed.set()
        return token

    def get(self, table_id: object) -> Table:
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            raise DehlaError("no such table")
        return table

    def list_tables(self) -> list[dict[str, Any]]:
        """Tables still open or in play, newest first (no cards, no tokens)."""
        now = time.monotonic()
        listed = [table for table in self.tables.values() if table.status != "over"]
        listed.sort(key=lambda table: table.created, reverse=True)
        return [table.public_info(now) for table in listed[:MAX_TABLES_LISTED]]

    # -- connections ---------------------------------------------------------------------------

    async def connect(self, table: Table, client: Client) -> None:
        async with table.lock:
            table.clients.add(client)
            self._broadcast(table)

    async def disconnect(self, table: Table, client: Client) -> None:
        client.closed = True
        client.wake.set()
        async with table.lock:
            table.clients.discard(client)
            if client.seat is not None and not table.connected(client.seat):
                table.disconnected_at[client.seat] = time.monotonic()
            self._broadcast(table)
        table.changed.set()

    async def handle(self, table: Table, client: Client, kind: str, fields: dict[str, Any]) -> None:
        """Act on one validated message; a refusal raises ``ProtocolError`` and changes nothing."""
        if kind == "ping":
            client.push('{"type":"pong"}')
            return
        async with table.lock:
            if kind == "hello":
                await self._hello(table, client, fields)
            elif kind == "act":
                await self._person_act(table, client, fields)
            elif kind == "next":
                self._require_seat(client)
                assert client.seat is not None
                if table.match is None or not table.match.is_chance or not table.match.results:
                    raise ProtocolError("not_now", "there is no hand to move on from")
                table.ready.add(client.seat)
                self._broadcast(table)
            elif kind == "start":
                self._require_seat(client)
                if table.status != "waiting":
                    raise ProtocolError("not_now", "the match has already started")
                await self._start_match(table)
                self._broadcast(table)
            elif kind == "rematch":
                self._require_seat(client)
                if table.status != "over":
                    raise ProtocolError("not_now", "a rematch can start only when the match is over")
                await self._start_match(table)
                self._broadcast(table)
        table.changed.set()

    @staticmethod
    def _require_seat(client: Client) -> None:
        if client.seat is None:
            raise ProtocolError("watcher", "you are watching; take a seat to play")

    async def _hello(self, table: Table, client: Client, fields: dict[str, Any]) -> None:
        token = fields.get("token")
        if token:
            wanted = hash_token(token)
            seat = next((number for number, info in enumerate(table.seats)
                         if info.token_hash is not None and secrets.compare_digest(info.token_hash, wanted)), None)
            if seat is None:
                client.seat = None
                self._broadcast(table)
                raise ProtocolError("bad_token", "that seat link is not valid for this table; you are watching")
            client.seat = seat
            info = table.seats[seat]
            changed = not info.claimed
            info.claimed = True
            if "name" in fields:
                name = clean_name(fields["name"], info.name)
                changed = changed or name != info.name
                info.name = name
            table.disconnected_at.pop(seat, None)
            if changed:
                await self.storage.update_table(table.table_id, table.meta())
            if table.status == "waiting" and all(item.kind == "bot" or item.claimed for item in table.seats):
                await self._start_match(table)
        else:
            client.seat = None
        self._broadcast(table)

    async def _person_act(self, table: Table, client: Client, fields: dict[str, Any]) -> None:
        self._require_seat(client)
        seat = client.seat
        match = table.match
        if match is None or table.status != "playing":
            raise ProtocolError("not_now", "the match has not started" if table.status == "waiting"
                                else "the match is over")
        if "version" in fields and fields["version"] != table.seq:
            raise ProtocolError("stale", "the table has moved on since you chose; look again")
        if match.to_act != seat:
            who = "the next hand to be dealt" if match.to_act is None else f"seat {match.to_act}"
            raise ProtocolError("not_your_turn", f"it is not your turn (waiting for {who})")
        try:
            action = parse_action(fields["action"])
        except DehlaError as error:
            raise ProtocolError("bad_action", str(error)) from None
        if not match.is_legal(action):
            try:
                match.clone().apply(action)
            except DehlaError as error:
                raise ProtocolError("illegal", str(error)) from None
            raise ProtocolError("illegal", f"{action} is not legal now")  # pragma: no cover - apply always refuses
        await self._commit(table, seat, action, "person")

    # -- the log -------------------------------------------------------------------------------

    async def _append(self, table: Table, entry: dict[str, Any]) -> None:
        """Commit an entry to storage; only then may it change the table."""
        try:
            await self.storage.append(table.table_id, table.seq, entry)
        except Exception as error:
            log.exception("table %s: cannot save entry %s", table.table_id, table.seq)
            raise ProtocolError("storage", "the server could not save that; please try again") from error
        table.seq += 1

    async def _commit(self, table: Table, seat: int | None, action: Action, by: str) -> None:
        match = table.match
        assert match is not None and seat is not None
        await self._append(table, {"k": "act", "seat": seat, "a": str(action), "by": by})
        match.apply(action)
        table.last = {"seat": seat, "action": str(action), "by": by}
        self._after_change(table)
        if match.is_over:
            await self._finish(table)

    async def _deal(self, table: Table) -> None:
        match = table.match
        assert match is not None and match.is_chance
        deal = match.random_deal(self.rng)
        entry: dict[str, Any] = {"k": "deal", "hands": [cards_text(hand) for hand in deal.hands]}
        if deal.open_draw is not None:
            entry["open_draw"] = str(deal.open_draw)
        await self._append(table, entry)
        match.apply(deal)
        table.last = None
        table.ready.clear()
        self._after_change(table)

    async def _start_match(self, table: Table) -> None:
        first = draw_first_dealer(table.rules.players, self.rng)
        number = table.match_no + 1
        await self._append(table, {"k": "match", "no": number, "first_dealer": first})
        table.match = Match(table.rules, first)
        table.match_no = number
        table.status = "playing"
        table.last = None
        table.ready.clear()
        await self.storage.update_table(table.table_id, table.meta())
        self._after_change(table)

    def _after_change(self, table: Table) -> None:
        now = time.monotonic()
        table.turn_started = now
        match = table.match
        if match is not None and match.is_chance and match.results:
            table.hand_ended = now
        self._broadcast(table)

    async def _finish(self, table: Table) -> None:
        match = table.match
        assert match is not None and match.is_over
        table.status = "over"
        await self.storage.update_table(table.table_id, table.meta())
        record = to_record(match, [info.name for info in table.seats])
        summary = {
            "title": table.title,
            "preset": table.rules.preset,
            "rules": table.rules.to_json(),
            "players": [info.name for info in table.seats],
            "score": list(match.score),
            "winner": match.winner,
            "hands": len(match.results),
        }
        await self.storage.save_finished(FinishedMatch(table.table_id, table.match_no, time.time(), summary, record))
        self._broadcast(table)

    # -- broadcasting --------------------------------------------------------------------------

    def _deadline(self, table: Table, now: float) -> float | None:
        """Seconds until the turn timer (or the grace time) plays for the seat to act, if either applies."""
        match = table.match
        if match is None or match.to_act is None or table.status != "playing":
            return None
        seat = match.to_act
        if not table.person_in_control(seat, now):
            return None
        due = self._person_due(table, seat)
        return None if due is None else max(0.0, round(due - now, 1))

    def _broadcast(self, table: Table) -> None:
        now = time.monotonic()
        info = table.public_info(now)
        deadline = self._deadline(table, now)
        cache: dict[int | None, dict[str, Any]] = {}
        for client in list(table.clients):
            message = table.state_message(client, info, cache, deadline)
            full = message["observation"] is not None and "hands" in message["observation"]["match"]
            client.push(json.dumps(message, separators=(",", ":")), "state_full" if full else "state")

    # -- the driver: deals, bots, grace time and the turn timer --------------------------------

    def _start_driver(self, table: Table) -> None:
        table.driver = asyncio.get_running_loop().create_task(self._drive(table), name=f"table-{table.table_id}")

    def _person_due(self, table: Table, seat: int) -> float | None:
        times = []
        if table.timer:
            times.append(table.turn_started + table.timer)
        if not table.connected(seat):
            left = table.disconnected_at.get(seat, table.turn_started)
            times.append(left + table.grace)
        return min(times) if times else None

    def _next_due(self, table: Table) -> float | None:
        """When the next automatic step is due (monotonic time), or ``None`` to wait for a person."""
        match = table.match
        if match is None or table.status != "playing":
            return None
        now = time.monotonic()
        if match.is_over:
            return now
        if match.is_chance:
            if not match.results:
                return now
            waiting = [seat for seat in table.people_seated()
                       if table.person_in_control(seat, now) and seat not in table.ready]
            if not waiting:
                return table.hand_ended + self.bot_delay
            return table.hand_ended + self.hand_pause
        seat = match.to_act
        assert seat is not None
        if not table.person_in_control(seat, now):
            return table.turn_started + self.bot_delay
        return self._person_due(table, seat)

    async def _drive(self, table: Table) -> None:
        while True:
            try:
                due = self._next_due(table)
                now = time.monotonic()
                if due is not None and due <= now:
                    await self._automatic(table)
                    continue
                table.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(table.changed.wait(), None if due is None else due - now)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: automatic step failed", table.table_id)
                await asyncio.sleep(1.0)

    async def _automatic(self, table: Table) -> None:
        async with table.lock:
            match = table.match
            due = self._next_due(table)
            if match is None or due is None or due > time.monotonic():
                return
            if match.is_over:
                if table.status == "playing":
                    await self._finish(table)
                return
            if match.is_chance:
                await self._deal(table)
                return
            seat = match.to_act
            assert seat is not None
            version = table.seq
            observation = match.observe(seat)
            by = "timer" if table.person_in_control(seat, time.monotonic()) else "bot"
            bot = table.bots[seat]
        try:
            action = await asyncio.to_thread(bot.act, observation)
        except Exception:
            log.exception("table %s: bot %s failed; playing a random legal action", table.table_id, bot.name)
            action = random.choice(observation.legal_actions)
        async with table.lock:
            if table.seq != version or table.match is not match or match.to_act != seat:
                return  # a person acted meanwhile
            if not match.is_legal(action):
                log.error("table %s: bot %s chose illegal %s", table.table_id, bot.name, action)
                action = random.choice(match.legal_actions())
            await self._commit(table, seat, action, by)


def _number(value: object, name: str, low: float, high: float) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool) or not low <= value <= high:
        raise DehlaError(f"{name} must be a number of seconds from {low:g} to {high:g}")
    return float(value)


def _apply_entry(table: Table, entry: dict[str, Any]) -> None:
    """Replay one log entry into the table (restarting the server)."""
    kind = entry["k"]
    if kind == "match":
        table.match = Match(table.rules, int(entry["first_dealer"]))
        table.match_no = int(entry["no"])
        table.last = None
    elif kind == "deal":
        assert table.match is not None
        open_draw = entry.get("open_draw")
        table.match.apply(Deal([parse_cards(hand) for hand in entry["hands"]],
                               None if open_draw is None else parse_card(open_draw)))
        table.last = None
    elif kind == "act":
        assert table.match is not None
        action = parse_action(entry["a"])
        table.match.apply(action)
        table.last = {"seat": int(entry["seat"]), "action": str(action), "by": entry.get("by", "person")}
    else:
        raise DehlaError(f"unknown log entry {kind!r}")

