"""The learned value's estimate in ``dehla analyse``: only where the solver gives no answer, and kept apart from it.

The node limits here are tiny so that a full ``pagat`` deal leaves decisions unsolved in a few seconds.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.helpers import random_hand_record

from dehla.analysis import record as analysis_module
from dehla.analysis.findings import DecisionEstimate, RecordAnalysis
from dehla.analysis.record import analyse_record
from dehla.cli.main import main
from dehla.engine.actions import Action, Deal
from dehla.engine.events import Event
from dehla.engine.state import Match
from dehla.learn.value import default_model, model_leaves, trick_values
from dehla.record import dumps_record, replay
from dehla.solver import Solver

TINY = 5_000  # nodes: too few for the first tricks of a full deal, plenty for the last ones

pytestmark = pytest.mark.skipif(default_model() is None, reason="the value model file is not installed")


def _analyse(record: dict[str, object], estimates: bool = True) -> RecordAnalysis:
    return analyse_record(record, Solver(table_bits=18), TINY, result_node_limit=TINY, estimates=estimates)


@pytest.fixture(scope="module")
def pagat_record() -> dict[str, object]:
    return random_hand_record("pagat", 7)


@pytest.fixture(scope="module")
def pagat_analysis(pagat_record: dict[str, object]) -> RecordAnalysis:
    return _analyse(pagat_record)


def _positions(record: dict[str, object]) -> dict[int, Match]:
    """The true position before each decision of hand 0, by its index in the record."""
    positions: dict[int, Match] = {}
    before: list[Match] = []

    def step(match: Match, hand: int, index: int | None, action: Action | Deal, events: tuple[Event, ...]) -> None:
        if hand == 0 and index is not None and not isinstance(action, Deal):
            positions[index] = before[0]
        before[:] = [match.clone()]

    replay(record, step)
    return positions


def test_estimates_exactly_for_the_unsolved_decisions_of_a_full_pagat_hand(
    pagat_record: dict[str, object], pagat_analysis: RecordAnalysis
) -> None:
    decisions = pagat_analysis.hands[0].decisions
    unsolved = [d for d in decisions if not d.solved]
    assert unsolved and any(d.trick == 1 for d in unsolved)  # the first trick of a full deal does not fit
    assert len(unsolved) < len(decisions)  # and the last tricks do
    for decision in decisions:
        assert (decision.estimate is not None) == (not decision.solved), decision
    model = default_model()
    assert model is not None
    positions = _positions(pagat_record)
    for decision in unsolved:
        estimate = decision.estimate
        assert estimate is not None
        # Nothing exact is filled in from the model.
        assert decision.value is None and decision.best_value is None and not decision.best
        assert decision.levels_lost == 0 and decision.tens_lost == 0 and not decision.hand_lost
        assert not decision.mistake
        # The estimate is the trick search on the true position, every card known.
        values = trick_values(positions[decision.index], decision.team, model_leaves(model))
        assert estimate.value == pytest.approx(values[decision.action])
        assert estimate.best_value == pytest.approx(max(values.values()))
        assert set(estimate.best) == {a for a, v in values.items() if v == pytest.approx(max(values.values()))}
        assert estimate.margin_lost == pytest.approx(estimate.best_value - estimate.value)
        assert estimate.scale == 1 and -1.0 <= estimate.value <= estimate.best_value <= 1.0


def test_seat_summaries_count_exact_findings_and_estimates_apart(pagat_analysis: RecordAnalysis) -> None:
    decisions = pagat_analysis.hands[0].decisions
    for seat in pagat_analysis.seats:
        mine = [d for d in decisions if d.seat == seat.seat]
        assert seat.decisions == len(mine)
        assert seat.solved == sum(d.solved for d in mine)
        assert seat.mistakes == sum(d.mistake for d in mine)
        assert seat.best + seat.mistakes == seat.solved
        assert seat.estimated == sum(d.estimate is not None for d in mine)
        assert seat.estimated_hands_lost == sum(d.estimate is not None and d.estimate.hand_lost for d in mine)


def test_json_keeps_the_estimate_in_an_object_of_its_own_marked_not_exact(pagat_analysis: RecordAnalysis) -> None:
    data = json.loads(json.dumps(pagat_analysis.to_json()))
    assert data["format"] == "dehla-analysis/1"
    decisions = data["hands"][0]["decisions"]
    estimated = [item for item in decisions if "estimate" in item]
    assert estimated
    for item in decisions:
        if item["solved"]:
            assert "estimate" not in item
            continue
        assert set(item) == {"index", "trick", "seat", "action", "solved", "forced", "estimate"}
        estimate = item["estimate"]
        assert estimate["exact"] is False and estimate["source"] == "model"
        assert set(estimate) == {
            "exact",
            "source",
            "value",
            "best_value",
            "best",
            "margin_lost",
            "hand_lost",
            "verdict",
            "scale",
        }
        assert estimate["margin_lost"] == pytest.approx(estimate["best_value"] - estimate["value"], abs=2e-3)
        assert isinstance(estimate["hand_lost"], bool) and estimate["best"]
    for seat in data["seats"]:
        assert {"estimated", "estimated_hands_lost"} <= set(seat)


@pytest.mark.parametrize(
    ("value", "best_value", "scale", "verdict"),
    [
        (0.5, 0.5, 1, "best"),  # the model's best choice
        (-0.5, 0.5, 1, "hand"),  # a predicted win turned into a predicted loss
        (0.48, 0.5, 1, "close"),  # less than 5% of the largest result lost
        (0.3, 0.5, 1, "weaker"),  # still a predicted win, but 0.2 lost
        (38.0, 40.0, 80, "close"),  # Taash's scale: 2 of 80 points
        (30.0, 40.0, 80, "weaker"),
        (7.16, 8.39, 80, "close"),  # across the boundary of "too close to call" (8 of 80) by a point: not the hand
        (-0.06, 0.11, 1, "hand"),  # across it by more than a close call
    ],
)
def test_the_verdict_every_front_end_shows_is_decided_once_by_the_estimate(
    value: float, best_value: float, scale: int, verdict: str
) -> None:
    estimate = DecisionEstimate(value, best_value, [], scale)
    assert estimate.verdict == verdict
    assert estimate.hand_lost == (verdict == "hand")
    assert estimate.to_json()["verdict"] == verdict


def test_no_estimates_when_switched_off_for_six_players_or_without_a_model_file(
    pagat_record: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    off = _analyse(pagat_record, estimates=False)
    assert any(not d.solved for d in off.hands[0].decisions)
    assert all(d.estimate is None for d in off.hands[0].decisions)
    assert all(seat.estimated == 0 for seat in off.seats)
    six = _analyse(random_hand_record("mendikot-6", 3))
    assert any(not d.solved for d in six.hands[0].decisions)  # the model covers four players only
    assert all(d.estimate is None for d in six.hands[0].decisions)
    monkeypatch.setattr(analysis_module, "default_model", lambda: None)
    missing = _analyse(pagat_record)
    assert all(d.estimate is None for d in missing.hands[0].decisions)


def test_text_report_marks_estimates_with_a_tilde_and_a_legend(
    pagat_record: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hand.jsonl"
    path.write_text(dumps_record(pagat_record) + "\n", encoding="utf-8")
    code = main(["analyse", str(path), "--nodes", str(TINY), "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0, err
    estimate_lines = [line for line in out.splitlines() if line.strip().startswith("~ Trick")]
    assert estimate_lines
    assert all("not solved; ~ estimate:" in line for line in estimate_lines)
    assert "Estimates (not exact)" in out
    assert "they are marked ~ with the learned value's estimate instead" in out
    assert "Analysis per seat" in out
    code = main(["analyse", str(path), "--nodes", str(TINY), "--quiet", "--no-estimates"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "~" not in out and "estimate" not in out.lower()
    code = main(["analyse", str(path), "--nodes", str(TINY), "--json"])
    out, _ = capsys.readouterr()
    decisions = json.loads(out)["hands"][0]["decisions"]
    assert any(item.get("estimate", {}).get("exact") is False for item in decisions)
