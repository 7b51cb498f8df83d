"""``dehla train value``: make solver-labelled positions and fit the learned value model (the estimate that
``dehla analyse`` gives where the solver has no answer).

Steps of one command (the first may also run alone): label positions of hands the heuristic bots play
(``dehla.learn.labels``, over ``--workers`` local processes or a Ray cluster with ``--backend ray``; the data
does not depend on either), fit the networks (``dehla.learn.fit``), and with ``--backward-to`` label earlier
positions backwards, refitting after each trick.  The weights are written as ``.npz`` for numpy-only play
(``dehla.learn.value.ValueModel``).  See docs/model.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from dehla.bots.heuristic import HeuristicBot
from dehla.cli.common import positive_int, seed_value
from dehla.errors import DehlaError
from dehla.learn.data import Dataset, sorted_by_hand
from dehla.learn.fit import FitSettings, fit
from dehla.learn.labels import FAMILY_PRESETS, data_tasks, make_data
from dehla.learn.value import ValueModel

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "train",
        help="make solver-labelled data and train the learned value model (dehla analyse's estimate)",
        description="Train the value model behind dehla analyse's estimates from the exact solver. See docs/model.md.",
    )
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    value = kinds.add_parser(
        "value",
        help="positions labelled by the solver, and the value network fitted to them",
        description=(
            "Heuristic bots play hands; every trick boundary in range is labelled by the exact solver; an MLP "
            "learns the labels. Reproducible from --seed whatever --workers or --backend."
        ),
    )
    value.add_argument("--seed", type=seed_value, default=0, help="random seed (a whole number; default 0)")
    value.add_argument("--hands", type=positive_int, default=1000, help="hands per family (default 1000)")
    value.add_argument(
        "--families", default="pagat,taash,mendikot", help="comma-separated: pagat, taash, mendikot (default all)"
    )
    value.add_argument("--from-trick", type=int, default=3, help="label positions after this many tricks (default 3)")
    value.add_argument("--to-trick", type=int, default=12, help="... up to this many (default 12)")
    value.add_argument(
        "--node-limit", type=int, default=4_000_000, help="skip positions whose solve needs more nodes (default 4M)"
    )
    value.add_argument("--explore", type=float, default=0.1, help="share of random moves in play (default 0.1)")
    value.add_argument("--workers", type=positive_int, default=1, help="processes (or Ray CPUs) to label with")
    value.add_argument("--backend", choices=("local", "ray"), default="local", help="local processes or ray")
    value.add_argument(
        "--backward-to",
        type=int,
        default=None,
        help="also label positions from this many tricks on, below --from-trick, backwards: a search of the next "
        "trick with the model's values at its leaves, refitting after each trick (e.g. 1)",
    )
    value.add_argument(
        "--part",
        default=None,
        help="K/N: make only every N-th task from the K-th (1..N), to label in chunks; give the parts' files "
        "to --data together to train",
    )
    value.add_argument(
        "--data",
        type=Path,
        action="append",
        default=None,
        help="data file: read if it exists, else written; several (all existing) are read together",
    )
    value.add_argument("--data-only", action="store_true", help="make the data and stop")
    value.add_argument("--out", type=Path, default=None, help="write the model here (.npz)")
    value.add_argument("--nets", choices=("family", "all"), default="all", help="one network (default) or one a family")
    value.add_argument("--hidden", default="256,128", help="hidden layer sizes (default 256,128)")
    value.add_argument(
        "--init",
        type=Path,
        default=None,
        help="start the fit from this model's weights (same --hidden) instead of random ones; a model of an "
        "earlier encoding gets zero weights for the inputs added since",
    )
    value.add_argument("--epochs", type=positive_int, default=200, help="most passes over the data (default 200)")
    value.add_argument("--augment", type=int, default=1, help="extra copies by suit symmetry (default 1)")
    value.add_argument("--holdout", type=float, default=0.15, help="share of hands held out to measure (0.15)")
    value.add_argument("--report", type=Path, default=None, help="write the accuracy table here (JSON)")
    value.set_defaults(run=run)


def _parse_part(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        number, count = (int(word) for word in text.split("/"))
    except ValueError:
        raise DehlaError(f"--part must be K/N such as 2/8, not {text!r}") from None
    if not 1 <= number <= count:
        raise DehlaError(f"--part K/N needs 1 <= K <= N, not {text!r}")
    return number, count


def run(args: argparse.Namespace) -> int:
    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    families = [name.strip() for name in args.families.split(",") if name.strip()]
    unknown = [name for name in families if name not in FAMILY_PRESETS]
    if unknown:
        raise DehlaError(f"unknown families: {', '.join(unknown)} (known: {', '.join(FAMILY_PRESETS)})")
    if not 0 <= args.from_trick <= args.to_trick <= 12:
        raise DehlaError("--from-trick and --to-trick must satisfy 0 <= from <= to <= 12")
    if not 0.0 <= args.explore <= 1.0 or not 0.0 < args.holdout < 1.0:
        raise DehlaError("--explore must be within 0..1 and --holdout between 0 and 1")
    try:
        hidden = tuple(int(size) for size in args.hidden.split(","))
    except ValueError:
        raise DehlaError(f"--hidden must be sizes like 256,128, not {args.hidden!r}") from None
    backward_to = args.backward_to
    if backward_to is not None and not 0 <= backward_to < args.from_trick:
        raise DehlaError("--backward-to must be at least 0 and below --from-trick")
    part = _parse_part(args.part)
    files: list[Path] = args.data or []
    existing = [path for path in files if path.exists()]
    if len(files) > 1 and len(existing) < len(files):
        missing = ", ".join(str(path) for path in files if not path.exists())
        raise DehlaError(f"several --data files are read together, and these do not exist: {missing}")
    if existing:
        data = sorted_by_hand(Dataset.concat([Dataset.load(path) for path in existing]))
        say(f"read {len(data)} positions from {', '.join(str(path) for path in existing)}")
    else:
        tasks = data_tasks(
            families,
            args.hands,
            args.seed,
            args.from_trick,
            args.to_trick,
            args.node_limit,
            args.explore,
            HeuristicBot,
            backward_to,
        )
        if part is not None:
            tasks = tasks[part[0] - 1 :: part[1]]
        start = time.perf_counter()
        data = make_data(tasks, args.workers, args.backend, lambda done, total: say(f"tasks {done}/{total}"))
        say(f"labelled {len(data)} positions in {time.perf_counter() - start:.0f} s")
        if files:
            data.save(files[0])
            say(f"wrote {files[0]}")
    if args.data_only:
        return 0
    settings = FitSettings(hidden, args.epochs, args.seed, max(0, args.augment), args.holdout)
    init = None if args.init is None else ValueModel.load(args.init, widen=True)
    model, report = fit(data, args.nets, settings, say, backward_to, args.workers, init)
    text = json.dumps(report, indent=1)
    print(text)
    if args.report is not None:
        args.report.write_text(text + "\n", encoding="utf-8")
    if args.out is not None:
        model.save(args.out)
        say(f"wrote {args.out}")
    return 0
