"""The daily duplicate (``dehla.web.daily``): a day and its leaderboard, the archive of days, playing a deal, and
a finished game's replay."""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from dehla.web.endpoints.common import body, error, shared
from dehla.web.endpoints.finished import FinishedGames
from dehla.web.messages import WebError
from dehla.web.players import player_of

__all__ = ["today", "day", "days", "play", "GAMES"]


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
    """The daily game's record, if the asker may see it (``DailyService.game``)."""
    params = request.path_params
    return await shared(request).daily.game(str(params["day"]), str(params["table_id"]), player_of(request.scope))


#: A daily game's replay, record and analysis, as a finished match's (a daily game is its table's one match):
#: ``/api/daily/DAY/games/TABLE/...``.
GAMES = FinishedGames(
    _record,
    lambda request: f"dehla-daily-{request.path_params['day']}-{request.path_params['table_id']}.json",
    lambda request: (str(request.path_params["table_id"]), 1),
)
