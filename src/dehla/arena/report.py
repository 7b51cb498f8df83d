"""From the legs played to the arena's report: per-pair statistics, Elo, JSON, CSV and a text table.

Everything here is a function of the sorted legs, so the report is the same
whatever the workers, backend or order of completion.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import NotRequired, TypedDict

from dehla.arena.games import ArenaConfig, LegFailure, LegResult, Side
from dehla.arena.stats import Interval, elo_difference, elo_ratings, mean_interval, wilson
from dehla.bots.base import BOTS
from dehla.rules import RulesJSON

__all__ = [
    "REPORT_FORMAT",
    "jsonable",
    "summarize",
    "write_json",
    "write_csv",
    "summary_lines",
    "leg_key",
    "CSV_COLUMNS",
    "ArenaReport",
    "PairStats",
    "EntrantJSON",
    "ReportFailure",
    "RunInfo",
]

REPORT_FORMAT = "dehla-arena/1"
#: Failures listed in full in the report (all are counted).
FAILURES_LISTED = 50


class PairStats(TypedDict):
    """One pair's figures, from A's side, each estimate with its 95% interval (``results.json`` ``pairs``)."""

    a: str
    b: str
    hands: int
    hand_wins: int
    hand_losses: int
    hand_draws: int
    hand_win_rate: Interval
    elo_difference: Interval
    a_tens_per_hand: Interval
    a_sweeps: int
    a_sweeps_rate: Interval
    a_kots: int
    a_kots_rate: Interval
    a_whitewashes: int
    a_whitewashes_rate: Interval
    a_forfeits: int
    b_tens_per_hand: Interval
    b_sweeps: int
    b_sweeps_rate: Interval
    b_kots: int
    b_kots_rate: Interval
    b_whitewashes: int
    b_whitewashes_rate: Interval
    b_forfeits: int
    matches: int
    match_wins: int
    match_losses: int
    match_win_rate: Interval


class EntrantJSON(TypedDict):
    label: str
    name: str
    level: int | None  # None for an outside (cmd:) program
    elo: float | None


class ReportFailure(LegFailure):
    """A listed failure: the leg's failure and where in the arena it happened."""

    item: str
    index: int
    leg: int


class RunInfo(TypedDict):
    """How the arena was run (not part of the results: they do not depend on it)."""

    backend: str
    workers: int | None
    address: str | None
    seconds: float
    hands: int
    hands_per_second: float | None


class ArenaReport(TypedDict):
    """The arena's report, ``results.json`` (``dehla-arena/1``, docs/arena.md)."""

    format: str
    rules: RulesJSON
    seed: int
    deals: int
    matches: int
    move_timeout: float
    bots: list[EntrantJSON]
    pairs: list[PairStats]
    failure_count: int
    failures: list[ReportFailure]
    run: NotRequired[RunInfo]


def leg_key(leg: LegResult) -> tuple[int, int, int, int, int]:
    """The fixed order of legs: pair, deals before matches, item, leg."""
    return (leg["pair"][0], leg["pair"][1], 0 if leg["kind"] == "deal" else 1, leg["index"], leg["leg"])


def _pair_stats(config: ArenaConfig, pair: tuple[int, int], legs: list[LegResult]) -> PairStats:
    hands = [hand for leg in legs for hand in leg["hands"]]
    count = len(hands)
    score = math.fsum(hand["score"] for hand in hands)
    wins = sum(1 for hand in hands if hand["score"] == 1.0)
    draws = sum(1 for hand in hands if hand["score"] == 0.5)
    hand_rate = wilson(score, count)

    def tens(position: int) -> Interval:
        return mean_interval([float(hand["tens"][position]) for hand in hands])

    def sweeps(position: int) -> int:
        return sum(hand["sweeps"][position] for hand in hands)

    def kots(position: int) -> int:
        return sum(hand["kots"][position] for hand in hands)

    def whitewashes(position: int) -> int:
        return sum(hand["whitewashes"][position] for hand in hands)

    def forfeits(side: Side) -> int:
        return sum(1 for leg in legs if leg["failure"] is not None and leg["failure"]["side"] == side)

    match_legs = [leg for leg in legs if leg["kind"] == "match"]
    match_wins = sum(1 for leg in match_legs if leg["match"] == 1.0)
    return {
        "a": config.labels[pair[0]],
        "b": config.labels[pair[1]],
        "hands": count,
        "hand_wins": wins,
        "hand_losses": count - wins - draws,
        "hand_draws": draws,
        "hand_win_rate": hand_rate,
        "elo_difference": elo_difference(hand_rate),
        "a_tens_per_hand": tens(0),
        "a_sweeps": sweeps(0),
        "a_sweeps_rate": wilson(sweeps(0), count),
        "a_kots": kots(0),
        "a_kots_rate": wilson(kots(0), count),
        "a_whitewashes": whitewashes(0),
        "a_whitewashes_rate": wilson(whitewashes(0), count),
        "a_forfeits": forfeits("a"),
        "b_tens_per_hand": tens(1),
        "b_sweeps": sweeps(1),
        "b_sweeps_rate": wilson(sweeps(1), count),
        "b_kots": kots(1),
        "b_kots_rate": wilson(kots(1), count),
        "b_whitewashes": whitewashes(1),
        "b_whitewashes_rate": wilson(whitewashes(1), count),
        "b_forfeits": forfeits("b"),
        "matches": len(match_legs),
        "match_wins": match_wins,
        "match_losses": len(match_legs) - match_wins,
        "match_win_rate": wilson(match_wins, len(match_legs)),
    }


def summarize(config: ArenaConfig, legs: Sequence[LegResult], run: RunInfo | None = None) -> ArenaReport:
    """The report: settings, per-pair statistics with 95% intervals, Elo ratings and failures."""
    ordered = sorted(legs, key=leg_key)
    by_pair: dict[tuple[int, int], list[LegResult]] = {pair: [] for pair in config.pairs}
    for leg in ordered:
        by_pair[(leg["pair"][0], leg["pair"][1])].append(leg)
    pairs = [_pair_stats(config, pair, by_pair[pair]) for pair in config.pairs]
    scores = []
    for pair, stats in zip(config.pairs, pairs):
        if stats["hands"]:
            scores.append((pair[0], pair[1], stats["hand_win_rate"]["value"] * stats["hands"], stats["hands"]))
    ratings = elo_ratings(len(config.bots), scores)
    failures: list[ReportFailure] = []
    for leg in ordered:
        if leg["failure"] is not None:
            failures.append({**leg["failure"], "item": leg["kind"], "index": leg["index"], "leg": leg["leg"]})
    bots: list[EntrantJSON] = []
    for position, (name, label) in enumerate(zip(config.bots, config.labels)):
        info = BOTS.get(name)
        bots.append(
            {
                "label": label,
                "name": name,
                "level": None if info is None else info.level,
                "elo": ratings[position] if ratings else None,
            }
        )
    report: ArenaReport = {
        "format": REPORT_FORMAT,
        "rules": config.rules.to_json(),
        "seed": config.seed,
        "deals": config.deals,
        "matches": config.matches,
        "move_timeout": config.move_timeout,
        "bots": bots,
        "pairs": pairs,
        "failure_count": len(failures),
        "failures": failures[:FAILURES_LISTED],
    }
    if run is not None:
        report["run"] = run
    return report


def jsonable(value: object) -> object:
    """NaN (no data) becomes null, as JSON has no NaN."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: jsonable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [jsonable(item) for item in value]
    return value


def write_json(report: ArenaReport, path: Path) -> None:
    path.write_text(json.dumps(jsonable(report), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


#: CSV columns: one row per pair; ``X``, ``X_low``, ``X_high`` for every estimate with an interval.
CSV_COLUMNS = ["a", "b", "hands", "hand_wins", "hand_losses", "hand_draws"]
_INTERVALS = ["hand_win_rate", "elo_difference"]
for _side in ("a", "b"):
    _INTERVALS.append(f"{_side}_tens_per_hand")
    for _feat in ("sweeps", "kots", "whitewashes"):
        CSV_COLUMNS.append(f"{_side}_{_feat}")
        _INTERVALS.append(f"{_side}_{_feat}_rate")
    CSV_COLUMNS.append(f"{_side}_forfeits")
CSV_COLUMNS += ["matches", "match_wins", "match_losses"]
_INTERVALS.append("match_win_rate")
for _name in _INTERVALS:
    CSV_COLUMNS += [_name, f"{_name}_low", f"{_name}_high"]


def write_csv(report: ArenaReport, path: Path) -> None:
    """One row per pair of bots (A against B, from A's side)."""
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        for stats in report["pairs"]:
            row: dict[str, object] = {}
            for column, value in stats.items():
                if isinstance(value, dict):  # an estimate: value, low and high in three columns
                    for suffix, key in (("", "value"), ("_low", "low"), ("_high", "high")):
                        bound = value[key]
                        row[f"{column}{suffix}"] = "" if math.isnan(bound) else bound
                else:
                    row[column] = value
            writer.writerow(row)


def _interval_text(interval: Interval, percent: bool = True) -> str:
    if math.isnan(interval["value"]):
        return "—"
    if percent:
        return f"{interval['value']:.1%} [{interval['low']:.1%}, {interval['high']:.1%}]"
    return f"{interval['value']:.2f} [{interval['low']:.2f}, {interval['high']:.2f}]"


def summary_lines(report: ArenaReport) -> list[str]:
    """A plain-text summary: each pair's headline figures with 95% intervals, then the Elo table."""
    lines = []
    for stats in report["pairs"]:
        lines.append(f"{stats['a']} vs {stats['b']}: {stats['hands']} hands")
        lines.append(
            f"  hand-win rate of {stats['a']}: {_interval_text(stats['hand_win_rate'])}"
            f"  (won {stats['hand_wins']}, lost {stats['hand_losses']}, drawn {stats['hand_draws']})"
        )
        elo = stats["elo_difference"]
        if not math.isnan(elo["value"]):
            lines.append(f"  Elo difference: {elo['value']:+.0f} [{elo['low']:+.0f}, {elo['high']:+.0f}]")
        if stats["matches"]:
            lines.append(
                f"  match-win rate of {stats['a']}: {_interval_text(stats['match_win_rate'])}"
                f"  ({stats['match_wins']} of {stats['matches']})"
            )
        sides = (
            (
                stats["a"],
                stats["a_tens_per_hand"],
                stats["a_sweeps"],
                stats["a_kots"],
                stats["a_whitewashes"],
                stats["a_forfeits"],
            ),
            (
                stats["b"],
                stats["b_tens_per_hand"],
                stats["b_sweeps"],
                stats["b_kots"],
                stats["b_whitewashes"],
                stats["b_forfeits"],
            ),
        )
        for name, tens, sweeps, kots, whitewashes, forfeits in sides:
            lines.append(
                f"  {name}: tens/hand {_interval_text(tens, percent=False)}, "
                f"sweeps {sweeps}, kots {kots}, whitewashes {whitewashes}, forfeits {forfeits}"
            )
    if len(report["bots"]) > 2:
        lines.append("Elo (Bradley–Terry fit of all hands, average 1500):")
        width = max(len(bot["label"]) for bot in report["bots"])
        for bot in sorted(report["bots"], key=lambda item: -(item["elo"] or 0)):
            lines.append(f"  {bot['label']:<{width}}  {bot['elo']:.0f}")
    if report["failure_count"]:
        lines.append(f"Bot failures: {report['failure_count']} (each lost the hand or match for its team); first:")
        lines.append(f"  {report['failures'][0]['message']}")
    return lines
