"""The lobby's API and the table sockets: list, create, look at and join tables; check rules; keep score."""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket

from dehla.errors import DehlaError
from dehla.rules import parse_rules
from dehla.web.endpoints.common import body, error, shared
from dehla.web.messages import WebError
from dehla.web.players import player_of
from dehla.web.scorekeeper import score_hands
from dehla.web.transport import serve_socket

__all__ = ["tables", "table_info", "join", "invite_friend", "scorekeeper", "rules_check", "socket"]


async def tables(request: Request) -> Response:
    """``GET``: the listed tables; ``POST``: a new table made by the asking player."""
    service = shared(request).service
    if request.method == "GET":
        return JSONResponse({"tables": await service.list_tables()})
    try:
        created = await service.create_table(await body(request), player_of(request.scope))
    except WebError as refusal:
        return error(refusal)
    return JSONResponse(created.to_json(), status_code=201)


async def table_info(request: Request) -> Response:
    try:
        session = await shared(request).service.visible(
            request.path_params["table_id"],
            request.query_params.get("watch"),
            request.query_params.get("token"),
            player_of(request.scope),
        )
    except WebError as refusal:
        return error(refusal)
    return JSONResponse(session.public_info(time.monotonic()))


async def join(request: Request) -> Response:
    try:
        data = await body(request)
        if not isinstance(data, dict):
            raise WebError("join_body")
        seat, token = await shared(request).service.join(
            request.path_params["table_id"], data.get("seat"), data.get("name"), player_of(request.scope)
        )
    except WebError as refusal:
        return error(refusal)
    return JSONResponse({"token": token, "seat": seat})


async def invite_friend(request: Request) -> Response:
    """``POST {"friend", "seat"}``: the host keeps a seat for a player they follow, who is told in their lobby."""
    found = shared(request)
    host = player_of(request.scope)
    try:
        data = await body(request)
        if host is None:
            raise WebError("no_player", "forbidden")
        if not isinstance(data, dict):
            raise WebError("not_a_friend")
        friends = {friend: name for friend, name, _ in await found.storage.friends(host)}
        friend = data.get("friend")
        if not isinstance(friend, str) or friend not in friends:
            raise WebError("not_a_friend")
        sender = await found.storage.player_name(host) or ""
        await found.service.invite_friend(
            request.path_params["table_id"], host, data.get("seat"), friend, friends[friend], sender
        )
    except WebError as refusal:
        return error(refusal)
    return JSONResponse({"ok": True})


async def scorekeeper(request: Request) -> Response:
    try:
        return JSONResponse(score_hands(await body(request)))
    except WebError as refusal:
        return error(refusal)
    except DehlaError as problem:
        return error(WebError("bad_request", detail=str(problem)))


async def rules_check(request: Request) -> Response:
    try:
        rules = parse_rules(await body(request))
    except WebError as refusal:
        return error(refusal)
    except DehlaError as problem:
        return error(WebError("bad_rules", detail=str(problem)))
    return JSONResponse({"rules": rules.to_json(), "options": rules.options()})


async def socket(websocket: WebSocket) -> None:
    found = shared(websocket)
    options = found.options
    await serve_socket(
        websocket, found.service, options.allowed_origins, options.rate, options.burst, options.kick_after
    )
