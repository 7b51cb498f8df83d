"""Exactness at scale: the solver against plain minimax on more positions than CI runs.

``tests/test_solver_exact.py`` already checks 10,000 small positions of every
preset in CI; this script runs the centre-pile check of
``tests/test_solver_centre.py`` (one kept table, every position in four
variants that differ only in where the tens already out of play lie) on
``--positions`` positions of each rules with a centre pile.  Usage::

    python benchmarks/bench_solver_exact.py [--positions 2500] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.test_solver_centre import PRESETS, check_centre_variants


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=2500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for preset in PRESETS:
        start = time.perf_counter()
        shifted = check_centre_variants(preset, args.positions, f"bench-{args.seed}-{preset}")
        print(
            f"{preset}: {args.positions} positions x 4 centre variants agree with minimax "
            f"({shifted} variants with tens in the centre), {time.perf_counter() - start:.0f} s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
