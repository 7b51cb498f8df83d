"""A finished game's replay, record download and solver's analysis, written once for every route that shows one
(a match of the history, a game of the daily duplicate): each route only says how it finds the record, whom it
shows it to, and under which key the analysis service keeps its work."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from dehla.record import replay, replay_json
from dehla.web.endpoints.common import asker, error, shared, unless_gone
from dehla.web.messages import WebError

__all__ = ["Finder", "replay_answer", "record_answer", "analysis_answer", "progress_answer"]

#: How a route finds the ``dehla-record/1`` record it shows (raising ``WebError`` for one it may not show).
Finder = Callable[[Request], Awaitable[Mapping[str, object]]]


async def replay_answer(request: Request, find: Finder) -> Response:
    """The record and its replay (``dehla replay --json``'s form), for the replay page."""
    try:
        data = await find(request)
    except WebError as refusal:
        return error(refusal)
    return JSONResponse({"record": data, "replay": replay_json(replay(data))})


async def record_answer(request: Request, find: Finder, name: str) -> Response:
    """The record as a download named ``name``."""
    try:
        data = await find(request)
    except WebError as refusal:
        return error(refusal)
    return Response(
        json.dumps(data, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


async def analysis_answer(request: Request, find: Finder, table_id: str, match_no: int) -> Response:
    """The solver's analysis of the route's hand, within the analysis service's limits (kept under ``table_id``
    and ``match_no``); nothing if the page went away."""
    try:
        data = await find(request)
        hand = request.path_params["hand"]
        hands = data.get("hands")
        count = len(hands) if isinstance(hands, list) else 0
        if not 0 <= hand < count:
            raise WebError("no_hand", "not_found", max=count - 1)
        work = shared(request).analyses.hand(table_id, match_no, data, hand, asker(request))
        result = await unless_gone(request, work)
    except WebError as refusal:
        return error(refusal)
    if result is None:  # the page went away: nobody reads the answer
        return Response(status_code=499)
    return JSONResponse(result)


def progress_answer(request: Request, table_id: str, match_no: int) -> Response:
    """How far the solver is with the route's hand: ``{"done": n, "total": m, "preparing": p}`` (zeros when idle;
    ``preparing`` while the analysis waits for the solver's first compile after an install)."""
    found = shared(request)
    progress = found.analyses.progress(table_id, match_no, request.path_params["hand"])
    if progress is None:
        return JSONResponse({"done": 0, "total": 0, "preparing": False})
    # the worker says so once it waits; before it has started, the compile the server started is the answer
    preparing = progress["preparing"] or (not progress["total"] and found.preparation.preparing)
    return JSONResponse({**progress, "preparing": preparing})
