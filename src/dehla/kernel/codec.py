"""The one codec between ``engine.tricks.HandState`` and a row (``dehla.kernel.layout``), and the rules'
part of the parameter vector.

``encode`` writes every word of a hand in play: the common words, the solver's (tens counted, live cards)
and the batch simulator's (the captures as masks, the dealer, the band-hukum chooser, phase ``PH_PLAY``);
``decode`` reads a hand back from the common and batch words, as ``Match.hand_state()`` gives it.
"""

from __future__ import annotations

import numpy as np

from dehla.cards import ALL_CARDS, TENS_MASK, Card, Suit
from dehla.engine import tricks
from dehla.engine.tricks import HandState, tens_of
from dehla.kernel import layout as L
from dehla.kernel.scoring import RESULTS_SIZE, hand_results
from dehla.rules import Rules

__all__ = ["REVEAL_MODES", "TRUMP_KINDS", "encode", "encode_phase", "decode", "rules_params", "full_params"]

#: ``P_REVEAL`` of each kind of trump.
REVEAL_MODES = {"hidden": L.REVEAL_ASKED, "hidden_auto": L.REVEAL_AUTO}
#: ``P_TRUMP`` of each kind of trump.
TRUMP_KINDS = {
    "called": L.TR_CALLED,
    "cut": L.TR_CUT,
    "hidden": L.TR_HIDDEN,
    "hidden_auto": L.TR_HIDDEN_AUTO,
    "open_draw": L.TR_OPEN,
}


def rules_params(rules: Rules, params: L.Array) -> None:
    """Write the rules both kernels read (``P_N .. P_STAGED_LIMIT``) into a parameter vector."""
    params[L.P_N] = rules.players
    params[L.P_TRICKS] = rules.tricks_per_hand
    params[L.P_IMMEDIATE] = int(rules.collection == "immediate")
    params[L.P_STREAK_RESETS] = int(rules.streak_resets)
    params[L.P_REVEAL] = REVEAL_MODES.get(rules.trump, L.REVEAL_NONE)
    params[L.P_EARLY_END] = int(rules.early_end)
    params[L.P_STAGED_LIMIT] = tricks.STAGED_TRICKS  # read now, not at import: tests move the limit


def full_params(rules: Rules, reward: int = L.RW_WIN) -> L.Array:
    """The whole parameter vector ``dehla.kernel.step.apply_code`` reads for ``rules``: the rules, the batch
    settings (``reward``: ``RW_WIN`` or ``RW_POINTS``) and the table of hand results."""
    params = np.zeros(L.NPARAMS + RESULTS_SIZE, dtype=np.int64)
    rules_params(rules, params)
    params[L.P_TRUMP] = TRUMP_KINDS[rules.trump]
    params[L.P_STAGED] = rules.staged_deal
    params[L.P_DECK] = rules.deck_size
    params[L.P_HAND] = rules.hand_size
    params[L.P_REWARD] = reward
    params[L.P_TARGET] = rules.target
    params[L.P_STREAK_SCALE] = rules.streak_kot or 7  # the encoding's scale for streaks
    params[L.P_RESULTS :] = hand_results(rules)
    return params


def _or_none(value: int | None) -> int:
    return -1 if value is None else int(value)


def encode(state: HandState, row: L.Array) -> None:
    """Write ``state`` (a hand in play) into ``row`` (``ROW`` words)."""
    row[:] = 0
    n = state.players
    row[L.TO_ACT] = _or_none(state.to_act)
    row[L.LEADER] = state.leader
    row[L.LED] = 0 if state.led is None else int(state.led)  # as between tricks: any suit, never read
    row[L.TLEN] = len(state.trick)
    row[L.TRUMP] = _or_none(state.trump)
    row[L.TFROM] = state.trump_from
    row[L.CUT_OPEN] = int(state.cut_open)
    row[L.STAGED] = int(state.staged)
    row[L.HIDDEN] = _or_none(state.hidden_card)
    row[L.MUST_TRUMP] = int(state.must_trump)
    row[L.FREE_PLAY] = int(state.free_play)
    row[L.LASTW] = _or_none(state.next_collector)
    row[L.K0], row[L.K1] = state.tricks_won
    row[L.NPLAYED] = state.tricks_played
    live = 0
    for seat in range(n):
        row[L.H0 + seat] = state.hands[seat]
        row[L.PN0 + seat] = state.pending[seat]
        live |= state.hands[seat] | state.pending[seat]
    trick = 0
    for index, card in enumerate(state.trick):
        row[L.C0 + index] = int(card)
        trick |= 1 << card
    if state.hidden_card is not None:
        live |= 1 << state.hidden_card
    # The solver's words.
    row[L.CTENS] = (state.centre & TENS_MASK).bit_count()
    row[L.T0], row[L.T1] = tens_of(state.captured)
    row[L.DONE] = -1
    row[L.LIVE] = live | trick
    row[L.RELWIN] = -1
    # The batch simulator's words.
    row[L.PHASE] = L.PH_PLAY if state.to_act is not None else L.PH_DONE
    row[L.DEALER] = state.dealer
    row[L.CHOOSER] = _or_none(state.chooser)
    row[L.REVEALED] = _or_none(state.revealed_card)
    row[L.OPEN_DRAW] = _or_none(state.open_draw)
    row[L.CENTRE] = state.centre
    row[L.CAP0], row[L.CAP1] = state.captured
    row[L.TMASK] = trick
    row[L.WINNER] = -1
    row[L.NEXT_DEALER] = -1


def encode_phase(state: HandState, phase: str, row: L.Array) -> None:
    """``encode``, in any phase of a hand in play: ``"call"`` (trump still to call from the first five cards),
    ``"hide"`` (the band-hukum card still to choose) or ``"play"``; what the batch kernel's step reads."""
    encode(state, row)
    if phase == "call":
        row[L.PHASE] = L.PH_CALL
    elif phase == "hide":
        row[L.PHASE] = L.PH_HIDE
        row[L.CHOOSER] = row[L.TO_ACT]


def decode(row: L.Array, rules: Rules, dealer: int) -> HandState:
    """The hand in ``row`` (its common and batch words) as ``Match.hand_state()`` gives it, dealt by ``dealer``."""
    n = rules.players
    tlen = int(row[L.TLEN])

    def card(value: int) -> Card | None:
        return None if value < 0 else ALL_CARDS[value]

    def seat(value: int) -> int | None:
        return None if value < 0 else int(value)

    return HandState(
        rules=rules,
        dealer=dealer,
        to_act=seat(int(row[L.TO_ACT])),
        hands=tuple(int(row[L.H0 + index]) for index in range(n)),
        pending=tuple(int(row[L.PN0 + index]) for index in range(n)),
        leader=int(row[L.LEADER]),
        led=Suit(int(row[L.LED])) if tlen else None,
        trick=tuple(ALL_CARDS[int(value)] for value in row[L.C0 : L.C0 + tlen]),
        trump=None if row[L.TRUMP] < 0 else Suit(int(row[L.TRUMP])),
        trump_from=int(row[L.TFROM]),
        cut_open=bool(row[L.CUT_OPEN]),
        staged=bool(row[L.STAGED]),
        hidden_card=card(int(row[L.HIDDEN])),
        chooser=seat(int(row[L.CHOOSER])),
        revealed_card=card(int(row[L.REVEALED])),
        open_draw=card(int(row[L.OPEN_DRAW])),
        must_trump=bool(row[L.MUST_TRUMP]),
        free_play=bool(row[L.FREE_PLAY]),
        centre=int(row[L.CENTRE]),
        next_collector=seat(int(row[L.LASTW])),
        captured=(int(row[L.CAP0]), int(row[L.CAP1])),
        tricks_won=(int(row[L.K0]), int(row[L.K1])),
        tricks_played=int(row[L.NPLAYED]),
    )
