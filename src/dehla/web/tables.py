"""The lobby: every table of a server, made from validated settings, resumed from storage, listed and joined.

``TableService`` is a thin facade so that the ASGI app stays simple: settings
are validated by ``dehla.web.settings``, each table runs as a
``dehla.web.session.TableSession`` (seats, timers, bots, chat), its log is
``dehla.web.log``, and the sockets are ``dehla.web.transport``.
"""

from __future__ import annotations

import logging
import random
import time
from typing import Any

from dehla.errors import DehlaError
from dehla.web.messages import WebError
from dehla.web.session import SessionContext, TableSession, hash_token
from dehla.web.settings import DEFAULT_BOT_DELAY, DEFAULT_TRICK_PAUSE, default_bot, parse_table_request
from dehla.web.storage import Storage, TableRow

__all__ = ["TableService", "Created", "default_bot", "hash_token", "MAX_TABLES_LISTED"]

log = logging.getLogger("dehla.web")

MAX_TABLES_LISTED = 200


class Created:
    """A new table and the secrets only its creator receives: every person seat's token and the watch token."""

    def __init__(self, session: TableSession, tokens: dict[int, str], watch_token: str) -> None:
        self.session = session
        self.tokens = tokens
        self.watch_token = watch_token

    def to_json(self) -> dict[str, Any]:
        session = self.session
        me = session.host
        answer: dict[str, Any] = {
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
    ) -> None:
        self.storage = storage
        self.context = SessionContext(storage, bot_delay, hand_pause, rng or random.SystemRandom())
        self.trick_pause = trick_pause
        self.tables: dict[str, TableSession] = {}
        self.started = False

    async def start(self) -> None:
        """Open storage and resume every table from its log."""
        await self.storage.open()
        for row in await self.storage.load_tables():
            try:
                session = await TableSession.restore(self.context, row, self.trick_pause)
            except (DehlaError, KeyError, TypeError, ValueError) as error:
                log.error("table %s cannot be restored: %s", row.table_id, error)
                continue
            self.tables[session.table_id] = session
            session.start_driver()
        self.started = True

    async def stop(self) -> None:
        for session in self.tables.values():
            await session.stop_driver()
        await self.storage.close()
        self.started = False

    async def create_table(self, spec: object) -> Created:
        """Create a table from the lobby's request (refused with a ``WebError`` naming the field)."""
        settings = parse_table_request(spec, self.trick_pause)
        session, tokens, watch = TableSession.new(self.context, settings)
        await self.storage.create_table(TableRow(session.table_id, session.meta(), session.created))
        self.tables[session.table_id] = session
        async with session.lock:
            if all(info.kind == "bot" or info.claimed for info in session.seats):
                await session.start_match()
        session.start_driver()
        return Created(session, tokens, watch)

    def get(self, table_id: object) -> TableSession:
        session = self.tables.get(table_id) if isinstance(table_id, str) else None
        if session is None:
            raise WebError("no_table", "not_found")
        return session

    def visible(self, table_id: object, watch: str | None, token: str | None) -> TableSession:
        """A table's public info is for everyone if it is listed, else only with its watch link or a seat link."""
        session = self.get(table_id)
        if session.private and not (session.may_watch(watch) or (token and session.seat_for_token(token) is not None)):
            raise WebError("no_table", "not_found")
        return session

    async def join(self, table_id: object, seat: object, name: object) -> tuple[int, str]:
        """Take a bot seat of a listed table between hands; returns the seat and its new token."""
        return await self.get(table_id).join(seat, name)

    def list_tables(self) -> list[dict[str, Any]]:
        """Listed tables still open or in play, newest first (no cards, no tokens)."""
        now = time.monotonic()
        listed = [session for session in self.tables.values() if session.status != "over" and session.listed]
        listed.sort(key=lambda session: session.created, reverse=True)
        return [session.public_info(now) for session in listed[:MAX_TABLES_LISTED]]
