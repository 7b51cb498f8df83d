"""Deals weighed by the others' past plays: likelier worlds are solved more often.

A world in which the other seats' past actions are those the compiled playout policy
(``dehla.kernel.playout``) would have made in it is likelier to be the true one.  Each candidate
world gets the weight ``(miss / (1 - miss)) ** misses`` (``misses``: how many of the others' actions
with a choice differ from the policy's in that world), never below ``floor`` times the pool's best, so
no consistent world is ruled out.  Worlds are drawn from a pool of candidates in proportion to their
weights; each one drawn is replaced by a fresh candidate.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import numpy as np

from dehla.bots.sampling import MAX_REJECTED, SampleRejected, dealt_hands, determinize, public_plays
from dehla.bots.tracking import CardTracker, HolderSample
from dehla.bots.worlds import world_row
from dehla.engine.actions import Deal, Hide, parse_action
from dehla.engine.observe import Observation
from dehla.engine.state import Match
from dehla.errors import DehlaError
from dehla.features.observation import action_index
from dehla.kernel import codec

__all__ = ["weighted_deals"]

#: Candidate worlds the draw chooses among.
POOL = 64


def weighted_deals(
    observation: Observation,
    tracker: CardTracker,
    rng: random.Random,
    more: Callable[[], bool],
    miss: float,
    floor: float = 0.01,
) -> Iterator[Match]:
    """Like ``sampling.sampled_deals``, but each deal drawn in proportion to its weight (module docstring)."""
    from dehla.kernel.playout import policy_misses

    public = public_plays(observation)
    params = codec.full_params(observation.rules)
    rewards = np.zeros(2, dtype=np.float32)
    texts = observation.history
    codes = np.array([0 if text == "hide ?" else action_index(parse_action(text)) for text in texts], dtype=np.int64)
    face_down = [index for index, text in enumerate(texts) if text == "hide ?"]
    ratio = miss / (1.0 - miss)
    rejected = 0

    def candidate() -> tuple[HolderSample, int] | None:
        nonlocal rejected
        while rejected < MAX_REJECTED:
            sample = tracker.sample(rng)
            try:
                hands = dealt_hands(observation, sample, public)
                dealt = Match(observation.rules, observation.dealer)
                dealt.apply(Deal(hands, observation.open_draw))
            except (SampleRejected, DehlaError, RuntimeError):
                rejected += 1
                continue
            row = world_row(dealt)
            if face_down:
                hidden = sample.hidden if sample.hidden is not None else observation.revealed_card
                if hidden is None:
                    rejected += 1
                    continue
                codes[face_down] = action_index(Hide(hidden))
            return sample, int(policy_misses(row, params, codes, observation.seat, rewards))
        return None

    pool: list[tuple[HolderSample, int]] = []
    while more():
        while len(pool) < POOL:
            drawn = candidate()
            if drawn is None:
                break
            pool.append(drawn)
        if not pool:
            return
        fewest = min(misses for _, misses in pool)
        weights = [max(ratio ** (misses - fewest), floor) for _, misses in pool]
        chosen = rng.choices(range(len(pool)), weights)[0]
        sample, _ = pool.pop(chosen)
        try:
            match = determinize(observation, sample, public)
        except (SampleRejected, RuntimeError):
            rejected += 1
            continue
        yield match
