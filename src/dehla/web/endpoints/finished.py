"""A finished game's replay, record download and solver's analysis, written once for every place that shows one
(a match of the history, a game of the daily duplicate): each place only says how it finds the record (and whom
it shows it to), what the download is called, and under which key the analysis service keeps its work."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from dehla.record import replay, replay_json
from dehla.web.endpoints.common import asker, error, shared, unless_gone
from dehla.web.messages import WebError

__all__ = ["Finder", "FinishedGames"]

#: How a route finds the ``dehla-record/1`` record it shows (raising ``WebError`` for one it may not show).
Finder = Callable[[Request], Awaitable[Mapping[str, object]]]


@dataclass(frozen=True)
class FinishedGames:
    """The routes of the finished games under one URL: ``BASE/replay``, ``BASE/record``, ``BASE/analysis/H`` and
    ``BASE/analysis/H/progress``, each finding its game from the request's path."""

    #: The game's record (``WebError`` for one the asker may not see).
    find: Finder
    #: The record download's file name.
    file_name: Callable[[Request], str]
    #: The table and match number the analysis service keeps the game's work under.
    key: Callable[[Request], tuple[str, int]]

    def routes(self, base: str) -> list[Route]:
        """The four routes under ``base``."""
        return [
            Route(base + "/replay", self.replay),
            Route(base + "/record", self.record),
            Route(base + "/analysis/{hand:int}", self.analysis),
            Route(base + "/analysis/{hand:int}/progress", self.progress),
        ]

    async def replay(self, request: Request) -> Response:
        """``BASE/replay``: the record and its replay (``dehla replay --json``'s form), for the replay page."""
        try:
            data = await self.find(request)
        except WebError as refusal:
            return error(refusal)
        return JSONResponse({"record": data, "replay": replay_json(replay(data))})

    async def record(self, request: Request) -> Response:
        """``BASE/record``: the record, as a download."""
        try:
            data = await self.find(request)
        except WebError as refusal:
            return error(refusal)
        return Response(
            json.dumps(data, ensure_ascii=False, indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{self.file_name(request)}"'},
        )

    async def analysis(self, request: Request) -> Response:
        """``BASE/analysis/H``: the solver's analysis of hand ``H``, within the analysis service's limits; nothing
        if the page went away."""
        try:
            data = await self.find(request)
            hand = request.path_params["hand"]
            hands = data.get("hands")
            count = len(hands) if isinstance(hands, list) else 0
            if not 0 <= hand < count:
                raise WebError("no_hand", "not_found", max=count - 1)
            work = shared(request).analyses.hand(*self.key(request), data, hand, asker(request))
            result = await unless_gone(request, work)
        except WebError as refusal:
            return error(refusal)
        if result is None:  # the page went away: nobody reads the answer
            return Response(status_code=499)
        return JSONResponse(result)

    async def progress(self, request: Request) -> Response:
        """``BASE/analysis/H/progress``: how far the solver is with hand ``H``: ``{"done": n, "total": m,
        "preparing": p}`` (zeros when idle; ``preparing`` while the analysis waits for the solver's first compile
        after an install)."""
        found = shared(request)
        progress = found.analyses.progress(*self.key(request), request.path_params["hand"])
        if progress is None:
            return JSONResponse({"done": 0, "total": 0, "preparing": False})
        # the worker says so once it waits; before it has started, the compile the server started is the answer
        preparing = progress["preparing"] or (not progress["total"] and found.preparation.preparing)
        return JSONResponse({**progress, "preparing": preparing})
