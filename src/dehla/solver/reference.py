"""The reference solver: plain minimax over the engine's ``Match``.

Slow and obvious on purpose.  It shares nothing with the fast solver but the
objective (``dehla.solver.objective``): it explores every legal action with
``Match.clone``/``apply`` until the engine ends the hand, and scores the end as
the engine scored it.  The fast solver is checked against it on many small
positions (tests/test_solver_exact.py).
"""

from __future__ import annotations

from collections.abc import Callable

from dehla.engine.actions import Action
from dehla.engine.events import HandResult
from dehla.engine.scoring import Outcome
from dehla.engine.state import Match, Phase
from dehla.errors import DehlaError
from dehla.solver.objective import Objective, objective_for

__all__ = ["reference_reaches", "reference_values", "reference_value"]

_IN_HAND = (Phase.CALL, Phase.HIDE, Phase.PLAY)


def _check(match: Match) -> None:
    if match.phase not in _IN_HAND:
        raise DehlaError(f"there is no hand in play to solve (the match is at {match.phase.value})")


def reference_value(match: Match) -> int:
    """The level (see ``Objective``) of the hand in play under best play by both teams."""
    _check(match)
    objective = objective_for(match.rules, match.dealer)
    return _minimax(match, objective, len(match.results))


def reference_values(match: Match) -> tuple[int, dict[Action, int]]:
    """The position's level and the level after each legal action."""
    _check(match)
    objective = objective_for(match.rules, match.dealer)
    hands_done = len(match.results)
    values: dict[Action, int] = {}
    for action in match.legal_actions():
        child = match.clone()
        child.apply(action)
        values[action] = _minimax(child, objective, hands_done)
    seat = match.to_act
    assert seat is not None
    best = max(values.values()) if seat % 2 == 0 else min(values.values())
    return best, values


def reference_reaches(match: Match, team: int, good: Callable[[HandResult], bool]) -> bool:
    """Can ``team`` make sure the hand in play ends with a result ``good`` accepts, whatever the others do?"""
    _check(match)
    return _reaches(match, team, good, len(match.results))


def _reaches(match: Match, team: int, good: Callable[[HandResult], bool], hands_done: int) -> bool:
    if len(match.results) > hands_done:
        return good(match.results[hands_done])
    seat = match.to_act
    assert seat is not None
    answers = (_reaches(_after(match, action), team, good, hands_done) for action in match.legal_actions())
    return any(answers) if seat % 2 == team else all(answers)


def _after(match: Match, action: Action) -> Match:
    child = match.clone()
    child.apply(action)
    return child


def _minimax(match: Match, objective: Objective, hands_done: int) -> int:
    """The level of ``match``, which this call may change (callers pass a copy of their own)."""
    if len(match.results) > hands_done:
        result = match.results[hands_done]
        return objective.level(Outcome(result.winner, result.points), result.tens)
    seat = match.to_act
    assert seat is not None
    maximise = seat % 2 == 0
    best = -1 if maximise else objective.levels
    actions = match.legal_actions()
    last = len(actions) - 1
    for index, action in enumerate(actions):
        # The last action may use the match itself: nothing else needs it afterwards.
        child = match if index == last else match.clone()
        child.apply(action)
        value = _minimax(child, objective, hands_done)
        if maximise:
            best = max(best, value)
        else:
            best = min(best, value)
    return best
