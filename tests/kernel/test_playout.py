"""The compiled playouts (``dehla.kernel.playout``) against the engine: every action the policy takes is legal
in the engine, and a hand played out in compiled code ends as the engine scores the same cards and plays."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from tests.helpers import ALL_RULES, rules_id

from dehla import Match
from dehla.engine.state import Phase
from dehla.features.observation import ACTIONS
from dehla.kernel import codec
from dehla.kernel import layout as L
from dehla.kernel.playout import RESULT_WORDS, play_out, play_worlds, policy_action
from dehla.kernel.step import CALL0


def _positions(rules: Any, seeds: range, every: int = 3) -> Iterator[Match]:
    """Positions of random games (every ``every``-th decision), first hands only."""
    for seed in seeds:
        rng = random.Random(seed)
        match = Match.new(rules, rng)
        match.apply(match.random_deal(rng))
        step = 0
        while not match.is_chance and not match.is_over and not match.results:
            if step % every == 0:
                yield match.clone()
            match.apply(rng.choice(match.legal_actions()))
            step += 1


def _row(match: Match) -> np.ndarray[Any, np.dtype[np.int64]]:
    row = np.zeros(L.ROW, dtype=np.int64)
    codec.encode_phase(match.hand_state(), match.phase.value, row)
    return row


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_a_hand_played_out_by_the_policy_ends_as_the_engine_scores_it(rules: Any) -> None:
    """From positions of random games (the call and the hide included), the policy plays the hand out in
    compiled code; the engine, given the same actions, accepts every one and scores the same winner, points
    and tens."""
    checked = 0
    for match in _positions(rules, range(6)):
        params = codec.full_params(match.rules)
        rows = _row(match)[None, :].copy()
        out = np.zeros((1, RESULT_WORDS), dtype=np.int64)
        play_out(rows, params, np.zeros(2, dtype=np.float32), out)
        for code in rows[0, L.ACTLOG : L.ACTLOG + rows[0, L.NACTIONS]]:
            action = ACTIONS[int(code)]
            assert action in match.legal_actions(), f"{action} is not legal"
            match.apply(action)
        result = match.results[0]
        assert out[0, 0] == (-1 if result.winner is None else result.winner)
        assert tuple(out[0, 1:3]) == result.points
        assert tuple(out[0, 3:5]) == result.tens
        checked += 1
    assert checked > 10


def test_each_world_is_valued_after_each_action_without_changing_the_world() -> None:
    """``play_worlds`` plays every (world, action) pair from a copy: the worlds are unchanged and a pair's result
    is the one ``play_out`` gives after the same action."""
    match = next(m for m in _positions("pagat", range(3), every=7) if m.phase is Phase.PLAY)
    params = codec.full_params(match.rules)
    world = _row(match)
    codes = np.array([ACTIONS.index(action) for action in match.legal_actions()], dtype=np.int64)
    worlds = np.stack([world, world])
    before = worlds.copy()
    out = np.zeros((2, len(codes), RESULT_WORDS), dtype=np.int64)
    rewards = np.zeros(2, dtype=np.float32)
    play_worlds(worlds, params, codes, np.zeros(L.ROW, dtype=np.int64), rewards, out)
    assert (worlds == before).all()
    for index, action in enumerate(match.legal_actions()):
        single = match.clone()
        single.apply(action)
        rows = _row(single)[None, :].copy()
        alone = np.zeros((1, RESULT_WORDS), dtype=np.int64)
        play_out(rows, params, rewards, alone)
        assert (out[0, index] == alone[0]).all() and (out[1, index] == alone[0]).all()


def test_the_policy_calls_its_longest_suit() -> None:
    """Calling trump from five cards: the longest suit (as the heuristic bot does)."""
    match = next(m for m in _positions("pagat", range(5), every=1) if m.phase is Phase.CALL)
    row = _row(match)
    code = policy_action(row, codec.full_params(match.rules))
    hand = int(row[L.H0 + row[L.TO_ACT]])
    lengths = [(hand >> (13 * suit) & 0x1FFF).bit_count() for suit in range(4)]
    assert lengths[code - CALL0] == max(lengths)
