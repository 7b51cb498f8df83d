"""The learned value (docs/model.md): accuracy on held-out solved positions, evaluation speed, search move times.

Three measurements::

    python benchmarks/bench_value.py accuracy --data EVAL.npz [--data MORE.npz] [--model FILE]
        [--compare FILE | --compare-single] [--held-out SEED]
    python benchmarks/bench_value.py speed [--model FILE]
    python benchmarks/bench_value.py moves [--hands 6] [--bot hard] [--seed 1] [--use-model]
    python benchmarks/bench_value.py search [--hands 320] [--seed 6] [--tricks 4] [--model FILE]

``accuracy`` reads positions labelled by ``dehla train value --data-only`` (from
a seed not used for training: every hand is held out; or, with ``--held-out
SEED``, only the hands that training with that seed held out) and prints, per
family and tricks played, the share whose result (who wins) the model gets right
against the solver and the mean error of the tens, with a 95% Wilson interval.
Positions without a solver label are left out.  ``--compare`` puts a second
model beside the first on the same positions, with the paired difference (a model of an
earlier encoding too: see ``ValueModel.load``); ``--compare-single`` puts the same model asked once
per position beside it (``ValueModel.suit_average`` off).  ``speed`` times encoding
and evaluation of one position and of a batch.  ``moves`` plays hands of the
search bot (both seats of one team) against ``heuristic`` and reports each
kind of move's time (thread CPU and wall): p50, p95 and the largest; target
(issue 19): p95 at most 1 s on one core.  ``search`` makes fresh data as
``dehla train value --data-only`` does (the same hands for the same ``--seed``,
each position's history kept), solved after ``--tricks`` tricks, and puts the
model asked at that position beside a search of the next trick with the model at
its leaves (``backward_label``, as the bots and the estimates search): each
one's result accuracy and the paired difference, per family.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling model_search.py

import numpy as np
from model_search import ModelSearchBot, source_of  # a sibling script, found by the path set above

from dehla.bots.heuristic import HeuristicBot
from dehla.bots.search import SearchBot
from dehla.engine.state import Match, Phase
from dehla.features.position import encode_raw, raw_of
from dehla.learn.data import SOLVER, Dataset, match_of, sorted_by_hand
from dehla.learn.fit import accuracy, held_out
from dehla.learn.labels import FAMILY_PRESETS, backward_label, data_tasks, make_data
from dehla.learn.value import ValueModel, default_model
from dehla.rules import PRESETS, Rules


def _model(path: Path | None) -> ValueModel:
    # A model of an earlier encoding answers as it always did once widened (zero weights for the inputs added since).
    model = ValueModel.load(path, widen=True) if path is not None else default_model()
    if model is None:
        raise SystemExit("no value model shipped; pass --model")
    return model


def _wilson(share: float, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _paired(first: np.ndarray, second: np.ndarray) -> tuple[float, float, float]:
    """Mean of ``second - first`` (right = 1, wrong = 0) and its 95% normal interval."""
    diff = second.astype(float) - first.astype(float)
    mean = float(diff.mean())
    half = 1.96 * float(diff.std(ddof=1)) / math.sqrt(len(diff)) if len(diff) > 1 else 1.0
    return mean, mean - half, mean + half


def run_accuracy(args: argparse.Namespace) -> None:
    data = sorted_by_hand(Dataset.concat([Dataset.load(path) for path in args.data]))
    if args.held_out is not None:
        data = data.subset(held_out(data, args.holdout, args.held_out))
    data = data.subset(data.source == SOLVER)
    models = [_model(args.model)] + ([_model(args.compare)] if args.compare is not None else [])
    if args.compare_single:
        # the same networks asked once per position, without the average over the suit renamings
        single = _model(args.model)
        models.append(ValueModel(single.nets, single.meta, suit_average=False))
    tables = [accuracy(model, data) for model in models]
    if args.json:
        print(json.dumps(tables if len(tables) > 1 else tables[0], indent=1))
        return
    rights = [_right(model, data) for model in models]
    families = np.asarray([PRESETS[name].scoring for name in _preset_names(data)])
    header = "family    tricks  positions  result accuracy [95% CI]   tens error"
    compared = "   | compared model: accuracy [95% CI], tens; paired difference [95% CI]"
    print(header + (compared if len(models) > 1 else ""))
    for family, rows in tables[0].items():
        for trick, row in rows.items():
            n = int(row["positions"])
            low, high = _wilson(row["result_accuracy"], n)
            line = (
                f"{family:9} {trick:>6} {n:>10}  {row['result_accuracy']:6.1%} [{low:.1%}, {high:.1%}]"
                f"   {row['tens_error']:.2f}"
            )
            if len(tables) > 1:
                other = tables[1][family][trick]
                low2, high2 = _wilson(other["result_accuracy"], n)
                where = (families == family) & (data.trick == int(trick))
                mean, dlow, dhigh = _paired(rights[0][where], rights[1][where])
                line += (
                    f"   | {other['result_accuracy']:6.1%} [{low2:.1%}, {high2:.1%}] {other['tens_error']:.2f};"
                    f" {mean:+.1%} [{dlow:+.1%}, {dhigh:+.1%}]"
                )
            print(line)
    if len(tables) > 1:
        # All the positions of a family (and all of them) at once: the summary a choice between two models reads.
        for family in [*tables[0], "all"]:
            where = np.ones(len(data), dtype=bool) if family == "all" else families == family
            shares = [float(right[where].mean()) for right in rights]
            mean, dlow, dhigh = _paired(rights[0][where], rights[1][where])
            print(
                f"pooled {family:9} {int(where.sum()):6} positions: {shares[0]:6.1%} vs {shares[1]:6.1%};"
                f" paired difference {mean:+.1%} [{dlow:+.1%}, {dhigh:+.1%}]"
            )


def _preset_names(data: Dataset) -> list[str]:
    names = tuple(PRESETS)
    return [names[int(index)] for index in data.preset]


def _right(model: ValueModel, data: Dataset) -> np.ndarray:
    """For each position: is the model right about the result (the sign of the solver's margin)?"""
    right = np.zeros(len(data), dtype=bool)
    names = np.asarray(_preset_names(data))
    for name in sorted(set(names.tolist())):
        where = np.flatnonzero(names == name)
        margin, _ = model.predict_rows(data.rows[where], PRESETS[name])
        right[where] = np.sign(margin) == np.sign(data.margin[where])
    return right


def run_speed(args: argparse.Namespace) -> None:
    model = _model(args.model)
    rng = random.Random(1)
    rows = []
    while len(rows) < 1000:
        match = Match.new("pagat", rng)
        match.apply(match.random_deal(rng))
        while match.phase in (Phase.CALL, Phase.HIDE, Phase.PLAY):
            if match.phase is Phase.PLAY and not match.current_trick:
                rows.append(raw_of(match.hand_state()))
            match.apply(rng.choice(match.legal_actions()))
    rules = PRESETS["pagat"]
    batch = np.asarray(rows[:1000], dtype=np.int64)
    start = time.perf_counter()
    for _ in range(20):
        encode_raw(batch, rules)
    encoding = (time.perf_counter() - start) / 20 / len(batch)
    sizes = [w.shape for w in model.nets[next(iter(model.nets))].weights]
    print(f"layers {sizes}; encoding alone {encoding * 1e6:.1f} us a position in a batch")
    # the model as play asks it (the average over six suit renamings), then asked once per position
    for name, asked in (("suit average", model), ("once", ValueModel(model.nets, model.meta, suit_average=False))):
        single, batched = _timings(asked, batch, rules)
        print(
            f"{name}: one position (encode + evaluate) {single * 1e6:.0f} us; "
            f"batch of {len(batch)}: {batched * 1e6:.1f} us a position"
        )


def _timings(model: ValueModel, batch: np.ndarray, rules: Rules) -> tuple[float, float]:
    """Seconds for one position alone, and a position's share of a batch."""
    one = batch[:1]
    for _ in range(20):
        model.predict_rows(one, rules)
    repeats = 2000
    start = time.perf_counter()
    for _ in range(repeats):
        model.predict_rows(one, rules)
    single = (time.perf_counter() - start) / repeats
    start = time.perf_counter()
    for _ in range(20):
        model.predict_rows(batch, rules)
    return single, (time.perf_counter() - start) / 20 / len(batch)


def run_moves(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    report: dict[str, dict[str, list[float]]] = {}
    for preset in args.presets.split(","):
        for hand in range(args.hands):
            match = Match.new(preset, rng)
            match.apply(match.random_deal(rng))
            seed = rng.getrandbits(32)
            searcher = ModelSearchBot if args.use_model else SearchBot
            bots = [
                searcher(seed + seat, name=args.bot) if seat % 2 == hand % 2 else HeuristicBot(seed + seat)
                for seat in range(4)
            ]
            if args.bot == "expert":
                for bot in bots:
                    if isinstance(bot, SearchBot):
                        bot.budget = 2.0
            while match.phase in (Phase.CALL, Phase.HIDE, Phase.PLAY):
                seat = match.to_act
                assert seat is not None
                bot = bots[seat]
                cpu, wall = time.thread_time(), time.perf_counter()
                action = bot.act(match.observe(seat))
                cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
                if isinstance(bot, SearchBot) and len(match.legal_actions()) > 1:
                    kind = source_of(bot, match.observe(seat))
                    for key in (kind, "all"):
                        times = report.setdefault(preset, {}).setdefault(key, [])
                        times.append(cpu)
                        report[preset].setdefault(key + " wall", []).append(wall)
                match.apply(action)
    for preset, kinds in report.items():
        for kind, times in sorted(kinds.items()):
            values = np.asarray(times)
            print(
                f"{preset:9} {kind:15} moves {len(values):4}  p50 {np.percentile(values, 50):.3f} s"
                f"  p95 {np.percentile(values, 95):.3f} s  max {values.max():.3f} s"
            )


def run_search(args: argparse.Namespace) -> None:
    model = _model(args.model)
    tasks = data_tasks(
        tuple(FAMILY_PRESETS), args.hands, args.seed, min(args.tricks), max(args.tricks), args.node_limit,
        explore=0.1, player=HeuristicBot, keep_history=True,
    )  # fmt: skip
    data = make_data(tasks, workers=1)
    data = data.subset((data.source == SOLVER) & np.isin(data.trick, args.tricks))
    names = _preset_names(data)
    alone_right = _right(model, data)
    searched_right = np.asarray([
        np.sign(backward_label(match_of(history, name), model)[0]) == np.sign(margin)
        for history, name, margin in zip(data.history, names, data.margin)
    ])  # fmt: skip
    families = np.asarray([PRESETS[name].scoring for name in names])
    print("family    tricks  positions  model alone [95% CI]   one trick searched [95% CI]   paired difference")
    for trick in args.tricks:
        for family in [*sorted(set(families.tolist())), "all"]:
            where = (data.trick == trick) & ((families == family) | (family == "all"))
            n = int(where.sum())
            if n == 0:
                continue
            shares = [float(alone_right[where].mean()), float(searched_right[where].mean())]
            (low1, high1), (low2, high2) = (_wilson(share, n) for share in shares)
            mean, dlow, dhigh = _paired(alone_right[where], searched_right[where])
            print(
                f"{family:9} {trick:>6} {n:>10}  {shares[0]:6.1%} [{low1:.1%}, {high1:.1%}]"
                f"   {shares[1]:6.1%} [{low2:.1%}, {high2:.1%}]   {mean:+.1%} [{dlow:+.1%}, {dhigh:+.1%}]"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="what", required=True)
    acc = commands.add_parser("accuracy")
    acc.add_argument("--data", type=Path, action="append", required=True)
    acc.add_argument("--model", type=Path, default=None)
    acc.add_argument("--compare", type=Path, default=None, help="a second model, measured on the same positions")
    acc.add_argument(
        "--compare-single",
        action="store_true",
        help="compare with the same model asked once per position (no average over suit renamings)",
    )
    acc.add_argument("--held-out", type=int, default=None, help="only the hands training with this seed held out")
    acc.add_argument("--holdout", type=float, default=0.15, help="the share training held out (0.15)")
    acc.add_argument("--json", action="store_true")
    speed = commands.add_parser("speed")
    speed.add_argument("--model", type=Path, default=None)
    moves = commands.add_parser("moves")
    moves.add_argument("--hands", type=int, default=6)
    moves.add_argument("--presets", default="pagat,taash,mendikot")
    moves.add_argument("--bot", choices=("hard", "expert"), default="hard")
    moves.add_argument("--seed", type=int, default=1)
    moves.add_argument("--use-model", action="store_true", help="search the first tricks with the value model")
    search = commands.add_parser("search")
    search.add_argument("--hands", type=int, default=320, help="hands of each family, shared as training does (320)")
    search.add_argument("--seed", type=int, default=6)
    search.add_argument(
        "--tricks",
        type=lambda text: [int(part) for part in text.split(",")],
        default=[4],
        help="tricks played at the positions measured, comma-separated (4)",
    )
    search.add_argument(
        "--node-limit",
        type=int,
        default=4_000_000,
        help="positions whose exact solve needs more are left out (4,000,000)",
    )
    search.add_argument("--model", type=Path, default=None)
    args = parser.parse_args()
    {"accuracy": run_accuracy, "speed": run_speed, "moves": run_moves, "search": run_search}[args.what](args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
