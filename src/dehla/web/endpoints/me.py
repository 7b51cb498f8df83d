"""The asking player's own: their finished matches (private ones included), statistics per family, their records."""

from __future__ import annotations

import json
import time

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from dehla.web.endpoints.common import body, error, shared
from dehla.web.messages import WebError, register
from dehla.web.players import COOKIE, player_of
from dehla.web.settings import clean_name
from dehla.web.tables import ONLINE_FOR
from dehla.web.yours import family_stats, my_matches

__all__ = ["me", "my_games", "my_records", "blocks", "friends", "notices"]

register(
    {
        "no_player": "This browser has no player yet: open the lobby first (it needs cookies).",
        "bad_name": "A name is one line of at most 24 letters, digits or signs.",
        "block_whom": "Say whom to block: a table and a seat where that person sits.",
        "block_nobody": "Nobody with a player sits in that seat.",
        "block_self": "You cannot block yourself.",
        "follow_self": "You cannot follow yourself.",
        "not_a_friend": "Invite someone you follow (from a table you shared).",
    }
)


async def me(request: Request) -> Response:
    """``GET``: the player's display name; ``POST {"name"}``: change it; ``DELETE``: forget the player (their name
    and which matches were theirs) and this browser's identity."""
    player = player_of(request.scope)
    storage = shared(request).storage
    if request.method == "GET":
        name = None if player is None else await storage.player_name(player)
        keys = [] if player is None else await storage.passkeys_of(player)
        return JSONResponse({"player": player is not None, "name": name or "", "passkeys": len(keys)})
    if player is None:
        return error(WebError("no_player", "forbidden"))
    if request.method == "DELETE":
        await storage.delete_player(player)
        response = JSONResponse({"deleted": True})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return response
    try:
        data = await body(request)
        name = clean_name(data.get("name") if isinstance(data, dict) else None, "")
        if not name:
            raise WebError("bad_name")
    except WebError as refusal:
        return error(refusal)
    await storage.set_player_name(player, name)
    return JSONResponse({"player": True, "name": name, "passkeys": len(await storage.passkeys_of(player))})


async def my_games(request: Request) -> Response:
    """``{"matches": [...], "stats": {family: {...}}}``; empty for a request without a player."""
    player = player_of(request.scope)
    found = [] if player is None else await shared(request).storage.player_matches(player)
    return JSONResponse({"matches": my_matches(found), "stats": family_stats(found)})


async def my_records(request: Request) -> Response:
    """Every record of the player's matches, as a JSON list of ``dehla-record/1`` records (a download)."""
    player = player_of(request.scope)
    found = [] if player is None else await shared(request).storage.player_matches(player)
    records = [finished.record for finished, _ in found]
    return Response(
        json.dumps(records, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": 'attachment; filename="dehla-my-records.json"'},
    )


async def _someone(request: Request, player: str, yourself: str) -> tuple[str, str, str] | None:
    """The person a ``POST {"table", "seat"}`` or ``DELETE {"player"}`` about someone names: (what to do, their
    player, the name they sat under); ``None`` for a ``GET``.  Refused if nobody with a player sits there, or if it
    is the asker (``yourself``: that refusal's code)."""
    if request.method == "GET":
        return None
    data = await body(request)
    if request.method == "DELETE":
        if not isinstance(data, dict) or not isinstance(data.get("player"), str):
            raise WebError("block_whom")
        return "remove", data["player"], ""
    if not isinstance(data, dict) or not isinstance(data.get("seat"), int):
        raise WebError("block_whom")
    session = await shared(request).service.find(data.get("table"))
    seat = data["seat"]
    someone = session.seats[seat].player if 0 <= seat < len(session.seats) else None
    if someone is None:
        raise WebError("block_nobody", "not_found")
    if someone == player:
        raise WebError(yourself)
    return "add", someone, session.seats[seat].name


async def blocks(request: Request) -> Response:
    """``GET``: the players this player blocked; ``POST {"table", "seat"}``: block whoever sits there (their chat is
    hidden from you, and Find a game never seats you together); ``DELETE {"player"}``: unblock."""
    player = player_of(request.scope)
    found = shared(request)
    if player is None:
        return error(WebError("no_player", "forbidden"))
    try:
        change = await _someone(request, player, "block_self")
    except WebError as refusal:
        return error(refusal)
    if change is not None:
        what, someone, name = change
        if what == "add":
            await found.storage.block(player, someone, name)
        else:
            await found.storage.unblock(player, someone)
    listed = await found.storage.blocked_by(player)
    found.service.blocks_changed(player, frozenset(listed))
    return JSONResponse({"blocks": [{"player": blocked, "name": name} for blocked, name in sorted(listed.items())]})


async def friends(request: Request) -> Response:
    """``GET``: the players this player follows, each ``online`` if seen in the last ``ONLINE_FOR`` seconds;
    ``POST {"table", "seat"}``: follow whoever sits there; ``DELETE {"player"}``: stop following."""
    player = player_of(request.scope)
    found = shared(request)
    if player is None:
        return error(WebError("no_player", "forbidden"))
    try:
        change = await _someone(request, player, "follow_self")
    except WebError as refusal:
        return error(refusal)
    if change is not None:
        what, someone, name = change
        if what == "add":
            await found.storage.follow(player, someone, name)
        else:
            await found.storage.unfollow(player, someone)
    await found.service.saw(player)
    now = time.time()
    return JSONResponse(
        {
            "friends": [
                {"player": friend, "name": name, "online": seen is not None and now - seen < ONLINE_FOR}
                for friend, name, seen in await found.storage.friends(player)
            ]
        }
    )


async def notices(request: Request) -> Response:
    """``GET``: the player's invitations to tables (newest first); ``DELETE {"id"}``: dismiss one."""
    player = player_of(request.scope)
    found = shared(request)
    if player is None:
        return JSONResponse({"notices": []})
    if request.method == "DELETE":
        data = await body(request)
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            await found.storage.dismiss(player, data["id"])
    return JSONResponse(
        {
            "notices": [
                {"id": notice, "at": at, "table": table_id, "seat": seat, "from": sender}
                for notice, at, table_id, seat, sender in await found.storage.notices(player)
            ]
        }
    )
