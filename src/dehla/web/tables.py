"""The lobby: every table of a server, made from validated settings, resumed from storage, listed and joined.

``TableService`` is a thin facade so that the ASGI app stays simple: settings
are validated by ``dehla.web.settings``, each table runs as a
``dehla.web.table.session.TableSession`` (seats, timers, bots, chat), its log is
``dehla.web.log``, and the sockets are ``dehla.web.transport``.

With PostgreSQL the service is one node of a cluster (``dehla.web.cluster``):
it keeps a copy of every table, brings a copy up to date from the log when the
channel says the log grew (at once where people here look at the table, else
on first use), and runs the drivers of the tables whose lease it holds.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import NotRequired, TypedDict

from dehla.engine.fairdeal import SEED_BYTES
from dehla.errors import DehlaError
from dehla.web.botpool import BotPool
from dehla.web.cluster import DEFAULT_LEASE_SECONDS, Cluster
from dehla.web.messages import WebError
from dehla.web.schema import TableInfo, read_note
from dehla.web.settings import (
    DEFAULT_BOT_DELAY,
    DEFAULT_TRICK_PAUSE,
    TableSettings,
    default_bot,
    parse_table_request,
)
from dehla.web.storage import PostgresStorage, Storage, TableRow
from dehla.web.table.making import new_table, restore_table
from dehla.web.table.session import SessionContext, TableSession, hash_token, new_deal_seed

__all__ = ["TableService", "Created", "CreatedJSON", "default_bot", "hash_token", "MAX_TABLES_LISTED"]

log = logging.getLogger("dehla.web")

MAX_TABLES_LISTED = 200
#: How often a player's "last seen" is written at most, in seconds (friends are online within ``ONLINE_FOR``).
SEEN_EVERY = 30.0
ONLINE_FOR = 90.0


class Invite(TypedDict):
    seat: int
    token: str


class CreatedJSON(TypedDict):
    """The answer to creating a table: its id, the creator's seat and token, the invites, a private table's watch
    token."""

    id: str
    seat: int | None
    token: str | None
    invites: list[Invite]
    watch_token: NotRequired[str]


class Created:
    """A new table and the secrets only its creator receives: every person seat's token and the watch token."""

    def __init__(self, session: TableSession, tokens: dict[int, str], watch_token: str) -> None:
        self.session = session
        self.tokens = tokens
        self.watch_token = watch_token

    def to_json(self) -> CreatedJSON:
        session = self.session
        me = session.host
        answer: CreatedJSON = {
            "id": session.table_id,
            "seat": me,
            "token": None if me is None else self.tokens.get(me),
            "invites": [{"seat": number, "token": token} for number, token in self.tokens.items() if number != me],
        }
        if session.private:
            answer["watch_token"] = self.watch_token
        return answer


class TableService:
    """All tables of a server: creating, resuming, listing, joining; each table is its own session."""

    def __init__(
        self,
        storage: Storage,
        *,
        bot_delay: float = DEFAULT_BOT_DELAY,
        hand_pause: float = 20.0,
        trick_pause: float = DEFAULT_TRICK_PAUSE,
        rng: random.Random | None = None,
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
        bot_pool: BotPool | None = None,
        node: str | None = None,
        address: str | None = None,
    ) -> None:
        self.storage = storage
        #: With storage other processes share, this process is a node of a cluster.
        self.cluster = Cluster(storage, lease_seconds, node, address) if isinstance(storage, PostgresStorage) else None
        self.bot_pool = bot_pool
        self.context = SessionContext(
            storage,
            bot_delay,
            hand_pause,
            rng or random.SystemRandom(),
            self.cluster,
            bot_pool,
            # hands' seeds from ``secrets``; from the given source when one is (reproducible tests)
            new_deal_seed if rng is None else (lambda: rng.randbytes(SEED_BYTES)),
        )
        self.trick_pause = trick_pause
        self.tables: dict[str, TableSession] = {}
        self._seen: dict[str, float] = {}
        self._loading: dict[str, asyncio.Task[TableSession | None]] = {}
        self._announced: set[asyncio.Task[TableSession | None]] = set()
        self.started = False

    async def start(self) -> None:
        """Open storage and resume every table from its log (in a cluster, run those whose lease this node takes)."""
        await self.storage.open()
        for row in await self.storage.load_tables():
            session = await self._restore(row)
            if session is not None:
                await self._keep_finished(session)
            if session is not None and self.cluster is None:
                session.start_driver()
        if self.cluster is not None:
            await self.cluster.start(self)
        self.started = True

    async def _restore(self, row: TableRow) -> TableSession | None:
        try:
            session = await restore_table(self.context, row, self.trick_pause)
        except (DehlaError, KeyError, TypeError, ValueError) as error:
            log.error("table %s cannot be restored: %s", row.table_id, error)
            return None
        return self.tables.setdefault(session.table_id, session)

    async def _keep_finished(self, session: TableSession) -> None:
        try:
            await session.keep_finished()
        except Exception:
            log.exception("table %s: cannot keep its finished matches from the log", session.table_id)

    async def stop(self) -> None:
        for session in self.tables.values():
            await session.stop_driver()
        if self.cluster is not None:
            await self.cluster.stop()
        if self.bot_pool is not None:
            self.bot_pool.close()
        await self.storage.close()
        self.started = False

    async def create_table(self, spec: object, player: str | None = None) -> Created:
        """Create a table from the lobby's request by ``player`` (refused with a ``WebError`` naming the field)."""
        settings = parse_table_request(spec, self.trick_pause)
        await self.refuse_banned(player)
        return await self.create(settings, player)

    async def saw(self, player: str | None) -> None:
        """``player`` is here now (for their friends' "online"): written at most every ``SEEN_EVERY`` seconds."""
        if player is None:
            return
        now = time.time()
        if now - self._seen.get(player, 0.0) < SEEN_EVERY:
            return
        self._seen[player] = now
        if len(self._seen) > 10_000:
            self._seen = {key: at for key, at in self._seen.items() if now - at < SEEN_EVERY}
        await self.storage.saw(player, now)

    async def invite_friend(
        self, table_id: object, host: str | None, seat: object, friend: str, name: str, sender: str
    ) -> None:
        """The host of a table keeps ``seat`` for a friend (whom they follow) and tells them in their lobby."""
        session = await self.find(table_id)
        await session.invite_player(host, seat, friend, name)
        await self.storage.notify_player(friend, session.table_id, int(seat) if isinstance(seat, int) else 0, sender)

    def blocks_changed(self, player: str, blocked: frozenset[str]) -> None:
        """``player`` blocked or unblocked someone: their windows here hide or show that chat from now on."""
        for session in self.tables.values():
            session.blocks_changed(player, blocked)

    async def refuse_banned(self, player: str | None) -> None:
        """A banned player plays at no table (``dehla admin ban``); they may still watch the open ones."""
        if player is not None and await self.storage.banned(player):
            raise WebError("banned", "forbidden")

    async def create(self, settings: TableSettings, player: str | None = None, table_id: str | None = None) -> Created:
        """Create a table from validated settings (made by ``player``; with the id ``table_id`` if given)."""
        session, tokens, watch = new_table(self.context, settings, player, table_id)
        lease = None if self.cluster is None else self.cluster.node
        await self.storage.create_table(TableRow(session.table_id, session.meta(), session.created), lease=lease)
        self.tables[session.table_id] = session
        if self.cluster is not None:
            self.cluster.publish({"k": "new", "t": session.table_id, "n": self.cluster.node})
        async with session.lock:
            await session.start_when_seated()
        session.start_driver()
        return Created(session, tokens, watch)

    def get(self, table_id: object) -> TableSession:
        session = self.tables.get(table_id) if isinstance(table_id, str) else None
        if session is None:
            raise WebError("no_table", "not_found")
        return session

    async def find(self, table_id: object) -> TableSession:
        """A table by id; in a cluster, one another node made and this one has not heard of yet is loaded."""
        if not isinstance(table_id, str):
            raise WebError("no_table", "not_found")
        session = self.tables.get(table_id)
        if session is None and self.cluster is not None and len(table_id) <= 64:
            session = await self._load(table_id)
        if session is None:
            raise WebError("no_table", "not_found")
        return session

    async def _load(self, table_id: str) -> TableSession | None:
        """Load one table from storage, once even when many ask at the same moment."""
        loading = self._loading.get(table_id)
        if loading is None:

            async def load() -> TableSession | None:
                try:
                    row = await self.storage.load_table(table_id)
                    return None if row is None else await self._restore(row)
                finally:
                    self._loading.pop(table_id, None)

            loading = self._loading[table_id] = asyncio.get_running_loop().create_task(load())
        return await asyncio.shield(loading)

    async def visible(
        self, table_id: object, watch: str | None, token: str | None, player: str | None = None
    ) -> TableSession:
        """A table's public info is for everyone if it is listed, else only for its players and with its watch link
        or a seat link."""
        session = await self.find(table_id)
        if session.behind:
            await session.catch_up()
        if session.private and not (
            session.may_watch(watch)
            or (token and session.seat_for_token(token) is not None)
            or session.seat_of_player(player) is not None
        ):
            raise WebError("no_table", "not_found")
        return session

    async def join(self, table_id: object, seat: object, name: object, player: str | None = None) -> tuple[int, str]:
        """Take a bot seat of a listed table between hands; returns the seat and its new token."""
        session = await self.find(table_id)
        await self.refuse_banned(player)
        return await session.join(seat, name, player)

    async def list_tables(self) -> list[TableInfo]:
        """Listed tables still open or in play, newest first (no cards, no tokens)."""
        if self.cluster is not None and isinstance(self.storage, PostgresStorage):
            # a table another process made a moment ago may not have been announced here yet
            unknown = [
                table_id
                for table_id in await self.storage.recent_tables(MAX_TABLES_LISTED)
                if table_id not in self.tables
            ]
            await asyncio.gather(*(self._load(table_id) for table_id in unknown))
        behind = [
            session
            for session in self.tables.values()
            if session.behind and session.status != "over" and session.listed
        ]
        if behind:
            await asyncio.gather(*(session.catch_up() for session in behind))
        now = time.monotonic()
        listed = [session for session in self.tables.values() if session.status != "over" and session.listed]
        listed.sort(key=lambda session: session.created, reverse=True)
        return [session.public_info(now) for session in listed[:MAX_TABLES_LISTED]]

    # -- the cluster's calls (dehla.web.cluster.ClusterHost) -----------------------------------

    def hear(self, payload: dict[str, object]) -> None:
        table_id = payload.get("t")
        if not isinstance(table_id, str):
            return
        session = self.tables.get(table_id)
        if payload.get("k") == "log":
            # a log entry, committed: the session checks it when it applies it (``log.upgrade_entry``)
            seq, entry = payload.get("s", 0), payload.get("e")
            if session is not None and isinstance(seq, int):
                session.poke(seq, entry if isinstance(entry, dict) else None)
            return
        try:
            heard = read_note(payload)
        except DehlaError as error:
            log.error("a note on the channel is not understood: %s", error)
            return
        kind = heard["note"]["k"]
        if self.cluster is not None and heard["n"] == self.cluster.node:
            if session is not None:
                session.heard_own(heard)  # our own message, back in the channel's order
            return
        if kind == "new":
            if session is None:
                task = asyncio.get_running_loop().create_task(self._load(table_id))
                self._announced.add(task)  # kept until done (the loop holds tasks only weakly)
                task.add_done_callback(self._announced.discard)
        elif session is not None:
            session.hear(heard)

    async def run_leases(self, held: set[str]) -> None:
        for table_id in held:
            session = self.tables.get(table_id) or await self._load(table_id)
            if session is None or session.driving:
                continue
            await session.catch_up()  # the last owner may have written more than we heard
            await self._keep_finished(session)  # ... or died before keeping a finished match
            session.start_driver()
            if self.cluster is not None:
                # who is connected where: every node with windows on the table answers
                self.cluster.publish({"k": "ask", "t": table_id, "n": self.cluster.node})
        for session in self.tables.values():
            if session.driving and session.table_id not in held:
                await session.stop_driver()

    def forget_nodes(self, live: set[str]) -> None:
        for session in self.tables.values():
            session.forget_nodes(live)

    def resync(self) -> None:
        for session in self.tables.values():
            session.poke(session.seq)
