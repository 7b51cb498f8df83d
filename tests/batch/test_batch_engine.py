"""The batch kernel against the engine: it is a mirror of ``Match``, and these tests are what make it one.

* Deals: a hand's seed becomes a deal by the documented splitmix64 stream (re-implemented here in
  plain Python), and ``deal_of`` gives that deal to the engine.
* Random play, thousands of hands per preset (hundreds per option variant): the engine plays each
  hand with random legal actions from the batch's deal; the batch then steps all of them together
  with the same actions.  At every step the legal-action masks must be equal, each hand must end at
  the same step with the reward of the engine's result, and at the end the tricks (leader, cards,
  winner, who collected), captures, tens, tricks won and the result must be the engine's.
* Every step's whole ``HandState``: tests/kernel/test_core.py.
* The kernel's own random play, replayed action by action through the engine.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from tests.helpers import ALL_RULES, PRESET_NAMES, rules_id

from dehla import Match
from dehla.batch import Batch, deal_of
from dehla.batch import kernel as k
from dehla.engine.events import HandResult
from dehla.errors import IllegalActionError
from dehla.features.observation import FIELDS, NUM_ACTIONS, action_index, encode, layout
from dehla.rules import parse_rules

#: Hands per preset in the random-play comparison (per option variant: ``VARIANT_HANDS``).
PRESET_HANDS = 2000
VARIANT_HANDS = 300
MASK = (1 << 64) - 1


def _splitmix(state: int) -> tuple[int, int]:
    """One splitmix64 step in plain Python: the new state and the 53-bit draw (the kernel's ``_draw``)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    z ^= z >> 31
    return state, z >> 11


def _documented_deal(rules: Any, seed: int) -> tuple[int, list[list[int]], int | None]:
    """The deal of ``seed`` as dehla.batch.kernel's docstring states it."""
    parsed = parse_rules(rules)
    pack = [card for card in range(52) if parsed.players == 4 or card % 13]
    state = seed & MASK
    state, draw = _splitmix(state)
    dealer = draw * parsed.players >> 53
    for index in range(len(pack) - 1, 0, -1):
        state, draw = _splitmix(state)
        other = draw * (index + 1) >> 53
        pack[index], pack[other] = pack[other], pack[index]
    size = parsed.hand_size
    hands = [pack[seat * size : (seat + 1) * size] for seat in range(parsed.players)]
    open_draw = None
    if parsed.trump == "open_draw":
        state, draw = _splitmix(state)
        open_draw = [card for card in range(52) if parsed.players == 4 or card % 13][draw * len(pack) >> 53]
    return dealer, hands, open_draw


@pytest.mark.parametrize("rules", ["pagat", "mendikot-open", "mendikot-6", "mendikot-8"])
def test_deals_follow_the_documented_stream(rules: str) -> None:
    for seed in (0, 1, 2, 12345, -1, -(2**63), 2**63 - 1):
        dealer, deal = deal_of(rules, seed)
        want_dealer, hands, open_draw = _documented_deal(rules, seed)
        assert dealer == want_dealer
        assert [list(hand) for hand in deal.hands] == hands
        assert deal.open_draw == open_draw
    batch = Batch(rules, 5)
    batch.reset(seed=7)  # hand i of seed k is seed k * size + i
    for hand in range(5):
        dealer, deal = deal_of(rules, 35 + hand)
        match = Match(rules, dealer)
        match.apply(deal)
        assert batch.hand_state(hand) == match.hand_state()


def _engine_hand(rules: Any, seed: int, rng: random.Random) -> tuple[Match, list[list[int]], list[int], int]:
    """Play the batch hand of ``seed`` in the engine with random legal actions.

    Returns the match, the legal action indices at each step, the actions taken and the dealer.
    """
    dealer, deal = deal_of(rules, seed)
    match = Match(rules, dealer)
    match.apply(deal)
    legal_at: list[list[int]] = []
    taken: list[int] = []
    while not match.results:
        legal = match.legal_actions()
        legal_at.append([action_index(action) for action in legal])
        action = legal[int(rng.random() * len(legal))]
        taken.append(action_index(action))
        match.apply(action)
    return match, legal_at, taken, dealer


def _reward(result: HandResult, reward: str) -> tuple[float, float]:
    if reward == "points":
        return (result.points[0] - result.points[1], result.points[1] - result.points[0])
    if result.winner is None:
        return (0.0, 0.0)
    return (1.0, -1.0) if result.winner == 0 else (-1.0, 1.0)


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_random_hands_agree_with_the_engine(rules: Any) -> None:
    count = PRESET_HANDS if rules in PRESET_NAMES else VARIANT_HANDS
    reward = "points" if parse_rules(rules).scoring == "taash" else "win"
    base = 1_000_000 * (ALL_RULES.index(rules) + 1)
    seeds = np.arange(base, base + count, dtype=np.int64)
    rng = random.Random(base)
    played = [_engine_hand(rules, int(seed), rng) for seed in seeds]
    lengths = np.array([len(taken) for _, _, taken, _ in played])
    steps = int(lengths.max())
    # Every hand's legal actions at every step, and the actions taken (-1 once a hand is over).
    want = np.zeros((count, steps + 1, NUM_ACTIONS), dtype=np.bool_)
    actions = np.full((count, steps + 1), -1, dtype=np.int64)
    where: tuple[list[int], list[int], list[int]] = ([], [], [])
    for hand, (_, legal_at, taken, _) in enumerate(played):
        actions[hand, : len(taken)] = taken
        for step, legal in enumerate(legal_at):
            where[0].extend([hand] * len(legal))
            where[1].extend([step] * len(legal))
            where[2].extend(legal)
    want[where] = True
    expected_rewards = np.array([_reward(match.results[0], reward) for match, _, _, _ in played], dtype=np.float32)
    batch = Batch(rules, count, reward=reward)
    batch.reset(seeds=seeds)
    for step in range(steps + 1):
        mask = batch.legal_mask()
        if not np.array_equal(mask, want[:, step]):
            hand = int(np.flatnonzero((mask != want[:, step]).any(axis=1))[0])
            pytest.fail(
                f"seed {seeds[hand]}, step {step}: batch legal {np.flatnonzero(mask[hand])}, "
                f"engine {np.flatnonzero(want[hand, step])}; actions so far {batch.actions(hand)}"
            )
        if step == steps:
            break
        rewards, done = batch.step(actions[:, step])
        assert np.array_equal(done, step + 1 >= lengths), f"step {step}"
        ending = step + 1 == lengths
        assert np.array_equal(rewards[ending], expected_rewards[ending]), f"step {step}"
        assert not rewards[~ending].any()
    assert batch.done.all()
    for hand, (match, _, taken, dealer) in enumerate(played):
        result = match.results[0]
        mine = batch.result(hand)
        assert mine is not None
        assert batch.tricks(hand) == match.tricks == result.tricks, f"seed {seeds[hand]}"
        assert (mine.winner, mine.points, mine.tens, mine.tricks_won, mine.trump) == (
            result.winner,
            result.points,
            result.tens,
            result.tricks_won,
            result.trump,
        ), f"seed {seeds[hand]}"
        assert (mine.sweep, mine.whitewash, mine.ended_early, mine.dealer, mine.next_dealer) == (
            result.sweep,
            result.whitewash,
            result.ended_early,
            dealer,
            result.next_dealer,
        ), f"seed {seeds[hand]}"
        assert batch.hand_state(hand) == match.hand_state(), f"seed {seeds[hand]}"
        assert [action_index(action) for action in batch.actions(hand)] == taken


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_the_kernels_own_random_play_replays_in_the_engine(rules: str) -> None:
    """``random_actions`` and ``play_random`` draw legal actions only; the engine replays their hands exactly."""
    size = 300
    stepped = Batch(rules, size)
    stepped.reset(seed=3)
    while not stepped.done.all():
        stepped.step(stepped.random_actions())
    fast = Batch(rules, size)
    fast.reset(seed=3)
    taken = fast.play_random()
    assert np.array_equal(fast.states, stepped.states)  # one stream per hand: the same hands either way
    assert taken == sum(len(fast.actions(hand)) for hand in range(size))
    for hand in range(size):
        dealer, deal = deal_of(rules, 3 * size + hand)
        match = Match(rules, dealer)
        match.apply(deal)
        for action in fast.actions(hand):
            assert action in match.legal_actions()
            match.apply(action)
        result = match.results[0]
        mine = fast.result(hand)
        assert mine is not None
        assert (mine.winner, mine.points, mine.tens, mine.tricks_won) == (
            result.winner,
            result.points,
            result.tens,
            result.tricks_won,
        )
        assert fast.tricks(hand) == result.tricks


def test_an_illegal_action_moves_no_hand() -> None:
    batch = Batch("mendikot", 3)
    batch.reset(seed=1)
    before = batch.states.copy()
    mask = batch.legal_mask()
    actions = [int(np.flatnonzero(mask[hand])[0]) for hand in range(3)]
    actions[2] = int(np.flatnonzero(~mask[2])[0])
    with pytest.raises(IllegalActionError, match="hand 2"):
        batch.step(actions)
    assert np.array_equal(batch.states, before)


def test_reset_where_and_dealers() -> None:
    batch = Batch("pagat", 4)
    batch.reset(seed=0, dealers=[0, 1, 2, 3])
    assert [batch.hand_state(hand).dealer for hand in range(4)] == [0, 1, 2, 3]
    assert list(batch.to_act) == [1, 2, 3, 0]  # dealer+1 calls trump
    batch.play_random()
    assert batch.done.all()
    batch.reset(seeds=[9, 9, 9, 9], where=[False, True, False, False])
    assert list(batch.done) == [True, False, True, True]
    assert batch.hand_state(1).dealer == deal_of("pagat", 9)[0]


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_the_compiled_observation_is_the_specifications(rules: Any) -> None:
    """The kernel's twin of the observation vector against its one specification (``dehla.features.observation``):
    at every step of random hands of every preset and variant, for every seat (and after the end), the batch's
    vector is ``encode``'s."""
    count = 12 if rules in PRESET_NAMES else 4
    players = parse_rules(rules).players
    rng = random.Random(rules_id(rules) + "/observations")
    seeds = np.arange(77, 77 + count, dtype=np.int64)
    matches = []
    for seed in seeds:
        dealer, deal = deal_of(rules, int(seed))
        match = Match(rules, dealer)
        match.apply(deal)
        matches.append(match)
    batch = Batch(rules, count)
    batch.reset(seeds=seeds)
    while True:
        for seat in range(players):
            vectors = batch.observations(np.full(count, seat))
            for hand, match in enumerate(matches):
                want = encode(match.observe(seat))
                if not np.array_equal(vectors[hand], want):
                    differ = np.flatnonzero(vectors[hand] != want)
                    lay = layout(players)
                    fields = sorted(
                        {
                            name
                            for name, *_ in FIELDS
                            for at in differ
                            if at in range(lay.field_slice(name).start, lay.field_slice(name).stop)
                        }
                    )
                    pytest.fail(f"seed {seeds[hand]}, seat {seat}, after {match.actions}: fields {fields} differ")
        to_act = batch.observations()  # the default observer is the seat to act
        for hand, match in enumerate(matches):
            if match.to_act is not None:
                assert np.array_equal(to_act[hand], encode(match.observe(match.to_act)))
        if all(match.results for match in matches):
            break
        actions = np.full(count, -1, dtype=np.int64)
        for hand, match in enumerate(matches):
            if not match.results:
                legal = match.legal_actions()
                action = legal[int(rng.random() * len(legal))]
                actions[hand] = action_index(action)
                match.apply(action)
        batch.step(actions)


@pytest.mark.parametrize("pick", ["search", "deposit"])
def test_the_nth_card_of_a_mask_is_the_nth_lowest(pick: str) -> None:
    """Both ways of picking a legal card (``pdep`` where fast, the branch-free search elsewhere) pick the same."""
    if pick == "deposit" and not k.has_fast_pdep():
        pytest.skip("no fast pdep on this CPU: the kernel uses the search")
    nth_card = k.nth_card_by_deposit if pick == "deposit" else k.nth_card_by_search
    rng = random.Random(5)
    masks = [1, 1 << 51, (1 << 52) - 1] + [rng.getrandbits(52) | 1 << rng.randrange(52) for _ in range(300)]
    for mask in masks:
        cards = [card for card in range(52) if mask >> card & 1]
        assert [nth_card(mask, nth) for nth in range(len(cards))] == cards
