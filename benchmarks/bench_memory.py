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

``--aot`` adds the control for a design we do not ship: the solver kernel's entry point compiled ahead of
time by ``numba.pycc`` (deprecated by numba; about half a minute, not measured) and called, in a process
that imports numpy and that module only, on the arguments of a real solve (a ``pagat`` hand after five
tricks, captured from the compiled-at-run-time kernel, whose output it must match) with a 19-bit table,
every page written.  Usage::

    python benchmarks/bench_memory.py [--hands 10] [--bits 17,18,19] [--budget 0.5] [--seed 1] [--aot] [--json]

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

#: The smallest numba program with a cached compiled function (the control for any numba code).
TINY = "import numba\n\n\n@numba.njit(cache=True)\ndef add(a, b):\n    return a + b\n"

#: ``--aot``: the module compiled ahead of time (it exports ``solver.kernel.solve_position``), and the tricks
#: played before the solve whose arguments it is called with.
AOT_MODULE = "dehla_bench_solver_aot"
AOT_TRICKS = 5


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


def build_aot(directory: str, seed: int) -> None:
    """Capture the arguments of one real solve and compile the solver kernel ahead of time into ``directory``."""
    import random
    import warnings

    import numpy as np

    from dehla import Match
    from dehla.bots.heuristic import HeuristicBot
    from dehla.solver import kernel
    from dehla.solver.fast import Solver

    chance = random.Random(seed)
    match = Match.new("pagat", chance)
    match.apply(match.random_deal(chance))
    bot = HeuristicBot(seed)
    while match.hand_state().tricks_played < AOT_TRICKS:
        seat = match.to_act
        assert seat is not None
        match.apply(bot.act(match.observe(seat)))
    jitted = kernel.solve_position
    captured: dict[str, Any] = {}

    def capture(*call: Any) -> None:
        captured.update({f"a{index}": np.array(value, copy=True) for index, value in enumerate(call)})
        jitted(*call)
        captured["out"] = np.array(call[-1], copy=True)

    kernel.solve_position = capture
    try:
        Solver(table_bits=19).results(match)
    finally:
        kernel.solve_position = jitted
    np.savez(Path(directory, "solve.npz"), **captured)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc's deprecation notice
        from numba import types
        from numba.pycc import CC

        compiler = CC(AOT_MODULE)
        compiler.output_dir = directory
        # The types the JIT compiled the call above for: the module takes exactly the same arguments.
        compiler.export("solve_position", types.void(*jitted.signatures[0]))(jitted.py_func)
        compiler.compile()


def run_aot(directory: str) -> object:
    """One solve by the kernel compiled ahead of time, numba never imported; its output must be the JIT's."""
    import numpy as np

    sys.path.insert(0, directory)
    module = __import__(AOT_MODULE)
    saved = np.load(Path(directory, "solve.npz"))
    arrays = [saved[f"a{index}"] for index in range(len(saved.files) - 1)]  # the arguments, then "out"
    call: list[Any] = [int(value) if value.ndim == 0 else value for value in arrays]
    table = max(arrays, key=lambda value: value.nbytes)
    table += 0  # every page of the table written, as in the table-N lines
    module.solve_position(*call)
    if "numba" in sys.modules or not (call[-1] == saved["out"]).all():
        raise SystemExit("the kernel compiled ahead of time imported numba or answered otherwise than the JIT")
    return call


def run_part(part: str, args: argparse.Namespace) -> object:
    """Do one part in this (fresh) process; returns what it built, to be kept alive while it is measured."""
    if part == "python":
        return None
    if part == "aot-build":
        build_aot(args.tiny_dir, args.seed)
        return None
    if part == "aot-solver":
        return run_aot(args.tiny_dir)
    if part in ("numpy", "numba"):
        return __import__(part)
    if part == "numba-tiny":
        sys.path.insert(0, args.tiny_dir)
        return __import__("dehla_bench_tiny").add(1, 2)
    if part == "dehla":
        from dehla.bots.heuristic import HeuristicBot  # the engine, rules and cards: what a heuristic bot needs

        return HeuristicBot(args.seed)
    from dehla.solver.fast import kernel_load_seconds

    kernel_load_seconds()  # the solver's kernel, loaded from numba's cache
    if part == "solver-kernel":
        return None
    from dehla.kernel.playout import warm_playouts

    warm_playouts()
    if part == "kernels":
        return None
    if part.startswith("table-"):
        from dehla.solver.table import new_table

        table = new_table(int(part.removeprefix("table-")))
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


def measure(part: str, args: argparse.Namespace, env: dict[str, str]) -> dict[str, Any]:
    """Run ``part`` in a fresh process and read back its memory."""
    command = [sys.executable, __file__, "--part", part, "--hands", str(args.hands), "--budget", str(args.budget)]
    command += ["--seed", str(args.seed), "--tiny-dir", args.tiny_dir]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"part {part} failed:\n{done.stderr}")
    return {"part": part, **json.loads(done.stdout.strip().splitlines()[-1])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10, help="hands (and bots) of the many-hands lines")
    parser.add_argument("--bits", default="17,18,19", help="solver table sizes (table_bits) to measure")
    parser.add_argument("--budget", type=float, default=0.5, help="seconds a move for the hard bots")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--aot", action="store_true", help="also the solver kernel compiled ahead of time (numba.pycc), a control"
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
        print(json.dumps({"max_rss_mb": round(peak, 1), "private_mb": private_mb()}))
        del kept
        return 0
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    with tempfile.TemporaryDirectory() as tiny:
        Path(tiny, "dehla_bench_tiny.py").write_text(TINY, encoding="utf-8")
        args.tiny_dir = tiny
        env = dict(os.environ)
        warm = ["numba-tiny", "kernels", *(["aot-build"] if args.aot else [])]
        for part in warm:  # fill numba's caches (and build the --aot module) first: not measured
            measure(part, args, env)
        parts = ["python", "numpy", "numba", "numba-tiny", "dehla", "solver-kernel", "kernels"]
        parts += [f"table-{value}" for value in bits]
        parts += ["hard", "hard-no-playouts", "hard-one-bot-many-hands", "hard-many-bots"]
        parts += ["aot-solver"] if args.aot else []
        rows = []
        for part in parts:
            rows.append(measure(part, args, env))
            if not args.json:
                row = rows[-1]
                private = "" if row["private_mb"] is None else f", private at the end {row['private_mb']:.1f} MB"
                print(f"{part:24} max RSS {row['max_rss_mb']:6.1f} MB{private}", flush=True)
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
