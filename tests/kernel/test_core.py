"""The compiled rules core (``dehla.kernel``) against the trick core ``dehla.engine.tricks`` and ``Match``.

One differential suite for both kernels that compile the rules:

* the layout: the row's and the parameter vector's named ranges do not overlap and hold the longest hand;
* the codec: ``decode(encode(state))`` is the state, for every position of random games;
* one action from every position of random games of every preset and option variant, started from the
  codec's row: the solver kernel's ``apply_action`` (its legal cards, then the row after the action: tens,
  tricks, trump, the cut, the staged deal, band hukum) and the batch kernel's step (the whole ``HandState``
  after it, or the hand's result) must be the engine's;
* the batch kernel from the deal on (calls and hides too), one hand at a time: after every action its
  ``HandState`` is ``Match.hand_state()``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import numpy as np
import pytest
from tests.helpers import ALL_RULES, rules_id

from dehla import Match
from dehla.batch import Batch, deal_of
from dehla.cards import TENS_MASK
from dehla.engine.actions import Action, Play
from dehla.engine.state import Phase
from dehla.engine.tricks import legal_cards, tens_of
from dehla.features.observation import action_index
from dehla.kernel import codec
from dehla.kernel import layout as L
from dehla.kernel.scoring import RESULTS_SIZE, hand_results


def _random_games(rules: Any, seeds: range) -> Iterator[tuple[Match, Action, Match]]:
    """``(match before, action, match after)`` for every decision of random games, a few hands each."""
    for seed in seeds:
        rng = random.Random(seed)
        match = Match.new(rules, rng)
        while not match.is_over and len(match.results) < 3:
            if match.is_chance:
                match.apply(match.random_deal(rng))
                continue
            before = match.clone()
            action = rng.choice(match.legal_actions())
            match.apply(action)
            yield before, action, match


def _ranges(names: list[tuple[str, int]]) -> list[tuple[int, int, str]]:
    return sorted((getattr(L, name), getattr(L, name) + width, name) for name, width in names)


def test_the_layout_fits() -> None:
    """The row's words and blocks do not overlap, each kernel's words lie in its own range, and the blocks hold
    the longest hand (every card, a call or a hide, a reveal)."""
    common = [
        (name, 1)
        for name in (
            "TO_ACT",
            "LEADER",
            "LED",
            "TLEN",
            "TRUMP",
            "TFROM",
            "CUT_OPEN",
            "STAGED",
            "HIDDEN",
            "MUST_TRUMP",
            "FREE_PLAY",
            "LASTW",
            "K0",
            "K1",
            "NPLAYED",
        )
    ] + [("H0", 8), ("PN0", 8), ("C0", 8)]
    solver = [(name, 1) for name in ("CTENS", "T0", "T1", "DONE", "LIVE", "RELWIN")]
    batch = [
        (name, 1)
        for name in (
            "PHASE",
            "DEALER",
            "CHOOSER",
            "REVEALED",
            "OPEN_DRAW",
            "CENTRE",
            "CAP0",
            "CAP1",
            "TMASK",
            "WINNER",
            "PTS0",
            "PTS1",
            "EARLY",
            "SWEEP",
            "WHITEWASH",
            "RNG",
            "NACTIONS",
            "SEED",
            "MSCORE0",
            "MSCORE1",
            "MSTREAK0",
            "MSTREAK1",
            "MOVER",
            "NEXT_DEALER",
        )
    ] + [("TL_LEADER", 13), ("TL_WINNER", 13), ("TL_COLLECTED", 13), ("ORDER", 52), ("ACTLOG", 56)]
    for words, low, high in (
        (common, 0, L.COMMON_END),
        (solver, L.COMMON_END, L.SOLVER_END),
        (batch, L.SOLVER_END, L.ROW),
    ):
        spans = _ranges(words)
        assert spans[0][0] == low and spans[-1][1] <= high, spans
        for (_, end, name), (start, _, following) in pairwise(spans):
            assert end <= start, f"{name} overlaps {following}"
    settings = [name for name in dir(L) if name.startswith("P_") and name != "P_RESULTS"]
    assert sorted(getattr(L, name) for name in settings) == list(range(L.NPARAMS))
    assert L.P_RESULTS == L.NPARAMS


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_the_codec_round_trips(rules: Any) -> None:
    row = np.zeros(L.ROW, dtype=np.int64)
    for before, _action, _after in _random_games(rules, range(1)):
        if before.phase is Phase.PLAY:
            state = before.hand_state()
            codec.encode(state, row)
            assert codec.decode(row, state.rules, state.dealer) == state


def _solver_step(before: Match, action: Action, after: Match) -> None:
    """The solver kernel, from the codec's row of ``before``: its legal cards, and its row after ``action``."""
    from dehla.solver import kernel
    from dehla.solver.fast import _tables_for

    state = before.hand_state()
    full = np.zeros(L.ROW, dtype=np.int64)
    codec.encode(state, full)
    row = full[: kernel.ROW].copy()
    params = np.zeros(L.NPARAMS, dtype=np.int64)
    codec.rules_params(state.rules, params)
    params[L.P_CHOOSER] = state.chooser if state.chooser is not None else 0
    assert kernel.legal_mask(row) == legal_cards(state)
    move = action.card if isinstance(action, Play) else kernel.REVEAL_MOVE
    kernel.apply_action(row, params, _tables_for(state.rules, state.dealer).final, move)
    now = after.hand_state()
    assert (int(row[L.T0]), int(row[L.T1])) == tens_of(now.captured)
    assert (int(row[L.K0]), int(row[L.K1])) == now.tricks_won
    if after.phase is not Phase.PLAY or after.hand_number != before.hand_number:
        return  # the hand is over: nothing more to compare
    assert int(row[L.CTENS]) == (now.centre & TENS_MASK).bit_count()
    mine = codec.decode(np.concatenate([row, full[kernel.ROW :]]), now.rules, now.dealer)
    same = (
        "to_act",
        "hands",
        "pending",
        "leader",
        "trick",
        "trump",
        "trump_from",
        "cut_open",
        "staged",
        "hidden_card",
        "must_trump",
        "free_play",
        "next_collector",
        "tricks_won",
        "tricks_played",
    )
    for name in same:
        assert getattr(mine, name) == getattr(now, name), name
    if now.trick:
        assert mine.led == now.led


def _batch_step(batch: Batch, before: Match, action: Action, after: Match) -> None:
    """The batch kernel, from the codec's row of ``before``: the hand after ``action``, or its result."""
    codec.encode(before.hand_state(), batch.states[0])
    batch.states[0, L.NEXT_DEALER] = -1
    _, done = batch.step([action_index(action)])
    if len(after.results) == len(before.results):
        assert not done[0]
        assert batch.hand_state(0) == after.hand_state()
        return
    assert done[0]
    result = after.results[-1]
    mine = batch.result(0)
    assert mine is not None
    assert (mine.winner, mine.points, mine.tens, mine.tricks_won, mine.ended_early) == (
        result.winner,
        result.points,
        result.tens,
        result.tricks_won,
        result.ended_early,
    )


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_both_kernels_play_every_action_as_the_engine(rules: Any) -> None:
    compared = 0
    batch: Batch | None = None
    for before, action, after in _random_games(rules, range(2)):
        if before.phase is not Phase.PLAY:
            continue
        if batch is None:
            batch = Batch(before.rules, 1)
        _solver_step(before, action, after)
        _batch_step(batch, before, action, after)
        compared += 1
    assert compared > 40


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_every_batch_step_is_the_engines_hand_state(rules: Any) -> None:
    """From the deal on (calls and hides too), one hand at a time: after every action the batch's ``HandState``
    is the engine's."""
    rng = random.Random(rules_id(rules))
    batch = Batch(rules, 1)
    for seed in range(100):
        dealer, deal = deal_of(rules, seed)
        match = Match(rules, dealer)
        match.apply(deal)
        batch.reset(seeds=[seed])
        assert batch.hand_state(0) == match.hand_state()
        while not match.results:
            legal = match.legal_actions()
            action = legal[int(rng.random() * len(legal))]
            match.apply(action)
            batch.step([action_index(action)])
            assert batch.hand_state(0) == match.hand_state(), f"seed {seed} after {match.actions}"


def test_the_results_table_fits() -> None:
    """Every rules value's table has one word per (dealer, tens, tricks) and is read-only."""
    table = hand_results(Match.new("taash", random.Random(0)).rules)
    assert table.shape == (RESULTS_SIZE,) and not table.flags.writeable


def test_every_compiled_module_is_in_the_cache_stamp() -> None:
    """A cached kernel is compiled again when any module it holds code or constants of changes: every module that
    compiles numba code is in ``numba_cache.COMPILED_SOURCES``."""
    from pathlib import Path

    from dehla import numba_cache

    compiled = {
        path
        for directory in numba_cache.KERNEL_DIRS
        for path in Path(directory).glob("*.py")
        if any(mark in path.read_text() for mark in ("@_jit", "@jit", "@_inline", "@inline"))
    }
    assert compiled <= set(numba_cache.COMPILED_SOURCES)
    assert all(path.exists() for path in numba_cache.COMPILED_SOURCES)
