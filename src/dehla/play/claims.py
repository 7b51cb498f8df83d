"""A player's claim of the rest of the hand, proved on the true cards by the exact solver.

A claim is of every remaining trick (``"tricks"``) or every remaining ten (``"tens"``): it holds when the
claimer's team can make sure the other team takes no more tricks (or collects no more tens) whatever the other
team plays.  ``claim_line`` gives a line of play that proves it, to complete the hand's record: the claimer's
team plays a card that keeps the claim proved, the other team its first legal card (any reply keeps a proved
claim, so the line shows one defence, never the only one).
"""

from __future__ import annotations

from dataclasses import dataclass

from dehla.cards import TENS_MASK
from dehla.engine.actions import Action
from dehla.engine.state import Match, Phase
from dehla.errors import DehlaError
from dehla.solver import Solver

__all__ = ["CLAIMS", "Claim", "claim_holds", "claim_line"]

#: What a player may claim: every remaining trick, or every remaining ten.
CLAIMS = ("tricks", "tens")


@dataclass(frozen=True)
class Claim:
    """A claim made by ``seat`` of ``what`` (one of ``CLAIMS``)."""

    seat: int
    what: str

    def __post_init__(self) -> None:
        if self.what not in CLAIMS:
            raise DehlaError(f'a claim is of "tricks" or "tens", not {self.what!r}')


def _held(match: Match, team: int, what: str) -> int:
    """What the other team of ``team`` holds now: its tricks, or its collected tens."""
    state = match.hand_state()
    other = 1 - team
    return state.tricks_won[other] if what == "tricks" else (state.captured[other] & TENS_MASK).bit_count()


def _still_holds(match: Match, team: int, what: str, held: int, solver: Solver) -> bool:
    """The claim holds in ``match`` (after some of its line): a finished hand by its result, else by a proof."""
    if match.phase is not Phase.PLAY:
        result = match.results[-1]
        other = 1 - team
        return (result.tricks_won[other] if what == "tricks" else result.tens[other]) == held
    if _held(match, team, what) != held:
        return False  # the other team has taken a trick (or a ten) since the claim
    return solver.concedes_nothing(match.hand_state(), team, what)


def claim_holds(match: Match, claim: Claim, solver: Solver | None = None) -> bool:
    """Does ``claim`` hold in the hand in play of ``match`` (the full truth), whatever the other team plays?"""
    if match.phase is not Phase.PLAY:
        raise DehlaError("a claim needs a hand in play")
    team = claim.seat % 2
    return (solver or Solver(table_bits=18)).concedes_nothing(match.hand_state(), team, claim.what)


def claim_line(match: Match, claim: Claim, solver: Solver | None = None) -> list[Action] | None:
    """The rest of the hand as a line of play that proves ``claim``, or ``None`` when the claim does not hold.

    ``match`` is not changed."""
    if match.phase is not Phase.PLAY:
        raise DehlaError("a claim needs a hand in play")
    solver = solver or Solver(table_bits=18)
    keep = solver.keep_table
    # Every question of the line is the same one (the claim, with what the other team holds) about positions in
    # the first proof's tree: the table's entries answer most of them.
    solver.keep_table = True
    try:
        return _line(match, claim, solver)
    finally:
        solver.keep_table = keep


def _line(match: Match, claim: Claim, solver: Solver) -> list[Action] | None:
    team = claim.seat % 2
    held = _held(match, team, claim.what)
    if not solver.concedes_nothing(match.hand_state(), team, claim.what):
        return None
    position = match.clone()
    line: list[Action] = []
    while position.phase is Phase.PLAY:
        seat = position.to_act
        assert seat is not None
        legal = position.legal_actions()
        chosen = legal[0]
        if seat % 2 == team:
            for action in legal:
                child = position.clone()
                child.apply(action)
                if _still_holds(child, team, claim.what, held, solver):
                    chosen = action
                    break
            else:  # pragma: no cover - a proved claim always has a move that keeps it
                raise DehlaError("a proved claim lost its proof")
        position.apply(chosen)
        line.append(chosen)
    return line
