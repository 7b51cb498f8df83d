"""What a position is worth: the solver's objective, defined once for every preset.

A hand ends with some tens collected by each team (``t0``, ``t1``) after some
tricks (``k0``, ``k1``); the engine's scoring turns that into an ``Outcome``
(the winning team and each team's points).  The solver ranks the ways a hand
can end by the **key**

    (team 0's points - team 1's points,  t0,  -t1)

compared lexicographically: first the hand's result under the preset (who wins
and by how much: Taash's 80/30/20, one point for Pagat and Mendikot), then, as
a tie-break, the tens team 0 collects, then the fewer tens team 1 collects.
Team 0 maximises the key, team 1 minimises it.  The distinct keys, sorted, are
the **levels** ``0 .. L-1``; every solver answer is a level, which stands for
one key and so for one result and one split of the tens.

Why this order: players play for the hand's result first (a Pagat kot, 4 tens,
is worth more than a plain win because it is more tens with the same result
sign, so it ranks higher too), and the tie-break makes "cost a ten" visible
even when the result does not change.  For every preset except Taash with
``trick_minimum`` the level is a non-decreasing function of the single number
``s = t0 * (tricks + 1) + k0`` (or of ``t0`` alone when trick counts never
matter, as in Pagat), which lets the search store values relative to the
position (``relative`` mode).  Otherwise the search keeps the captures in its
keys (``absolute`` mode).

Taash's early end (SPEC 3.7) is part of the value: a hand that ends early is
scored from its captures then, exactly as the engine scores it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dehla.engine.scoring import Outcome, hand_outcome, settled_outcome
from dehla.rules import Rules

__all__ = ["Objective", "Value", "objective_for"]


@dataclass(frozen=True)
class Value:
    """A solved value: the level and what it means (result and tens)."""

    level: int
    winner: int | None
    points: tuple[int, int]
    tens: tuple[int, int]

    @property
    def net(self) -> int:
        """Team 0's points minus team 1's for the hand."""
        return self.points[0] - self.points[1]

    def for_team(self, team: int) -> tuple[int, int]:
        """``(points margin, tens)`` from ``team``'s side, for messages."""
        margin = self.net if team == 0 else -self.net
        return margin, self.tens[team]

    def describe(self, team: int | None = None) -> str:
        """Short words: ``team 0 wins 1-0, tens 3-1``."""
        if self.winner is None:
            result = "nobody scores"
        else:
            points = self.points[self.winner]
            result = f"team {self.winner} wins ({points} point{'s' if points != 1 else ''})"
        return f"{result}, tens {self.tens[0]}-{self.tens[1]}"

    def to_json(self) -> dict[str, object]:
        return {
            "level": self.level,
            "winner": self.winner,
            "points": list(self.points),
            "tens": list(self.tens),
        }


Key = tuple[int, int, int]


def _key(outcome: Outcome, t0: int, t1: int) -> Key:
    return (outcome.points[0] - outcome.points[1], t0, -t1)


@dataclass(frozen=True)
class Objective:
    """The ranking of a hand's endings for one rules value and one dealer.

    ``final_level[t0][t1][k0][k1]`` is the level of a hand that ends with those
    captures (``-1`` where the hand cannot end there); ``relative`` says whether
    the level is a non-decreasing function of ``s = t0 * weight + k0 * uses_tricks``.
    """

    rules: Rules
    dealer: int
    keys: tuple[Key, ...]
    values: tuple[Value, ...]
    final_level: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]
    relative: bool
    uses_tricks: bool
    weight: int
    level_of_s: tuple[int, ...] = field(repr=False)

    @property
    def levels(self) -> int:
        return len(self.keys)

    @property
    def tricks(self) -> int:
        return self.rules.tricks_per_hand

    def level(self, outcome: Outcome, tens: tuple[int, int]) -> int:
        """The level of a finished hand (as the engine scored it)."""
        return self.keys.index(_key(outcome, tens[0], tens[1]))

    def s_of(self, t0: int, k0: int) -> int:
        """The relative-mode score of captures (meaningful only when ``relative``)."""
        return t0 * self.weight + (k0 if self.uses_tricks else 0)

    def s_threshold(self, level: int) -> int:
        """The least ``s`` whose final level is at least ``level`` (relative mode)."""
        for s, found in enumerate(self.level_of_s):
            if found >= level:
                return s
        return len(self.level_of_s)

    def tens_threshold(self, tens: int) -> int:
        """The least ``s`` with ``t0 >= tens`` (relative mode)."""
        return tens * self.weight


_CACHE: dict[tuple[Rules, int], Objective] = {}


def objective_for(rules: Rules, dealer: int) -> Objective:
    """The objective of a hand under ``rules`` dealt by ``dealer`` (cached)."""
    key = (rules, dealer % 2)
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = _build(rules, dealer % 2)
    return found


def _build(rules: Rules, dealer: int) -> Objective:
    tricks = rules.tricks_per_hand
    endings: dict[tuple[int, int, int, int], tuple[Outcome, Key]] = {}
    for t0 in range(5):
        for t1 in range(5 - t0):
            for k0 in range(tricks + 1):
                for k1 in range(tricks + 1 - k0):
                    if k0 + k1 == tricks:
                        if t0 + t1 != 4:
                            continue  # the last trick collects every ten
                        outcome: Outcome | None = hand_outcome(rules, dealer, (t0, t1), (k0, k1))
                    elif rules.early_end:
                        outcome = settled_outcome(rules, dealer, (t0, t1), (k0, k1), 4 - t0 - t1, tricks - k0 - k1)
                    else:
                        outcome = None
                    if outcome is not None:
                        endings[(t0, t1, k0, k1)] = (outcome, _key(outcome, t0, t1))
    keys = tuple(sorted({key for _, key in endings.values()}))
    index = {key: level for level, key in enumerate(keys)}
    values = []
    for key in keys:
        net, t0, minus_t1 = key
        winner = None if net == 0 else (0 if net > 0 else 1)
        points = (net, 0) if net > 0 else (0, -net)
        values.append(Value(index[key], winner, points, (t0, -minus_t1)))
    final = [[[[-1] * (tricks + 1) for _ in range(tricks + 1)] for _ in range(5)] for _ in range(5)]
    for (t0, t1, k0, k1), (_, key) in endings.items():
        final[t0][t1][k0][k1] = index[key]
    weight = tricks + 1
    full = {(t0, k0): final[t0][4 - t0][k0][tricks - k0] for t0 in range(5) for k0 in range(tricks + 1)}
    uses_tricks = any(full[(t0, k0)] != full[(t0, 0)] for t0 in range(5) for k0 in range(tricks + 1))
    # Relative mode needs the level to rise with s, and an early end never to change the level
    # compared with playing on (true unless tens can stay uncollected at an early end).
    early_moves_tens = rules.early_end and any(t0 + t1 < 4 and k0 + k1 < tricks for (t0, t1, k0, k1) in endings)
    size = 5 * weight
    level_of_s = [-1] * size
    monotone = True
    for t0 in range(5):
        for k0 in range(tricks + 1):
            s = t0 * weight + (k0 if uses_tricks else 0)
            level = full[(t0, k0)]
            if level_of_s[s] not in (-1, level):
                monotone = False
            level_of_s[s] = level
    running = 0
    for s in range(size):
        if level_of_s[s] < 0:
            level_of_s[s] = running  # s not reachable: carry the level below (keeps thresholds exact)
        elif level_of_s[s] < running:
            monotone = False
        running = max(running, level_of_s[s])
    return Objective(
        rules=rules,
        dealer=dealer,
        keys=keys,
        values=tuple(values),
        final_level=tuple(tuple(tuple(tuple(row) for row in block) for block in plane) for plane in final),
        relative=monotone and not early_moves_tens,
        uses_tricks=uses_tricks,
        weight=weight,
        level_of_s=tuple(level_of_s),
    )
