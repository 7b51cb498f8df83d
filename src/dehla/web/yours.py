"""A player's own games: their finished matches, statistics per rule family, and every record to take away.

The statistics are read off the records (``dehla.record.replay``, the same
fold as ``dehla replay``) from the seat the player held when each match ended:
matches and hands played and won by their team, their team's tens per hand,
kots (Pagat scoring), mendikots (all four tens in a hand), whitewashes (every
trick of a hand), and the partners they played with.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TypedDict

from dehla.errors import DehlaError
from dehla.record import replay
from dehla.web.storage import FinishedMatch

__all__ = ["FamilyStats", "MyMatch", "family_of", "family_stats", "my_matches"]


class FamilyStats(TypedDict):
    """One rule family's figures for one player."""

    matches: int
    matches_won: int
    hands: int
    hands_won: int
    tens_per_hand: float
    kots: int
    mendikots: int
    whitewashes: int
    partners: list[tuple[str, int]]


class MyMatch(TypedDict):
    """A line of the player's own games."""

    table: str
    match_no: int
    finished: float
    title: str
    preset: str
    players: list[str]
    score: list[int]
    winner: int | None
    seat: int | None
    listed: bool


def family_of(preset: str) -> str:
    """The rule family of a preset: ``pagat``, ``taash`` or ``mendikot`` (a preset's name starts with it)."""
    return preset.split("-", 1)[0]


def my_matches(found: Sequence[tuple[FinishedMatch, int | None]]) -> list[MyMatch]:
    lines: list[MyMatch] = []
    for finished, seat in found:
        summary = finished.summary
        players = summary.get("players")
        score = summary.get("score")
        winner = summary.get("winner")
        lines.append(
            {
                "table": finished.table_id,
                "match_no": finished.match_no,
                "finished": finished.finished,
                "title": str(summary.get("title", "")),
                "preset": str(summary.get("preset", "")),
                "players": [str(name) for name in players] if isinstance(players, list) else [],
                "score": [int(value) for value in score] if isinstance(score, list) else [],
                "winner": winner if isinstance(winner, int) else None,
                "seat": seat,
                "listed": finished.listed,
            }
        )
    return lines


def family_stats(found: Sequence[tuple[FinishedMatch, int | None]]) -> dict[str, FamilyStats]:
    """Each family's figures over the matches in which the player held a seat at the end (a record that does not
    replay is left out: the history keeps only what the server wrote)."""
    totals: dict[str, Counter[str]] = {}
    partners: dict[str, Counter[str]] = {}
    for finished, seat in found:
        if seat is None:
            continue
        try:
            match = replay(finished.record)
        except DehlaError:
            continue
        family = family_of(match.rules.preset)
        team = seat % 2
        total = totals.setdefault(family, Counter())
        total["matches"] += 1
        total["matches_won"] += match.winner == team
        for result in match.results:
            total["hands"] += 1
            total["hands_won"] += result.winner == team
            total["tens"] += result.tens[team]
            total["kots"] += result.kot and result.winner == team
            total["mendikots"] += result.sweep and result.winner == team
            total["whitewashes"] += result.whitewash and result.tricks_won[team] > 0
        names = finished.record.get("players")
        if isinstance(names, list):
            mates = partners.setdefault(family, Counter())
            for other, name in enumerate(names):
                if other != seat and other % 2 == team:
                    mates[str(name)] += 1
    stats: dict[str, FamilyStats] = {}
    for family, total in sorted(totals.items()):
        hands = int(total["hands"])
        stats[family] = {
            "matches": int(total["matches"]),
            "matches_won": int(total["matches_won"]),
            "hands": hands,
            "hands_won": int(total["hands_won"]),
            "tens_per_hand": round(total["tens"] / hands, 2) if hands else 0.0,
            "kots": int(total["kots"]),
            "mendikots": int(total["mendikots"]),
            "whitewashes": int(total["whitewashes"]),
            "partners": partners.get(family, Counter()).most_common(5),
        }
    return stats
