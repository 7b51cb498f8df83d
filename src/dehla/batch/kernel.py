"""The batch kernel: many hands of one rules value in one int64 array, stepped together by numba code.

The whole hand as ``Match`` plays it (calling trump, hiding the band-hukum card and asking for it, the
deal from a seed, the logs of tricks and actions, the hand's result and the match after it), written over
one row per hand so that a loop over the rows needs no Python at all.  The rows are those of
``dehla.kernel.layout``, the rules of a trick are ``dehla.kernel.rules`` (shared with the solver) and the
results come from the table ``dehla.kernel.scoring`` builds from ``engine.scoring``.
tests/kernel/test_core.py and tests/batch/ hold it to ``Match``: the same deals and actions must give
the same legal actions at every step, the same ``HandState`` and the same tricks, collections, tens and
results.

Everything here is ``numba.njit`` code over plain int64 arrays, compiled once and cached on disk
(``cache=True``): cards are ints 0..51 (suit = card // 13), sets of cards are 52-bit masks, -1 stands
for "none".

Actions inside the kernel are codes: ``0..51`` play a card, ``CALL0 + suit`` call trump,
``HIDE0 + card`` hide a card, ``REVEAL`` ask for the band-hukum card: the environments' action
indices themselves (``dehla.features.observation.ACTIONS``; ``dehla.batch.simulator`` checks that they agree).

Deals come from the hand's seed alone (``shuffle``): a splitmix64 stream started at the seed gives
53-bit draws ``d`` (the top 53 bits of each output), and a number below ``b`` is ``(d * b) >> 53``.  The
first such number below ``players`` is the dealer; then the pack (cards in number order, without the
twos for six or eight players) is shuffled by Fisher-Yates from the last card down (card ``i`` swaps
with the one at a number below ``i + 1``); seat ``s`` is dealt cards ``s*size .. s*size+size-1`` of
the shuffled pack, the first five its opening packet; under open draw, the shown card is the card at
a number below the pack's size in the pack in number order.  The same stream then drives ``random_actions``.
"""

from __future__ import annotations

import platform
from collections.abc import Callable
from typing import Any, cast

import dehla.numba_cache  # noqa: F401 - first: a writable cache directory for numba before numba is imported

# isort: split
import numpy as np
import numpy.typing as npt
from llvmlite import binding, ir  # type: ignore[import-untyped]
from numba.core import cgutils, codegen, config, types
from numba.extending import intrinsic

from dehla.kernel.jit import inline, jit
from dehla.kernel.layout import (
    CHOOSER,
    CUT_OPEN,
    DEALER,
    H0,
    HIDDEN,
    LASTW,
    LEADER,
    NONE_YET,
    NPARAMS,
    OPEN_DRAW,
    OPENING,
    P_DECK,
    P_HAND,
    P_N,
    P_REVEAL,
    P_STAGED,
    P_TRUMP,
    PH_CALL,
    PH_DONE,
    PH_HIDE,
    PH_PLAY,
    PHASE,
    PN0,
    REVEAL_ASKED,
    REVEALED,
    RNG,
    ROW,
    SEED,
    STAGED,
    TFROM,
    TL_LEADER,
    TO_ACT,
    TR_CALLED,
    TR_CUT,
    TR_OPEN,
    TRUMP,
    WINNER,
)
from dehla.kernel.rules import (
    can_ask_reveal,
    legal_cards,
    low_card,
    popcount,
)
from dehla.kernel.step import (
    CALL0,
    HIDE0,
    NCODES,
    REVEAL,
    FloatArray,
    Params,
    apply_code,
    unpack_params,
    wrap_seat,
)

__all__ = [
    "ROW",
    "NPARAMS",
    "NCODES",
    "CALL0",
    "HIDE0",
    "REVEAL",
    "FloatArray",
    "Params",
    "unpack_params",
    "wrap_seat",
    "reset_all",
    "legal_codes_all",
    "step_all",
    "random_actions_all",
]

_jit = jit
_inline = inline

Array = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

_NOT_YET = NONE_YET
_OPENING = OPENING

# splitmix64 in int64 arithmetic (products wrap; right shifts are made logical with a mask).
_GAMMA = -7046029254386353131  # 0x9E3779B97F4A7C15
_MIX1 = -4658895280553007687  # 0xBF58476D1CE4E5B9
_MIX2 = -7723592293110705685  # 0x94D049BB133111EB


@_inline
def _shr(value: int, bits: int) -> int:
    """Logical right shift of a 64-bit word held in an int64."""
    return (value >> bits) & ((1 << (64 - bits)) - 1)


@_inline
def _draw(row: Array) -> int:
    """The next 53-bit number of the hand's splitmix64 stream (non-negative)."""
    z = row[RNG] + _GAMMA
    row[RNG] = z
    z = (z ^ _shr(z, 30)) * _MIX1
    z = (z ^ _shr(z, 27)) * _MIX2
    z = z ^ _shr(z, 31)
    return _shr(z, 11)


@intrinsic
def _pdep_intrinsic(typingctx: Any, source: Any, mask: Any) -> Any:
    """x86's parallel bit deposit (BMI2): the low bits of ``source`` spread over the set bits of ``mask``."""

    def generate(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        word = ir.IntType(64)
        function = cast(Any, cgutils).get_or_insert_function(
            builder.module, ir.FunctionType(word, [word, word]), "llvm.x86.bmi.pdep.64"
        )
        return builder.call(function, args)

    return types.int64(types.int64, types.int64), generate


def has_fast_pdep() -> bool:
    """Does the code numba generates here have a fast ``pdep``?

    Only x86 with BMI2, and not AMD before Zen 3, where it is microcode taking hundreds of cycles.  Read as
    numba reads the target (its ``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES`` settings, else the host), and
    numba's on-disk cache keys compiled code by that same CPU name and features.
    """
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    settings = cast(Any, config)
    name: str = settings.CPU_NAME or binding.get_host_cpu_name()
    features: str | None = settings.CPU_FEATURES
    if features is None:
        features = cast(str, cast(Any, codegen).get_host_cpu_features())
    slow = name in ("generic", "x86-64", "znver1", "znver2") or name.startswith(("bdver", "btver"))
    return "+bmi2" in features.split(",") and not slow


_pdep = cast(Callable[[int, int], int], _pdep_intrinsic)
_popcount = popcount
_low_card = low_card


@_inline
def _below(row: Array, bound: int) -> int:
    """A number in ``0 .. bound - 1`` from the hand's stream: ``(draw * bound) >> 53`` (``bound`` <= 1024)."""
    return _shr(_draw(row) * bound, 53)


@_inline
def nth_card_by_deposit(mask: int, nth: int) -> int:
    """The ``nth`` (from 0) lowest card of ``mask``: one bit deposited onto the mask's ``nth`` set bit."""
    return _low_card(_pdep(1 << nth, mask))


@_inline
def nth_card_by_search(mask: int, nth: int) -> int:
    """The ``nth`` (from 0) lowest card of ``mask``, by halving the word without a branch.

    A loop that dropped ``nth`` low cards cost a mispredicted branch at almost every random action.
    """
    position = 0
    for width in (32, 16, 8, 4, 2, 1):
        count = _popcount(mask & ((1 << width) - 1))
        take = (count - nth - 1) >> 63  # all ones when the card is above this block
        nth -= count & take
        shift = width & take
        mask >>= shift
        position += shift
    return position


#: The ``nth`` lowest card of a mask: ``pdep`` where it is fast (a random hand in half the time), else the search.
_nth_card = nth_card_by_deposit if has_fast_pdep() else nth_card_by_search


@_inline
def shuffle(row: Array, params: Params, pack: Array) -> None:
    """Seed the stream from ``row[SEED]``, draw the dealer into ``row[DEALER]`` and shuffle ``pack`` in place."""
    row[RNG] = row[SEED]
    row[DEALER] = _below(row, params[P_N])
    for index in range(params[P_DECK] - 1, 0, -1):
        other = _below(row, index + 1)
        card = pack[index]
        pack[index] = pack[other]
        pack[other] = card


@_inline
def _pack_card(params: Params, position: int) -> int:
    """The card at ``position`` of the pack in number order (no twos in the 48-card pack)."""
    if params[P_DECK] == 52:
        return position
    return (position // 12) * 13 + position % 12 + 1


@_inline
def _fill_pack(params: Params, pack: Array) -> None:
    for position in range(params[P_DECK]):
        pack[position] = _pack_card(params, position)


@_jit
def deal_cards(params: Array, seed: int, row: Array, out: Array) -> None:
    """The deal of ``seed`` for the ``Deal`` the engine replays: ``out`` = dealer, open draw (-1), shuffled pack.

    ``row`` is scratch space of ``ROW`` values.
    """
    p = unpack_params(params)
    row[:] = 0
    row[SEED] = seed
    pack = out[2 : 2 + p[P_DECK]]
    _fill_pack(p, pack)
    shuffle(row, p, pack)
    out[0] = row[DEALER]
    out[1] = -1
    if p[P_TRUMP] == TR_OPEN:
        out[1] = _pack_card(p, _below(row, p[P_DECK]))


@_inline
def _reset_row(row: Array, params: Params, seed: int, dealer: int, pack: Array) -> None:
    """Deal a new hand from ``seed`` (``dealer`` >= 0 overrides the drawn dealer), as ``Match._deal`` does.

    The logs after ``TL_LEADER`` are not cleared: each entry is written before anything reads it.
    """
    for index in range(TL_LEADER):
        row[index] = 0
    row[SEED] = seed
    _fill_pack(params, pack)
    shuffle(row, params, pack)
    if dealer >= 0:
        row[DEALER] = dealer
    n = params[P_N]
    size = params[P_HAND]
    trump = params[P_TRUMP]
    opening = params[P_STAGED] or trump == TR_CALLED
    for seat in range(n):
        for index in range(size):
            bit = 1 << pack[seat * size + index]
            if opening and index >= _OPENING:
                row[PN0 + seat] |= bit
            else:
                row[H0 + seat] |= bit
    first = (row[DEALER] + 1) % n
    row[TO_ACT] = first
    row[TRUMP] = -1
    row[TFROM] = _NOT_YET
    row[HIDDEN] = -1
    row[CHOOSER] = -1
    row[REVEALED] = -1
    row[OPEN_DRAW] = -1
    row[LASTW] = -1
    row[WINNER] = -1
    row[STAGED] = params[P_STAGED]
    row[CUT_OPEN] = 1 if trump == TR_CUT else 0
    if trump == TR_CALLED:
        row[PHASE] = PH_CALL
    elif params[P_REVEAL]:
        row[PHASE] = PH_HIDE
        row[CHOOSER] = first
    else:
        if trump == TR_OPEN:
            card = _pack_card(params, _below(row, params[P_DECK]))
            row[OPEN_DRAW] = card
            row[TRUMP] = card // 13
            row[TFROM] = 0
        row[PHASE] = PH_PLAY
        row[LEADER] = first


@_jit
def reset_all(states: Array, params: Array, seeds: Array, dealers: Array, where: BoolArray, pack: Array) -> None:
    """Deal a new hand in every row where ``where`` is true, from ``seeds[i]`` (``dealers[i]`` >= 0: that dealer).

    ``pack`` is scratch space for 52 cards.
    """
    p = unpack_params(params)
    for index in range(states.shape[0]):
        if where[index]:
            _reset_row(states[index], p, seeds[index], dealers[index], pack)


# Legal actions -------------------------------------------------------------------------------------


@_inline
def playable(row: Array) -> int:
    """The cards the seat to act may play (``tricks.legal_cards``); 0 outside the play phase."""
    if row[PHASE] != PH_PLAY:
        return 0
    return legal_cards(row)


@_inline
def can_reveal(row: Array, params: Params) -> bool:
    """May the seat to act ask for the band-hukum card (``tricks.can_ask_reveal``)?"""
    return row[PHASE] == PH_PLAY and can_ask_reveal(row, params[P_REVEAL])


@_inline
def hideable(row: Array) -> int:
    """The cards the chooser may hide (its whole deal); 0 outside the hide phase."""
    if row[PHASE] != PH_HIDE:
        return 0
    seat = row[TO_ACT]
    return int(row[H0 + seat] | row[PN0 + seat])


@_inline
def is_legal(row: Array, params: Params, code: int) -> bool:
    phase = row[PHASE]
    if code < 0 or code >= NCODES:
        return False
    if phase == PH_PLAY:
        if code < 52:
            return bool((playable(row) >> code) & 1)
        return code == REVEAL and can_reveal(row, params)
    if phase == PH_CALL:
        return CALL0 <= code < HIDE0
    if phase == PH_HIDE:
        return HIDE0 <= code < REVEAL and bool((hideable(row) >> (code - HIDE0)) & 1)
    return False


#: Bytes per hand of the legal-action mask ``legal_codes_all`` writes: the ``NCODES`` booleans, padded to whole words.
MASK_STRIDE = 112
_BYTE_BITS = 0x0040201008040201  # bit i of byte i, for bytes 0..6
_LOW_BITS = 0x0101010101010101


@_inline
def _bytes_of(bits: int) -> int:
    """Eight booleans in a word, one per byte, from the low 8 bits of ``bits`` (bit i to byte i).

    Seven bits are spread by a multiplication that cannot overflow (LLVM may assume it does not), the eighth by a shift.
    """
    spread = ((bits & 0x7F) * _LOW_BITS) & _BYTE_BITS
    return (((spread + 0x7F7F7F7F7F7F7F7F) >> 7) & _LOW_BITS) | ((bits & 0x80) << 49)


@_jit
def legal_codes_all(states: Array, params: Array, out: Array) -> None:
    """Hand ``i``'s legal actions as booleans: byte ``code`` of row ``i`` of ``out`` (``MASK_STRIDE`` bytes a
    row, seen as int64 words) is 1 for every legal code, 0 otherwise (all 0 once the hand is over).

    The codes' 109 bits are set in two words, then written eight booleans to a word, without a branch per card.
    """
    p = unpack_params(params)
    for index in range(states.shape[0]):
        row = states[index]
        target = out[index]
        low = playable(row) | (hideable(row) << HIDE0)
        if row[PHASE] == PH_CALL:
            low |= 0xF << CALL0
        high = _shr(hideable(row), 64 - HIDE0)
        if can_reveal(row, p):
            high |= 1 << (REVEAL - 64)
        for word in range(8):
            target[word] = _bytes_of(low)
            low = _shr(low, 8)
        for word in range(8, MASK_STRIDE // 8):
            target[word] = _bytes_of(high)
            high >>= 8


@_inline
def _random_code(row: Array, params: Params) -> int:
    """A uniformly drawn legal action of the hand (-1 once it is over), from its own stream."""
    phase = row[PHASE]
    if phase == PH_PLAY:
        cards = playable(row)
        count = _popcount(cards)
        if params[P_REVEAL] == REVEAL_ASKED and can_reveal(row, params):
            pick = _below(row, count + 1)
            if pick == count:
                return REVEAL
        else:
            pick = _below(row, count)
        return _nth_card(cards, pick)
    if phase == PH_CALL:
        return CALL0 + _below(row, 4)
    if phase == PH_HIDE:
        cards = hideable(row)
        return HIDE0 + _nth_card(cards, _below(row, _popcount(cards)))
    return -1


@_jit
def random_actions_all(states: Array, params: Array, out: Array) -> None:
    """A uniformly drawn legal action index for every hand (-1 for hands that are over)."""
    p = unpack_params(params)
    for index in range(states.shape[0]):
        code = _random_code(states[index], p)
        out[index] = code


@_jit
def step_all(states: Array, params: Array, actions: Array, rewards: FloatArray, done: BoolArray) -> int:
    """Apply ``actions[i]`` (an action index) to every hand still in play; -1, or the first hand whose is illegal.

    Every action is checked before any is applied, so an illegal one leaves the whole batch as it was.
    ``rewards`` (per hand and team) is zeroed and then holds the result of each hand that ends now;
    ``done`` says which hands are over.
    """
    p = unpack_params(params)
    count = states.shape[0]
    for index in range(count):
        row = states[index]
        if row[PHASE] == PH_DONE:
            continue
        action = actions[index]
        if not is_legal(row, p, action):
            return index
    rewards[:, :] = 0.0
    for index in range(count):
        row = states[index]
        if row[PHASE] != PH_DONE:
            apply_code(row, p, params, actions[index], rewards[index])
        done[index] = row[PHASE] == PH_DONE
    return -1


@_jit
def play_random_all(states: Array, params: Array, rewards: FloatArray) -> int:
    """Play every hand to its end with uniformly drawn legal actions from its stream; the actions taken."""
    p = unpack_params(params)
    taken = 0
    rewards[:, :] = 0.0
    for index in range(states.shape[0]):
        row = states[index]
        reward = rewards[index]
        while row[PHASE] != PH_DONE:
            apply_code(row, p, params, _random_code(row, p), reward)
            taken += 1
    return taken
