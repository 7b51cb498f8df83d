"""How an analysis is shown: as text for people (``dehla analyse``) and as one hand's reply (the web replay).

Both come from one ``RecordAnalysis`` and its JSON (``dehla-analysis/1``).  What is said of each judged decision
is decided here once (``verdict``): a mark kind and a short list of phrases, each an English template with named
parameters (``PhraseJSON``).  ``dehla analyse`` fills the templates in English (``fill``); the replay's page
translates each template with its catalog (``web/static/js/replay.js``), so every template is in
``TEMPLATES``/``PLURAL_TEMPLATES`` and the web's catalogs.  Estimates (the learned value's answers) carry ``~`` and
the word "estimate", and are never counted with the exact findings.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict, Union, final

from dehla.analysis.findings import (
    Decision,
    DecisionEstimate,
    DecisionJSON,
    HandAnalysisJSON,
    RecordAnalysis,
    SeatSummaryJSON,
)

if TYPE_CHECKING:  # rendering reads values without loading the solver
    from dehla.solver.objective import Value

__all__ = [
    "ESTIMATE_LEGEND",
    "ESTIMATE_WORDS",
    "PLURAL_TEMPLATES",
    "TEMPLATES",
    "ActionsParam",
    "HandReply",
    "Mark",
    "NoDecisions",
    "NumberParam",
    "ParamJSON",
    "PhraseJSON",
    "VerdictJSON",
    "analysis_text",
    "fill",
    "hand_reply",
    "verdict",
]


@final  # the parameter's kind is told by its keys
class ActionsParam(TypedDict):
    """Actions as a parameter: each renderer writes them its own way (``10H`` here, ``10♥`` on the page)."""

    actions: list[str]


@final  # the parameter's kind is told by its keys
class NumberParam(TypedDict):
    """A margin as a parameter: two decimals, with its sign when ``signed``, in the reader's number format."""

    number: float
    signed: bool


#: A phrase's parameter: a count or number as it is, actions, a margin, or a phrase of its own (translated too).
ParamJSON = Union[int, str, ActionsParam, NumberParam, "PhraseJSON"]


@final  # the parameter's kind is told by its keys
class PhraseJSON(TypedDict):
    """An English template with named ``{parameters}``; with ``plural``, ``params["n"]`` chooses the form."""

    text: str
    plural: NotRequired[str]
    params: dict[str, ParamJSON]


#: How a decision is marked: kept the best value (✓), gave something away (✗), not solved (?), estimated (~).
Mark = Literal["good", "bad", "unknown", "estimate"]


class VerdictJSON(TypedDict):
    """What is said of one decision (``index`` in the hand's actions): its mark and its words, phrase by phrase."""

    index: int
    mark: Mark
    words: list[PhraseJSON]


class NoDecisions(TypedDict):
    """A hand the analysis has nothing to say about (no decision in it)."""

    hand: int
    decisions: list[DecisionJSON]
    start: None


class HandReply(TypedDict):
    """One hand of ``dehla analyse --json`` and the seats' summaries (the web replay's ``/analysis/HAND``), with
    what is said of the hand's start (``start_words``, when solved) and of each decision (``verdicts``)."""

    format: str
    hand: HandAnalysisJSON | NoDecisions
    seats: list[SeatSummaryJSON]
    node_limit: int
    start_words: PhraseJSON | None
    verdicts: list[VerdictJSON]


# The templates, each said once; a plural's count is its ``n``.
NOT_SOLVED = "not solved"
TOO_BIG = "not solved (too big for the node limit or the hand's time budget)"
FORCED = "forced"
BEST = "best ({value})"
COSTS_HAND = "COSTS THE HAND"
COSTS_HAND_AND = "COSTS THE HAND, {tens}"
GIVES_GROUND = "gives ground"
COSTLY = "{cost} — {value}; best was {best} ({best_value})"
RESULT_KEPT = "keeps the hand's result (result solved, not the tens)"
RESULT_LOST = "COSTS THE HAND (result solved, not the tens); best was {best}"
RESULT_LOST_UNKNOWN_BEST = "COSTS THE HAND (result solved, not the tens); the best play is beyond the node limit"
VALUE = "{result}, tens {zero}-{one}"
NOBODY_SCORES = "nobody scores"
ESTIMATE_BEST = "~ estimate: the model's best choice (~{value})"
ESTIMATE_OTHER = "~ estimate: {verdict} (~{value} against ~{best_value} for {best}, ~{lost} lost)"
#: The words for an estimate's verdict (``DecisionEstimate.verdict``) other than "best".
ESTIMATE_WORDS = {
    "hand": "looks like it COSTS THE HAND",
    "close": "close to the model's best",
    "weaker": "looks weaker",
}
COSTS_TENS = ("costs {n} ten", "costs {n} tens")
TEAM_WINS = ("team {team} wins ({n} point)", "team {team} wins ({n} points)")

#: Every template a verdict can hold without a count, and every one with (singular, plural): the web's catalogs
#: translate them all (tests/web/test_i18n.py).
TEMPLATES: tuple[str, ...] = (
    NOT_SOLVED,
    TOO_BIG,
    FORCED,
    BEST,
    COSTS_HAND,
    COSTS_HAND_AND,
    GIVES_GROUND,
    COSTLY,
    RESULT_KEPT,
    RESULT_LOST,
    RESULT_LOST_UNKNOWN_BEST,
    VALUE,
    NOBODY_SCORES,
    ESTIMATE_BEST,
    ESTIMATE_OTHER,
    *ESTIMATE_WORDS.values(),
)
PLURAL_TEMPLATES: tuple[tuple[str, str], ...] = (COSTS_TENS, TEAM_WINS)


def _phrase(text: str, **params: ParamJSON) -> PhraseJSON:
    return {"text": text, "params": params}


def _counted(forms: tuple[str, str], n: int, **params: ParamJSON) -> PhraseJSON:
    return {"text": forms[0], "plural": forms[1], "params": {"n": n, **params}}


def _actions(actions: Sequence[object]) -> ActionsParam:
    return {"actions": [str(action) for action in actions]}


def _margin(value: float, signed: bool = True) -> NumberParam:
    return {"number": value, "signed": signed}  # unrounded: each renderer rounds once, to two decimals


def value_words(value: Value) -> PhraseJSON:
    """A solved value: who wins and for how many points, and the tens (``team 0 wins (1 point), tens 3-1``)."""
    if value.winner is None:
        result = _phrase(NOBODY_SCORES)
    else:
        result = _counted(TEAM_WINS, value.points[value.winner], team=value.winner)
    return _phrase(VALUE, result=result, zero=value.tens[0], one=value.tens[1])


def _estimate_words(estimate: DecisionEstimate) -> PhraseJSON:
    """One decision's estimate, marked so that nobody takes it for the solver's answer."""
    if estimate.verdict == "best":
        return _phrase(ESTIMATE_BEST, value=_margin(estimate.value))
    return _phrase(
        ESTIMATE_OTHER,
        verdict=_phrase(ESTIMATE_WORDS[estimate.verdict]),
        value=_margin(estimate.value),
        best_value=_margin(estimate.best_value),
        best=_actions(estimate.best),
        lost=_margin(estimate.margin_lost, signed=False),
    )


def verdict(decision: Decision) -> VerdictJSON:
    """What is said of ``decision``: its mark and its words, the one place both front ends take them from."""
    mark: Mark
    words: list[PhraseJSON]
    if not decision.solved:
        if decision.estimate is not None:
            mark, words = "estimate", [_phrase(NOT_SOLVED), _estimate_words(decision.estimate)]
        else:
            mark, words = "unknown", [_phrase(TOO_BIG)]
    elif decision.scope == "result":
        if not decision.hand_lost:
            mark, words = "good", [_phrase(RESULT_KEPT)]
        elif decision.best:
            mark, words = "bad", [_phrase(RESULT_LOST, best=_actions(decision.best))]
        else:
            mark, words = "bad", [_phrase(RESULT_LOST_UNKNOWN_BEST)]
    elif decision.value is None or decision.best_value is None:
        mark, words = "good", [_phrase(FORCED)]
    elif decision.levels_lost == 0:
        mark, words = "good", [_phrase(BEST, value=value_words(decision.value))]
    else:
        mark, words = "bad", [_costly_words(decision, decision.value, decision.best_value)]
    return {"index": decision.index, "mark": mark, "words": words}


def _costly_words(decision: Decision, value: Value, best_value: Value) -> PhraseJSON:
    tens = _counted(COSTS_TENS, decision.tens_lost) if decision.tens_lost else None
    if decision.hand_lost:
        cost = _phrase(COSTS_HAND) if tens is None else _phrase(COSTS_HAND_AND, tens=tens)
    else:
        cost = _phrase(GIVES_GROUND) if tens is None else tens
    return _phrase(
        COSTLY, cost=cost, value=value_words(value), best=_actions(decision.best), best_value=value_words(best_value)
    )


def fill(phrase: PhraseJSON) -> str:
    """The phrase in English: its template (or plural form) with every parameter written out."""
    params = phrase["params"]
    text = phrase["text"]
    if "plural" in phrase and params.get("n") != 1:
        text = phrase["plural"]
    for name, param in params.items():
        text = text.replace("{" + name + "}", _param_text(param))
    return text


def _param_text(param: ParamJSON) -> str:
    if isinstance(param, int | str):
        return str(param)
    if "actions" in param:
        return " ".join(param["actions"])
    if "number" in param:
        number: float = param["number"]
        return f"{number:+.2f}" if param["signed"] else f"{number:.2f}"
    return fill(param)


def say(words: Sequence[PhraseJSON]) -> str:
    """A verdict's words in English, phrase after phrase (as the page joins them too)."""
    return "; ".join(fill(phrase) for phrase in words)


def hand_reply(analysis: RecordAnalysis, hand: int, node_limit: int) -> HandReply:
    """Hand ``hand`` of ``analysis`` (an analysis of that hand alone) as the replay asks for it."""
    data = analysis.to_json()
    hands = data["hands"]
    found = analysis.hands[:1]
    start = found[0].start if found else None
    return {
        "format": data["format"],
        "hand": hands[0] if hands else {"hand": hand, "decisions": [], "start": None},
        "seats": data["seats"],
        "node_limit": node_limit,
        "start_words": None if start is None else value_words(start),
        "verdicts": [verdict(decision) for item in found for decision in item.decisions],
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
        words = say(verdict(decision)["words"])
        return f"  trick {decision.trick:>2}  {_seat(decision.seat, names)} {decision.action}: {words}"

    legend = False
    for hand in analysis.hands:
        lines.append("")
        start = "not solved" if hand.start is None else fill(value_words(hand.start))
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


def _scale_text(analysis: RecordAnalysis) -> str:
    scales = sorted({d.estimate.scale for hand in analysis.hands for d in hand.decisions if d.estimate is not None})
    largest = scales[-1] if scales else 1
    return f"from -{largest} to +{largest}, the largest result of these rules"
