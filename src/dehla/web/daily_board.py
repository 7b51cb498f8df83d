"""The daily duplicate's scores: a hand's figures for the player's team, and a day's leaderboard.

Everyone plays the same deal from the same seat, so results compare directly (duplicate): each game is scored
against the bots' own play of that seat (the team's tens minus the bots' tens on that deal) and against everyone
else's game of the deal as a matchpoint percentage (a point for each game it beat, half for each tie, by tens and
then tricks; 50% when nobody else has played it yet).  The day's leaderboard adds these up per player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from dehla.engine.events import HandResult
from dehla.web.storage import DailyEntry

__all__ = ["HandFigures", "BoardGame", "BoardRow", "hand_figures", "read_figures", "standings"]


class HandFigures(TypedDict):
    """A hand from one team's side: its tens and tricks, and whether it won (``None``: nobody won the hand)."""

    tens: int
    tricks: int
    won: bool | None


class BoardGame(TypedDict):
    """One game of the day on the leaderboard (``figures`` and the scores only when the viewer may see them)."""

    deal: int
    table: str
    figures: HandFigures | None
    versus_bots: int | None
    matchpoints: float | None


class BoardRow(TypedDict):
    """A player's day (no player id: those stay private)."""

    name: str
    you: bool
    played: int
    versus_bots: int
    matchpoints: float | None
    games: list[BoardGame]


def hand_figures(result: HandResult, team: int) -> HandFigures:
    won = None if result.winner is None else result.winner == team
    return {"tens": result.tens[team], "tricks": result.tricks_won[team], "won": won}


def read_figures(data: Mapping[str, object] | None) -> HandFigures | None:
    """Figures as kept in storage (anything else reads as none)."""
    if data is None:
        return None
    tens, tricks, won = data.get("tens"), data.get("tricks"), data.get("won")
    if not isinstance(tens, int) or not isinstance(tricks, int) or not (won is None or isinstance(won, bool)):
        return None
    return {"tens": tens, "tricks": tricks, "won": won}


def _matchpoints(mine: HandFigures, others: Sequence[HandFigures]) -> float:
    """The share of the other games of the deal this one beat (ties half), in percent; 50 when it stands alone."""
    if not others:
        return 50.0
    key = (mine["tens"], mine["tricks"])
    points = sum(
        1.0 if key > (other["tens"], other["tricks"]) else 0.5 if key == (other["tens"], other["tricks"]) else 0.0
        for other in others
    )
    return round(100.0 * points / len(others), 1)


def standings(
    entries: Sequence[DailyEntry],
    references: Mapping[int, HandFigures],
    viewer: str | None,
    shown: set[int] | None,
) -> list[BoardRow]:
    """The day's leaderboard, best first: total tens against the bots, then the matchpoint average.

    ``shown``: the deals whose figures the viewer may see (``None``: all, once the day is over); the totals are
    always shown.
    """
    finished = [(entry, read_figures(entry.result)) for entry in entries]
    by_deal: dict[int, list[tuple[str, HandFigures]]] = {}
    for entry, figures in finished:
        if figures is not None:
            by_deal.setdefault(entry.deal, []).append((entry.player, figures))
    rows: dict[str, BoardRow] = {}
    points: dict[str, list[float]] = {}
    for entry, figures in finished:
        if figures is None:
            continue
        row = rows.setdefault(
            entry.player,
            {
                "name": entry.name,
                "you": entry.player == viewer,
                "played": 0,
                "versus_bots": 0,
                "matchpoints": None,
                "games": [],
            },
        )
        others = [other for player, other in by_deal[entry.deal] if player != entry.player]
        reference = references.get(entry.deal)
        versus = None if reference is None else figures["tens"] - reference["tens"]
        score = _matchpoints(figures, others)
        row["played"] += 1
        row["versus_bots"] += versus or 0
        points.setdefault(entry.player, []).append(score)
        visible = shown is None or entry.deal in shown
        row["games"].append(
            {
                "deal": entry.deal,
                "table": entry.table_id if visible else "",
                "figures": figures if visible else None,
                "versus_bots": versus if visible else None,
                "matchpoints": score if visible else None,
            }
        )
    for player, row in rows.items():
        scores = points[player]
        row["matchpoints"] = round(sum(scores) / len(scores), 1)
    return sorted(rows.values(), key=lambda row: (-row["versus_bots"], -(row["matchpoints"] or 0.0), row["name"]))
