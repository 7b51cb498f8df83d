"""The first ``hard`` move of a fresh process, from an empty numba cache and then from the cache it left.

Each run is a new Python process with ``NUMBA_CACHE_DIR`` pointing at one
temporary directory (empty at the start, as after a fresh install): it imports
``dehla``, makes a ``hard`` bot and times its first move on a ``pagat``
position after 5 tricks (where the bot searches).  The first process finds no
cache: the bot must answer without waiting for numba (it plays as
``heuristic`` while ``python -m dehla.solver.warm`` compiles aside).  The
benchmark then waits for that compile and runs a second process, which loads
the cache.  Usage::

    python benchmarks/bench_first_move.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_MOVE = """
import time
start = time.perf_counter()
import random
from dehla.bots import make_bot
from dehla.engine.state import Match
from dehla.engine.actions import CALLS
rng = random.Random(4)
match = Match("pagat", 0)
match.apply(match.random_deal(rng))
match.apply(rng.choice(CALLS))
while len(match.tricks) < 5 or match.current_trick:
    match.apply(rng.choice(match.legal_actions()))
from dehla.solver import warm_up
warm_up()  # what `dehla serve`, `dehla play` and `dehla bot` call when they start
bot = make_bot("hard", 1)
seat = match.to_act
ready = time.perf_counter()
action = bot.act(match.observe(seat))
end = time.perf_counter()
print(f"{end - start:.2f} {end - ready:.2f} {bot.last_samples}")
"""


def run(cache: str) -> tuple[float, float, int]:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", _MOVE], env=env, capture_output=True, text=True, check=True).stdout
    total, move, samples = out.split()
    return float(total), float(move), int(samples)


def main() -> int:
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as cache:
        total, move, samples = run(cache)
        print(
            f"empty cache: process start to first move {total:.2f} s (the move itself {move:.2f} s, {samples} samples)"
        )
        start = time.perf_counter()
        while not any(Path(cache).rglob("dehla-kernel-*.ready")):
            if time.perf_counter() - start > 600:
                print("the background compile did not finish in 10 minutes")
                return 1
            time.sleep(1)
        print(f"background compile finished {time.perf_counter() - start:.1f} s after the first move")
        total, move, samples = run(cache)
        print(
            f"warm cache: process start to first move {total:.2f} s (the move itself {move:.2f} s, {samples} samples)"
        )
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
