"""The benchmark helpers that turn raw runs into figures (the benchmarks themselves are not tests)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from dehla.errors import DehlaError
from dehla.rules import parse_rules

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a benchmark's dataclasses look their module up while being made
    spec.loader.exec_module(module)
    return module


def _report(path: Path, rules: str, scores: list[float]) -> str:
    rate = sum(scores) / (2 * len(scores))
    result = {"bot": "hard (0.5 s)", "win_rate": rate, "deal_scores": scores}
    path.write_text(json.dumps({"rules": rules, "results": [result]}), encoding="utf-8")
    return str(path)


def _refused(
    bench: ModuleType, argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    """Run a benchmark's ``main`` with ``argv``, check that it stops with a usage error (exit 2), return stderr."""
    monkeypatch.setattr("sys.argv", ["bench.py", *argv])
    with pytest.raises(SystemExit) as stopped:
        bench.main()
    assert stopped.value.code == 2
    return capsys.readouterr().err


def test_paired_difference_of_identical_runs_is_exactly_zero() -> None:
    compare = _load("compare_deals")
    assert compare.paired_difference([2.0, 1.0, 0.0], [2.0, 1.0, 0.0]) == (0.0, 0.0, 0.0)


def test_paired_difference_counts_per_hand_and_narrows_with_agreement() -> None:
    compare = _load("compare_deals")
    a = [1.0] * 100
    b = [1.0] * 90 + [2.0] * 10  # B wins one more hand in 10 of 100 deals: +5% of the 200 hands
    mean, low, high = compare.paired_difference(a, b)
    assert mean == pytest.approx(0.05)
    assert 0.0 < low < mean < high < 0.1


def test_compare_reports_the_difference_and_refuses_different_deals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    compare = _load("compare_deals")
    a = _report(tmp_path / "a.json", "pagat", [1.0, 1.0, 2.0, 0.0])
    b = _report(tmp_path / "b.json", "pagat", [1.0, 2.0, 2.0, 0.0])
    assert compare.main([a, b]) == 0
    out = capsys.readouterr().out
    assert "+12.5% per hand" in out and "3 deals scored the same" in out
    other = _report(tmp_path / "c.json", "taash", [1.0, 2.0, 2.0, 0.0])
    with pytest.raises(SystemExit):
        compare.main([a, other])
    assert "not on the same deals" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        compare.main([a, str(tmp_path / "missing.json")])
    assert "cannot read the reports" in capsys.readouterr().err
    for wrong in ({"rules": "pagat"}, {"results": [{"deal_scores": [1.0]}]}, [1, 2], {"rules": "pagat", "results": []}):
        (tmp_path / "wrong.json").write_text(json.dumps(wrong), encoding="utf-8")
        with pytest.raises(SystemExit):
            compare.main([a, str(tmp_path / "wrong.json")])
        assert "wrong.json is not a bench_search.py --json report" in capsys.readouterr().err


def test_compare_joins_pairs_on_different_deals_and_refuses_a_deal_counted_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    compare = _load("compare_deals")
    reports = {}
    for name, first, scores in (
        ("a", 0, [1.0, 1.0, 2.0, 0.0]),
        ("b", 0, [1.0, 2.0, 2.0, 0.0]),
        ("a2", 4, [0.0, 1.0, 1.0, 1.0]),
        ("b2", 4, [2.0, 1.0, 1.0, 1.0]),
    ):
        path = _report(tmp_path / f"{name}.json", "pagat", scores)
        report = json.loads(Path(path).read_text(encoding="utf-8"))
        Path(path).write_text(json.dumps({**report, "seed": 1, "first_deal": first}), encoding="utf-8")
        reports[name] = path
    assert compare.main([reports["a"], reports["b"], reports["a2"], reports["b2"]]) == 0
    out = capsys.readouterr().out
    # Each pair alone (+12.5% and +25.0% a hand), then all 8 deals: B wins 3 more of 16 hands than A.
    assert "pagat, 4 deals from deal 0:" in out and "pagat, 4 deals from deal 4:" in out
    assert "+12.5% per hand" in out and "+25.0% per hand" in out
    assert "all 8 deals: A 43.8%, B 62.5%; B - A: +18.8% per hand" in out
    with pytest.raises(SystemExit):
        compare.main([reports["a"], reports["b"], reports["a2"]])
    assert "one has no partner" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        compare.main([reports["a"], reports["b"], reports["a"], reports["b"]])
    assert "the pairs share deals (from deal 0)" in capsys.readouterr().err


def test_compare_sets_a_short_run_against_the_start_of_a_long_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    compare = _load("compare_deals")
    long = _report(tmp_path / "long.json", "taash", [1.0, 1.0, 2.0, 0.0, 0.0, 0.0])
    short = _report(tmp_path / "short.json", "taash", [2.0, 1.0, 2.0, 1.0])
    assert compare.main([long, short, "--deals", "4"]) == 0
    out = capsys.readouterr().out
    # Rates over the deals compared (A: 4 of 8 hands, not the long run's 4 of 12), and the paired difference.
    assert "taash, 4 deals from deal 0: A hard (0.5 s) 50.0%, B hard (0.5 s) 75.0%" in out and "+25.0% per hand" in out
    with pytest.raises(SystemExit):
        compare.main([long, short, "--deals", "5"])
    assert "the reports have 6 and 4 deals" in capsys.readouterr().err
    for path, seed in ((long, 1), (short, 7)):
        report = json.loads(Path(path).read_text(encoding="utf-8"))
        Path(path).write_text(json.dumps({**report, "seed": seed, "first_deal": 0}), encoding="utf-8")
    with pytest.raises(SystemExit):
        compare.main([long, short, "--deals", "4"])
    assert "not on the same deals (seed 1 and 7)" in capsys.readouterr().err
    report = json.loads(Path(short).read_text(encoding="utf-8"))
    Path(short).write_text(json.dumps({**report, "seed": 1, "first_deal": 1000}), encoding="utf-8")
    old = _report(tmp_path / "old.json", "taash", [1.0, 1.0, 2.0, 0.0])  # no first deal recorded: deal 0
    with pytest.raises(SystemExit):
        compare.main([old, short])
    assert "not on the same deals (first_deal 0 and 1000)" in capsys.readouterr().err


def test_compare_on_the_overlap_sets_a_later_slice_against_the_same_deals_of_a_long_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    compare = _load("compare_deals")
    long = _report(tmp_path / "long.json", "taash", [0.0, 0.0, 1.0, 2.0, 0.0, 1.0])
    later = _report(tmp_path / "later.json", "taash", [2.0, 2.0, 1.0, 1.0, 1.0])
    for path, first in ((long, 0), (later, 3)):
        report = json.loads(Path(path).read_text(encoding="utf-8"))
        Path(path).write_text(json.dumps({**report, "seed": 1, "first_deal": first}), encoding="utf-8")
    assert compare.main([long, later, "--overlap"]) == 0
    out = capsys.readouterr().out
    # Deals 3 to 5: A scored 2, 0, 1 and B 2, 2, 1 there.
    assert "taash, 3 deals from deal 3: A hard (0.5 s) 50.0%, B hard (0.5 s) 83.3%" in out
    assert "2 deals scored the same" in out
    with pytest.raises(SystemExit):
        compare.main([long, later, "--overlap", "--deals", "3"])
    assert "do not go together" in capsys.readouterr().err
    apart = json.loads(Path(later).read_text(encoding="utf-8"))
    Path(later).write_text(json.dumps({**apart, "first_deal": 5}), encoding="utf-8")
    with pytest.raises(SystemExit):
        compare.main([long, later, "--overlap"])
    assert "share fewer than 2 deals" in capsys.readouterr().err


def test_decision_benchmark_variants_parse_and_bad_ones_are_named() -> None:
    bench = _load("bench_decisions")
    assert bench.parse_variant("s16:max_samples=16,sample_nodes=5000") == (
        "s16",
        {"max_samples": 16, "sample_nodes": 5000},
    )
    assert bench.parse_variant("plain:") == ("plain", {})
    with pytest.raises(DehlaError, match="unknown variant setting 'budget=1'"):
        bench.parse_variant("x:budget=1")
    with pytest.raises(DehlaError, match="max_samples needs a int"):
        bench.parse_variant("x:max_samples=two")


def test_decision_benchmark_scores_choices_against_the_true_deal() -> None:
    bench = _load("bench_decisions")
    matches = bench.positions("pagat", 2, 1, 9, 12, 1.0)
    assert matches and all(len(match.legal_actions()) > 1 for match in matches)
    truth = bench.true_values(matches, 3_000_000)
    with_tens = bench.true_values(matches, 3_000_000, "utility")
    for values, tens_too, match in zip(truth, with_tens, matches):
        assert values is not None and len(values) == len(match.legal_actions())
        assert tens_too is not None and values.keys() == tens_too.keys()
        for action, margin in values.items():  # utility is the margin plus 0.05 a ten more (at most 4 either way)
            assert abs(tens_too[action] - margin) <= 0.2 + 1e-9
        best = max(tens_too, key=lambda action: tens_too[action])
        assert values[best] == max(values.values())  # the tens only break ties between equal results
    result = bench.measure(matches, truth, {"max_samples": 3, "sample_nodes": 100_000}, "plain")
    assert result["positions"] == len(matches)
    assert all(loss is not None and loss >= 0.0 for loss in result["losses"])
    assert result["suboptimal"] == sum(loss > 1e-9 for loss in result["losses"])


def test_decision_benchmark_without_positions_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = _load("bench_decisions")
    monkeypatch.setattr("sys.argv", ["bench_decisions.py", "--deals", "1", "--from-trick", "9", "--to-trick", "3"])
    assert bench.main() == 2
    assert "no decision with a choice in tricks 9 to 3" in capsys.readouterr().err


def test_search_benchmark_measures_cheat_alone_and_refuses_it_twice(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _load("bench_search")
    assert "with --bot cheat leave it out" in _refused(bench, ["--bot", "cheat", "--cheat"], monkeypatch, capsys)
    monkeypatch.setattr(
        "sys.argv",
        [
            "bench_search.py",
            "--bot",
            "cheat",
            "--deals",
            "1",
            "--rules",
            "mendikot-8",
            "--cheat-nodes",
            "20000",
            "--json",
        ],
    )
    assert bench.main() == 0
    report = json.loads(capsys.readouterr().out)
    assert report["results"][0]["bot"] == "cheat (at most 20,000 nodes a solve)"
    assert len(report["results"][0]["deal_scores"]) == 1
    assert (report["seed"], report["first_deal"]) == (1, 0) and "src_tree" in report  # what pool_runs.py checks


def test_search_benchmark_plays_against_another_bot_and_names_an_unknown_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--against`` seats any registered bot as the opponents (issue 37's yardstick is ``openspiel-ismcts``)."""
    bench = _load("bench_search")
    assert "--against: unknown bot 'nobody'" in _refused(bench, ["--against", "nobody"], monkeypatch, capsys)
    argv = ["bench_search.py", "--bot", "cheat", "--cheat-nodes", "20000", "--rules", "mendikot-8", "--deals", "1"]
    monkeypatch.setattr("sys.argv", [*argv, "--against", "random", "--json"])
    assert bench.main() == 0
    result = json.loads(capsys.readouterr().out)["results"][0]
    assert result["against"] == "random" and len(result["deal_scores"]) == 1


def test_sighted_control_plays_the_search_bot_then_cheat_once_the_tricks_are_done(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--sighted-after 2``: the measured seats' moves come from the search bot in tricks 1-2, from cheat after."""
    bench = _load("bench_search")
    movers: list[tuple[str, int]] = []

    def spy(original: Callable[..., Any], name: str) -> Callable[..., Any]:
        def act(bot: object, observation: Any) -> Any:
            if observation.phase == "play":
                movers.append((name, len(observation.tricks)))
            return original(bot, observation)

        return act

    monkeypatch.setattr(bench.SearchBot, "act", spy(bench.SearchBot.act, "search"))
    monkeypatch.setattr(bench.CheatBot, "act", spy(bench.CheatBot.act, "cheat"))
    bot = bench.make_player("hard+sighted-after-2", 7, 0.05, 20_000)
    assert bot.name == "hard+sighted-after-2"
    score = bench.play_leg(parse_rules("mendikot-8"), 7, "hard+sighted-after-2", 0.05, 20_000, 0, [], [])
    assert score in (0.0, 0.5, 1.0)
    assert {tricks for name, tricks in movers if name == "search"} <= {0, 1}
    assert {tricks for name, tricks in movers if name == "cheat"} >= {2, 3}
    assert "--sighted-after takes a number of tricks" in _refused(bench, ["--sighted-after", "-1"], monkeypatch, capsys)
    assert "and a search bot" in _refused(bench, ["--bot", "cheat", "--sighted-after", "2"], monkeypatch, capsys)


def test_heuristic_benchmark_seats_cheat_against_random_and_refuses_bad_limits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _load("bench_heuristic")
    assert "--cheat-nodes must be at least 1" in _refused(
        bench, ["--bot", "cheat", "--cheat-nodes", "0"], monkeypatch, capsys
    )
    monkeypatch.setattr(
        "sys.argv",
        ["bench_heuristic.py", "--bot", "cheat", "--rules", "pagat", "--deals", "1", "--cheat-nodes", "20000"],
    )
    assert bench.main() == 0  # a cheat seat not shown its match refuses to play (DehlaError)
    out = capsys.readouterr().out
    assert out.startswith("cheat vs random")
    assert out.splitlines()[2].split()[:2] == ["pagat", "2"]  # both hands of the deal were played


def _part(path: Path, first_deal: int, scores: list[float], **changes: object) -> str:
    result = {
        "bot": "hard (0.5 s)",
        "win_rate": sum(scores) / (2 * len(scores)),
        "deal_scores": scores,
        "cpu_p95_s": 0.49,
    }
    report = {
        "rules": "taash",
        "seed": 1,
        "first_deal": first_deal,
        "commit": "c1",
        "src_tree": "abc",
        "results": [result],
        **changes,
    }
    path.write_text(json.dumps(report), encoding="utf-8")
    return str(path)


def test_pool_joins_consecutive_parts_of_one_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two halves of a split run pool to exactly the counts of the whole, in whatever order they are given."""
    pool_runs = _load("pool_runs")
    second = _part(tmp_path / "b.json", 3, [0.0, 1.0])
    first = _part(tmp_path / "a.json", 0, [2.0, 1.0, 2.0])
    assert pool_runs.main([second, first, "--json"]) == 0
    pooled = json.loads(capsys.readouterr().out)
    assert (pooled["deals"], pooled["hands"], pooled["won"], pooled["first_deal"]) == (5, 10, 6.0, 0)
    assert pooled["src_tree"] == "abc"
    assert pooled["win_rate"] == pytest.approx(0.6)
    assert pooled["low"] < 0.6 < pooled["high"]
    assert pool_runs.main([first, second]) == 0
    assert "deals 0 to 4" in capsys.readouterr().out


def test_pooled_parts_compare_deal_by_deal_with_a_whole_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--report`` writes the parts as one report, which compare_deals.py sets against a run made whole."""
    pool_runs, compare = _load("pool_runs"), _load("compare_deals")
    second = _part(tmp_path / "b.json", 3, [0.0, 1.0])
    first = _part(tmp_path / "a.json", 0, [2.0, 1.0, 2.0])
    joined = tmp_path / "whole.json"
    assert pool_runs.main([second, first, "--report", str(joined)]) == 0
    report = json.loads(joined.read_text(encoding="utf-8"))
    assert report["results"][0]["deal_scores"] == [2.0, 1.0, 2.0, 0.0, 1.0]
    assert (report["rules"], report["seed"], report["first_deal"]) == ("taash", 1, 0)
    third = _part(tmp_path / "c.json", 5, [1.0], commit="c2")
    capsys.readouterr()
    assert pool_runs.main([str(joined), third, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["commits"] == ["c1", "c2"]  # a pooled report keeps its commits
    whole = _part(tmp_path / "whole-run.json", 0, [2.0, 1.0, 1.0, 0.0, 1.0])
    capsys.readouterr()
    assert compare.main([whole, str(joined)]) == 0
    out = capsys.readouterr().out
    assert "+10.0% per hand" in out and "4 deals scored the same" in out
    assert pool_runs.main([str(joined)]) == 0  # a joined report pools again, as one part
    with pytest.raises(SystemExit):
        pool_runs.main([first, second, "--report", str(tmp_path / "no-such-dir" / "x.json")])
    assert "cannot write the report" in capsys.readouterr().err


def test_pool_with_gaps_joins_ranges_apart_but_never_overlapping_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--gaps`` pools held-out ranges that skip deals (one rate, the ranges named); overlaps stay refused."""
    pool_runs = _load("pool_runs")
    first = _part(tmp_path / "a.json", 0, [2.0, 1.0])
    next_to_it = _part(tmp_path / "b.json", 2, [1.0])
    apart = _part(tmp_path / "c.json", 10, [0.0, 2.0, 2.0])
    assert pool_runs.main([apart, next_to_it, first, "--gaps", "--json"]) == 0
    pooled = json.loads(capsys.readouterr().out)
    assert pooled["ranges"] == [[0, 2], [10, 12]]
    assert (pooled["deals"], pooled["hands"], pooled["won"]) == (6, 12, 8.0)
    assert pool_runs.main([first, next_to_it, apart, "--gaps"]) == 0
    assert "deals 0 to 2, 10 to 12: hard (0.5 s) vs heuristic, 12 hands" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        pool_runs.main([first, apart])
    assert "--gaps pools ranges apart" in capsys.readouterr().err
    overlapping = _part(tmp_path / "d.json", 11, [1.0])
    with pytest.raises(SystemExit):
        pool_runs.main([first, apart, overlapping, "--gaps"])
    assert "overlap" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        pool_runs.main([first, apart, "--gaps", "--report", str(tmp_path / "whole.json")])
    assert "leave out --gaps" in capsys.readouterr().err
    assert not (tmp_path / "whole.json").exists()


@pytest.mark.parametrize(
    ("first_deal", "changes", "message"),
    [
        (4, {}, "gap"),
        (2, {}, "overlap"),
        (3, {"seed": 2}, "differ in seed"),
        (3, {"rules": "pagat"}, "differ in rules"),
        (3, {"src_tree": "def"}, "one committed version"),
        (3, {"src_tree": "abc-dirty"}, "one committed version"),
        (3, {"src_tree": None}, "one committed version"),
    ],
)
def test_pool_refuses_parts_that_are_not_one_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], first_deal: int, changes: dict[str, object], message: str
) -> None:
    pool_runs = _load("pool_runs")
    first = _part(tmp_path / "a.json", 0, [2.0, 1.0, 2.0])
    second = _part(tmp_path / "b.json", first_deal, [0.0, 1.0], **changes)
    with pytest.raises(SystemExit) as stopped:
        pool_runs.main([first, second])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


def test_pool_names_the_opponent_and_refuses_parts_against_different_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Parts of a run ``--against`` another bot pool under its name; a part against ``heuristic`` does not join."""
    pool_runs = _load("pool_runs")
    first, second, other = (tmp_path / name for name in ("a.json", "b.json", "c.json"))
    _part(first, 0, [2.0, 1.0])
    _part(second, 2, [0.0, 2.0])
    _part(other, 2, [0.0, 2.0])
    for path in (first, second):
        report = json.loads(path.read_text(encoding="utf-8"))
        report["results"][0]["against"] = "openspiel-ismcts"
        path.write_text(json.dumps(report), encoding="utf-8")
    assert pool_runs.main([str(first), str(second)]) == 0
    assert "vs openspiel-ismcts, 8 hands" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        pool_runs.main([str(first), str(other)])
    assert "against different bots: 'openspiel-ismcts' and 'heuristic'" in capsys.readouterr().err


def _scripted_deals(
    played: list[int],
) -> Callable[[tuple[Any, ...]], tuple[list[int], list[float], list[float], list[float], list[int]]]:
    """A stand-in for ``bench_search.play_deals``: deal ``i`` scores ``i % 3``; the indexes played go to ``played``."""

    def play(job: tuple[Any, ...]) -> tuple[list[int], list[float], list[float], list[float], list[int]]:
        indexes: list[int] = job[-1]
        played.extend(indexes)
        return indexes, [float(index % 3) for index in indexes], [0.01] * len(indexes), [0.01] * len(indexes), []

    return play


def test_search_benchmark_plays_a_later_range_of_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--first-deal`` plays the seed's later deals: the same deals a longer run plays at those indexes."""
    bench = _load("bench_search")
    played: list[int] = []
    monkeypatch.setattr(bench, "play_deals", _scripted_deals(played))
    whole = bench.measure("pagat", 5, 1, "hard", 0.5, 0, 1)
    assert played == [0, 1, 2, 3, 4]
    played.clear()
    later = bench.measure("pagat", 2, 1, "hard", 0.5, 0, 1, first_deal=3)
    assert played == [3, 4]
    assert later["deal_scores"] == whole["deal_scores"][3:]


def test_search_benchmark_in_parts_resumes_where_it_stopped_and_pools_the_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--parts DIR`` keeps each part's report, plays only the parts missing (or held by a process that has
    ended), and prints the parts pooled as one run; parts of other code, and uncommitted code, are refused."""
    bench = _load("bench_search")
    played: list[int] = []

    def run(tree: str = "tree-1") -> int:
        monkeypatch.setattr(bench, "code_version", lambda: {"commit": "c1", "src_tree": tree})
        played.clear()
        return int(bench.main())

    monkeypatch.setattr(bench, "play_deals", _scripted_deals(played))
    folder = tmp_path / "run"
    argv = ["bench_search.py", "--rules", "pagat", "--deals", "5", "--part-deals", "2", "--parts", str(folder)]
    monkeypatch.setattr("sys.argv", [*argv, "--json"])
    assert run() == 0 and played == [0, 1, 2, 3, 4]
    pooled = json.loads(capsys.readouterr().out)
    assert pooled["results"][0]["deal_scores"] == [0.0, 1.0, 2.0, 0.0, 1.0]
    assert pooled["results"][0]["hands"] == 10 and pooled["first_deal"] == 0
    parts = sorted(path.name for path in folder.iterdir())
    assert parts == ["pagat-seed1-deals0-1.json", "pagat-seed1-deals2-3.json", "pagat-seed1-deals4-4.json"]
    assert run() == 0 and played == []  # everything is there: nothing played again
    capsys.readouterr()
    (folder / "pagat-seed1-deals2-3.json").unlink()
    (folder / "pagat-seed1-deals4-4.json").unlink()
    (folder / "pagat-seed1-deals4-4.running").write_text("999999999", encoding="utf-8")  # no such process
    monkeypatch.setattr("sys.argv", argv)
    assert run() == 0 and played == [2, 3, 4]
    assert "deals 0 to 4, 3 parts" in capsys.readouterr().out
    assert not list(folder.glob("*.running"))
    # a part another live process holds is left to it, and the run says what it waits for
    (folder / "pagat-seed1-deals2-3.json").unlink()
    (folder / "pagat-seed1-deals2-3.running").write_text(str(os.getpid()), encoding="utf-8")
    assert run() == 1 and played == []
    assert "1 of 3 parts are still being played by another process" in capsys.readouterr().err
    (folder / "pagat-seed1-deals2-3.running").unlink()
    # parts made by another version of src/, or by code not committed, are refused before anything is played
    with pytest.raises(SystemExit) as stopped:
        run("tree-2")
    assert stopped.value.code == 2 and played == []
    assert "is a part of another run (src tree-1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        run("tree-1-dirty")
    assert "--parts needs src/ committed" in capsys.readouterr().err
    assert "--part-deals of at least 1" in _refused(bench, [*argv[1:], "--part-deals", "0"], monkeypatch, capsys)


def test_solver_benchmark_focus_needs_results(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _load("bench_solver")
    assert "--focus needs --results" in _refused(bench, ["--focus", "3", "--no-dds"], monkeypatch, capsys)
    monkeypatch.setattr(
        "sys.argv",
        [
            "bench_solver.py",
            "--deals",
            "1",
            "--tricks-done",
            "8",
            "--results",
            "--focus",
            "2",
            "--no-dds",
            "--no-kernel-times",
        ],
    )
    assert bench.main() == 0
    assert "the result of the heuristic's best 2 leads" in capsys.readouterr().out


def test_solver_benchmark_solves_sampled_worlds_of_the_seat_to_act(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _load("bench_solver")
    assert "--keep-table needs --worlds" in _refused(bench, ["--keep-table", "--no-dds"], monkeypatch, capsys)
    assert "--table-bits 10 to 26" in _refused(bench, ["--table-bits", "30", "--no-dds"], monkeypatch, capsys)
    report = bench.ours(2, 1, 0, 8, results=True, focus=2, worlds=3, table_bits=12, keep_table=True)
    assert report["deals"] == 2 and report["solves"] == 6 and len(report["times_ms"]) == 6
    assert report["total_nodes"] > 0 and report["stopped_at_node_limit"] == 0
    argv = ["bench_solver.py", "--deals", "1", "--tricks-done", "8", "--results", "--worlds", "2", "--no-dds"]
    monkeypatch.setattr("sys.argv", [*argv, "--no-kernel-times"])
    assert bench.main() == 0
    assert "2 worlds sampled for the seat to act of 1 pagat deals" in capsys.readouterr().out


def test_solver_benchmark_ratio_to_dds_has_an_interval_around_it() -> None:
    bench = _load("bench_solver")
    same = bench.median_ratio([10.0, 20.0, 30.0], [10.0, 20.0, 30.0], seed=1)
    assert same["ratio"] == 1.0 and same["low"] <= 1.0 <= same["high"]
    faster = bench.median_ratio([5.0, 6.0, 7.0, 8.0, 9.0], [20.0, 22.0, 24.0, 26.0, 28.0], seed=1)
    assert faster["ratio"] == 7.0 / 24.0
    assert 5.0 / 28.0 <= faster["low"] <= faster["ratio"] <= faster["high"] <= 9.0 / 20.0
    assert bench.median_ratio([5.0, 9.0], [20.0, 28.0], seed=3) == bench.median_ratio([5.0, 9.0], [20.0, 28.0], seed=3)


def test_sampling_benchmark_measures_both_samplers_and_refuses_bad_counts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _load("bench_sampling")
    monkeypatch.setattr("sys.argv", ["bench.py", "--positions", "2", "--draws", "2000", "--games", "2"])
    assert bench.main() == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.strip() and line.split()[0].isdigit()]
    distances = [row for row in rows if len(row) == 4 and "." in row[1]]
    assert len(distances) == 2
    assert all(0.0 <= float(value) <= 1.0 for row in distances for value in row[1:])
    assert "exact draw" in out and "greedy draw" in out
    assert "must be at least 1" in _refused(bench, ["--draws", "0"], monkeypatch, capsys)
    assert "unknown preset" in _refused(bench, ["--rules", "nope"], monkeypatch, capsys)


def test_calls_benchmark_scores_every_suit_and_the_sampling_caller(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _load("bench_calls")
    monkeypatch.setattr("sys.argv", ["bench.py", "--deals", "2", "--rollouts", "1", "--margin", "1", "2"])
    assert bench.main() == 0
    out = capsys.readouterr().out
    assert "heuristic's call" in out and "the best suit for each deal" in out
    margins = [line.split() for line in out.splitlines() if line.split() and line.split()[0] in ("1", "2")]
    assert [row[0] for row in margins] == ["1", "2"]
    assert all(0 <= int(row[1]) <= 2 for row in margins)
    assert bench.sampled_call(0, [3, 5, 4, 0], 2) == 1  # the best suit, two rollouts ahead
    assert bench.sampled_call(0, [4, 5, 4, 0], 2) == 0  # one ahead is not enough
    assert bench.sampled_call(2, [5, 5, 5, 5], 1) == 2  # ties keep the heuristic's suit
    assert "not called or hidden" in _refused(bench, ["--rules", "mendikot"], monkeypatch, capsys)
    assert "--rollouts at least 0" in _refused(bench, ["--rollouts", "-1"], monkeypatch, capsys)
    assert "must not be negative" in _refused(bench, ["--model-margin", "-0.1"], monkeypatch, capsys)
    assert "unknown preset" in _refused(bench, ["--rules", "nope"], monkeypatch, capsys)


def test_calls_benchmark_scores_the_models_caller_alone(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _load("bench_calls")
    argv = ["bench.py", "--deals", "2", "--rollouts", "0", "--model-margin", "0", "10", "--model-samples", "3"]
    monkeypatch.setattr("sys.argv", argv)
    assert bench.main() == 0
    out = capsys.readouterr().out
    assert "rollouts a suit" not in out and "the model's caller, 3 sampled deals" in out
    rows = [line.split() for line in out.splitlines() if line.split() and line.split()[0] in ("0", "10")]
    assert [row[0] for row in rows] == ["0", "10"]
    assert all(0 <= int(row[1]) <= 2 for row in rows)
    assert rows[1][1:4] == ["0", "0", "0"]  # a margin of ten whole results: the heuristic's call every time


def test_calls_benchmark_scores_every_card_of_the_band_hukum_hide(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _load("bench_calls")
    rules = bench.parse_rules("mendikot-band")
    heuristic, outcomes, wins, model = bench.study_deal(rules, 0, 1, 1, [0.0], 2)
    assert len(outcomes) == len(wins) == 13  # the hider may hide any card of the thirteen it holds
    assert 0 <= heuristic < 13 and 0 <= model[0] < 13 and all(0 <= won <= 1 for won in wins)
    argv = ["bench.py", "--rules", "mendikot-band", "--deals", "2", "--rollouts", "1", "--margin", "1"]
    monkeypatch.setattr("sys.argv", argv)
    assert bench.main() == 0
    out = capsys.readouterr().out
    assert "hider's team wins: heuristic's hide" in out and "the best card for each deal" in out
    assert "sampling hider, 1 rollouts a card" in out
    rows = [line.split() for line in out.splitlines() if line.split() and line.split()[0] == "1"]
    assert len(rows) == 1 and 0 <= int(rows[0][1]) <= 2


def test_memory_benchmark_refuses_bad_table_sizes_and_measures_a_part(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _load("bench_memory")
    assert "--bits takes table sizes" in _refused(bench, ["--bits", "big"], monkeypatch, capsys)
    assert "each table size must be 10..26" in _refused(bench, ["--bits", "9"], monkeypatch, capsys)
    monkeypatch.setattr("sys.argv", ["bench_memory.py", "--part", "python"])
    assert bench.main() == 0
    measured = json.loads(capsys.readouterr().out)
    assert measured["max_rss_mb"] > 0 and (measured["private_mb"] is None or measured["private_mb"] > 0)


def test_memory_benchmark_runs_a_part_with_the_kernels_it_names(tmp_path: Path) -> None:
    """Each part runs in a process of its own with ``DEHLA_KERNELS`` as named (the benchmark writes the setting's
    name out rather than import dehla), and says whether numba was loaded."""
    from dehla.solver import compiled

    bench = _load("bench_memory")
    assert bench.MODE_ENV == compiled.MODE_ENV
    args = argparse.Namespace(hands=1, budget=0.5, seed=1, tiny_dir=str(tmp_path))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    measured = bench.measure("dehla", args, env, "jit")  # a heuristic bot: no kernel, no numba
    assert (measured["part"], measured["kernels"], measured["numba"]) == ("dehla", "jit", False)
    assert measured["max_rss_mb"] > 0


def test_table_size_benchmark_finds_the_same_nodes_in_a_table_big_enough(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _load("bench_table_bits")
    assert "--bits and --tricks take numbers" in _refused(bench, ["--bits", "x"], monkeypatch, capsys)
    assert "--bits must be 10..26" in _refused(bench, ["--bits", "30"], monkeypatch, capsys)
    report = bench.measure([16, 17], [9], 2, 1, 1_000_000)
    assert report["positions"] == 2
    small, large = report["sizes"]
    assert large["positions_with_other_nodes"] == 0 and small["nodes"] > 0
    assert small["table_mb"] < large["table_mb"]


def test_regret_benchmark_ending_that_solves_every_trick_left_has_no_regret() -> None:
    """``end-K`` with K the tricks left is the solver itself: it must pick the reference's best action."""
    from dehla import Match
    from dehla.bots.heuristic import HeuristicBot
    from dehla.solver import Solver

    bench = _load("bench_playout_regret")
    rng = random.Random(5)
    match = Match.new("pagat", rng)
    match.apply(match.random_deal(rng))
    bots = [HeuristicBot(seat) for seat in range(4)]
    judged = None
    while judged is None and not match.results:
        seat = match.to_act
        assert seat is not None
        observation = match.observe(seat)
        if len(match.tricks) >= 8 and not observation.trick and len(observation.legal_actions) > 1:
            left = match.rules.tricks_per_hand - len(match.tricks)
            judged = bench.judge(observation, Solver(), 4, [left], 1, False, [0.1])
        else:
            match.apply(bots[seat].act(observation))
    assert judged is not None
    assert judged.regret[f"end-{left}"] == 0.0 and judged.agree[f"end-{left}"]
    assert set(judged.regret) == {"policy", "policy-pts", f"end-{left}", "heuristic", "gate-0.1"}
    assert all(0.0 <= regret <= 2.0 for regret in judged.regret.values())
    assert all(judged.agree[name] == (judged.regret[name] == 0.0) for name in judged.regret)


def test_regret_benchmark_refuses_bad_numbers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _load("bench_playout_regret")
    assert "comma-separated numbers" in _refused(bench, ["--tricks", "two"], monkeypatch, capsys)
    assert "must be positive" in _refused(bench, ["--worlds", "0"], monkeypatch, capsys)


def _first_decision(preset: str, seed: int, phase: str) -> Any:
    """The observation of the seat to act at a fresh deal's first decision of ``phase`` ("call"/"hide"/"play")."""
    from dehla import Match

    rng = random.Random(seed)
    match = Match.new(preset, rng)
    match.apply(match.random_deal(rng))
    while match.phase.value != phase:
        match.apply(match.legal_actions()[0])
    seat = match.to_act
    assert seat is not None
    return match.observe(seat)


def test_the_model_bot_values_first_trick_samples_with_the_model() -> None:
    model_search = _load("model_search")
    from dehla.bots.search import SearchBot, SearchSettings

    seen = _first_decision("pagat", 2, "play")
    knobs = SearchSettings(playouts=False, sample_nodes=20_000)
    bot = model_search.ModelSearchBot(1, settings=knobs, model=model_search.ModelSettings(samples=4))
    assert bot.act(seen) in seen.legal_actions
    assert bot.last_samples == 0  # a full deal is far beyond 20,000 nodes
    assert bot.last_estimates == 4 and model_search.source_of(bot, seen) == "model"
    plain = SearchBot(1, settings=knobs)  # the registered bots' class: the heuristic's move there
    assert plain.act(seen) in seen.legal_actions and model_search.source_of(plain, seen) == "heuristic"


@pytest.mark.parametrize("preset", ["pagat", "mendikot-band"])
def test_the_model_bot_makes_the_trump_call_and_the_hide_with_the_model(preset: str) -> None:
    model_search = _load("model_search")
    from dehla.bots.heuristic import HeuristicBot
    from dehla.bots.search import SearchBot, SearchSettings, move_source

    seen = _first_decision(preset, 6, "call" if preset == "pagat" else "hide")
    knobs = SearchSettings(playouts=False, sample_nodes=20_000)
    bot = model_search.ModelSearchBot(1, settings=knobs, model=model_search.ModelSettings(samples=5))
    assert bot.act(seen) in seen.legal_actions
    assert (bot.last_samples, bot.last_estimates) == (0, 5)
    cautious = model_search.ModelSearchBot(1, settings=knobs, model=model_search.ModelSettings(5, margin=10.0))
    assert cautious.act(seen) == HeuristicBot(1).act(seen)  # no clear estimated gain: the heuristic's choice
    assert cautious.last_estimates == 5
    without = SearchBot(1, settings=knobs)
    assert without.act(seen) == HeuristicBot(1).act(seen)
    assert move_source(without, seen) == "heuristic"


def test_the_model_bot_refuses_settings_that_mean_nothing() -> None:
    model_search = _load("model_search")
    for samples, margin in ((0, 0.1), (4, -0.5)):
        with pytest.raises(DehlaError, match="samples must be positive"):
            model_search.ModelSettings(samples, margin)


def test_results_nodes_benchmark_asks_by_the_points_and_by_the_winner_and_refuses_bad_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _load("bench_results_nodes")
    assert "unknown presets: nope" in _refused(bench, ["--rules", "nope"], monkeypatch, capsys)
    assert "--positions and --node-limit must be positive" in _refused(bench, ["--positions", "0"], monkeypatch, capsys)
    pagat = bench.measure("pagat", 3, 1, (30, 36), 1_000_000)  # a win or a loss: the same questions
    assert pagat["positions"] == 3 and pagat["points_nodes"] == pagat["winner_nodes"] and pagat["disagree"] == 0
    taash = bench.measure("taash", 3, 1, (30, 36), 1_000_000)  # 20, 30 or 80 points: more questions than one
    assert taash["positions"] == 3 and taash["winner_nodes"] <= taash["points_nodes"] and taash["disagree"] == 0
