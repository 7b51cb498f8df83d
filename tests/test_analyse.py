"""``dehla analyse``: each decision against the double-dummy best, in text and JSON; clear errors for bad records."""

from __future__ import annotations

import itertools
import json
import math
import multiprocessing
import re
from collections.abc import Collection
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from tests.helpers import random_hand_record, random_record

from dehla.analysis import record as analysis_module
from dehla.analysis.findings import Decision, RecordAnalysis
from dehla.analysis.record import analyse_record
from dehla.analysis.render import fill, hand_reply, param_text, say
from dehla.cli.main import main
from dehla.engine.actions import Action
from dehla.engine.state import Match
from dehla.errors import DehlaError
from dehla.record import dumps_record, read_records
from dehla.solver import Solver
from dehla.solver.fast import Results, Solution


def _hand_record(preset: str, seed: int) -> dict[str, object]:
    return random_hand_record(preset, seed, ["Asha", "Bela", "Chand", "Dev"])


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("analyse") / "hand.jsonl"
    path.write_text(dumps_record(_hand_record("mendikot", 3)) + "\n", encoding="utf-8")
    return path


def test_text_report_flags_costly_plays_and_sums_up_seats(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "analyse", str(record_file), "--nodes", "300000")
    assert code == 0, err
    assert "Hand 0" in out and "Analysis per seat" in out
    assert "Asha (seat 0)" in out
    assert "best was" in out  # random play makes mistakes, and each names the best card
    assert "Traceback" not in out + err


def test_json_report_has_every_decision(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyse", str(record_file), "--json", "--nodes", "300000")
    assert code == 0
    data = json.loads(out)
    assert data["format"] == "dehla-analysis/1"
    record = json.loads(record_file.read_text(encoding="utf-8"))
    decisions = data["hands"][0]["decisions"]
    assert [item["action"] for item in decisions] == record["hands"][0]["actions"]
    assert len(data["seats"]) == 4
    solved = [item for item in decisions if item["solved"] and "value" in item]
    assert len(solved) >= 30  # all but the first tricks fit the node limit
    for item in solved:
        team = item["seat"] % 2
        sign = 1 if team == 0 else -1
        assert sign * (item["best_value"]["level"] - item["value"]["level"]) == item["levels_lost"] >= 0
        assert item["tens_lost"] == max(0, item["best_value"]["tens"][team] - item["value"]["tens"][team])


def test_values_follow_the_play() -> None:
    """The value after a decision is the value of the next position, as solved afresh."""
    record = _hand_record("pagat", 5)
    analysis = analyse_record(record, Solver(table_bits=18), node_limit=300_000)
    decisions = analysis.hands[0].decisions
    for current, following in itertools.pairwise(decisions):
        if current.value is not None and following.best_value is not None:
            assert current.value == following.best_value
    seat = analysis.seats[0]
    assert seat.decisions == sum(1 for d in decisions if d.seat == 0)
    assert seat.best + seat.mistakes == seat.solved


def test_bad_records_give_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.jsonl"
    code, out, err = run(capsys, "analyse", str(missing))
    assert code == 1 and "no such file" in err and "Traceback" not in err
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n", encoding="utf-8")
    code, out, err = run(capsys, "analyse", str(broken))
    assert code == 1 and "not JSON" in err
    record = _hand_record("mendikot", 2)
    record["hands"][0]["actions"][3] = "AS" if record["hands"][0]["actions"][3] != "AS" else "2C"  # type: ignore[index]
    illegal = tmp_path / "illegal.jsonl"
    illegal.write_text(json.dumps(record) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "analyse", str(illegal), "--json")
    assert code == 1
    message = json.loads(out)["error"]
    assert "hand 0, action 3" in message
    code, out, err = run(capsys, "analyse", str(illegal))
    assert code == 1 and "hand 0, action 3" in err and len(err.strip().splitlines()) == 1


def _full_and_tight(seed: int) -> tuple[dict[int, Decision], RecordAnalysis]:
    """A ``pagat`` hand analysed with room for full values (by decision index), and with 2,000 nodes for them."""
    record = _hand_record("pagat", seed)
    full = analyse_record(record, Solver(table_bits=18), node_limit=300_000, result_node_limit=20_000_000)
    tight = analyse_record(record, Solver(table_bits=18), node_limit=2_000, result_node_limit=20_000_000)
    return {d.index: d for d in full.hands[0].decisions}, tight


def test_a_position_too_big_for_its_value_is_judged_on_the_result() -> None:
    """With a node limit too small for full values, decisions from trick 2 are still answered: the result only."""
    by_index, tight = _full_and_tight(7)
    results = [d for d in tight.hands[0].decisions if d.scope == "result"]
    assert results  # some positions did not fit 2,000 nodes
    assert all(d.solved for d in tight.hands[0].decisions if d.trick >= 2)
    for decision in results:
        exact = by_index[decision.index]
        if exact.solved and exact.scope == "value":
            assert decision.hand_lost == exact.hand_lost
            assert decision.mistake == exact.hand_lost
        data = decision.to_json()
        assert data["scope"] == "result" and "value" not in data and "tens_lost" not in data
        assert (data["levels_lost"] == 0) == (decision.action in decision.best)


def test_with_no_time_left_trick_two_on_is_still_judged_and_trick_one_gets_only_the_small_searches() -> None:
    """The budget holds full values and trick 1; every decision from trick 2 still gets at least its result."""
    record = _hand_record("pagat", 7)
    unlimited = analyse_record(record, Solver(table_bits=18), node_limit=300_000, hand_seconds=math.inf)
    spent = analyse_record(record, Solver(table_bits=18), node_limit=300_000, hand_seconds=0)
    by_index = {d.index: d for d in unlimited.hands[0].decisions}
    first = [d for d in spent.hands[0].decisions if d.trick == 1]
    assert first and any(by_index[d.index].solved and not d.solved for d in first)
    for decision in first:
        assert decision.scope == "value" and (decision.solved or decision.estimate is not None)
    later = [d for d in spent.hands[0].decisions if d.trick >= 2]
    assert any(d.scope == "result" and by_index[d.index].scope == "value" for d in later)  # tens beyond the budget
    for decision in later:
        exact = by_index[decision.index]
        assert decision.solved and decision.hand_lost == exact.hand_lost
        if decision.scope == "value":
            assert decision.to_json() == exact.to_json()
    with pytest.raises(ValueError, match="hand_seconds"):
        analyse_record(record, hand_seconds=-1)


class _CallLog(Solver):
    """A solver that notes each search the analysis asks of it: which, at which trick, with which node limit."""

    def __init__(self) -> None:
        super().__init__(table_bits=18)
        self.calls: list[tuple[str, int, int]] = []

    def solve(self, match: Match) -> Solution:
        self.calls.append(("value", len(match.tricks) + 1, self.node_limit))
        return super().solve(match)

    def improves(self, match: Match, team: int, margin: int) -> bool:
        self.calls.append(("result", len(match.tricks) + 1, self.node_limit))
        return super().improves(match, team, margin)

    def results(self, match: Match, actions: Collection[Action] | None = None) -> Results:
        self.calls.append(("result", len(match.tricks) + 1, self.node_limit))
        return super().results(match, actions)


def test_every_result_from_trick_two_is_searched_before_the_budget_buys_any_tens() -> None:
    """The budget is what the hand may spend on tens and trick 1 *beyond* the answers it must give: every search
    a decision from trick 2 needs for its result comes before any budgeted one, so those answers never wait
    behind a long search for tens (a hand's time is then the larger of the two, not their sum)."""
    solver = _CallLog()
    analysis = analyse_record(
        _hand_record("pagat", 7), solver, node_limit=300_000, hand_seconds=math.inf, estimates=False
    )
    budgeted = [
        number
        for number, (kind, trick, limit) in enumerate(solver.calls)
        if trick == 1 or (kind == "value" and limit > 10_000)
    ]
    required = [number for number, (kind, trick, _) in enumerate(solver.calls) if kind == "result" and trick >= 2]
    assert budgeted and required and max(required) < min(budgeted)
    upgraded = [d for d in analysis.hands[0].decisions if d.trick >= 2 and d.scope == "value" and d.value is not None]
    assert any(limit > 10_000 for kind, _, limit in solver.calls if kind == "value")  # some tens came from the budget
    assert all(d.solved for d in analysis.hands[0].decisions if d.trick >= 2) and upgraded


def test_the_second_pass_is_budgeted_at_its_own_node_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first pass's small positions run fast; the budget's nodes for the second pass come from the second
    pass's own rate as soon as it has run enough to tell, so its last search does not run past the budget."""
    clock = [0.0]
    monkeypatch.setattr(analysis_module.time, "monotonic", lambda: clock[0])
    solver = SimpleNamespace(nodes=0)
    budget = analysis_module._HandBudget(cast(Solver, solver), 9.0)
    clock[0], solver.nodes = 3.0, 6_000_000  # pass 1: 2 M nodes a second
    assert budget.nodes_left() == pytest.approx(6.0 * 2_000_000 * 0.8)
    budget.mark()
    clock[0], solver.nodes = 5.0, 7_000_000  # pass 2 so far: 0.5 M nodes a second
    assert budget.nodes_left() == pytest.approx(4.0 * 500_000 * 0.8)
    clock[0] = 9.5
    assert budget.nodes_left() == 0


def test_hands_analysed_in_worker_processes_say_what_one_process_says() -> None:
    """``workers=2``: each hand in a process of its own, the same answers as one process (no budget to cut them),
    the seats' summaries over every hand, and the progress running up to the total once."""
    record = random_record("mendikot", 4)
    settings = {
        "node_limit": 20_000,
        "result_node_limit": 2_000_000,
        "hand_seconds": math.inf,
        "estimates": False,
        "hands": {0, 1, 2},
    }
    alone = analyse_record(record, Solver(table_bits=18), **settings)  # type: ignore[arg-type]
    seen: list[tuple[int, int]] = []
    shared = analyse_record(record, progress=lambda done, total: seen.append((done, total)), workers=2, **settings)  # type: ignore[arg-type]
    assert len(shared.hands) == 3
    assert shared.to_json() == alone.to_json()
    total = sum(len(hand.decisions) for hand in alone.hands)
    assert seen[-1] == (total, total) and all(a[0] <= b[0] for a, b in itertools.pairwise(seen))
    with pytest.raises(ValueError, match="workers"):
        analyse_record(record, workers=0)


def test_a_worker_that_dies_ends_the_analysis_with_a_clear_error_not_a_wait() -> None:
    """A worker killed mid-hand (the out-of-memory killer, a user's ``kill``): the analysis says so at once,
    and no worker is left running."""
    record = random_record("mendikot", 4)
    killed: list[int] = []

    def kill_a_worker(done: int, total: int) -> None:
        if not killed:
            for child in multiprocessing.active_children():
                child.kill()
                killed.append(child.pid or 0)
                break

    with pytest.raises(DehlaError, match="worker process stopped"):
        analyse_record(
            record,
            progress=kill_a_worker,
            hands={0, 1, 2},
            node_limit=20_000,
            hand_seconds=math.inf,
            estimates=False,
            workers=2,
        )
    assert killed and multiprocessing.active_children() == []


def test_workers_option_is_checked_and_gives_the_same_report(
    record_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for bad in ("0", "two"):
        with pytest.raises(SystemExit) as stop:
            main(["analyse", str(record_file), "--workers", bad])
        out, err = capsys.readouterr()
        assert stop.value.code == 2 and "--workers" in err and "Traceback" not in err
    record = random_record("mendikot", 4)
    record["hands"] = record["hands"][:3]  # the first three hands of a match (a record may end mid-match)
    three = tmp_path / "three.jsonl"
    three.write_text(dumps_record(record) + "\n", encoding="utf-8")
    reports = []
    for workers in ("1", "2"):
        code, out, err = run(
            capsys,
            "analyse",
            str(three),
            "--json",
            "--nodes",
            "20000",
            "--hand-seconds",
            "inf",
            "--no-estimates",
            "--workers",
            workers,
        )
        assert code == 0, err
        reports.append(json.loads(out))
    assert reports[0] == reports[1] and len(reports[0]["hands"]) == 3


def test_hand_seconds_option_is_checked_and_named_in_the_report(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for bad in ("-1", "soon", "nan"):
        with pytest.raises(SystemExit) as stop:  # argparse reports argument errors by exiting
            main(["analyse", str(record_file), "--hand-seconds", bad])
        out, err = capsys.readouterr()
        assert stop.value.code == 2 and "--hand-seconds" in err and "Traceback" not in err
    code, out, err = run(capsys, "analyse", str(record_file), "--nodes", "300000", "--hand-seconds", "0")
    assert code == 0, err
    assert re.search(r"\d+ early decisions? (was|were) too big to solve", out)
    assert "--nodes and --hand-seconds raise them" in out


def test_a_play_judged_on_its_result_names_the_best_plays_only_when_it_costs_the_hand() -> None:
    """Most plays keep the result: only the played action is searched then; a costly one has every best play named."""
    by_index, tight = _full_and_tight(5)
    judged = [d for d in tight.hands[0].decisions if d.scope == "result"]
    kept = [d for d in judged if not d.hand_lost]
    lost = [d for d in judged if d.hand_lost]
    assert kept and lost
    for decision in kept:
        assert decision.best == [decision.action]
    for decision in lost:
        exact = by_index[decision.index]
        assert decision.best and decision.action not in decision.best
        if exact.solved and exact.scope == "value":
            assert set(exact.best) <= set(decision.best)  # the best value's plays keep the best result too


@pytest.mark.parametrize("preset", ["pagat", "taash", "mendikot", "mendikot-band"])
def test_judging_on_the_result_from_the_next_position_agrees_with_full_values(preset: str) -> None:
    """A play's result is read off the next decision's position, and one bound query asks whether the position
    offered better: on hands of each family, every decision judged that way says what full values say."""
    compared = 0
    for seed in (1, 2, 3):
        record = _hand_record(preset, seed)
        # node limits that keep the test short: a decision either run leaves unanswered is not compared
        full = analyse_record(
            record,
            Solver(table_bits=18),
            node_limit=300_000,
            result_node_limit=300_000,
            hand_seconds=math.inf,
            estimates=False,
        )
        tight = analyse_record(
            record,
            Solver(table_bits=18),
            node_limit=500,
            result_node_limit=300_000,
            hand_seconds=math.inf,
            estimates=False,
        )
        by_index = {d.index: d for d in full.hands[0].decisions}
        for decision in tight.hands[0].decisions:
            exact = by_index[decision.index]
            if not decision.solved or decision.scope != "result" or not (exact.solved and exact.scope == "value"):
                continue
            compared += 1
            assert decision.hand_lost == exact.hand_lost, (seed, decision.index)
            if not decision.hand_lost:
                assert decision.best == [decision.action]
    assert compared >= 20


def test_hand_option_analyses_only_the_hands_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--hand N`` (repeatable): only those hands, numbered as the report numbers them, each as the whole
    record's analysis gives it; a hand the record does not hold is a one-line error, not a traceback."""
    record = random_record("mendikot", 4)
    record["hands"] = record["hands"][:3]
    three = tmp_path / "three.jsonl"
    three.write_text(dumps_record(record) + "\n", encoding="utf-8")
    options = ("--json", "--nodes", "20000", "--hand-seconds", "inf", "--no-estimates")
    code, out, err = run(capsys, "analyse", str(three), *options)
    assert code == 0, err
    whole = json.loads(out)
    code, out, err = run(capsys, "analyse", str(three), *options, "--hand", "2", "--hand", "0")
    assert code == 0, err
    some = json.loads(out)
    assert [hand["hand"] for hand in some["hands"]] == [0, 2]
    assert some["hands"] == [whole["hands"][0], whole["hands"][2]]
    code, out, err = run(capsys, "analyse", str(three), "--nodes", "20000", "--no-estimates", "--hand", "1")
    assert code == 0, err
    assert "Hand 1 (dealer" in out and "Hand 0 (dealer" not in out and "Hand 2 (dealer" not in out
    code, out, err = run(capsys, "analyse", str(three), "--hand", "7")
    assert code == 1 and out == ""
    assert err.strip().endswith("the record has hands 0 to 2: no hand 7") and "Traceback" not in err
    for bad in ("-1", "first"):
        with pytest.raises(SystemExit) as stop:
            main(["analyse", str(three), "--hand", bad])
        out, err = capsys.readouterr()
        assert stop.value.code == 2 and "--hand" in err and "Traceback" not in err
    with pytest.raises(DehlaError, match="no hand 3, 5"):
        analyse_record(record, hands={1, 3, 5})


def test_the_replays_hand_summary_and_the_text_report_say_the_same_words(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The web replay's reply for hand 0 and `dehla analyse` of the same record, with the same limits and no time
    # budget (so no clock decides what is solved).
    limits = ("--nodes", "300000", "--hand-seconds", "0", "--hand", "0")
    code, out, err = run(capsys, "analyse", str(record_file), *limits)
    assert code == 0, err
    record = next(iter(read_records(str(record_file)))).data
    assert isinstance(record, dict)
    names = record["players"]
    reply = hand_reply(analyse_record(record, node_limit=300_000, hands={0}, hand_seconds=0), 0, 300_000)
    summary = reply["summary"]
    said = [summary["start"], summary["gave_away"], *([summary["unsolved"]] if summary["unsolved"] else [])]
    said += summary["estimates"] or []
    assert summary["estimates"], "the record's first trick is left to the model at this node limit"
    for phrase in said:
        assert fill(phrase, names) in out, fill(phrase, names)
    for item in reply["verdicts"]:
        line = f"{fill(item['played'], names)}: {say(item['words'], names)}"
        assert (line in out) == (item["mark"] != "good"), line  # the same decisions listed, in the same words
    table = reply["seat_table"]
    lines = out.splitlines()
    assert fill(table["title"], names) in lines
    for cells in [[fill(heading) for heading in table["headings"]]] + [
        [param_text(cell, names) for cell in row["cells"]] for row in table["rows"]
    ]:
        assert any(line.split() == " ".join(cells).split() for line in lines), cells
    # `dehla analyse --json` carries each decision's verdict: the same phrase objects as the replay's.
    code, out, err = run(capsys, "analyse", str(record_file), "--json", *limits)
    assert code == 0, err
    decisions = json.loads(out)["hands"][0]["decisions"]
    assert [decision["verdict"] for decision in decisions] == reply["verdicts"]
