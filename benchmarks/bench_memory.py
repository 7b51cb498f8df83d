"""Memory of a bot process, part by part, with the controls that say what our design can change.

Each line is a fresh Python process that does one thing and reports its peak resident memory (``ru_maxrss``)
and, at its end, the part of it that is private to the process (``Private_*`` of ``/proc/self/smaps_rollup``;
the rest is shared library code that every bot process maps from the same files).  The **controls** are
what any program pays before a line of dehla runs: the interpreter, ``import numpy``, ``import numba`` (LLVM)
and the smallest numba program that loads one compiled function from its cache.  Then dehla's parts: the
compiled kernels loaded from numba's cache (the solver's and the playouts'), the solver's transposition table
at several sizes (every page written, as a long-lived bot's table ends up), and whole ``pagat`` hands with
``hard`` bots (seat 0, ``heuristic`` in the other seats): one bot, one bot without playouts, one bot playing
``--hands`` hands, and ``--hands`` bots each playing one hand, all kept alive in one process as a web bot
worker keeps them (its last few bots): the difference is what each extra bot costs.

``--compiled`` measures the kernels' and the bots' lines again with the kernels compiled ahead of time
(``dehla compile``, built first when missing: not measured), numba never loaded (each such line says so).  Usage::

    python benchmarks/bench_memory.py [--hands 10] [--bits 17,18,19] [--budget 0.5] [--seed 1] [--compiled] [--json]

The numba cache is filled first (not measured).  Memory does not depend on the machine's load; the hands'
table use does depend on the nodes searched, so the bots' lines are for the budget given.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

#: ``dehla.solver.compiled.MODE_ENV``, written out: this process imports no dehla, because Linux carries a
#: process's peak memory across ``exec`` into the parts it starts.
MODE_ENV = "DEHLA_KERNELS"

#: The smallest numba program with a cached compiled function (the control for any numba code).
TINY = "import numba\n\n\n@numba.njit(cache=True)\ndef add(a, b):\n    return a + b\n"


def private_mb() -> float | None:
    """This process's private resident memory in MB (Linux), or ``None`` where the kernel does not say."""
    try:
        text = Path("/proc/self/smaps_rollup").read_text(encoding="ascii")
    except OSError:
        return None
    kb = sum(int(line.split()[1]) for line in text.splitlines() if line.startswith(("Private_Clean", "Private_Dirty")))
    return kb / 1024


def choose(seats: list[Any], seat: int, seen: Any) -> Any:
    """The action of the bot in ``seat``."""
    return seats[seat].act(seen)


def play_hands(bots: int, hands: int, budget: float, seed: int, playouts: bool = True) -> object:
    """``hands`` whole ``pagat`` hands with ``hard`` bots in seat 0 (``bots`` of them, in turn); returns them."""
    import random

    from dehla import Match
    from dehla.bots import make_bot
    from dehla.bots.base import Bot, bind_bots
    from dehla.bots.search import SearchBot, SearchSettings
    from dehla.play import play_hand

    kept = [SearchBot(seed + index, budget=budget, settings=SearchSettings(playouts=playouts)) for index in range(bots)]
    for hand in range(hands):
        chance = random.Random(seed * 1000 + hand)
        match = Match.new("pagat", chance)
        seats: list[Bot] = [kept[hand % bots], *(make_bot("heuristic", seed + seat) for seat in (1, 2, 3))]
        bind_bots(seats, match)
        match.apply(match.random_deal(chance))
        play_hand(match, functools.partial(choose, seats))
    return kept


def load_kernels(seed: int) -> None:
    """Every kernel entry point a bot calls, loaded and run once: a small solve and one batch of playouts."""
    import random

    from dehla import Match
    from dehla.bots.playout import playout_batches
    from dehla.solver.fast import kernel_load_seconds

    kernel_load_seconds()
    chance = random.Random(seed)
    match = Match.new("pagat", chance)
    match.apply(match.random_deal(chance))
    seat = match.to_act
    assert seat is not None
    left = iter(range(8))
    for _ in playout_batches(match.observe(seat), list(match.legal_actions()), chance, lambda: next(left, -1) >= 0):
        pass


def run_part(part: str, args: argparse.Namespace) -> object:
    """Do one part in this (fresh) process; returns what it built, to be kept alive while it is measured."""
    if part == "python":
        return None
    if part in ("numpy", "numba"):
        return __import__(part)
    if part == "numba-tiny":
        sys.path.insert(0, args.tiny_dir)
        return __import__("dehla_bench_tiny").add(1, 2)
    if part == "dehla":
        from dehla.bots.heuristic import HeuristicBot  # the engine, rules and cards: what a heuristic bot needs

        return HeuristicBot(args.seed)
    if part == "solver-kernel":
        from dehla.solver.fast import kernel_load_seconds

        kernel_load_seconds()  # the solver's kernel, loaded from numba's cache
        return None
    load_kernels(args.seed)
    if part == "kernels":
        return None
    if part.startswith("table-"):
        from dehla.solver.compiled import kernels

        table = kernels().new_table(int(part.removeprefix("table-")))
        table += 0  # every page written, as the pages of a long-lived bot's table end up
        return table
    if part == "hard":
        return play_hands(1, 1, args.budget, args.seed)
    if part == "hard-no-playouts":
        return play_hands(1, 1, args.budget, args.seed, playouts=False)
    if part == "hard-one-bot-many-hands":
        return play_hands(1, args.hands, args.budget, args.seed)
    if part == "hard-many-bots":
        return play_hands(args.hands, args.hands, args.budget, args.seed)
    raise SystemExit(f"unknown part {part!r}")


def measure(part: str, args: argparse.Namespace, env: dict[str, str], kernels: str = "jit") -> dict[str, Any]:
    """Run ``part`` in a fresh process, with the kernels compiled by numba (``jit``) or ahead of time
    (``compiled``), and read back its memory."""
    env = {**env, MODE_ENV: kernels}
    command = [sys.executable, __file__, "--part", part, "--hands", str(args.hands), "--budget", str(args.budget)]
    command += ["--seed", str(args.seed), "--tiny-dir", args.tiny_dir]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"part {part} failed:\n{done.stderr}")
    return {"part": part, "kernels": kernels, **json.loads(done.stdout.strip().splitlines()[-1])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10, help="hands (and bots) of the many-hands lines")
    parser.add_argument("--bits", default="17,18,19", help="solver table sizes (table_bits) to measure")
    parser.add_argument("--budget", type=float, default=0.5, help="seconds a move for the hard bots")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--compiled", action="store_true", help="also the kernels and bots with the kernels compiled ahead of time"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--part", help=argparse.SUPPRESS)
    parser.add_argument("--tiny-dir", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hands < 1 or args.budget <= 0:
        parser.error("--hands must be at least 1 and --budget positive")
    try:
        bits = [int(word) for word in args.bits.split(",")]
    except ValueError:
        parser.error(f"--bits takes table sizes like 17,18,19, not {args.bits!r}")
    if any(not 10 <= value <= 26 for value in bits):
        parser.error("--bits: each table size must be 10..26")
    if args.part:
        kept = run_part(args.part, args)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps({"max_rss_mb": round(peak, 1), "private_mb": private_mb(), "numba": "numba" in sys.modules}))
        del kept
        return 0
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    with tempfile.TemporaryDirectory() as tiny:
        Path(tiny, "dehla_bench_tiny.py").write_text(TINY, encoding="utf-8")
        args.tiny_dir = tiny
        env = dict(os.environ)
        for part in ("numba-tiny", "kernels"):  # fill numba's caches first: not measured
            measure(part, args, env)
        if args.compiled and subprocess.run([sys.executable, "-m", "dehla", "compile"], env=env).returncode != 0:
            raise SystemExit("dehla compile failed")
        bots = ["kernels", *(f"table-{value}" for value in bits)]
        bots += ["hard", "hard-no-playouts", "hard-one-bot-many-hands", "hard-many-bots"]
        parts = [(part, "jit") for part in ("python", "numpy", "numba", "numba-tiny", "dehla", "solver-kernel", *bots)]
        parts += [(part, "compiled") for part in bots] if args.compiled else []
        rows = []
        for part, kernels in parts:
            rows.append(measure(part, args, env, kernels))
            if not args.json:
                row = rows[-1]
                private = "" if row["private_mb"] is None else f", private at the end {row['private_mb']:.1f} MB"
                label = f"{part} (compiled)" if kernels == "compiled" else part
                numba = ", numba loaded" if kernels == "compiled" and row["numba"] else ""
                print(f"{label:35} max RSS {row['max_rss_mb']:6.1f} MB{private}{numba}", flush=True)
    report = {"hands": args.hands, "budget": args.budget, "load_average": os.getloadavg()[0], "parts": rows}
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"({args.hands} hands or bots in the last two lines; load average at the end {report['load_average']:.2f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
