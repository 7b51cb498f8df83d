"""The transport: one WebSocket per client, its outbox, the Origin check, rate limits and refusals on the wire.

The socket handler reads messages, validates them (``dehla.web.protocol``) and
hands them to the table's session; a refusal goes back as ``{"type": "error",
"code", "params", "message"}``.  Everything the session sends goes through a
``Client``'s outbox, drained by its own writer task, so a slow client never
holds up a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket, WebSocketDisconnect

from dehla.web.messages import WebError
from dehla.web.players import player_of
from dehla.web.protocol import ProtocolError, RateLimiter, parse_message
from dehla.web.security import origin_allowed
from dehla.web.table.views import error_message

if TYPE_CHECKING:
    from dehla.web.tables import TableService

__all__ = ["Client", "serve_socket", "CLOSE_FORBIDDEN", "CLOSE_NO_TABLE"]

#: Close codes: a handshake from a page of another origin; no such table (or no right to see it).
CLOSE_FORBIDDEN = 4403
CLOSE_NO_TABLE = 4404


class Client:
    """One WebSocket connection: its seat (``None`` for a watcher) and an outbox its writer drains.

    A newer full state replaces an older one still waiting in the outbox, so a
    slow client never holds up a table and never falls behind by more than one state.
    """

    MAX_OUTBOX = 64

    def __init__(
        self, send: Callable[[str], Awaitable[None]], close: Callable[[int], Awaitable[None]] | None = None
    ) -> None:
        self.send = send
        self.close = close
        #: Set when the table no longer admits this client: the writer closes the socket after the queue.
        self.closing = False
        self.seat: int | None = None
        #: The player identity of the connection, from its cookie (``dehla.web.players``).
        self.player: str | None = None
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

    def close_after_sending(self) -> None:
        self.closing = True
        self.wake.set()

    def refuse(self, error: WebError) -> None:
        self.push(json.dumps(error_message(error), ensure_ascii=False, separators=(",", ":")))

    async def run_writer(self) -> None:
        """Send queued messages until the connection closes."""
        while not self.closed:
            await self.wake.wait()
            self.wake.clear()
            while self.outbox and not self.closed:
                _, text = self.outbox.popleft()
                await self.send(text)
            if self.closing and not self.closed:
                self.closed = True
                if self.close is not None:
                    await self.close(CLOSE_FORBIDDEN)

    async def flush(self, timeout: float = 1.0) -> None:
        """Give the writer a moment to send what is queued (before the socket is closed)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while self.outbox and not self.closed and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)


async def serve_socket(
    websocket: WebSocket,
    service: TableService,
    allowed_origins: tuple[str, ...],
    rate: float,
    burst: float,
    kick_after: int,
) -> None:
    """Run one table socket: Origin check before accept, then messages until it closes."""
    if not origin_allowed(websocket.headers, allowed_origins):
        await websocket.close(code=CLOSE_FORBIDDEN)
        return
    await websocket.accept()
    try:
        session = await service.find(websocket.path_params["table_id"])
    except WebError as error:
        await websocket.send_text(json.dumps(error_message(error)))
        await websocket.close(code=CLOSE_NO_TABLE)
        return

    async def close(code: int) -> None:
        await websocket.close(code=code)

    client = Client(websocket.send_text, close)
    client.player = player_of(websocket.scope)
    await service.saw(client.player)
    writer = asyncio.create_task(_write(client))
    limiter = RateLimiter(rate, burst)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not limiter.allow():
                if limiter.refused > kick_after:
                    await websocket.close(code=1008)
                    break
                client.refuse(ProtocolError("rate"))
                continue
            kind = ""
            try:
                request = parse_message(message.get("text"))
                kind = request["type"]
                if kind == "ping":
                    client.push('{"type":"pong"}')
                    continue
                await session.handle(client, request)
            except WebError as error:
                client.refuse(error)
                if kind == "hello" and not session.admits(client):
                    # no seat and no right to watch: say why, then close
                    await client.flush()
                    await websocket.close(code=CLOSE_FORBIDDEN)
                    break
    except WebSocketDisconnect:
        pass
    finally:
        client.closed = True
        client.wake.set()
        # The seat must be let go even when this task is being cancelled (the server shutting down, or a
        # test client leaving mid-message): the table's lock may be held across a storage commit, so the
        # leaving is done in a task of its own that a cancellation of this one cannot stop halfway.
        leaving = asyncio.ensure_future(session.disconnect(client))
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.shield(leaving)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _write(client: Client) -> None:
    try:
        await client.run_writer()
    except Exception:
        client.closed = True
