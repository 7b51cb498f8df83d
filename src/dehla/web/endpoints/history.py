"""Finished matches: the history, replays, records and the solver's analysis, each shown only to whoever may see
the match (``dehla.web.visibility``)."""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from dehla.record import replay, replay_json
from dehla.web.endpoints.common import asker, error, shared, unless_gone, viewer
from dehla.web.messages import WebError
from dehla.web.players import player_of
from dehla.web.storage import FinishedMatch
from dehla.web.visibility import Audience

__all__ = ["history", "record", "replay_view", "analysis_view", "analysis_progress", "audience_of"]


def audience_of(finished: FinishedMatch) -> Audience:
    return Audience(finished.listed, frozenset(finished.players), frozenset(finished.hashes))


async def history(request: Request) -> Response:
    """The finished matches this viewer may see: those of listed tables and their own."""
    finished = await shared(request).storage.list_finished(player_of(request.scope))
    return JSONResponse(
        {
            "matches": [
                {
                    "table": item.table_id,
                    "match_no": item.match_no,
                    "finished": item.finished,
                    "listed": item.listed,
                    **item.summary,
                }
                for item in finished
            ]
        }
    )


async def _finished(request: Request) -> FinishedMatch:
    """A finished match this viewer may see; one they may not is as missing as no match."""
    found = await shared(request).storage.get_finished(request.path_params["table_id"], request.path_params["match_no"])
    if found is None or not audience_of(found).admits(viewer(request)):
        raise WebError("no_finished_match", "not_found")
    return found


async def record(request: Request) -> Response:
    try:
        data = (await _finished(request)).record
    except WebError as refusal:
        return error(refusal)
    name = f"dehla-{request.path_params['table_id']}-{request.path_params['match_no']}.json"
    return Response(
        json.dumps(data, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


async def replay_view(request: Request) -> Response:
    try:
        data = (await _finished(request)).record
    except WebError as refusal:
        return error(refusal)
    return JSONResponse({"record": data, "replay": replay_json(replay(data))})


async def analysis_view(request: Request) -> Response:
    """The solver's analysis of one hand, within the analysis service's limits; nothing if the page went away."""
    try:
        data = (await _finished(request)).record
        hand = request.path_params["hand"]
        hands = data.get("hands", [])
        count = len(hands) if isinstance(hands, list) else 0
        if not 0 <= hand < count:
            raise WebError("no_hand", "not_found", max=count - 1)
        result = await unless_gone(
            request,
            shared(request).analyses.hand(
                request.path_params["table_id"], request.path_params["match_no"], data, hand, asker(request)
            ),
        )
    except WebError as refusal:
        return error(refusal)
    if result is None:  # the page went away: nobody reads the answer
        return Response(status_code=499)
    return JSONResponse(result)


async def analysis_progress(request: Request) -> Response:
    """How far the solver is with a hand it is analysing now: ``{"done": n, "total": m, "preparing": p}`` (zeros
    when idle; ``preparing`` while the analysis waits for the solver's first compile after an install)."""
    params = request.path_params
    found = shared(request)
    progress = found.analyses.progress(params["table_id"], params["match_no"], params["hand"])
    if progress is None:
        return JSONResponse({"done": 0, "total": 0, "preparing": False})
    # the worker says so once it waits; before it has started, the compile the server started is the answer
    preparing = progress["preparing"] or (not progress["total"] and found.preparation.preparing)
    return JSONResponse({**progress, "preparing": preparing})
