"""How an analysis is shown: as text for people (``dehla analyse``) and as one hand's reply (the web replay).

Both come from one ``RecordAnalysis`` and its JSON (``dehla-analysis/1``).  The replay's page draws the hand
reply in the viewer's language (``web/static/js/replay.js``), with the same marks: ``~`` and "estimate" for the
learned value's answers, never counted with the exact findings.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TypedDict

from dehla.analysis.findings import (
    Decision,
    DecisionEstimate,
    DecisionJSON,
    HandAnalysisJSON,
    RecordAnalysis,
    SeatSummaryJSON,
)

__all__ = ["ESTIMATE_LEGEND", "ESTIMATE_WORDS", "HandReply", "NoDecisions", "analysis_text", "hand_reply"]


class NoDecisions(TypedDict):
    """A hand the analysis has nothing to say about (no decision in it)."""

    hand: int
    decisions: list[DecisionJSON]
    start: None


class HandReply(TypedDict):
    """One hand of ``dehla analyse --json`` and the seats' summaries (the web replay's ``/analysis/HAND``)."""

    format: str
    hand: HandAnalysisJSON | NoDecisions
    seats: list[SeatSummaryJSON]
    node_limit: int


def hand_reply(analysis: RecordAnalysis, hand: int, node_limit: int) -> HandReply:
    """Hand ``hand`` of ``analysis`` (an analysis of that hand alone) as the replay asks for it."""
    data = analysis.to_json()
    hands = data["hands"]
    return {
        "format": data["format"],
        "hand": hands[0] if hands else {"hand": hand, "decisions": [], "start": None},
        "seats": data["seats"],
        "node_limit": node_limit,
    }


def _seat(seat: int, names: Sequence[str] | None) -> str:
    if names and seat < len(names) and isinstance(names[seat], str):
        return f"{names[seat]} (seat {seat})"
    return f"seat {seat}"


def analysis_text(analysis: RecordAnalysis, where: str, names: Sequence[str] | None, everything: bool) -> str:
    """The analysis as text for people: a line a decision (the costly and unsolved ones, or ``everything``), then
    the seats' summaries; ``where`` names the record, ``names`` the players by seat (when the record has them)."""
    lines = [f"Analysis of {where} (rules {json.dumps(analysis.rules)}): every card known, best play by both teams."]

    def describe(decision: Decision) -> str:
        who = _seat(decision.seat, names)
        head = f"  trick {decision.trick:>2}  {who} {decision.action}"
        if not decision.solved:
            if decision.estimate is not None:
                return f"{head}: not solved; {_estimate_text(decision.estimate)}"
            return f"{head}: not solved (too big for the node limit or the hand's time budget)"
        if decision.scope == "result":
            best = " ".join(str(action) for action in decision.best)
            if decision.hand_lost and not best:
                return f"{head}: COSTS THE HAND (result solved, not the tens); the best play is beyond the node limit"
            if decision.hand_lost:
                return f"{head}: COSTS THE HAND (result solved, not the tens); best was {best}"
            return f"{head}: keeps the hand's result (result solved, not the tens)"
        if decision.value is None or decision.best_value is None:
            return f"{head}: forced"
        value = decision.value.describe()
        if decision.levels_lost == 0:
            return f"{head}: best ({value})"
        flags = []
        if decision.hand_lost:
            flags.append("COSTS THE HAND")
        if decision.tens_lost:
            flags.append(f"costs {decision.tens_lost} ten{'s' if decision.tens_lost > 1 else ''}")
        if not flags:
            flags.append("gives ground")
        best = " ".join(str(action) for action in decision.best)
        return f"{head}: {', '.join(flags)} — {value}; best was {best} ({decision.best_value.describe()})"

    legend = False
    for hand in analysis.hands:
        lines.append("")
        start = "not solved" if hand.start is None else hand.start.describe()
        lines.append(f"Hand {hand.hand} (dealer {_seat(hand.dealer, names)}): value at the start {start}")
        shown = [d for d in hand.decisions if everything or d.mistake or not d.solved]
        unsolved = sum(1 for d in hand.decisions if not d.solved)
        estimated = [d for d in hand.decisions if d.estimate is not None]
        if not everything and unsolved:
            shown = [d for d in hand.decisions if d.mistake or d.estimate is not None]
            lines.append(
                f"  {unsolved} decision(s) not solved (too big for the node limit or the hand's time budget); "
                "--nodes and --hand-seconds raise them"
            )
        if not any(d.mistake for d in shown):
            lines.append("  every solved decision kept the best value")
        lines.extend(describe(decision) for decision in shown)
        if estimated:
            legend = True
    if legend:
        lines.append("")
        lines.append(ESTIMATE_LEGEND.format(scale=_scale_text(analysis)))
    lines.append("")
    lines.append("Seats (solved decisions):")
    for seat in analysis.seats:
        accuracy = "—" if seat.accuracy is None else f"{100 * seat.accuracy:.0f}%"
        lines.append(
            f"  {_seat(seat.seat, names)}: {seat.solved}/{seat.decisions} solved, {seat.best} best ({accuracy}), "
            f"{seat.mistakes} costly: {seat.tens_lost} ten(s) and {seat.hands_lost} hand(s) lost"
        )
    if legend:
        lines.append("Estimates (the model's guesses, not exact; not counted above):")
        for seat in analysis.seats:
            lines.append(
                f"  ~ {_seat(seat.seat, names)}: {seat.estimated} decision(s) estimated, "
                f"{seat.estimated_hands_lost} look(s) like costing the hand"
            )
    return "\n".join(lines)


#: What ``~`` means, printed under the hands whenever one shows an estimate.
ESTIMATE_LEGEND = (
    "~ marks an ESTIMATE from the learned value, not the solver: the hand's expected points margin for the "
    "player's team ({scale}) under best play to the end of the trick, each ending valued by the model. "
    "Estimates can be wrong and are never counted as mistakes."
)


#: The words for an estimate's verdict (``DecisionEstimate.verdict``) other than "best".
ESTIMATE_WORDS = {
    "hand": "looks like it COSTS THE HAND",
    "close": "close to the model's best",
    "weaker": "looks weaker",
}


def _signed(margin: float) -> str:
    return f"{margin:+.2f}"


def _estimate_text(estimate: DecisionEstimate) -> str:
    """One decision's estimate, marked so that nobody takes it for the solver's answer."""
    value = f"~{_signed(estimate.value)}"
    if estimate.verdict == "best":
        return f"~ estimate: the model's best choice ({value})"
    best = " ".join(str(action) for action in estimate.best)
    verdict = ESTIMATE_WORDS[estimate.verdict]
    return (
        f"~ estimate: {verdict} ({value} against ~{_signed(estimate.best_value)} for {best}, "
        f"~{estimate.margin_lost:.2f} lost)"
    )


def _scale_text(analysis: RecordAnalysis) -> str:
    scales = sorted({d.estimate.scale for hand in analysis.hands for d in hand.decisions if d.estimate is not None})
    largest = scales[-1] if scales else 1
    return f"from -{largest} to +{largest}, the largest result of these rules"
