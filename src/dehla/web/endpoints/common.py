"""What every endpoint shares: the server's objects on the application's state, refusals, request bodies, who asks."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse

from dehla.web.analysis import AnalysisService
from dehla.web.botpool import SolverPreparation
from dehla.web.daily import DailyService
from dehla.web.messages import WebError, register
from dehla.web.players import Identities, Viewer, player_of
from dehla.web.queue import Matchmaker
from dehla.web.storage import Storage
from dehla.web.tables import TableService

if TYPE_CHECKING:
    from collections.abc import Awaitable

__all__ = [
    "Shared",
    "shared",
    "error",
    "body",
    "viewer",
    "asker",
    "unless_gone",
    "MAX_BODY_BYTES",
    "DISCONNECT_POLL",
    "ServerOptions",
]

T = TypeVar("T")

MAX_BODY_BYTES = 16_384
#: How often a waiting request checks that its client is still there, in seconds.
DISCONNECT_POLL = 0.5

register(
    {
        "body_too_large": "The request is too large (at most {max} bytes).",
        "bad_json": "The request body is not valid JSON.",
        "join_body": "Send the seat to take and your name.",
        "no_language": "There is no such language.",
        "no_finished_match": "There is no such finished match.",
        "no_hand": "This match has hands 0 to {max}.",
        "bad_request": "This request cannot be used.",
        "not_found": "There is nothing here.",
    }
)


@dataclass(frozen=True)
class ServerOptions:
    """The options endpoints read: the socket's limits and the other origins allowed to open sockets."""

    allowed_origins: tuple[str, ...]
    rate: float
    burst: float
    kick_after: int


@dataclass(frozen=True)
class Shared:
    """The objects of one server that its endpoints use (kept on ``app.state.shared``)."""

    storage: Storage
    service: TableService
    analyses: AnalysisService
    preparation: SolverPreparation
    identities: Identities
    matchmaker: Matchmaker
    options: ServerOptions
    #: The daily duplicate (``dehla.web.daily``).
    daily: DailyService


def shared(connection: HTTPConnection) -> Shared:
    """The server's shared objects, from a request's or a socket's application."""
    found = connection.app.state.shared
    assert isinstance(found, Shared)
    return found


def error(refusal: WebError) -> JSONResponse:
    """A refusal: its HTTP status comes from its kind, its body is code, params and the English text; a busy server
    says when to come back (``Retry-After``, the ``n`` seconds of its params)."""
    headers = {"Retry-After": str(refusal.params["n"])} if refusal.kind == "busy" and "n" in refusal.params else None
    return JSONResponse(refusal.to_json(), status_code=refusal.status, headers=headers)


async def body(request: Request) -> object:
    """The request's JSON body, not yet checked (``{}`` when empty)."""
    size = 0
    chunks = []
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise WebError("body_too_large", max=MAX_BODY_BYTES)
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks) or b"{}")
    except (ValueError, RecursionError):
        raise WebError("bad_json") from None


def viewer(request: Request) -> Viewer:
    """Who asks: their player (cookie) and the seat or watch link tokens the request carries."""
    tokens = tuple(value for name in ("watch", "token") if (value := request.query_params.get(name)))
    return Viewer(player_of(request.scope), tokens)


def asker(request: Request) -> str:
    """Whom a limit counts: the player, or the address of a client without one."""
    player = player_of(request.scope)
    if player is not None:
        return "player:" + player
    return "address:" + (request.client.host if request.client else "")


async def unless_gone(request: Request, work: Awaitable[T]) -> T | None:
    """``work``'s answer, or ``None`` (and ``work`` cancelled) if the client goes away first."""
    task = asyncio.ensure_future(work)
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=DISCONNECT_POLL)
            if done:
                return task.result()
            if await request.is_disconnected():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                return None
    except BaseException:
        task.cancel()
        raise
