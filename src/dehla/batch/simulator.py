"""``Batch``: thousands of hands of one rules value held in arrays and stepped together.

A batch episode is **one hand**: ``reset`` deals every hand from its seed, ``legal_mask`` gives each
hand's legal actions for the seat to act, ``step`` applies one action per hand (hands already over
ignore theirs), and a hand is done when the engine would score it (its last trick, or Taash's early
end).  Rewards come once, at the step that ends the hand, per team: ``"win"`` gives +1 to the team
that won the hand, -1 to the other, 0 to both when nobody wins; ``"points"`` gives each team its
points for the hand (``engine.scoring``: 1, or Taash's 20/30/80) minus the other team's.

Seeds: hand ``i`` of ``reset(seed=k)`` is dealt from seed ``k * size + i`` (``reset(seeds=...)`` takes
them one by one); ``deal_of(rules, seed)`` gives that hand's dealer and ``Deal``, so
``Match(rules, dealer).apply(deal)`` starts the same hand in the engine (how the seed becomes a deal:
``dehla.batch.kernel``).  The dealer comes from the seed unless ``reset`` is given ``dealers``.

Actions and observations are the environments' (``dehla.features.observation``): ``ACTIONS`` indices, and
``observations()`` is ``encode(match.observe(seat))`` of a match whose first hand this is.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from dehla.batch import kernel as k
from dehla.batch import observe
from dehla.cards import ALL_CARDS, Suit
from dehla.engine.actions import CALLS, HIDES, PLAYS, REVEAL, Action, Deal
from dehla.engine.events import Trick
from dehla.engine.tricks import HandState
from dehla.errors import DehlaError, IllegalActionError
from dehla.features.observation import ACTIONS, NUM_ACTIONS, PHASES, layout, rules_ones
from dehla.kernel import codec
from dehla.kernel import layout as L
from dehla.rules import Rules, parse_rules

__all__ = ["Batch", "BatchResult", "Reward", "deal_of", "params_of"]

Reward = Literal["win", "points"]
Int64Array = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float32]

_REWARD_KINDS = {"win": L.RW_WIN, "points": L.RW_POINTS}


def _code_action(code: int) -> Action:
    """The engine action of a kernel code."""
    if code < k.CALL0:
        return PLAYS[code]
    if code < k.HIDE0:
        return CALLS[code - k.CALL0]
    if code < k.REVEAL:
        return HIDES[code - k.HIDE0]
    return REVEAL


# The kernel's action codes are the environments' action indices (``ACTIONS``).
if tuple(_code_action(code) for code in range(k.NCODES)) != ACTIONS:  # pragma: no cover - a change of the action space
    raise DehlaError("the batch kernel's action codes no longer match the environments' action space")


def params_of(rules: Rules, reward: Reward = "win") -> Int64Array:
    """The kernel's parameter vector for ``rules``: everything it reads, as numbers."""
    if reward not in _REWARD_KINDS:
        raise DehlaError(f"reward must be 'win' or 'points', not {reward!r}")
    return codec.full_params(rules, _REWARD_KINDS[reward])


def _offsets(players: int) -> Int64Array:
    """The encoding's offsets the kernel writes at (``observe.OFFSET_FIELDS``), then its phase indices."""
    lay = layout(players)
    offsets = [getattr(lay, name) for name in observe.OFFSET_FIELDS]
    offsets += [PHASES.index(name) for name in ("call", "hide", "play", "deal", "over")]
    return np.array(offsets, dtype=np.int64)


def _static(rules: Rules) -> FloatArray:
    """The part of every observation vector that only the rules decide (the ``rules`` field)."""
    lay = layout(rules.players)
    vector = np.zeros(lay.size, dtype=np.float32)
    for index in rules_ones(rules):
        vector[lay.rules + index] = 1.0
    return vector


def deal_of(rules: Rules | str | dict[str, object], seed: int) -> tuple[int, Deal]:
    """The dealer and the ``Deal`` a batch hand of ``seed`` gets, for the engine to replay.

    ``Match(rules, first_dealer=dealer)`` then ``apply(deal)`` starts the very hand ``Batch`` plays.
    """
    parsed = parse_rules(rules)
    params = params_of(parsed)
    out = np.zeros(2 + parsed.deck_size, dtype=np.int64)
    k.deal_cards(params, seed, np.zeros(L.ROW, dtype=np.int64), out)
    size = parsed.hand_size
    pack = [int(card) for card in out[2:]]
    hands = [pack[seat * size : (seat + 1) * size] for seat in range(parsed.players)]
    open_draw = int(out[1]) if out[1] >= 0 else None
    return int(out[0]), Deal(hands, open_draw)


class BatchResult(NamedTuple):
    """A finished hand's result, field for field as the engine's ``HandResult`` has it (as a match's first hand)."""

    dealer: int
    winner: int | None
    points: tuple[int, int]
    tens: tuple[int, int]
    tricks_won: tuple[int, int]
    trump: Suit | None
    sweep: bool
    whitewash: bool
    ended_early: bool
    next_dealer: int | None


class Batch:
    """``size`` hands of ``rules`` in one array, stepped together by the compiled kernel.

    The arrays are the kernel's and are overwritten by the next call: copy what you keep.
    """

    def __init__(self, rules: Rules | str | dict[str, object], size: int, reward: Reward = "win") -> None:
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:
            raise DehlaError(f"size must be a positive whole number, not {size!r}")
        self.rules: Rules = parse_rules(rules)
        self.size = size
        self.reward: Reward = reward
        self.params: Int64Array = params_of(self.rules, reward)
        self.states: Int64Array = np.zeros((size, L.ROW), dtype=np.int64)
        self.states[:, L.PHASE] = L.PH_DONE
        self.states[:, L.TO_ACT] = -1
        # The kernel writes the mask eight booleans at a time, in rows padded to whole words.
        self._mask_words: Int64Array = np.zeros((size, k.MASK_STRIDE // 8), dtype=np.int64)
        self._mask: BoolArray = self._mask_words.view(np.bool_)[:, :NUM_ACTIONS]
        self._rewards: FloatArray = np.zeros((size, 2), dtype=np.float32)
        self._done: BoolArray = np.ones(size, dtype=np.bool_)
        self._actions: Int64Array = np.zeros(size, dtype=np.int64)
        self._offsets = _offsets(self.rules.players)
        self._static = _static(self.rules)
        self._pack: Int64Array = np.zeros(52, dtype=np.int64)
        self._observations: FloatArray = np.zeros((size, self._static.shape[0]), dtype=np.float32)

    # Starting hands ------------------------------------------------------------------------------

    def reset(
        self,
        seed: int | None = None,
        *,
        seeds: npt.ArrayLike | None = None,
        dealers: npt.ArrayLike | None = None,
        where: npt.ArrayLike | None = None,
    ) -> None:
        """Deal new hands: from ``seed`` (hand ``i`` gets ``seed * size + i``) or ``seeds`` (one per hand).

        ``dealers`` (one per hand, -1 for the seed's own) fixes who deals; ``where`` (booleans) deals only
        those hands and leaves the others as they are.
        """
        if (seed is None) == (seeds is None):
            raise DehlaError("reset needs either seed or seeds")
        if seeds is None:
            assert seed is not None
            hand_seeds = np.arange(self.size, dtype=np.int64) + np.int64(seed) * self.size
        else:
            hand_seeds = self._ints(seeds, "seeds")
        chosen = np.full(self.size, -1, dtype=np.int64) if dealers is None else self._ints(dealers, "dealers")
        if ((chosen < -1) | (chosen >= self.rules.players)).any():
            raise DehlaError(f"dealers must be seats 0..{self.rules.players - 1} (or -1)")
        mask = np.ones(self.size, dtype=np.bool_) if where is None else self._bools(where, "where")
        k.reset_all(self.states, self.params, hand_seeds, chosen, mask, self._pack)
        self._done[:] = self.states[:, L.PHASE] == L.PH_DONE

    def _ints(self, values: npt.ArrayLike, name: str) -> Int64Array:
        array: Int64Array = np.ascontiguousarray(values, dtype=np.int64)
        self._check_shape(array, name)
        return array

    def _bools(self, values: npt.ArrayLike, name: str) -> BoolArray:
        array: BoolArray = np.ascontiguousarray(values, dtype=np.bool_)
        self._check_shape(array, name)
        return array

    def _check_shape(self, array: npt.NDArray[np.generic], name: str) -> None:
        if array.shape != (self.size,):
            raise DehlaError(f"{name} needs one value per hand ({self.size}), not shape {array.shape}")

    # Reading the hands -----------------------------------------------------------------------------

    @property
    def done(self) -> BoolArray:
        """Which hands are over."""
        return self._done

    @property
    def to_act(self) -> Int64Array:
        """The seat whose decision it is in each hand (-1 once it is over)."""
        return self.states[:, L.TO_ACT].copy()

    def legal_mask(self) -> BoolArray:
        """``(size, NUM_ACTIONS)`` booleans: the legal actions of the seat to act (none once a hand is over).

        A view of rows padded to whole words (``kernel.MASK_STRIDE`` bytes), which the kernel fills a word at a time.
        """
        k.legal_codes_all(self.states, self.params, self._mask_words)
        return self._mask

    def random_actions(self) -> Int64Array:
        """A uniformly drawn legal action per hand (-1 once it is over), from each hand's own seeded stream."""
        k.random_actions_all(self.states, self.params, self._actions)
        return self._actions

    def observations(self, seats: npt.ArrayLike | None = None) -> FloatArray:
        """``(size, observation_size)`` float32: each hand as ``seats[i]`` sees it (default: the seat to act).

        Equal to ``encode(match.observe(seat))`` for the engine's match whose first hand this is.
        """
        chosen = np.full(self.size, -1, dtype=np.int64) if seats is None else self._ints(seats, "seats")
        if ((chosen < -1) | (chosen >= self.rules.players)).any():
            raise DehlaError(f"seats must be 0..{self.rules.players - 1} (or -1 for the seat to act)")
        observe.encode_all(self.states, self.params, chosen, self._offsets, self._static, self._observations)
        return self._observations

    # Playing -------------------------------------------------------------------------------------------

    def step(self, actions: npt.ArrayLike) -> tuple[FloatArray, BoolArray]:
        """Apply one action index per hand; ``(rewards, done)``: per hand and team, and which hands are over.

        Hands already over ignore their action.  An illegal action raises ``IllegalActionError`` naming
        the hand, and then no hand has moved.
        """
        chosen = self._ints(actions, "actions")
        bad = k.step_all(self.states, self.params, chosen, self._rewards, self._done)
        if bad >= 0:
            raise IllegalActionError(f"hand {bad}: action {int(chosen[bad])} is not legal now")
        return self._rewards, self._done

    def play_random(self) -> int:
        """Play every hand to its end with uniformly drawn legal actions, all in the kernel; the actions taken."""
        taken = int(k.play_random_all(self.states, self.params, self._rewards))
        self._done[:] = True
        return taken

    @property
    def rewards(self) -> FloatArray:
        """The rewards of the last ``step`` (or of ``play_random``), per hand and team."""
        return self._rewards

    # One hand as the engine's values -------------------------------------------------------------------

    def hand_state(self, hand: int) -> HandState:
        """Hand ``hand`` as the engine's ``HandState`` (``Match.hand_state()`` of the same play is equal).

        Once the hand is over its ``dealer`` is the next hand's, as in a match that goes on.
        """
        row = self.states[hand]
        over = row[L.PHASE] == L.PH_DONE and row[L.NACTIONS] > 0 and row[L.NEXT_DEALER] >= 0
        return codec.decode(row, self.rules, int(row[L.NEXT_DEALER] if over else row[L.DEALER]))

    def tricks(self, hand: int) -> tuple[Trick, ...]:
        """The finished tricks of hand ``hand``, as the engine's ``Trick`` events."""
        row = self.states[hand]
        n = self.rules.players
        played = []
        for number in range(int(row[L.NPLAYED])):
            cards = tuple(ALL_CARDS[int(value)] for value in row[L.ORDER + number * n : L.ORDER + (number + 1) * n])
            collected = int(row[L.TL_COLLECTED + number])
            played.append(
                Trick(
                    number + 1,
                    int(row[L.TL_LEADER + number]),
                    cards,
                    int(row[L.TL_WINNER + number]),
                    None if collected < 0 else collected,
                )
            )
        return tuple(played)

    def actions(self, hand: int) -> list[Action]:
        """The actions taken in hand ``hand`` so far, as engine actions (a record's ``actions``)."""
        row = self.states[hand]
        return [_code_action(int(code)) for code in row[L.ACTLOG : L.ACTLOG + int(row[L.NACTIONS])]]

    def result(self, hand: int) -> BatchResult | None:
        """The result of hand ``hand`` once it is over (``None`` before)."""
        row = self.states[hand]
        if row[L.PHASE] != L.PH_DONE or row[L.NACTIONS] == 0:
            return None
        winner = int(row[L.WINNER])
        return BatchResult(
            dealer=int(row[L.DEALER]),
            winner=None if winner < 0 else winner,
            points=(int(row[L.PTS0]), int(row[L.PTS1])),
            tens=(int(row[L.CAP0] & L.TENS).bit_count(), int(row[L.CAP1] & L.TENS).bit_count()),
            tricks_won=(int(row[L.K0]), int(row[L.K1])),
            trump=None if row[L.TRUMP] < 0 else Suit(int(row[L.TRUMP])),
            sweep=bool(row[L.SWEEP]),
            whitewash=bool(row[L.WHITEWASH]),
            ended_early=bool(row[L.EARLY]),
            next_dealer=None if row[L.NEXT_DEALER] < 0 else int(row[L.NEXT_DEALER]),
        )
