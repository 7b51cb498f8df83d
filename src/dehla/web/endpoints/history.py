"""Finished matches: the history, replays, records and the solver's analysis, each shown only to whoever may see
the match (``dehla.web.visibility``)."""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from dehla.web.endpoints.common import shared, viewer
from dehla.web.endpoints.finished import FinishedGames
from dehla.web.messages import WebError
from dehla.web.players import player_of
from dehla.web.storage import FinishedMatch
from dehla.web.visibility import Audience

__all__ = ["history", "MATCHES", "audience_of"]


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


async def _record(request: Request) -> Mapping[str, object]:
    """The record of a finished match this viewer may see; one they may not is as missing as no match."""
    found = await shared(request).storage.get_finished(request.path_params["table_id"], request.path_params["match_no"])
    if found is None or not audience_of(found).admits(viewer(request)):
        raise WebError("no_finished_match", "not_found")
    return found.record


#: A finished match's replay, record and analysis: ``/api/history/TABLE/MATCH/...``.
MATCHES = FinishedGames(
    _record,
    lambda request: f"dehla-{request.path_params['table_id']}-{request.path_params['match_no']}.json",
    lambda request: (str(request.path_params["table_id"]), int(request.path_params["match_no"])),
)
