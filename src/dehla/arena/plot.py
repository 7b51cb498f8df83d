"""The arena's plot: each pair's win rates with their 95% intervals, as PNG and SVG (matplotlib, Agg)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from dehla.arena.report import ArenaReport

__all__ = ["plot_win_rates"]


def plot_win_rates(report: ArenaReport, directory: Path, stem: str = "win_rates") -> list[Path]:
    """Draw hand-win (and match-win) rates of A against B for every pair; returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    pairs = report["pairs"]
    series: list[tuple[str, Literal["hand_win_rate", "match_win_rate"], str, float]]
    series = [("hand-win rate", "hand_win_rate", "o", 0.0)]
    if any(stats["matches"] for stats in pairs):
        series = [("hand-win rate", "hand_win_rate", "o", -0.12), ("match-win rate", "match_win_rate", "s", 0.12)]
    height = max(2.8, 0.7 * len(pairs) + 2.0)
    figure, axes = pyplot.subplots(figsize=(8.0, height))
    try:
        labels = [f"{stats['a']} vs {stats['b']}" for stats in pairs]
        for legend, key, marker, offset in series:
            xs, ys, low, high = [], [], [], []
            for row, stats in enumerate(pairs):
                interval = stats[key]
                if math.isnan(interval["value"]):
                    continue
                xs.append(interval["value"])
                ys.append(row + offset)
                low.append(interval["value"] - interval["low"])
                high.append(interval["high"] - interval["value"])
            axes.errorbar(xs, ys, xerr=[low, high], fmt=marker, capsize=4, label=f"{legend} (95% CI)")
        axes.axvline(0.5, color="grey", linestyle="--", linewidth=1)
        axes.set_yticks(range(len(pairs)), labels)
        axes.set_ylim(len(pairs) - 0.5, -0.5)  # first pair on top
        axes.set_xlim(-0.02, 1.02)
        axes.set_xlabel("rate of the first bot of each pair (draws count half)")
        rules = report["rules"] if isinstance(report["rules"], str) else report["rules"].get("preset", "custom")
        detail = []
        if report["deals"]:
            detail.append(f"{report['deals']} duplicate deals")
        if report["matches"]:
            detail.append(f"{report['matches']} duplicate matches")
        axes.set_title(f"dehla arena — {rules}, {', '.join(detail)}, seed {report['seed']}")
        axes.grid(axis="x", alpha=0.3)
        figure.legend(loc="lower center", ncol=2, fontsize="small", frameon=False)
        figure.tight_layout(rect=(0.0, 0.07, 1.0, 1.0))
        written = []
        for suffix in ("png", "svg"):
            path = directory / f"{stem}.{suffix}"
            metadata = {"Date": None} if suffix == "svg" else {}
            figure.savefig(path, dpi=120, metadata=metadata)
            written.append(path)
        return written
    finally:
        pyplot.close(figure)
