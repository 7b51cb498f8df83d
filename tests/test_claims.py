"""A claim of the rest of the hand (play.claims, Solver.concedes_nothing) against plain minimax over the engine:
the claim holds exactly when the claimer's team can keep the other team from any more tricks (tens), and the
proving line gets the claimed result."""

from __future__ import annotations

import random

import pytest

from dehla.cards import TENS_MASK
from dehla.engine.state import Match, Phase
from dehla.errors import DehlaError
from dehla.play.claims import CLAIMS, Claim, claim_holds, claim_line
from dehla.solver import Solver


def _other_holds(match: Match, team: int, what: str) -> int:
    state = match.hand_state()
    other = 1 - team
    return state.tricks_won[other] if what == "tricks" else (state.captured[other] & TENS_MASK).bit_count()


def _minimax(match: Match, team: int, what: str, held: int) -> bool:
    """Plain AND/OR search: the claimer's team needs one card that keeps the claim, the other team's every card."""
    if match.phase is not Phase.PLAY:
        result = match.results[-1]
        return (result.tricks_won[1 - team] if what == "tricks" else result.tens[1 - team]) == held
    answers = []
    for action in match.legal_actions():
        child = match.clone()
        child.apply(action)
        answers.append(_minimax(child, team, what, held))
    return any(answers) if match.to_act is not None and match.to_act % 2 == team else all(answers)


def _late_positions(preset: str, count: int, tricks_done: int) -> list[Match]:
    rng = random.Random(preset)
    found: list[Match] = []
    while len(found) < count:
        match = Match(preset, rng.randrange(4))
        match.apply(match.random_deal(rng))
        stop = tricks_done + rng.randrange(2)
        while match.phase in (Phase.CALL, Phase.HIDE, Phase.PLAY) and (
            match.phase is not Phase.PLAY or len(match.tricks) < stop
        ):
            match.apply(rng.choice(match.legal_actions()))
        if match.phase is Phase.PLAY:
            found.append(match)
    return found


@pytest.mark.parametrize("preset", ["pagat", "mendikot", "taash", "mendikot-band", "taash-b2b"])
def test_a_claim_holds_exactly_when_the_other_team_can_take_nothing_more(preset: str) -> None:
    proved = 0
    for match in _late_positions(preset, 10, 10):
        seat = match.to_act
        assert seat is not None
        for what in CLAIMS:
            team = seat % 2
            held = _other_holds(match, team, what)
            claim = Claim(seat, what)
            holds = claim_holds(match, claim)
            assert holds == _minimax(match, team, what, held), (preset, what, match)
            line = claim_line(match, claim)
            assert (line is not None) == holds
            if line is not None:
                proved += 1
                end = match.clone()
                for action in line:
                    end.apply(action)
                result = end.results[-1]
                assert (result.tricks_won[1 - team] if what == "tricks" else result.tens[1 - team]) == held
    assert proved  # some claims held, so the lines were checked


def test_a_claim_of_anything_else_or_outside_the_play_is_refused() -> None:
    match = Match("pagat", 0)
    with pytest.raises(DehlaError, match="tricks"):
        Claim(0, "kots")
    with pytest.raises(DehlaError, match="hand in play"):
        claim_holds(match, Claim(0, "tricks"))


def test_a_claim_line_leaves_the_callers_solver_as_it_found_it() -> None:
    """The line keeps its solver's table from question to question (the same claim throughout), and gives the
    caller's solver back with its own setting."""
    solver = Solver(table_bits=14)
    for match in _late_positions("mendikot", 6, 9):
        seat = match.to_act
        assert seat is not None
        claim = Claim(seat, "tricks")
        assert claim_line(match, claim, solver) == claim_line(match, claim)
        assert not solver.keep_table
