"""What is said of each decision is decided once (``dehla.analysis.render.verdict``): a mark and English templates.

``dehla analyse`` fills them in English; the web replay translates the same templates, so every phrase the
renderer makes uses a registered template (the web's catalogs translate those: tests/web/test_i18n.py).
"""

from __future__ import annotations

import pytest

from dehla.analysis.findings import Decision, DecisionEstimate, HandAnalysis, RecordAnalysis, SeatSummary
from dehla.analysis.render import (
    PLURAL_TEMPLATES,
    TEMPLATES,
    Mark,
    PhraseJSON,
    fill,
    hand_reply,
    say,
    verdict,
)
from dehla.engine.actions import parse_action
from dehla.solver.objective import Value

WON = Value(level=5, winner=0, points=(1, 0), tens=(3, 1))
LOST = Value(level=2, winner=1, points=(0, 2), tens=(1, 3))
NOBODY = Value(level=3, winner=None, points=(0, 0), tens=(2, 2))


def _decision(**fields: object) -> Decision:
    base: dict[str, object] = {"hand": 0, "index": 4, "trick": 2, "seat": 1, "action": parse_action("10H")}
    return Decision(**{**base, **fields})  # type: ignore[arg-type]


CASES: list[tuple[Decision, Mark, str]] = [
    (_decision(solved=False), "unknown", "not solved (too big for the node limit or the hand's time budget)"),
    (
        _decision(solved=False, estimate=DecisionEstimate(0.5, 0.5, [parse_action("10H")], 1)),
        "estimate",
        "not solved; ~ estimate: the model's best choice (~+0.50)",
    ),
    (
        _decision(solved=False, estimate=DecisionEstimate(-0.25, 0.5, [parse_action("AS"), parse_action("KS")], 1)),
        "estimate",
        "not solved; ~ estimate: looks like it COSTS THE HAND (~-0.25 against ~+0.50 for AS KS, ~0.75 lost)",
    ),
    (_decision(solved=True, forced=True), "good", "forced"),
    (_decision(solved=True, value=WON, best_value=WON), "good", "best (team 0 wins (1 point), tens 3-1)"),
    (
        _decision(
            solved=True,
            value=LOST,
            best_value=WON,
            best=[parse_action("AS")],
            levels_lost=3,
            tens_lost=2,
            hand_lost=True,
        ),
        "bad",
        "COSTS THE HAND, costs 2 tens — team 1 wins (2 points), tens 1-3; "
        "best was AS (team 0 wins (1 point), tens 3-1)",
    ),
    (
        _decision(solved=True, value=NOBODY, best_value=WON, best=[parse_action("AS")], levels_lost=2, tens_lost=1),
        "bad",
        "costs 1 ten — nobody scores, tens 2-2; best was AS (team 0 wins (1 point), tens 3-1)",
    ),
    (
        _decision(solved=True, value=LOST, best_value=LOST, best=[parse_action("AS")], levels_lost=1),
        "bad",
        "gives ground — team 1 wins (2 points), tens 1-3; best was AS (team 1 wins (2 points), tens 1-3)",
    ),
    (
        _decision(solved=True, scope="result", best=[parse_action("10H")]),
        "good",
        "keeps the hand's result (result solved, not the tens)",
    ),
    (
        _decision(solved=True, scope="result", best=[parse_action("AS")], levels_lost=1, hand_lost=True),
        "bad",
        "COSTS THE HAND (result solved, not the tens); best was AS",
    ),
    (
        _decision(solved=True, scope="result", levels_lost=1, hand_lost=True),
        "bad",
        "COSTS THE HAND (result solved, not the tens); the best play is beyond the node limit",
    ),
]


def _templates(phrase: PhraseJSON) -> list[str | tuple[str, str]]:
    """Every template of a phrase and of the phrases among its parameters."""
    found: list[str | tuple[str, str]] = [(phrase["text"], phrase["plural"]) if "plural" in phrase else phrase["text"]]
    for param in phrase["params"].values():
        if isinstance(param, dict) and "text" in param:
            found.extend(_templates(param))
    return found


@pytest.mark.parametrize(("decision", "mark", "english"), CASES)
def test_each_decision_gets_one_mark_and_words_from_registered_templates(
    decision: Decision, mark: Mark, english: str
) -> None:
    said = verdict(decision)
    assert said["index"] == decision.index and said["mark"] == mark
    assert say(said["words"]) == english
    for phrase in said["words"]:
        for template in _templates(phrase):
            assert template in (PLURAL_TEMPLATES if isinstance(template, tuple) else TEMPLATES), template


def test_the_hand_reply_carries_the_verdicts_and_the_start_in_the_same_words() -> None:
    decisions = [case[0] for case in CASES[:3]]
    analysis = RecordAnalysis("pagat", [HandAnalysis(0, 3, decisions, WON)], [SeatSummary(seat) for seat in range(4)])
    reply = hand_reply(analysis, 0, 1000)
    assert reply["verdicts"] == [verdict(decision) for decision in decisions]
    assert reply["start_words"] is not None and fill(reply["start_words"]) == "team 0 wins (1 point), tens 3-1"
    assert reply["hand"] == analysis.to_json()["hands"][0]
    empty = hand_reply(RecordAnalysis("pagat", [], []), 2, 1000)
    assert empty["verdicts"] == [] and empty["start_words"] is None and empty["hand"]["hand"] == 2


def test_a_hands_summary_and_the_seats_table_are_said_in_registered_templates() -> None:
    decisions = [case[0] for case in CASES]
    seats = [SeatSummary(seat) for seat in range(4)]
    reply = hand_reply(RecordAnalysis("pagat", [HandAnalysis(0, 3, decisions, None)], seats), 0, 1000)
    summary, table = reply["summary"], reply["seat_table"]
    assert fill(summary["start"]) == "The deal's value was not solved."
    marks = [case[1] for case in CASES]
    assert fill(summary["gave_away"]) == f"{marks.count('bad')} decisions gave something away:"
    assert summary["unsolved"] is not None and fill(summary["unsolved"]).startswith("1 early decision was too big")
    assert summary["estimates"] is not None
    title, count, legend = summary["estimates"]
    assert fill(title) == "Estimates (not exact)"
    assert fill(count).startswith("2 early decisions were too big to solve") and "from -1 to +1" in fill(legend)
    assert fill(reply["verdicts"][0]["played"], ["Asha", "Bela"]) == "Trick 2: Bela (seat 1) played 10H"
    assert [len(row["cells"]) for row in table["rows"]] == [len(table["headings"])] * 4
    phrases: list[PhraseJSON] = [summary["start"], summary["gave_away"], summary["unsolved"], *summary["estimates"]]
    phrases += [table["title"], *table["headings"]]
    phrases += [c for row in table["rows"] for c in row["cells"] if isinstance(c, dict) and "text" in c]
    for phrase in phrases:
        for template in _templates(phrase):
            assert template in (PLURAL_TEMPLATES if isinstance(template, tuple) else TEMPLATES), template
    empty = hand_reply(RecordAnalysis("pagat", [HandAnalysis(0, 0, [], WON)], seats), 0, 1000)["summary"]
    assert fill(empty["start"]) == "With best play from the deal: team 0 wins (1 point), tens 3-1."
    assert fill(empty["gave_away"]) == "No decision gave anything away among those solved."
    assert empty["unsolved"] is None and empty["estimates"] is None
