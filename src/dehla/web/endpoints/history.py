"""Finished matches: the history, replays, records and the solver's analysis, each shown only to whoever may see
the match (``dehla.web.visibility``)."""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from dehla.web.endpoints.common import shared, viewer
from dehla.web.endpoints.finished import analysis_answer, progress_answer, record_answer, replay_answer
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


async def _record_of(request: Request) -> Mapping[str, object]:
    return (await _finished(request)).record


async def record(request: Request) -> Response:
    """``GET /api/history/TABLE/MATCH/record``: the match's ``dehla-record/1`` record, as a download."""
    name = f"dehla-{request.path_params['table_id']}-{request.path_params['match_no']}.json"
    return await record_answer(request, _record_of, name)


async def replay_view(request: Request) -> Response:
    """``GET /api/history/TABLE/MATCH/replay``: the record and its replay, for the replay page."""
    return await replay_answer(request, _record_of)


async def analysis_view(request: Request) -> Response:
    """``GET /api/history/TABLE/MATCH/analysis/H``: the solver's analysis of one hand."""
    params = request.path_params
    return await analysis_answer(request, _record_of, params["table_id"], params["match_no"])


async def analysis_progress(request: Request) -> Response:
    """``GET /api/history/TABLE/MATCH/analysis/H/progress``: how far the solver is with that hand."""
    return progress_answer(request, request.path_params["table_id"], request.path_params["match_no"])
