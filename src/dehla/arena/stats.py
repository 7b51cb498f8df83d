"""The arena's statistics: 95% intervals for rates and means, and Elo ratings from a round robin.

* Rates (hand-win, match-win, sweeps, kots, whitewashes) get the Wilson score
  interval, which stays inside 0..1 and behaves at 0% and 100%.  A drawn hand
  counts half a win.
* Means (tens per hand) get mean ± 1.96·sd/√n.
* The Elo difference of a pair is 400·log10(p / (1 − p)) of its hand-win rate
  p, its interval the same transform of the Wilson bounds.
* ``percentile`` (move times, node counts in the benchmarks) is the nearest
  rank: the value at position ``round(share * (n - 1))`` of the sorted values.
* Ratings for the whole round robin are the Bradley–Terry maximum-likelihood
  fit of every pair's hand score (draws half), on the Elo scale with an
  average of 1500.  One drawn game is added to every pair as a prior, so a
  bot that wins every hand still gets a finite rating.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypedDict

__all__ = ["Z95", "wilson", "mean_interval", "elo_difference", "elo_ratings", "percentile", "Interval"]

#: The normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054
#: Elo differences are cut at this size when a rate is 0 or 1.
ELO_LIMIT = 1200.0


class Interval(TypedDict):
    """An estimate with its 95% interval; all three NaN when there is no data (``null`` in the JSON report)."""

    value: float
    low: float
    high: float


def _round(value: float) -> float:
    return round(value, 6)


def wilson(successes: float, trials: int, z: float = Z95) -> Interval:
    """The rate ``successes / trials`` with its Wilson score interval (``{"value", "low", "high"}``)."""
    if trials <= 0:
        return {"value": math.nan, "low": math.nan, "high": math.nan}
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return {"value": _round(p), "low": _round(max(0.0, centre - half)), "high": _round(min(1.0, centre + half))}


def mean_interval(values: Sequence[float], z: float = Z95) -> Interval:
    """The mean with mean ± z·sd/√n (sample standard deviation)."""
    count = len(values)
    if count == 0:
        return {"value": math.nan, "low": math.nan, "high": math.nan}
    mean = math.fsum(values) / count
    if count == 1:
        return {"value": _round(mean), "low": _round(mean), "high": _round(mean)}
    variance = math.fsum((value - mean) ** 2 for value in values) / (count - 1)
    half = z * math.sqrt(variance / count)
    return {"value": _round(mean), "low": _round(mean - half), "high": _round(mean + half)}


def percentile(values: Sequence[float], share: float) -> float:
    """The value below which ``share`` (0..1) of ``values`` lie, by nearest rank; 0.0 when there are none."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def _elo_of_rate(rate: float) -> float:
    if rate <= 0.0:
        return -ELO_LIMIT
    if rate >= 1.0:
        return ELO_LIMIT
    return max(-ELO_LIMIT, min(ELO_LIMIT, 400.0 * math.log10(rate / (1.0 - rate))))


def elo_difference(rate: Interval) -> Interval:
    """The Elo difference that a score rate means, with the interval carried over from the rate's bounds."""
    if math.isnan(rate["value"]):
        return rate.copy()
    return {
        "value": _round(_elo_of_rate(rate["value"])),
        "low": _round(_elo_of_rate(rate["low"])),
        "high": _round(_elo_of_rate(rate["high"])),
    }


def elo_ratings(
    entrants: int, results: Sequence[tuple[int, int, float, int]], iterations: int = 10_000, average: float = 1500.0
) -> list[float]:
    """Bradley–Terry ratings on the Elo scale from ``(a, b, a's score, games)`` per pair.

    Uses the minorisation–maximisation iteration (Hunter 2004) with one drawn
    game per pair as a prior; ratings average ``average``.
    """
    if entrants == 0:
        return []
    wins = [0.0] * entrants
    games: dict[tuple[int, int], float] = {}
    for a, b, score, count in results:
        wins[a] += score + 0.5
        wins[b] += count - score + 0.5
        key = (min(a, b), max(a, b))
        games[key] = games.get(key, 0.0) + count + 1
    strength = [1.0] * entrants
    for _ in range(iterations):
        updated: list[float] = []
        for player in range(entrants):
            denominator = 0.0
            for (a, b), played in games.items():
                if player in (a, b):
                    other = b if player == a else a
                    denominator += played / (strength[player] + strength[other])
            updated.append(wins[player] / denominator if denominator > 0 else strength[player])
        log_mean = math.fsum(math.log(value) for value in updated) / entrants
        updated = [value / math.exp(log_mean) for value in updated]
        change = max(abs(math.log(new / old)) for new, old in zip(updated, strength))
        strength = updated
        if change < 1e-12:
            break
    return [_round(average + 400.0 * math.log10(value)) for value in strength]
