"""Sampled worlds as rows of the compiled kernels (``dehla.kernel.layout``): what the playouts play out.

Replaying the hand in the engine (``sampling.determinize``) costs several times the draw, so ``sampled_worlds``
replays the first world only and puts every later sample's cards into a copy of its row (``WorldRows``).
This module loads the kernels' codec (numba); ``dehla.bots.sampling`` does not, so bots that never play out
a world (``heuristic``, ``random``) load without it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import numpy as np

from dehla.bots.sampling import (
    MAX_REJECTED,
    PublicPlays,
    SampleRejected,
    dealt_hands,
    determinize,
    public_plays,
)
from dehla.bots.tracking import CardTracker, HolderSample
from dehla.engine.observe import Observation
from dehla.engine.state import Match
from dehla.kernel import codec
from dehla.kernel import layout as L

__all__ = ["world_row", "WorldRows", "sampled_worlds"]


def world_row(match: Match) -> L.Array:
    """The row (``dehla.kernel.layout``) of the hand in play in ``match``, in its phase."""
    row = np.zeros(L.ROW, dtype=np.int64)
    codec.encode_phase(match.hand_state(), match.phase.value, row)
    return row


class WorldRows:
    """The rows of every sampled world of one decision, from one world replayed in the engine.

    Every world of a decision shares the public part of its row (the trick, the trump, the captures, whose
    turn it is, the phase, the cards still live) and differs only in where the unseen cards lie: each
    seat's hand, the cards a staged deal has still to give it, and the face-down band-hukum card.  So the
    row of ``template`` (a world ``determinize`` built and checked) with the sample's cards put in place is
    the row the replay would give; ``tests/bots/test_world_rows.py`` holds it to the replay on every preset
    and rule variant.  A sample the replay would refuse is refused too (``SampleRejected``): one whose counts do
    not fit the template, or whose first packets of a completed staged deal do not fit the voids shown
    before the rest was dealt.
    """

    def __init__(self, observation: Observation, template: Match, public: PublicPlays) -> None:
        self.observation = observation
        self.public = public
        self.row = world_row(template)
        self.players = n = observation.players
        self.hidden = bool(self.row[L.HIDDEN] >= 0)
        self.counts = tuple(int(mask).bit_count() for mask in self.row[L.H0 : L.H0 + n])
        self.undealt = tuple(observation.undealt)

    def world(self, sample: HolderSample) -> L.Array:
        """The row of the world in which the unseen cards lie as ``sample`` says."""
        n = self.players
        if (
            tuple(mask.bit_count() for mask in sample.hands) != self.counts
            or tuple(mask.bit_count() for mask in sample.pending) != self.undealt
            or (sample.hidden is None and self.hidden)
        ):
            raise SampleRejected("the sample does not fit the observed position")
        row = self.row.copy()
        row[L.H0 : L.H0 + n] = sample.hands
        row[L.PN0 : L.PN0 + n] = sample.pending
        if sample.hidden is not None and self.hidden:
            row[L.HIDDEN] = sample.hidden
        if self.public.dealt_after is not None:
            dealt_hands(self.observation, sample, self.public)  # refuses first packets the voids then rule out
        return row


def sampled_worlds(
    observation: Observation,
    tracker: CardTracker,
    rng: random.Random,
    more: Callable[[], bool],
) -> Iterator[L.Array]:
    """``sampled_deals`` as rows, one at a time while ``more()`` says so: the first world is replayed in the
    engine, every later one built from it (``WorldRows``)."""
    public = public_plays(observation)
    builder: WorldRows | None = None
    rejected = 0
    while rejected < MAX_REJECTED and more():
        sample = tracker.sample(rng)
        try:
            if builder is None:
                builder = WorldRows(observation, determinize(observation, sample, public), public)
                world = builder.row.copy()
            else:
                world = builder.world(sample)
        except (SampleRejected, RuntimeError):
            rejected += 1
            continue
        yield world
