"""Find a game (``dehla.web.queue``): how many wait, join a queue, leave it, or fill the empty seats with bots."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from dehla.web.endpoints.common import body, error, shared
from dehla.web.messages import WebError
from dehla.web.players import player_of
from dehla.web.settings import clean_name

__all__ = ["queue", "queue_bots"]


async def queue(request: Request) -> Response:
    """``GET``: every queue's count and the player's place; ``POST {"preset", "target"?, "rated"?, "name"?}``:
    wait in that queue; ``DELETE``: stop waiting."""
    found = shared(request)
    player = player_of(request.scope)
    if request.method == "GET":
        await found.service.saw(player)  # the lobby asks every few seconds: the player is online
        return JSONResponse(await found.matchmaker.status(player))
    if player is None:
        return error(WebError("no_player", "forbidden"))
    if request.method == "DELETE":
        await found.matchmaker.leave(player)
        return JSONResponse(await found.matchmaker.status(player))
    try:
        data = await body(request)
        name = clean_name(
            data.get("name") if isinstance(data, dict) else None, await found.storage.player_name(player) or ""
        )
        return JSONResponse(await found.matchmaker.join(player, name, data))
    except WebError as refusal:
        return error(refusal)


async def queue_bots(request: Request) -> Response:
    """``POST``: seat the waiting player now, bots in the seats nobody waits for."""
    found = shared(request)
    player = player_of(request.scope)
    if player is None:
        return error(WebError("no_player", "forbidden"))
    try:
        return JSONResponse(await found.matchmaker.with_bots(player))
    except WebError as refusal:
        return error(refusal)
