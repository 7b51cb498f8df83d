"""Ratings: a family's leaderboard, and the asking player's ratings over time (``dehla.web.ratings``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from dehla.web.endpoints.common import error, shared
from dehla.web.messages import WebError, register
from dehla.web.players import player_of
from dehla.web.ratings import PROVISIONAL_MATCHES, Rating, ordinal

__all__ = ["leaderboard", "my_ratings", "FAMILIES"]

FAMILIES = ("pagat", "taash", "mendikot")

register({"no_family": "There is no such game: choose pagat, taash or mendikot."})


async def leaderboard(request: Request) -> Response:
    """The family's rated players, best first, each with ``provisional`` while under ``PROVISIONAL_MATCHES``."""
    family = str(request.path_params["family"])
    if family not in FAMILIES:
        return error(WebError("no_family", "not_found"))
    rows = await shared(request).storage.leaderboard(family)
    you = player_of(request.scope)
    return JSONResponse(
        {
            "family": family,
            "provisional_matches": PROVISIONAL_MATCHES,
            "players": [
                {
                    "name": name,
                    "rating": round(ordinal(Rating(mu, sigma, matches)), 2),
                    "mu": round(mu, 2),
                    "sigma": round(sigma, 2),
                    "matches": matches,
                    "provisional": matches < PROVISIONAL_MATCHES,
                    "you": player == you,
                }
                for player, name, mu, sigma, matches in rows
            ],
        }
    )


async def my_ratings(request: Request) -> Response:
    """``{family: [{"at", "rating", "mu", "sigma"}, ...]}``: the player's rating after each rated match."""
    player = player_of(request.scope)
    history: dict[str, list[dict[str, float]]] = {}
    for family, at, mu, sigma in [] if player is None else await shared(request).storage.rating_history(player):
        history.setdefault(family, []).append(
            {"at": at, "rating": round(ordinal(Rating(mu, sigma)), 2), "mu": round(mu, 2), "sigma": round(sigma, 2)}
        )
    return JSONResponse({"provisional_matches": PROVISIONAL_MATCHES, "families": history})
