"""Running an arena from start to report: plan, execute, summarise, write the files."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from dehla.arena.executors import ProgressCallback, run_local, run_ray
from dehla.arena.games import ArenaConfig, LegResult, plan_tasks
from dehla.arena.plot import plot_win_rates
from dehla.arena.report import ArenaReport, RunInfo, leg_key, summarize, write_csv, write_json
from dehla.errors import DehlaError
from dehla.record import dumps_record

__all__ = ["ArenaRun", "run_arena", "write_outputs", "check_writable_dir", "check_writable_file"]

BACKENDS = ("local", "ray")


@dataclass
class ArenaRun:
    """An arena's report and the legs it came from (in the report's fixed order)."""

    report: ArenaReport
    legs: list[LegResult]


def run_arena(
    config: ArenaConfig,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    on_progress: ProgressCallback | None = None,
) -> ArenaRun:
    """Play everything ``config`` asks for and summarise it (nothing is written to disk here)."""
    if backend not in BACKENDS:
        raise DehlaError(f"unknown backend {backend!r}; backends are: {', '.join(BACKENDS)}")
    if address and backend != "ray":
        raise DehlaError("--address names a Ray cluster; use it with --backend ray")
    tasks = plan_tasks(config)
    start = time.perf_counter()
    if backend == "ray":
        legs = run_ray(config, tasks, address, workers, on_progress)
    else:
        legs = run_local(config, tasks, workers or 1, on_progress)
    seconds = time.perf_counter() - start
    legs.sort(key=leg_key)
    hands = sum(len(leg["hands"]) for leg in legs)
    run: RunInfo = {
        "backend": backend,
        "workers": workers,
        "address": address,
        "seconds": round(seconds, 3),
        "hands": hands,
        "hands_per_second": round(hands / seconds, 1) if seconds > 0 else None,
    }
    return ArenaRun(summarize(config, legs, run), legs)


def check_writable_dir(path: Path) -> None:
    """Make the output directory (if needed) and prove it is writable, before any work is done."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".dehla-write-test"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as error:
        raise DehlaError(f"cannot write to the output directory {str(path)!r}: {error.strerror or error}") from None


def check_writable_file(path: Path) -> None:
    """Prove a file can be written (created if missing) before any work is done."""
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        raise DehlaError(f"cannot write the records file {str(path)!r}: {error.strerror or error}") from None
    if not existed:
        path.unlink()


def write_outputs(run: ArenaRun, directory: Path, records: Path | None = None) -> list[Path]:
    """Write ``results.json``, ``results.csv``, the PNG and SVG plots, and the records file; returns the paths."""
    try:
        written = [directory / "results.json", directory / "results.csv"]
        write_json(run.report, written[0])
        write_csv(run.report, written[1])
        written += plot_win_rates(run.report, directory)
        if records is not None:
            with records.open("w", encoding="utf-8") as out:
                for leg in run.legs:
                    if leg["record"] is not None:
                        out.write(dumps_record(leg["record"]) + "\n")
            written.append(records)
    except OSError as error:
        raise DehlaError(f"cannot write the arena's results: {error}") from None
    return written
