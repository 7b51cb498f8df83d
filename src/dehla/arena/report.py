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
from typing import Any

from dehla.arena.games import ArenaConfig, LegResult
from dehla.arena.stats import elo_difference, elo_ratings, mean_interval, wilson
from dehla.bots.base import BOTS

__all__ = [
    "REPORT_FORMAT", "jsonable", "summarize", "write_json", "write_csv", "summary_lines", "leg_key", "CSV_COLUMNS"
]

REPORT_FORMAT = "dehla-arena/1"
#: Failures listed in full in the report (all are counted).
FAILURES_LISTED = 50


def leg_key(leg: LegResult) -> tuple[int, int, int, int, int]:
    """The fixed order of legs: pair, deals before matches, item, leg."""
    return (leg["pair"][0], leg["pair"][1], 0 if leg["kind"] == "deal" else 1, leg["index"], leg["leg"])


def _pair_stats(config: ArenaConfig, pair: tuple[int, int], legs: list[LegResult]) -> dict[str, Any]:
    hands = [hand for leg in legs for hand in leg["hands"]]
    count = len(hands)
    score = math.fsum(hand["score"] for hand in hands)
    wins = sum(1 for hand in hands if hand["score"] == 1.0)
    draws = sum(1 for hand in hands if hand["score"] == 0.5)
    hand_rate = wilson(score, count)
    stats: dict[str, Any] = {
        "a": config.labels[pair[0]],
        "b": config.labels[pair[1]],
        "hands": count,
        "hand_wins": wins,
        "hand_losses": count - wins - draws,
        "hand_draws": draws,
        "hand_win_rate": hand_rate,
        "elo_difference": elo_difference(hand_rate),
    }
    for side, position in (("a", 0), ("b", 1)):
        stats[f"{side}_tens_per_hand"] = mean_interval([float(hand["tens"][position]) for hand in hands])
        for feat in ("sweeps", "kots", "whitewashes"):
            total = sum(hand[feat][position] for hand in hands)
            stats[f"{side}_{feat}"] = total
            stats[f"{side}_{feat}_rate"] = wilson(total, count)
        stats[f"{side}_forfeits"] = sum(
            1 for leg in legs if leg["failure"] is not None and leg["failure"]["side"] == side
        )
    match_legs = [leg for leg in legs if leg["kind"] == "match"]
    match_wins = sum(1 for leg in match_legs if leg["match"] == 1.0)
    stats["matches"] = len(match_legs)
    stats["match_wins"] = match_wins
    stats["match_losses"] = len(match_legs) - match_wins
    stats["match_win_rate"] = wilson(match_wins, len(match_legs))
    return stats


def summarize(config: ArenaConfig, legs: Sequence[LegResult], run: dict[str, Any] | None = None) -> dict[str, Any]:
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
    failures = [leg["failure"] | {"item": leg["kind"], "index": leg["index"], "leg": leg["leg"]}
                for leg in ordered if leg["failure"] is not None]
    bots = []
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
    report: dict[str, Any] = {
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


def jsonable(value: Any) -> Any:
    """NaN (no data) becomes null, as JSON has no NaN."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: jsonable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [jsonable(item) for item in value]
    return value


def write_json(report: dict[str, Any], path: Path) -> None:
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


def write_csv(report: dict[str, Any], path: Path) -> None:
    """One row per pair of bots (A against B, from A's side)."""
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        for stats in report["pairs"]:
            row: dict[str, Any] = {}
            for column in CSV_COLUMNS:
                if column in stats and not isinstance(stats[column], dict):
                    row[column] = stats[column]
            for name in _INTERVALS:
                interval = stats[name]
                for suffix, key in (("", "value"), ("_low", "low"), ("_high", "high")):
                    value = interval[key]
                    row[f"{name}{suffix}"] = "" if math.isnan(value) else value
            writer.writerow(row)


def _interval_text(interval: dict[str, float], percent: bool = True) -> str:
    if math.isnan(interval["value"]):
        return "—"
    if percent:
        return f"{interval['value']:.1%} [{interval['low']:.1%}, {interval['high']:.1%}]"
    return f"{interval['value']:.2f} [{interval['low']:.2f}, {interval['high']:.2f}]"


def summary_lines(report: dict[str, Any]) -> list[str]:
    """A plain-text summary: each pair's headline figures with 95% intervals, then the Elo table."""
    lines = []
    for stats in report["pairs"]:
        lines.append(f"{stats['a']} vs {stats['b']}: {stats['hands']} hands")
        lines.append(f"  hand-win rate of {stats['a']}: {_interval_text(stats['hand_win_rate'])}"
                     f"  (won {stats['hand_wins']}, lost {stats['hand_losses']}, drawn {stats['hand_draws']})")
        elo = stats["elo_difference"]
        if not math.isnan(elo["value"]):
            lines.append(f"  Elo difference: {elo['value']:+.0f} [{elo['low']:+.0f}, {elo['high']:+.0f}]")
        if stats["matches"]:
            lines.append(f"  match-win rate of {stats['a']}: {_interval_text(stats['match_win_rate'])}"
                         f"  ({stats['match_wins']} of {stats['matches']})")
        for side in ("a", "b"):
            name = stats[side]
            lines.append(
                f"  {name}: tens/hand {_interval_text(stats[f'{side}_tens_per_hand'], percent=False)}, "
                f"sweeps {stats[f'{side}_sweeps']}, kots {stats[f'{side}_kots']}, "
                f"whitewashes {stats[f'{side}_whitewashes']}, forfeits {stats[f'{side}_forfeits']}"
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
