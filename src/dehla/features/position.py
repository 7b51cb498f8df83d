"""The position vector: what the value model reads of a position between tricks, every card known.

A position is encoded from the side of the seat to move (the leader of the next
trick): each seat's cards, seats counted from the mover, the suits reordered so
that trump comes first; the centre's tens and who would collect it; the tens
and tricks each team has; tricks left; the dealer; the rules' options
(``RULES_FLAGS``, in the observation's form: ``rules_ones``); and, per seat and
suit, lengths, top cards and winners from the top.  Positions are stored as raw
rows (``RAW_FIELDS``, ``raw_of``) and encoded in batches (``encode_raw``).

Unlike the observation vector (``dehla.features.observation``) this is the full
truth, for the solver's labels and the model's estimates, never for a player.
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt

from dehla.cards import TENS_MASK
from dehla.engine.tricks import HandState
from dehla.errors import DehlaError
from dehla.features.observation import RULES_FEATURES, rules_ones
from dehla.rules import Rules

__all__ = [
    "FEATURES",
    "MODEL_ONLY_FLAGS",
    "NOT_IN_MODEL",
    "RAW_FIELDS",
    "RULES_FLAGS",
    "encode_raw",
    "raw_of",
    "rename_suits",
    "same_positions",
]

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]

#: The fields of a raw position row (``raw_of``), the form positions are stored in before encoding.
RAW_FIELDS = (
    "mover", "dealer", "hand0", "hand1", "hand2", "hand3", "trump", "trump_hidden", "cut_open", "staged",
    "chooser", "centre", "next_collector", "captured0", "captured1", "won0", "won1", "tricks_played",
)  # fmt: skip
_F = {name: index for index, name in enumerate(RAW_FIELDS)}
#: The fields of a raw row that hold card masks (every other field is the same under a renaming of the suits).
_MASK_FIELDS = tuple(_F[name] for name in ("hand0", "hand1", "hand2", "hand3", "centre", "captured0", "captured1"))


def _renamings_keeping_trump() -> Ints:
    """``[trump, k]``: the six renamings of the suits (``perm[suit]`` is the new name) that keep ``trump``'s
    name, ``k = 0`` the identity; row 0 serves a position whose trump is not known yet as well."""
    table = np.zeros((4, 6, 4), dtype=np.int64)
    for trump in range(4):
        others = [suit for suit in range(4) if suit != trump]
        for k, order in enumerate(itertools.permutations(others)):
            table[trump, k, trump] = trump
            for old, new in zip(others, order):
                table[trump, k, old] = new
    return table


_KEEP_TRUMP = _renamings_keeping_trump()


def rename_suits(rows: Ints, perms: Ints) -> Ints:
    """Raw rows with each row's suits renamed (suit ``s`` of row ``i`` becomes ``perms[i, s]``).  The game
    does not tell suits apart, so a renaming that keeps trump's suit is the same position."""
    rows = rows.copy()
    for field in _MASK_FIELDS:
        masks = rows[:, field]
        out = np.zeros(len(rows), dtype=np.int64)
        for suit in range(4):
            out |= ((masks >> (13 * suit)) & 0x1FFF) << (13 * perms[:, suit])
        rows[:, field] = out
    return rows


def same_positions(rows: Ints) -> Ints:
    """Each raw row under its six renamings of the suits that keep trump (the identity first): ``6 * N`` rows,
    renaming ``k`` of row ``i`` at ``k * N + i``."""
    trump = np.maximum(rows[:, _F["trump"]], 0)
    return np.concatenate([rename_suits(rows, _KEEP_TRUMP[trump, k]) for k in range(6)])


#: Options the model reads that the observation does not (``RULES_FEATURES`` leaves them out).
MODEL_ONLY_FLAGS: tuple[tuple[str, object], ...] = (("streak_resets", True),)
#: Options of the observation the model does not read (the saved weights were fitted without them).
NOT_IN_MODEL: tuple[tuple[str, object], ...] = (("collection", "immediate"),)
#: The order the saved weights (``learn/models/value.npz``) read the rules' options in, by name: each one of
#: the observation's pairs (``RULES_FEATURES``) or of ``MODEL_ONLY_FLAGS``.  A pair added to ``RULES_FEATURES``
#: goes in one of the two lists above (tests/test_value.py fails until it does); one added to the model widens
#: ``FEATURES`` at the end and needs retraining.
_MODEL_ORDER: tuple[str, ...] = (
    "collection=centre", "scoring=pagat", "scoring=taash", "scoring=mendikot", "trump=called", "trump=cut",
    "trump=hidden", "trump=hidden_auto", "trump=open_draw", "staged_deal=True", "streak_resets=True",
    "trick_minimum=True",
)  # fmt: skip


def _flags_by_name(order: tuple[str, ...]) -> tuple[tuple[str, object], ...]:
    """The (option, value) pairs named ``option=value`` in ``order``, taken from ``RULES_FEATURES`` and
    ``MODEL_ONLY_FLAGS``, so that the model's options and the observation's are written once."""
    known = {f"{name}={value}": (name, value) for name, value in (*RULES_FEATURES, *MODEL_ONLY_FLAGS)}
    missing = [name for name in order if name not in known]
    if missing:
        raise DehlaError(f"the value model reads rules options no vector defines: {', '.join(missing)}")
    return tuple(known[name] for name in order)


#: The rules' options of a position vector, in order: (option, value) pairs, each 1 when the rules have that value.
RULES_FLAGS: tuple[tuple[str, object], ...] = _flags_by_name(_MODEL_ORDER)
_TRICKS = 13
#: Width of an encoded position.
FEATURES = 4 * 52 + 2 + 4 + 1 + 4 + 4 + 4 + 5 + 12 + 4 * 4 * 3 + 4 * 6 + 4


def raw_of(state: HandState) -> list[int]:
    """A position at a trick boundary as a raw row (``RAW_FIELDS``): the full truth, seat numbers absolute.

    Cards still to be dealt belong to the seat they will go to, and the face-down
    band-hukum card to its chooser: the solver sees them all the same.
    """
    mover = state.to_act
    if mover is None or state.trick:
        raise DehlaError("the value model reads positions between tricks only")
    hands = [state.hands[seat] | state.pending[seat] for seat in range(4)]
    trump = -1 if state.trump is None else int(state.trump)
    hidden = 0
    if state.hidden_card is not None and state.chooser is not None:
        hands[state.chooser] |= 1 << state.hidden_card
        trump = state.hidden_card // 13
        hidden = 1
    return [
        mover,
        state.dealer,
        *hands,
        trump,
        hidden,
        int(state.cut_open),
        int(state.staged),
        -1 if state.chooser is None else state.chooser,
        state.centre,
        -1 if state.next_collector is None else state.next_collector,
        state.captured[0],
        state.captured[1],
        state.tricks_won[0],
        state.tricks_won[1],
        state.tricks_played,
    ]


def _rules_features(rules: Rules) -> Floats:
    flags = np.zeros(len(RULES_FLAGS), dtype=np.float32)
    flags[list(rules_ones(rules, RULES_FLAGS))] = 1.0
    return flags


def _suit_orders() -> Ints:
    """For each trump (-1 for none, then 0..3): where each card goes when trump's suit moves to the front."""
    orders = np.zeros((5, 52), dtype=np.int64)
    for trump in range(-1, 4):
        suits = list(range(4)) if trump < 0 else [trump] + [suit for suit in range(4) if suit != trump]
        slot = {suit: index for index, suit in enumerate(suits)}
        for card in range(52):
            orders[trump + 1, slot[card // 13] * 13 + card % 13] = card
    return orders


_ORDERS = _suit_orders()
_SHIFTS = np.arange(52, dtype=np.int64)


def _bits(masks: Ints) -> npt.NDArray[np.bool_]:
    """``(N,)`` 52-bit masks to ``(N, 52)`` booleans."""
    return ((masks[:, None] >> _SHIFTS[None, :]) & 1).astype(np.bool_)


def _count(masks: Ints) -> Ints:
    counts: Ints = _bits(masks).sum(axis=1, dtype=np.int64)
    return counts


def _suit_features(planes: npt.NDArray[np.bool_]) -> Floats:
    """Per seat and suit: its length, whether it holds the suit's best card left, and its winners from the top.

    Winners from the top are the seat's cards that are the best ones left in a
    row (ace, king, queen ... as far as the seat holds the next best card still
    in play): what the network would otherwise have to learn from the card bits.
    """
    n = planes.shape[0]
    cards = planes.reshape(n, 4, 4, 13)  # seat, suit, rank
    live = np.asarray(cards.any(axis=1), dtype=np.bool_)  # (n, suit, rank): still in someone's hand
    length = cards.sum(axis=3)
    running = np.ones((n, 4, 4), dtype=np.bool_)
    winners = np.zeros((n, 4, 4), dtype=np.int64)
    top = np.zeros((n, 4, 4), dtype=np.bool_)
    first = np.ones((n, 4), dtype=np.bool_)  # no live card of the suit met yet
    for rank in range(12, -1, -1):
        here = live[:, None, :, rank]
        held = cards[:, :, :, rank]
        top |= held & first[:, None, :]
        running &= held | ~here
        winners += running & here
        first &= ~live[:, :, rank]
    features = np.concatenate([length / 13.0, top, winners / 13.0], axis=2)  # (n, seat, 12)
    result: Floats = features.reshape(n, 48).astype(np.float32)
    return result


def _ten_features(planes: npt.NDArray[np.bool_], trumps: npt.NDArray[np.bool_], suit_features: Floats) -> Floats:
    """Per suit, the mover's team first: whose team holds its ten, the higher cards each team holds, who can ruff it;
    per team: trumps above every trump of the other team, and winners from the top in all suits."""
    n = planes.shape[0]
    cards = planes.reshape(n, 4, 4, 13)
    teams = np.stack([cards[:, 0] | cards[:, 2], cards[:, 1] | cards[:, 3]], axis=1)  # (n, team, suit, rank)
    ten = teams[:, :, :, 8]  # (n, team, suit)
    higher = teams[:, :, :, 9:].sum(axis=3) / 4.0
    has_trump = cards[:, :, 0, :].any(axis=2) & trumps[:, None]  # (n, seat)
    void = ~cards.any(axis=3)  # (n, seat, suit)
    ruff = void & has_trump[:, :, None]
    ruff[:, :, 0] = False
    ruffers = np.stack([ruff[:, 0] | ruff[:, 2], ruff[:, 1] | ruff[:, 3]], axis=1).astype(np.float32)
    per_suit = np.concatenate([ten, higher, ruffers], axis=1).transpose(0, 2, 1).reshape(n, 24)
    trump_ranks = teams[:, :, 0, :]  # (n, team, rank)
    control = np.zeros((n, 2), dtype=np.float32)
    for side in range(2):
        theirs = trump_ranks[:, 1 - side]
        top_theirs = np.where(theirs.any(axis=1), 12 - np.argmax(theirs[:, ::-1], axis=1), -1)
        above = np.arange(13)[None, :] > top_theirs[:, None]
        control[:, side] = (trump_ranks[:, side] & above).sum(axis=1) * trumps / 13.0
    winners = suit_features.reshape(n, 4, 3, 4)[:, :, 2, :].sum(axis=2)  # (n, seat): winners from the top
    team_winners = np.stack([winners[:, 0] + winners[:, 2], winners[:, 1] + winners[:, 3]], axis=1)
    result: Floats = np.concatenate([per_suit, control, team_winners], axis=1).astype(np.float32)
    return result


def encode_raw(rows: Ints, rules: Rules) -> Floats:
    """Encode raw position rows (``RAW_FIELDS``, shape ``(N, len(RAW_FIELDS))``) of one rules value."""
    rows = np.asarray(rows, dtype=np.int64).reshape(-1, len(RAW_FIELDS))
    n = rows.shape[0]
    out = np.zeros((n, FEATURES), dtype=np.float32)
    index = np.arange(n)
    mover = rows[:, _F["mover"]]
    team = mover % 2
    order = _ORDERS[rows[:, _F["trump"]] + 1]  # (N, 52): card shown in each slot
    column = 0
    planes = np.zeros((n, 4, 52), dtype=np.bool_)  # seats from the mover, cards in trump-first order
    for offset in range(4):
        seat = (mover + offset) % 4
        hands = rows[index, _F["hand0"] + seat]
        planes[:, offset] = _bits(hands)[index[:, None], order]
        out[:, column : column + 52] = planes[:, offset]
        column += 52
    centre = rows[:, _F["centre"]]
    out[:, column] = _count(centre & TENS_MASK) / 4
    out[:, column + 1] = _count(centre) / 52
    column += 2
    captured = np.stack([rows[:, _F["captured0"]], rows[:, _F["captured1"]]], axis=1)
    won = np.stack([rows[:, _F["won0"]], rows[:, _F["won1"]]], axis=1)
    mine_tens = _count(captured[index, team] & TENS_MASK)
    their_tens = _count(captured[index, 1 - team] & TENS_MASK)
    out[:, column] = mine_tens / 4
    out[:, column + 1] = their_tens / 4
    out[:, column + 2] = won[index, team] / _TRICKS
    out[:, column + 3] = won[index, 1 - team] / _TRICKS
    column += 4
    # Tricks left as one number, not one unit a trick: the model also values positions earlier than any it was
    # trained on (the leaves of a first-trick search), and a unit never set in training would only add noise.
    out[:, column] = (_TRICKS - rows[:, _F["tricks_played"]]) / _TRICKS
    column += 1
    for name in ("next_collector", "chooser", "dealer"):
        seat = rows[:, _F[name]]
        has = seat >= 0
        out[index[has], column + (seat[has] - mover[has]) % 4] = 1.0
        column += 4
    trump = rows[:, _F["trump"]]
    out[:, column] = trump >= 0
    out[:, column + 1] = rows[:, _F["trump_hidden"]]
    out[:, column + 2] = rows[:, _F["cut_open"]]
    out[:, column + 3] = rows[:, _F["staged"]]
    out[:, column + 4] = (rows[:, _F["dealer"]] % 2) == team
    column += 5
    out[:, column : column + 12] = _rules_features(rules)[None, :]
    column += 12
    suit_features = _suit_features(planes)
    out[:, column : column + 48] = suit_features
    column += 4 * 4 * 3
    out[:, column:] = _ten_features(planes, trump >= 0, suit_features)
    column += 4 * 6 + 4
    assert column == FEATURES
    return out
