"""Ratings of players at rated tables: one per player and rule family, partnership-aware (openskill).

A table can be rated when every seat is a person's.  When its match ends, the
players who held the seats when it began are rated as two teams with the
openskill library's Plackett-Luce model (it rates teams directly; Glicko-2 is one
against one).  A player whose seat was given to someone else or to a bot during
the match loses it for rating purposes, whatever their old team did.  A rating
is provisional until ``PROVISIONAL_MATCHES`` rated matches; leaderboards rank by
the model's ordinal (mu - 3 sigma), the usual conservative estimate.  Bots are
never rated: a rated table has none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = ["Rating", "rate_match", "PROVISIONAL_MATCHES", "ordinal", "default_rating"]

#: Rated matches after which a rating stops being provisional.
PROVISIONAL_MATCHES = 10

_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    matches: int = 0

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES


def default_rating() -> Rating:
    fresh = _MODEL.rating()
    return Rating(fresh.mu, fresh.sigma, 0)


def ordinal(rating: Rating) -> float:
    return _MODEL.create_rating([rating.mu, rating.sigma]).ordinal()


def rate_match(
    seats: Mapping[int, str], winner: int, leavers: set[str], current: Mapping[str, Rating]
) -> dict[str, Rating]:
    """New ratings of the players who began a rated match (``seats``: seat -> player; teams are seats' parity),
    the team ``winner`` having won; a player in ``leavers`` is rated as if their team had lost."""
    teams = [[seat for seat in sorted(seats) if seat % 2 == team] for team in (0, 1)]

    def rated(winning: int) -> dict[int, Rating]:
        groups = [
            [
                _MODEL.create_rating(
                    [current.get(seats[seat], default_rating()).mu, current.get(seats[seat], default_rating()).sigma],
                    name=seats[seat],
                )
                for seat in team
            ]
            for team in teams
        ]
        ranks = [0.0 if team == winning else 1.0 for team in (0, 1)]
        result = _MODEL.rate(groups, ranks=ranks)
        return {
            seat: Rating(item.mu, item.sigma) for team, group in zip(teams, result) for seat, item in zip(team, group)
        }

    won = rated(winner)
    lost = rated(1 - winner)
    new: dict[str, Rating] = {}
    for seat, player in seats.items():
        value = lost[seat] if player in leavers and seat % 2 == winner else won[seat]
        before = current.get(player, default_rating())
        new[player] = Rating(value.mu, value.sigma, before.matches + 1)
    return new
