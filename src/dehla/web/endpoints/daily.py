"""The daily duplicate (``dehla.web.daily``): a day and its leaderboard, the archive of days, playing a deal, and
a finished game's replay."""

from __future__ import annotations

import json
from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from dehla.record import replay, replay_json
from dehla.web.endpoints.common import asker, body, error, shared, unless_gone
from dehla.web.messages import WebError
from dehla.web.players import player_of

__all__ = ["today", "day", "days", "play", "game_replay", "game_record", "game_analysis", "game_analysis_progress"]


async def today(request: Request) -> Response:
    """``GET /api/daily``: today's deals, the asker's games, the commitment and the leaderboard so far."""
    return JSONResponse(await shared(request).daily.day(None, player_of(request.scope)))


async def day(request: Request) -> Response:
    """``GET /api/daily/DAY``: a day (today or before; its seed once it is over)."""
    try:
        answer = await shared(request).daily.day(str(request.path_params["day"]), player_of(request.scope))
    except WebError as refusal:
        return error(refusal)
    return JSONResponse(answer)


async def days(request: Request) -> Response:
    """``GET /api/daily/days``: the days before today, newest first, with their revealed seeds."""
    return JSONResponse({"days": await shared(request).daily.days()})


async def play(request: Request) -> Response:
    """``POST /api/daily/play {"deal", "name"?}``: the table of the asker's game of today's deal (0-based)."""
    try:
        data = await body(request)
        if not isinstance(data, dict):
            raise WebError("bad_request")
        table = await shared(request).daily.play(player_of(request.scope), data.get("name"), data.get("deal"))
    except WebError as refusal:
        return error(refusal)
    return JSONResponse({"table": table})


async def _record(request: Request) -> Mapping[str, object]:
    params = request.path_params
    return await shared(request).daily.game(str(params["day"]), str(params["table_id"]), player_of(request.scope))


async def game_replay(request: Request) -> Response:
    """``GET /api/daily/DAY/games/TABLE/replay``: as ``/api/history/.../replay``, for the replay page."""
    try:
        data = await _record(request)
    except WebError as refusal:
        return error(refusal)
    return JSONResponse({"record": data, "replay": replay_json(replay(data))})


async def game_record(request: Request) -> Response:
    """``GET /api/daily/DAY/games/TABLE/record``: the game's ``dehla-record/1`` record, as a download."""
    try:
        data = await _record(request)
    except WebError as refusal:
        return error(refusal)
    name = f"dehla-daily-{request.path_params['day']}-{request.path_params['table_id']}.json"
    return Response(
        json.dumps(data, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


async def game_analysis(request: Request) -> Response:
    """``GET /api/daily/DAY/games/TABLE/analysis/H``: the solver's analysis of the game's hand, as for a finished
    match of the history (the same service and limits)."""
    try:
        data = await _record(request)
        hands = data.get("hands")
        count = len(hands) if isinstance(hands, list) else 0
        hand = request.path_params["hand"]
        if not 0 <= hand < count:
            raise WebError("no_hand", "not_found", max=count - 1)
        table_id = str(request.path_params["table_id"])
        work = shared(request).analyses.hand(table_id, 1, data, hand, asker(request))
        result = await unless_gone(request, work)
    except WebError as refusal:
        return error(refusal)
    if result is None:  # the page went away: nobody reads the answer
        return Response(status_code=499)
    return JSONResponse(result)


async def game_analysis_progress(request: Request) -> Response:
    """``GET /api/daily/DAY/games/TABLE/analysis/H/progress``: as the history's."""
    found = shared(request)
    progress = found.analyses.progress(str(request.path_params["table_id"]), 1, request.path_params["hand"])
    if progress is None:
        return JSONResponse({"done": 0, "total": 0, "preparing": False})
    preparing = progress["preparing"] or (not progress["total"] and found.preparation.preparing)
    return JSONResponse({**progress, "preparing": preparing})
