"""``dehla compile``: build the bots' kernels ahead of time, so a bot process never loads numba."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "compile",
        help="compile the search bots' kernels ahead of time (smaller bot processes: no numba loaded)",
        description=(
            "Compile the kernels the search bots call (the solver, its table, the playouts) for this machine into "
            "one C extension, with numba.pycc and a C compiler; a few minutes. Bots then run them without loading "
            "numba, which saves about 150 MB a process (docs/solver.md, docs/deploy.md). Without the build, numba "
            "compiles them at run time. The build is named after the kernels' sources and the versions it depends "
            "on: after an edit or an upgrade, run it again. DEHLA_KERNELS=jit makes a process ignore it."
        ),
    )
    parser.add_argument(
        "--check", action="store_true", help="only say whether the build for these sources exists (exit 1 if not)"
    )
    parser.add_argument(
        "--output", type=Path, metavar="DIR", help="build into DIR (default: beside numba's cache; DEHLA_COMPILED_DIR)"
    )
    parser.add_argument("--force", action="store_true", help="build again even when the build exists")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from dehla.solver.compiled import module_path

    target = module_path(args.output)
    if args.check:
        print(f"{target}: {'built' if target.exists() else 'missing'}")
        return 0 if target.exists() else 1
    if target.exists() and not args.force:
        print(f"{target}: already built for these sources")
        return 0
    from dehla.solver.build import build

    build(args.output, progress=lambda text: print(text, file=sys.stderr, flush=True))
    print(target)
    return 0
