"""What an analysis of a record finds: each decision against the best one, each hand, each seat, and their JSON.

``dehla.analysis.record`` makes these (``analyse_record``); ``dehla.analysis.render`` shows them.  An estimate
(``DecisionEstimate``) is the learned value's answer where the solver could not give one: it is kept apart from
the exact findings everywhere, and ``verdict`` is the one place its words are decided.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

from dehla.engine.actions import Action
from dehla.rules import RulesJSON

if TYPE_CHECKING:  # the findings are read (rendered, typed) without loading the solver
    from dehla.solver.objective import Value

__all__ = [
    "ESTIMATE_CLOSE",
    "ESTIMATE_DEAD_ZONE",
    "Decision",
    "DecisionEstimate",
    "DecisionJSON",
    "EstimateJSON",
    "EstimateVerdict",
    "HandAnalysis",
    "HandAnalysisJSON",
    "RecordAnalysis",
    "RecordAnalysisJSON",
    "SeatSummary",
    "SeatSummaryJSON",
]


#: How a play looks next to the model's best: its best; costs the hand; within ``ESTIMATE_CLOSE`` of the best; weaker.
EstimateVerdict = Literal["best", "hand", "close", "weaker"]


class EstimateJSON(TypedDict):
    """The model's estimate for a decision the solver could not answer (``"exact": false``, always).

    Margins are the hand's points margin for the decision's team under best play, in the rules' points
    (``scale`` is the largest result the rules allow: 1 for Pagat and Mendikot, 80 for Taash).
    """

    exact: Literal[False]
    source: Literal["model"]
    value: float
    best_value: float
    best: list[str]
    margin_lost: float
    hand_lost: bool
    verdict: EstimateVerdict
    scale: int


class DecisionJSON(TypedDict):
    """A decision in ``dehla analyse --json`` (docs/analysis.md); a solved one says what was best and what it lost.

    ``scope`` is written only when just the hand's result is known (then there is no ``tens_lost`` nor values);
    ``value`` and ``best_value`` (``Value.to_json``) only when both are known.  ``estimate`` only on a
    decision not solved, when the learned value has one: the model's guess, never an exact finding.
    """

    index: int
    trick: int
    seat: int
    action: str
    solved: bool
    forced: bool
    scope: NotRequired[Literal["result"]]
    best: NotRequired[list[str]]
    levels_lost: NotRequired[int]
    tens_lost: NotRequired[int]
    hand_lost: NotRequired[bool]
    value: NotRequired[dict[str, object]]
    best_value: NotRequired[dict[str, object]]
    estimate: NotRequired[EstimateJSON]


class HandAnalysisJSON(TypedDict):
    hand: int
    dealer: int
    start: dict[str, object] | None
    decisions: list[DecisionJSON]


class SeatSummaryJSON(TypedDict):
    seat: int
    decisions: int
    solved: int
    best: int
    mistakes: int
    tens_lost: int
    hands_lost: int
    accuracy: float | None
    estimated: int
    estimated_hands_lost: int


class RecordAnalysisJSON(TypedDict):
    """``dehla analyse --json``: format ``dehla-analysis/1``, the rules, each hand, each seat's summary."""

    format: str
    rules: RulesJSON
    hands: list[HandAnalysisJSON]
    seats: list[SeatSummaryJSON]


#: Below this share of the rules' largest result an estimated margin counts as a tie: no side looks ahead.
ESTIMATE_DEAD_ZONE = 0.1
#: A play that loses less than this share of the rules' largest result looks close to the model's best.
ESTIMATE_CLOSE = 0.05


@dataclass(frozen=True)
class DecisionEstimate:
    """The value model's view of one decision the solver could not answer: an estimate, never exact.

    Margins are the hand's expected points margin for the decision's team under best play to the end of
    the trick in progress, each ending valued by the model (``trick_values``), in the rules' points.
    """

    value: float  # after the action played
    best_value: float  # after the model's best action
    best: list[Action]  # the actions with ``best_value``
    scale: int  # the largest result the rules allow (``result_scale``)

    @property
    def margin_lost(self) -> float:
        return max(0.0, self.best_value - self.value)

    @property
    def hand_lost(self) -> bool:
        """Does the play look like it costs the hand: its estimated result (won, open, lost) worse than the best's,
        by more than a close call (a margin just across a boundary, 8.4 to 7.2 of Taash's 80, is not)?"""
        worse = _estimated_rank(self.value, self.scale) < _estimated_rank(self.best_value, self.scale)
        return worse and self.margin_lost >= ESTIMATE_CLOSE * self.scale

    @property
    def verdict(self) -> EstimateVerdict:
        """The words every front end shows for this estimate, decided here once."""
        if self.margin_lost <= 1e-9:
            return "best"
        if self.hand_lost:
            return "hand"
        if self.margin_lost < ESTIMATE_CLOSE * self.scale:
            return "close"
        return "weaker"

    def to_json(self) -> EstimateJSON:
        return {
            "exact": False,
            "source": "model",
            "value": round(self.value, 3),
            "best_value": round(self.best_value, 3),
            "best": [str(action) for action in self.best],
            "margin_lost": round(self.margin_lost, 3),
            "hand_lost": self.hand_lost,
            "verdict": self.verdict,
            "scale": self.scale,
        }


def _estimated_rank(margin: float, scale: int) -> int:
    """2 for a margin that points to a win, 0 to a loss, 1 for one too close to call."""
    if margin > ESTIMATE_DEAD_ZONE * scale:
        return 2
    if margin < -ESTIMATE_DEAD_ZONE * scale:
        return 0
    return 1


@dataclass
class Decision:
    """One analysed decision."""

    hand: int
    index: int  # position in the hand's actions (0-based, as in the record)
    trick: int  # 1-based trick number the decision belongs to
    seat: int
    action: Action
    solved: bool
    value: Value | None = None  # after the decision played
    best_value: Value | None = None  # after the best decision
    # The actions that keep ``best_value``; judged on the result alone (``scope`` "result"), the played action if it
    # keeps the result (the others are not searched), else every action that keeps it (empty if that search passed
    # its node limit).
    best: list[Action] = field(default_factory=list)
    levels_lost: int = 0
    tens_lost: int = 0
    hand_lost: bool = False
    forced: bool = False  # the only legal action (solved or not)
    scope: str = "value"  # "value": every level (tens too); "result": only the hand's result is known
    estimate: DecisionEstimate | None = None  # the model's view, only where the solver gave no answer

    @property
    def team(self) -> int:
        return self.seat % 2

    @property
    def mistake(self) -> bool:
        return self.solved and (self.levels_lost > 0 or self.hand_lost)

    def to_json(self) -> DecisionJSON:
        data: DecisionJSON = {
            "index": self.index,
            "trick": self.trick,
            "seat": self.seat,
            "action": str(self.action),
            "solved": self.solved,
            "forced": self.forced,
        }
        if self.solved and self.scope == "result":
            # Only the hand's result is known: whether the play cost the hand (a lost hand is at least a level).
            data["scope"] = "result"
            data["best"] = [str(action) for action in self.best]
            data["levels_lost"] = int(self.hand_lost)
            data["hand_lost"] = self.hand_lost
        elif self.solved:
            # A forced play in a position too big to solve is best by definition, with no value to show.
            data["best"] = [str(action) for action in self.best]
            data["levels_lost"] = self.levels_lost
            data["tens_lost"] = self.tens_lost
            data["hand_lost"] = self.hand_lost
            if self.value is not None and self.best_value is not None:
                data["value"] = self.value.to_json()
                data["best_value"] = self.best_value.to_json()
        if self.estimate is not None:
            data["estimate"] = self.estimate.to_json()
        return data


@dataclass
class HandAnalysis:
    hand: int
    dealer: int
    decisions: list[Decision]
    start: Value | None  # the deal's double-dummy value before the first decision, if solved

    def to_json(self) -> HandAnalysisJSON:
        return {
            "hand": self.hand,
            "dealer": self.dealer,
            "start": None if self.start is None else self.start.to_json(),
            "decisions": [decision.to_json() for decision in self.decisions],
        }


@dataclass
class SeatSummary:
    seat: int
    decisions: int = 0
    solved: int = 0
    best: int = 0
    mistakes: int = 0
    tens_lost: int = 0
    hands_lost: int = 0
    estimated: int = 0  # decisions with only the model's estimate: not in the counts above
    estimated_hands_lost: int = 0  # of those, the ones whose estimate looks like costing the hand

    @property
    def accuracy(self) -> float | None:
        """Share of the solved decisions that kept the best value (estimates do not count)."""
        return None if not self.solved else self.best / self.solved

    def to_json(self) -> SeatSummaryJSON:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "solved": self.solved,
            "best": self.best,
            "mistakes": self.mistakes,
            "tens_lost": self.tens_lost,
            "hands_lost": self.hands_lost,
            "accuracy": None if self.accuracy is None else round(self.accuracy, 4),
            "estimated": self.estimated,
            "estimated_hands_lost": self.estimated_hands_lost,
        }


@dataclass
class RecordAnalysis:
    rules: RulesJSON
    hands: list[HandAnalysis]
    seats: list[SeatSummary]

    def to_json(self) -> RecordAnalysisJSON:
        return {
            "format": "dehla-analysis/1",
            "rules": self.rules,
            "hands": [hand.to_json() for hand in self.hands],
            "seats": [seat.to_json() for seat in self.seats],
        }
