"""The observation vector of a batch hand, compiled: the twin of ``dehla.features.observation``.

``encode_all`` writes, for each hand of a batch, the vector ``features.observation.encode`` builds from the seat's
``Observation``; tests/batch/ holds the two to the same numbers on every preset, variant, seat and step.
"""

from __future__ import annotations

from dehla.batch.kernel import FloatArray, Params, unpack_params, wrap_seat
from dehla.kernel.jit import inline, jit
from dehla.kernel.layout import (
    C0,
    CAP0,
    CAP1,
    CENTRE,
    CHOOSER,
    DEALER,
    H0,
    HIDDEN,
    K0,
    K1,
    LASTW,
    LEADER,
    LED,
    MOVER,
    MSCORE0,
    MSCORE1,
    MSTREAK0,
    MSTREAK1,
    NEXT_DEALER,
    NPLAYED,
    OPEN_DRAW,
    ORDER,
    P_HAND,
    P_IMMEDIATE,
    P_N,
    P_STREAK_SCALE,
    P_TARGET,
    P_TRICKS,
    PH_CALL,
    PH_DONE,
    PH_HIDE,
    PH_PLAY,
    PHASE,
    PN0,
    REVEALED,
    TENS,
    TL_LEADER,
    TLEN,
    TO_ACT,
    TRUMP,
    Array,
)
from dehla.kernel.rules import low_card, popcount

#: The fields of ``dehla.features.observation`` whose offsets the kernel reads, in the order of ``offsets`` (``O_*``).
OFFSET_FIELDS: tuple[str, ...] = (
    "hand",
    "hidden_card",
    "revealed_card",
    "open_draw",
    "trick",
    "played_by",
    "played",
    "centre",
    "captured",
    "trump",
    "led",
    "trump_hidden",
    "phase",
    "dealer",
    "leader",
    "to_act",
    "chooser",
    "next_collector",
    "hand_sizes",
    "undealt",
    "tens",
    "tricks_won",
    "tricks_played",
    "score",
    "streak",
    "match_over",
)
(
    O_HAND,
    O_HIDDEN,
    O_REVEALED,
    O_OPEN_DRAW,
    O_TRICK,
    O_PLAYED_BY,
    O_PLAYED,
    O_CENTRE,
    O_CAPTURED,
    O_TRUMP,
    O_LED,
    O_TRUMP_HIDDEN,
    O_PHASE,
    O_DEALER,
    O_LEADER,
    O_TO_ACT,
    O_CHOOSER,
    O_NEXT_COLLECTOR,
    O_HAND_SIZES,
    O_UNDEALT,
    O_TENS,
    O_TRICKS_WON,
    O_TRICKS_PLAYED,
    O_SCORE,
    O_STREAK,
    O_MATCH_OVER,
) = range(len(OFFSET_FIELDS))
#: After the offsets: the encoding's phase indices of call, hide, play, deal and over.
O_PHASE_CALL = len(OFFSET_FIELDS)
O_PHASE_HIDE = O_PHASE_CALL + 1
O_PHASE_PLAY = O_PHASE_CALL + 2
O_PHASE_DEAL = O_PHASE_CALL + 3
O_PHASE_OVER = O_PHASE_CALL + 4
NOFFSETS = O_PHASE_CALL + 5


@inline
def _set_cards(out: FloatArray, start: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[start + low_card(low)] = 1.0
        mask ^= low


@inline
def _encode_row(row: Array, params: Params, seat: int, offsets: Array, static: FloatArray, out: FloatArray) -> None:
    """``encoding.encode(match.observe(seat))`` from the row, the hand being the first of a new match."""
    for index in range(out.shape[0]):
        out[index] = static[index]
    n = params[P_N]
    phase = row[PHASE]
    in_hand = phase != PH_DONE
    _set_cards(out, offsets[O_HAND], row[H0 + seat])
    if row[HIDDEN] >= 0 and seat == row[CHOOSER]:
        out[offsets[O_HIDDEN] + row[HIDDEN]] = 1.0
    if row[REVEALED] >= 0:
        out[offsets[O_REVEALED] + row[REVEALED]] = 1.0
    if row[OPEN_DRAW] >= 0:
        out[offsets[O_OPEN_DRAW] + row[OPEN_DRAW]] = 1.0
    if in_hand:
        leader = row[LEADER]
        for index in range(row[TLEN]):
            out[offsets[O_TRICK] + 52 * wrap_seat(leader + index - seat, n) + row[C0 + index]] = 1.0
        if row[TLEN] > 0:
            out[offsets[O_LED] + row[LED]] = 1.0
    for number in range(row[NPLAYED]):
        leader = row[TL_LEADER + number]
        for index in range(n):
            card = row[ORDER + number * n + index]
            out[offsets[O_PLAYED_BY] + 52 * wrap_seat(leader + index - seat, n) + card] = 1.0
            out[offsets[O_PLAYED] + card] = 1.0
    _set_cards(out, offsets[O_CENTRE], row[CENTRE])
    team = seat % 2
    _set_cards(out, offsets[O_CAPTURED], row[CAP0 + team])
    _set_cards(out, offsets[O_CAPTURED] + 52, row[CAP1 - team])
    if row[TRUMP] >= 0:
        out[offsets[O_TRUMP] + row[TRUMP]] = 1.0
    if row[HIDDEN] >= 0:
        out[offsets[O_TRUMP_HIDDEN]] = 1.0
    if phase == PH_CALL:
        out[offsets[O_PHASE] + offsets[O_PHASE_CALL]] = 1.0
    elif phase == PH_HIDE:
        out[offsets[O_PHASE] + offsets[O_PHASE_HIDE]] = 1.0
    elif phase == PH_PLAY:
        out[offsets[O_PHASE] + offsets[O_PHASE_PLAY]] = 1.0
        out[offsets[O_LEADER] + wrap_seat(row[LEADER] - seat, n)] = 1.0
    elif row[MOVER]:
        out[offsets[O_PHASE] + offsets[O_PHASE_OVER]] = 1.0
    else:
        out[offsets[O_PHASE] + offsets[O_PHASE_DEAL]] = 1.0
    dealer = row[DEALER] if in_hand or row[MOVER] else row[NEXT_DEALER]  # the match has moved on to the next deal
    out[offsets[O_DEALER] + wrap_seat(dealer - seat, n)] = 1.0
    if row[TO_ACT] >= 0:
        out[offsets[O_TO_ACT] + wrap_seat(row[TO_ACT] - seat, n)] = 1.0
    if row[CHOOSER] >= 0:
        out[offsets[O_CHOOSER] + wrap_seat(row[CHOOSER] - seat, n)] = 1.0
    if in_hand and row[LASTW] >= 0 and not params[P_IMMEDIATE]:
        out[offsets[O_NEXT_COLLECTOR] + wrap_seat(row[LASTW] - seat, n)] = 1.0
    size = params[P_HAND]
    for relative in range(n):
        other = wrap_seat(seat + relative, n)
        out[offsets[O_HAND_SIZES] + relative] = popcount(row[H0 + other]) / size
        out[offsets[O_UNDEALT] + relative] = popcount(row[PN0 + other]) / size
    tricks = params[P_TRICKS]
    out[offsets[O_TENS]] = popcount(row[CAP0 + team] & TENS) / 4
    out[offsets[O_TENS] + 1] = popcount(row[CAP1 - team] & TENS) / 4
    out[offsets[O_TRICKS_WON]] = row[K0 + team] / tricks
    out[offsets[O_TRICKS_WON] + 1] = row[K1 - team] / tricks
    out[offsets[O_TRICKS_PLAYED]] = row[NPLAYED] / tricks
    target = params[P_TARGET]
    out[offsets[O_SCORE]] = min(row[MSCORE0 + team] / target, 1.0)
    out[offsets[O_SCORE] + 1] = min(row[MSCORE1 - team] / target, 1.0)
    scale = params[P_STREAK_SCALE]
    out[offsets[O_STREAK]] = min(row[MSTREAK0 + team] / scale, 1.0)
    out[offsets[O_STREAK] + 1] = min(row[MSTREAK1 - team] / scale, 1.0)
    if row[MOVER]:
        out[offsets[O_MATCH_OVER]] = 1.0


@jit
def encode_all(states: Array, params: Array, seats: Array, offsets: Array, static: FloatArray, out: FloatArray) -> None:
    """``out[i]``: the observation vector of hand ``i`` as seat ``seats[i]`` sees it (-1: the seat to act, or 0)."""
    p = unpack_params(params)
    for index in range(states.shape[0]):
        row = states[index]
        seat = seats[index]
        if seat < 0:
            seat = row[TO_ACT] if row[TO_ACT] >= 0 else 0
        _encode_row(row, p, seat, offsets, static, out[index])
