"""The arena: duplicate deals, statistics, reports, determinism across workers and backends, bad input."""

from __future__ import annotations

import csv
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from dehla import PRESETS, Play, preset
from dehla.arena import ArenaConfig, plan_tasks, play_leg, run_arena, summarize
from dehla.arena.executors import check_ray_address
from dehla.arena.games import entrant_labels
from dehla.arena.report import jsonable
from dehla.arena.stats import elo_difference, elo_ratings, mean_interval, wilson
from dehla.bots import base
from dehla.cli.arena import split_bots
from dehla.cli.main import main
from dehla.errors import DehlaError
from dehla.protocol import python_command

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "simple_bot.py"


def comparable(report: dict) -> dict:
    """The report as written to JSON, without the run's timing and place."""
    return {key: value for key, value in jsonable(report).items() if key != "run"}


# ------------------------------------------------------------------------------ statistics


def test_wilson_interval_matches_known_values() -> None:
    half = wilson(5, 10)
    assert half["value"] == 0.5
    assert half["low"] == pytest.approx(0.236593, abs=1e-6)
    assert half["high"] == pytest.approx(0.763407, abs=1e-6)
    none = wilson(0, 10)
    assert none["low"] == 0.0 and none["high"] == pytest.approx(3.84146 / 13.84146, abs=2e-6)
    every = wilson(20, 20)
    assert every["high"] == 1.0 and every["low"] == pytest.approx(20 / 23.84146, abs=2e-6)
    assert math.isnan(wilson(0, 0)["value"])


def test_mean_interval_is_mean_plus_minus_196_standard_errors() -> None:
    values = [0.0, 1.0, 2.0, 3.0, 4.0]
    interval = mean_interval(values)
    assert interval["value"] == 2.0
    half = 1.959963984540054 * math.sqrt(2.5 / 5)
    assert interval["low"] == pytest.approx(2.0 - half, abs=1e-6)
    assert interval["high"] == pytest.approx(2.0 + half, abs=1e-6)
    assert mean_interval([3.0]) == {"value": 3.0, "low": 3.0, "high": 3.0}


def test_elo_from_rates_and_from_a_round_robin() -> None:
    assert elo_difference(wilson(50, 100))["value"] == 0.0
    assert elo_difference({"value": 0.76, "low": 0.7, "high": 0.8})["value"] == pytest.approx(200.0, abs=1.0)
    assert elo_difference(wilson(10, 10))["value"] == 1200.0  # capped, not infinite
    even = elo_ratings(3, [(0, 1, 50, 100), (0, 2, 50, 100), (1, 2, 50, 100)])
    assert even == pytest.approx([1500.0, 1500.0, 1500.0], abs=1e-6)
    ranked = elo_ratings(3, [(0, 1, 80, 100), (0, 2, 95, 100), (1, 2, 75, 100)])
    assert ranked[0] > ranked[1] > ranked[2]
    assert sum(ranked) / 3 == pytest.approx(1500.0, abs=1e-3)
    # two players: the fitted gap is the gap the score implies (shrunk a little by the prior draw)
    two = elo_ratings(2, [(0, 1, 76, 100)])
    assert 190 < two[0] - two[1] < 200
    perfect = elo_ratings(2, [(0, 1, 100, 100)])
    assert math.isfinite(perfect[0]) and perfect[0] > perfect[1]


# ------------------------------------------------------------------------------ duplicate deals


@pytest.mark.parametrize("name", ["pagat", "mendikot-open", "taash", "mendikot-6"])
def test_both_legs_of_a_deal_share_the_cards_and_swap_the_teams(name: str) -> None:
    config = ArenaConfig(rules=preset(name), bots=("random", "random"), seed=4, deals=3, keep_records=True)
    for index in range(3):
        first = play_leg(config, "deal", (0, 1), index, 0)
        second = play_leg(config, "deal", (0, 1), index, 1)
        one, two = first["record"], second["record"]
        assert one["first_dealer"] == two["first_dealer"]
        assert one["hands"][0]["cards"] == two["hands"][0]["cards"]
        assert one["hands"][0].get("open_draw") == two["hands"][0].get("open_draw")
        players = PRESETS[name].players
        assert one["players"] == ["random" if seat % 2 == 0 else "random#2" for seat in range(players)]
        assert two["players"] == ["random#2" if seat % 2 == 0 else "random" for seat in range(players)]
        assert len(first["hands"]) == len(second["hands"]) == 1


def test_matches_are_played_in_duplicate_with_the_same_chance() -> None:
    config = ArenaConfig(rules=preset("mendikot"), bots=("random", "random"), seed=8, matches=1, keep_records=True)
    first = play_leg(config, "match", (0, 1), 0, 0)
    second = play_leg(config, "match", (0, 1), 0, 1)
    assert first["match"] in (0.0, 1.0) and second["match"] in (0.0, 1.0)
    assert first["record"]["hands"][0]["cards"] == second["record"]["hands"][0]["cards"]
    assert len(first["hands"]) == len(first["record"]["hands"]) >= 5


def test_the_plan_depends_on_the_configuration_only() -> None:
    config = ArenaConfig(rules=preset("pagat"), bots=("random", "random", "random"), seed=1, deals=25, matches=2)
    tasks = plan_tasks(config)
    assert config.pairs == [(0, 1), (0, 2), (1, 2)]
    assert sum(task.legs for task in tasks) == config.total_legs == 3 * 2 * 27
    assert entrant_labels(("a", "b", "a", "a")) == ("a", "b", "a#2", "a#3")


def test_the_report_counts_and_intervals() -> None:
    config = ArenaConfig(rules=preset("mendikot"), bots=("random", "random"), seed=3, deals=40, matches=2)
    report = run_arena(config).report
    pair = report["pairs"][0]
    assert pair["hands"] >= 80 + 4 * 5  # the deals' hands, and every hand of the matches (5 points win one)
    assert pair["hand_wins"] + pair["hand_losses"] + pair["hand_draws"] == pair["hands"]
    assert pair["matches"] == 4 and pair["match_wins"] + pair["match_losses"] == 4
    rate = pair["hand_win_rate"]
    assert rate["low"] <= rate["value"] <= rate["high"]
    assert rate["value"] == pytest.approx((pair["hand_wins"] + pair["hand_draws"] / 2) / pair["hands"], abs=1e-6)
    tens = pair["a_tens_per_hand"]["value"] + pair["b_tens_per_hand"]["value"]
    assert tens == pytest.approx(4.0, abs=1e-6)  # every ten is collected in a finished Mendikot hand
    assert report["bots"][0]["elo"] is not None
    assert report["failure_count"] == 0


def test_summaries_do_not_depend_on_the_order_of_the_legs() -> None:
    config = ArenaConfig(rules=preset("taash"), bots=("random", "random"), seed=2, deals=10)
    legs = run_arena(config).legs
    assert summarize(config, legs) == summarize(config, list(reversed(legs)))


# ------------------------------------------------------------------------------ failing bots in the arena


class IllegalOnTrickThree:
    name = "test-illegal"

    def act(self, observation):
        if len(observation.tricks) == 2:
            held = set(observation.hand)
            return next(Play(card) for card in range(52) if card not in held)
        return observation.legal_actions[0]


@pytest.fixture
def illegal_bot(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(
        base.BOTS, "test-illegal", base.BotInfo("test-illegal", 5, "test", "cheats", lambda seed: IllegalOnTrickThree())
    )
    return "test-illegal"


def test_a_bot_that_breaks_the_rules_loses_every_hand_it_breaks(illegal_bot: str) -> None:
    config = ArenaConfig(rules=preset("mendikot"), bots=("random", illegal_bot), seed=1, deals=5, matches=1)
    report = run_arena(config).report
    pair = report["pairs"][0]
    assert pair["b_forfeits"] == 12 and pair["a_forfeits"] == 0
    assert pair["hand_wins"] == pair["hands"] == 12
    assert pair["match_wins"] == 2
    failure = report["failures"][0]
    assert failure["kind"] == "illegal" and failure["bot"] == illegal_bot and failure["side"] == "b"
    assert failure["trick"] == 3 and failure["hand"] == 0
    assert "trick 3" in failure["message"]


def test_an_outside_program_that_dies_loses_and_the_arena_goes_on(tmp_path: Path) -> None:
    script = tmp_path / "dies.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'ready'}), flush=True)\n"
        "    else:\n"
        "        sys.exit(4)\n",
        encoding="utf-8",
    )
    config = ArenaConfig(rules=preset("pagat"), bots=(python_command(str(script)), "random"), seed=1, deals=3)
    report = run_arena(config).report
    pair = report["pairs"][0]
    assert pair["a_forfeits"] == 6 and pair["hand_wins"] == 0
    assert "exited with status 4" in report["failures"][0]["message"]


def test_an_outside_program_plays_the_arena_like_a_registered_bot() -> None:
    config = ArenaConfig(rules=preset("pagat"), bots=(python_command(str(EXAMPLE)), "random"), seed=5, deals=6)
    first = run_arena(config).report
    second = run_arena(config).report
    assert first["failure_count"] == 0
    assert comparable(first) == comparable(second)


# ------------------------------------------------------------------------------ the command, end to end


def test_arena_command_writes_every_output_and_replayable_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    records = tmp_path / "hands.jsonl"
    status = main(
        [
            "arena",
            "--rules",
            "mendikot-band",
            "--bots",
            "random,random,random",
            "--deals",
            "4",
            "--seed",
            "7",
            "--out",
            str(out),
            "--records",
            str(records),
        ]
    )
    assert status == 0
    captured = capsys.readouterr()
    assert "Elo" in captured.out and "hand-win rate" in captured.out
    assert "Traceback" not in captured.err
    report = json.loads((out / "results.json").read_text())
    assert report["format"] == "dehla-arena/1"
    assert [bot["label"] for bot in report["bots"]] == ["random", "random#2", "random#3"]
    assert len(report["pairs"]) == 3
    with (out / "results.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 3 and rows[0]["a"] == "random" and rows[0]["b"] == "random#2"
    low, value, high = (float(rows[0][f"hand_win_rate{suffix}"]) for suffix in ("_low", "", "_high"))
    assert low <= value <= high
    assert (out / "win_rates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (out / "win_rates.svg").read_text()
    lines = records.read_text().splitlines()
    assert len(lines) == 3 * 4 * 2
    assert main(["replay", "--json", str(records)]) == 0
    replays = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(replays) == 24 and all("error" not in item and len(item["hands"]) == 1 for item in replays)


def test_arena_results_are_the_same_with_one_or_two_workers(tmp_path: Path) -> None:
    reports = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        assert (
            main(
                [
                    "arena",
                    "--rules",
                    "taash",
                    "--bots",
                    "random,random",
                    "--deals",
                    "30",
                    "--matches",
                    "1",
                    "--seed",
                    "11",
                    "--workers",
                    str(workers),
                    "--out",
                    str(out),
                    "--no-progress",
                ]
            )
            == 0
        )
        reports.append(json.loads((out / "results.json").read_text()))
    assert reports[0]["run"]["workers"] == 1 and reports[1]["run"]["workers"] == 2
    assert comparable(reports[0]) == comparable(reports[1])


def test_split_bots_keeps_commas_inside_commands() -> None:
    assert split_bots("heuristic, random") == ("heuristic", "random")
    assert split_bots("cmd:python bot.py --levels 1,2,random") == ("cmd:python bot.py --levels 1,2", "random")


# ------------------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--bots", "random,grandmaster"], "unknown bot 'grandmaster'"),
        (["--bots", "random"], "at least two bots"),
        (["--bots", "random,,random"], "empty name"),
        (["--bots", "random,cmd:no-such-program-xyz"], "no program 'no-such-program-xyz'"),
        (["--bots", "random,random", "--rules", "bridge"], "unknown preset 'bridge'"),
        (["--bots", "random,random", "--rules", "{bad json"], "not valid JSON"),
        (["--bots", "random,random", "--address", "127.0.0.1:1"], "add --backend ray"),
        (["--bots", "random,random", "--backend", "ray", "--address", "127.0.0.1:1"], "cannot reach a Ray cluster"),
        (["--bots", "random,random", "--backend", "ray", "--address", "localhost:port"], "is not HOST:PORT"),
    ],
)
def test_bad_input_is_one_clear_line(
    arguments: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", "--deals", "2", "--out", str(tmp_path / "out"), *arguments]) == 1
    err = capsys.readouterr().err
    assert message in err
    assert err.startswith("dehla: ") and err.count("\n") == 1
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--deals", "0"], "must be at least 1"),
        (["--deals", "-5"], "must be at least 1"),
        (["--deals", "many"], "is not a whole number"),
        (["--matches", "0"], "must be at least 1"),
        (["--workers", "0"], "must be at least 1"),
        (["--seed", "1.5"], "is not a whole number"),
        (["--backend", "spark"], "invalid choice: 'spark'"),
        (["--move-timeout", "0"], "positive number of seconds"),
    ],
)
def test_bad_counts_and_seeds_are_usage_errors(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["arena", "--bots", "random,random", *arguments])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_an_unwritable_output_directory_or_records_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    assert main(["arena", "--bots", "random,random", "--deals", "1", "--out", str(blocker / "out")]) == 1
    err = capsys.readouterr().err
    assert "cannot write to the output directory" in err and err.count("\n") == 1
    assert (
        main(
            [
                "arena",
                "--bots",
                "random,random",
                "--deals",
                "1",
                "--out",
                str(tmp_path / "ok"),
                "--records",
                str(blocker / "records.jsonl"),
            ]
        )
        == 1
    )
    assert "cannot write the records file" in capsys.readouterr().err


def test_the_real_command_never_shows_a_traceback(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "dehla",
            "arena",
            "--bots",
            "random,nobody",
            "--deals",
            "3",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "unknown bot 'nobody'" in done.stderr
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "dehla",
            "arena",
            "--bots",
            "random,random",
            "--deals",
            "3",
            "--backend",
            "ray",
            "--address",
            "127.0.0.1:1",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "cannot reach a Ray cluster at 127.0.0.1:1" in done.stderr


def test_check_ray_address_accepts_auto_and_client_addresses() -> None:
    check_ray_address("auto")
    with pytest.raises(DehlaError, match="cannot reach"):
        check_ray_address("ray://127.0.0.1:1")


# ------------------------------------------------------------------------------ Ray (one local cluster)


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_gives_the_same_results_as_local_processes(ray_cluster) -> None:
    config = ArenaConfig(
        rules=preset("mendikot"), bots=("random", "random", "random"), seed=21, deals=12, matches=1, keep_records=True
    )
    local = run_arena(config, backend="local", workers=1)
    remote = run_arena(config, backend="ray")
    assert remote.report["run"]["backend"] == "ray"
    assert comparable(remote.report) == comparable(local.report)
    assert [leg["record"] for leg in remote.legs] == [leg["record"] for leg in local.legs]


def test_arena_command_joins_a_ray_cluster_by_address(ray_cluster, tmp_path: Path) -> None:
    address = ray_cluster.get_runtime_context().gcs_address
    out = tmp_path / "ray"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "dehla",
            "arena",
            "--rules",
            "pagat",
            "--bots",
            "random,random",
            "--deals",
            "10",
            "--seed",
            "3",
            "--backend",
            "ray",
            "--address",
            address,
            "--out",
            str(out),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    report = json.loads((out / "results.json").read_text())
    assert report["run"]["backend"] == "ray" and report["run"]["address"] == address
    config = ArenaConfig(rules=preset("pagat"), bots=("random", "random"), seed=3, deals=10)
    assert comparable(report) == comparable(run_arena(config).report)
