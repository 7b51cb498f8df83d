"""How an analysis is shown: as text for people (``dehla analyse``) and as one hand's reply (the web replay).

Both come from one ``RecordAnalysis`` and its JSON (``dehla-analysis/1``).  What is said of each judged decision
is decided here once (``verdict``): a mark kind and a short list of phrases, each an English template with named
parameters (``PhraseJSON``); so is what is said of a hand (``hand_summary``: its value from the deal, the counts
of decisions that gave something away, were not solved or were estimated, the estimates' legend) and of the
seats (``seat_table``).  ``dehla analyse`` fills the templates in English (``fill``); the replay's page
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
    HandAnalysis,
    HandAnalysisJSON,
    RecordAnalysis,
    SeatSummary,
    SeatSummaryJSON,
)
from dehla.rules import RulesJSON

if TYPE_CHECKING:  # rendering reads values without loading the solver
    from dehla.solver.objective import Value

__all__ = [
    "ESTIMATE_LEGEND",
    "ESTIMATE_WORDS",
    "MARKS",
    "PLURAL_TEMPLATES",
    "TEMPLATES",
    "ActionsParam",
    "HandReply",
    "HandSummaryJSON",
    "JudgedAnalysisJSON",
    "JudgedDecisionJSON",
    "JudgedHandJSON",
    "Mark",
    "NoDecisions",
    "NumberParam",
    "ParamJSON",
    "PhraseJSON",
    "SeatParam",
    "SeatRowJSON",
    "SeatTableJSON",
    "VerdictJSON",
    "analysis_json",
    "analysis_text",
    "fill",
    "hand_reply",
    "hand_summary",
    "param_text",
    "say",
    "seat_table",
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


@final  # the parameter's kind is told by its keys
class SeatParam(TypedDict):
    """A seat as a parameter: each renderer names it its own way (``Asha (seat 0)`` here, the player's name on the
    page)."""

    seat: int


#: A phrase's parameter: a count or number as it is, actions, a margin, a seat, or a phrase of its own (translated
#: too).
ParamJSON = Union[int, str, ActionsParam, NumberParam, SeatParam, "PhraseJSON"]


@final  # the parameter's kind is told by its keys
class PhraseJSON(TypedDict):
    """An English template with named ``{parameters}``; with ``plural``, ``params["n"]`` chooses the form."""

    text: str
    plural: NotRequired[str]
    params: dict[str, ParamJSON]


#: How a decision is marked: kept the best value (✓), gave something away (✗), not solved (?), estimated (~).
Mark = Literal["good", "bad", "unknown", "estimate"]


class VerdictJSON(TypedDict):
    """What is said of one decision (``index`` in the hand's actions): who played what (``played``), its mark and
    its words, phrase by phrase."""

    index: int
    played: PhraseJSON
    mark: Mark
    words: list[PhraseJSON]


class SeatRowJSON(TypedDict):
    """One seat's row of the seats' table: the seat, then a cell a column."""

    seat: int
    cells: list[ParamJSON]


class SeatTableJSON(TypedDict):
    """The seats' summary as a table: its title, the headings of its columns (the first is the seat's) and rows."""

    title: PhraseJSON
    headings: list[PhraseJSON]
    rows: list[SeatRowJSON]


class HandSummaryJSON(TypedDict):
    """What is said of one analysed hand, in the order both front ends show it.

    ``start``: its value under best play from the deal; ``gave_away``: how many decisions gave something away
    (their verdicts are those marked ``bad``); ``unsolved``: how many were not solved and have no estimate
    (marked ``unknown``), else ``None``; ``estimates``: the title, the count and the legend of the estimated
    ones (marked ``estimate``), else ``None``.
    """

    start: PhraseJSON
    gave_away: PhraseJSON
    unsolved: PhraseJSON | None
    estimates: list[PhraseJSON] | None


class NoDecisions(TypedDict):
    """A hand the analysis has nothing to say about (no decision in it)."""

    hand: int
    decisions: list[DecisionJSON]
    start: None


class HandReply(TypedDict):
    """One hand of ``dehla analyse --json`` and the seats' summaries (the web replay's ``/analysis/HAND``), with
    what is said of the hand's start (``start_words``, when solved), of each decision (``verdicts``), of the hand
    (``summary``) and of the seats (``seat_table``), as ``dehla analyse`` says them."""

    format: str
    hand: HandAnalysisJSON | NoDecisions
    seats: list[SeatSummaryJSON]
    node_limit: int
    start_words: PhraseJSON | None
    verdicts: list[VerdictJSON]
    summary: HandSummaryJSON
    seat_table: SeatTableJSON


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
# A decision's head, and what is said of a hand and of the seats.
PLAYED = "Trick {trick}: {who} played {action}"
START = "With best play from the deal: {value}."
START_UNKNOWN = "The deal's value was not solved."
GAVE_AWAY = ("{n} decision gave something away:", "{n} decisions gave something away:")
NONE_GAVE_AWAY = "No decision gave anything away among those solved."
UNSOLVED = (
    "{n} early decision was too big to solve in the time allowed; it is marked ?.",
    "{n} early decisions were too big to solve in the time allowed; they are marked ?.",
)
ESTIMATES_TITLE = "Estimates (not exact)"
ESTIMATED = (
    "{n} early decision was too big to solve; it is marked ~ with the learned value's estimate instead.",
    "{n} early decisions were too big to solve; they are marked ~ with the learned value's estimate instead.",
)
ESTIMATE_LEGEND = (
    "An estimate is the expected points margin of the hand for the player's team, from -{s} to +{s}; it can be "
    "wrong and is not counted above."
)
EVERY_DECISION = "Every decision:"
SEATS_TITLE = "Analysis per seat"
SEAT_HEADINGS = ("Seat", "Solved", "Best plays", "Costly plays", "Tens given away", "Hands given away")
SOLVED_OF = "{solved} / {decisions}"

#: Every template a verdict, a hand's summary or the seats' table can hold without a count, and every one with
#: (singular, plural): the web's catalogs translate them all (tests/web/test_i18n.py).
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
    PLAYED,
    START,
    START_UNKNOWN,
    NONE_GAVE_AWAY,
    ESTIMATES_TITLE,
    ESTIMATE_LEGEND,
    EVERY_DECISION,
    SEATS_TITLE,
    *SEAT_HEADINGS,
    SOLVED_OF,
)
PLURAL_TEMPLATES: tuple[tuple[str, str], ...] = (COSTS_TENS, TEAM_WINS, GAVE_AWAY, UNSOLVED, ESTIMATED)


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
    played = _phrase(PLAYED, trick=decision.trick, who={"seat": decision.seat}, action=_actions([decision.action]))
    return {"index": decision.index, "played": played, "mark": mark, "words": words}


def _costly_words(decision: Decision, value: Value, best_value: Value) -> PhraseJSON:
    tens = _counted(COSTS_TENS, decision.tens_lost) if decision.tens_lost else None
    if decision.hand_lost:
        cost = _phrase(COSTS_HAND) if tens is None else _phrase(COSTS_HAND_AND, tens=tens)
    else:
        cost = _phrase(GIVES_GROUND) if tens is None else tens
    return _phrase(
        COSTLY, cost=cost, value=value_words(value), best=_actions(decision.best), best_value=value_words(best_value)
    )


def fill(phrase: PhraseJSON, names: Sequence[object] | None = None) -> str:
    """The phrase in English: its template (or plural form) with every parameter written out (seats by
    ``names``, the players by seat, when given)."""
    params = phrase["params"]
    text = phrase["text"]
    if "plural" in phrase and params.get("n") != 1:
        text = phrase["plural"]
    for name, param in params.items():
        text = text.replace("{" + name + "}", param_text(param, names))
    return text


def param_text(param: ParamJSON, names: Sequence[object] | None = None) -> str:
    """A parameter in English: a count or text as it is, actions, a margin, a seat, or a phrase."""
    if isinstance(param, int | str):
        return str(param)
    if "actions" in param:
        return " ".join(param["actions"])
    if "number" in param:
        number: float = param["number"]
        return f"{number:+.2f}" if param["signed"] else f"{number:.2f}"
    if "seat" in param:
        return _seat(param["seat"], names)
    return fill(param, names)


def say(words: Sequence[PhraseJSON], names: Sequence[object] | None = None) -> str:
    """A verdict's words in English, phrase after phrase (as the page joins them too)."""
    return "; ".join(fill(phrase, names) for phrase in words)


def hand_summary(hand: HandAnalysis | None, verdicts: Sequence[VerdictJSON]) -> HandSummaryJSON:
    """What is said of ``hand`` (``None``: nothing analysed) whose decisions got ``verdicts``: its value from the
    deal, then the counts of the decisions by mark, and the legend of the estimates when there are some."""
    start = None if hand is None else hand.start
    marks = [item["mark"] for item in verdicts]
    costly, unsolved, estimated = marks.count("bad"), marks.count("unknown"), marks.count("estimate")
    scales = [] if hand is None else [d.estimate.scale for d in hand.decisions if d.estimate is not None]
    return {
        "start": _phrase(START_UNKNOWN) if start is None else _phrase(START, value=value_words(start)),
        "gave_away": _counted(GAVE_AWAY, costly) if costly else _phrase(NONE_GAVE_AWAY),
        "unsolved": _counted(UNSOLVED, unsolved) if unsolved else None,
        "estimates": [
            _phrase(ESTIMATES_TITLE),
            _counted(ESTIMATED, estimated),
            _phrase(ESTIMATE_LEGEND, s=max(scales, default=1)),
        ]
        if estimated
        else None,
    }


def seat_table(seats: Sequence[SeatSummary]) -> SeatTableJSON:
    """The seats' summary of the solved decisions (estimates are never counted in it)."""
    return {
        "title": _phrase(SEATS_TITLE),
        "headings": [_phrase(heading) for heading in SEAT_HEADINGS],
        "rows": [
            {
                "seat": seat.seat,
                "cells": [
                    {"seat": seat.seat},
                    _phrase(SOLVED_OF, solved=seat.solved, decisions=seat.decisions),
                    seat.best,
                    seat.mistakes,
                    seat.tens_lost,
                    seat.hands_lost,
                ],
            }
            for seat in seats
        ],
    }


def hand_reply(analysis: RecordAnalysis, hand: int, node_limit: int) -> HandReply:
    """Hand ``hand`` of ``analysis`` (an analysis of that hand alone) as the replay asks for it."""
    data = analysis.to_json()
    hands = data["hands"]
    found = analysis.hands[:1]
    start = found[0].start if found else None
    verdicts = [verdict(decision) for item in found for decision in item.decisions]
    return {
        "format": data["format"],
        "hand": hands[0] if hands else {"hand": hand, "decisions": [], "start": None},
        "seats": data["seats"],
        "node_limit": node_limit,
        "start_words": None if start is None else value_words(start),
        "verdicts": verdicts,
        "summary": hand_summary(found[0] if found else None, verdicts),
        "seat_table": seat_table(analysis.seats),
    }


class JudgedDecisionJSON(DecisionJSON):
    """A decision of ``dehla analyse --json`` with what is said of it (``verdict``), as the replay says it."""

    verdict: VerdictJSON


class JudgedHandJSON(TypedDict):
    """A hand of ``dehla analyse --json``: ``HandAnalysisJSON`` with each decision's verdict."""

    hand: int
    dealer: int
    start: dict[str, object] | None
    decisions: list[JudgedDecisionJSON]


class JudgedAnalysisJSON(TypedDict):
    """``dehla analyse --json``: ``RecordAnalysisJSON`` whose decisions carry their verdicts."""

    format: str
    rules: RulesJSON
    hands: list[JudgedHandJSON]
    seats: list[SeatSummaryJSON]


def analysis_json(analysis: RecordAnalysis) -> JudgedAnalysisJSON:
    """``dehla analyse --json``: the analysis's JSON with each decision's verdict (its mark and words)."""
    data = analysis.to_json()
    hands: list[JudgedHandJSON] = []
    for item, hand in zip(analysis.hands, data["hands"]):
        decisions: list[JudgedDecisionJSON] = [
            {**decision_json, "verdict": verdict(decision)}
            for decision, decision_json in zip(item.decisions, hand["decisions"])
        ]
        hands.append({"hand": hand["hand"], "dealer": hand["dealer"], "start": hand["start"], "decisions": decisions})
    return {"format": data["format"], "rules": data["rules"], "hands": hands, "seats": data["seats"]}


def _seat(seat: int, names: Sequence[object] | None) -> str:
    if names and seat < len(names) and isinstance(names[seat], str):
        return f"{names[seat]} (seat {seat})"
    return f"seat {seat}"


def _decision_line(item: VerdictJSON, names: Sequence[object] | None) -> str:
    """A decision as a line: its mark, who played what, its words."""
    return f"    {MARKS[item['mark']]} {fill(item['played'], names)}: {say(item['words'], names)}"


#: The mark of each kind, as the page shows it too.
MARKS: dict[Mark, str] = {"good": "✓", "bad": "✗", "unknown": "?", "estimate": "~"}


def _hand_lines(hand: HandAnalysis, names: Sequence[object] | None, everything: bool) -> list[str]:
    """One hand in the order the replay shows it: the summary's lines, each followed by the decisions it counts."""
    verdicts = [verdict(decision) for decision in hand.decisions]
    summary = hand_summary(hand, verdicts)
    lines = ["", f"Hand {hand.hand} (dealer {_seat(hand.dealer, names)})", "  " + fill(summary["start"], names)]

    def listed(mark: Mark) -> list[str]:
        return [_decision_line(item, names) for item in verdicts if item["mark"] == mark]

    lines.append("  " + fill(summary["gave_away"], names))
    lines.extend(listed("bad"))
    if summary["unsolved"] is not None:
        lines.append("  " + fill(summary["unsolved"], names))
        lines.extend(listed("unknown"))
    if summary["estimates"] is not None:
        title, count, legend = summary["estimates"]
        lines.append("  " + fill(title, names))
        lines.append("  " + fill(count, names) + " " + fill(legend, names))
        lines.extend(listed("estimate"))
    if summary["unsolved"] is not None or summary["estimates"] is not None:
        lines.append("  (the node limit and the hand's time budget: --nodes and --hand-seconds raise them)")
    if everything:
        lines.append("  " + fill(_phrase(EVERY_DECISION), names))
        lines.extend(_decision_line(item, names) for item in verdicts)
    return lines


def _table_lines(table: SeatTableJSON, names: Sequence[object] | None) -> list[str]:
    """The seats' table in aligned columns."""
    rows = [[fill(heading, names) for heading in table["headings"]]]
    rows.extend([param_text(cell, names) for cell in row["cells"]] for row in table["rows"])
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = ["", fill(table["title"], names)]
    lines.extend("  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows)
    return lines


def analysis_text(analysis: RecordAnalysis, where: str, names: Sequence[str] | None, everything: bool) -> str:
    """The analysis as text for people, in the replay's words (the same templates): each hand's summary with the
    decisions it counts (every decision too with ``everything``), then the seats' table; ``where`` names the
    record, ``names`` the players by seat (when the record has them)."""
    lines = [f"Analysis of {where} (rules {json.dumps(analysis.rules)}): every card known, best play by both teams."]
    for hand in analysis.hands:
        lines.extend(_hand_lines(hand, names, everything))
    lines.extend(_table_lines(seat_table(analysis.seats), names))
    return "\n".join(lines)
