"""The asking player's own: their finished matches (private ones included), statistics per family, their records."""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from dehla.web.endpoints.common import shared
from dehla.web.players import player_of
from dehla.web.yours import family_stats, my_matches

__all__ = ["my_games", "my_records"]


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
    return Response(json.dumps(records, ensure_ascii=False, indent=1), media_type="application/json",
                    headers={"Content-Disposition": 'attachment; filename="dehla-my-records.json"'})
