"""The fixed action space and the observation vector: the one specification every environment and ``dehla.batch`` use.

Everything here is a function of one seat's ``Observation`` (``dehla.engine.observe``), never of the
``Match``: an environment cannot leak a card its seat may not see, because the vector is made from the
same view a bot or a person gets.  ``dehla.batch`` builds the same vector from its arrays; the layout
below is the contract between the two (docs/envs.md describes it for readers).

Action space (``NUM_ACTIONS`` = 109, the same for every preset)::

    0 .. 51     play card c                      (Play(c); c = suit * 13 + rank, see dehla.cards)
    52 .. 55    call trump suit s (S, H, D, C)   (Call(s))
    56 .. 107   hide card c face down            (Hide(c), band hukum)
    108         ask for the reveal               (Reveal())

Observation vector: ``float32``, every value in ``[0, 1]``, of length ``observation_size(players)``
(452 + 111 * players: 896 for four, 1118 for six, 1340 for eight).  Seats
are *relative* to the observer: relative seat ``r`` is absolute seat ``(seat + r) % players``, so
``r = 0`` is the observer, ``r = 1`` plays next, partners are the even ``r``.  Teams are relative too:
``0`` is the observer's team, ``1`` the other.  Card blocks are 52 wide, indexed by card number
(twos stay at zero with 6 or 8 players).  Fields in order (``FIELDS``; offsets from ``Layout``):

==================  ==========  ===========================================================================
field               size        value
==================  ==========  ===========================================================================
hand                52          1 for each card in the observer's hand
hidden_card         52          the band-hukum card the observer laid face down (only its chooser sees it)
revealed_card       52          the band-hukum card once turned up (it went back to the chooser's hand)
open_draw           52          the card drawn and shown to set trump (open draw); it went back to the pack
trick               52 * P      the current trick: block r holds the card relative seat r played to it
played_by           52 * P      finished tricks of this hand: block r holds every card relative seat r played
played              52          every card of the finished tricks of this hand (the union of played_by)
centre              52          cards lying in the centre, not yet collected
captured            52 * 2      cards collected by each relative team (own team first)
trump               4           one-hot trump suit once known to every seat (S, H, D, C)
led                 4           one-hot suit led to the current trick
trump_hidden        1           1 while a band-hukum card lies face down
phase               5           one-hot: deal, call, hide, play, over
rules               12          trump method one-hot (called, cut, hidden, hidden_auto, open_draw),
                                staged_deal, collection one-hot (centre, immediate),
                                scoring one-hot (pagat, taash, mendikot), trick_minimum
dealer              P           one-hot relative seat of the dealer
leader              P           one-hot relative seat that led the current trick (play phase only)
to_act              P           one-hot relative seat whose decision it is (all zero at a deal or the end)
chooser             P           one-hot relative seat that chose trump (called or hidden), if any
next_collector      P           one-hot relative seat that collects the centre if it wins the next trick
hand_sizes          P           cards held by each relative seat / hand size
undealt             P           cards still to be dealt to each relative seat / hand size (staged deal)
tens                2           tens collected by each relative team / 4
tricks_won          2           tricks won by each relative team / tricks per hand
tricks_played       1           finished tricks of this hand / tricks per hand
score               2           match score of each relative team / target, at most 1
streak              2           hand wins in a row of each relative team / streak scale, at most 1
                                (streak scale = streak_kot, or 7 when the rules have no streak kot)
match_over          1           1 once the match has a winner
==================  ==========  ===========================================================================

``P`` is the number of players (4, 6 or 8).  ``action_mask`` is an ``int8`` vector of ``NUM_ACTIONS``
with 1 for each of the observation's ``legal_actions`` (all zero when it is not the observer's turn).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from dehla.engine.actions import CALLS, HIDES, PLAYS, REVEAL, Action, Call, Hide, Play, Reveal
from dehla.engine.events import Trick
from dehla.engine.observe import Observation
from dehla.errors import DehlaError
from dehla.rules import Rules

__all__ = [
    "ACTIONS",
    "CALL_OFFSET",
    "FIELDS",
    "HIDE_OFFSET",
    "Layout",
    "NUM_ACTIONS",
    "PHASES",
    "PLAY_OFFSET",
    "REVEAL_INDEX",
    "RULES_FEATURES",
    "action_index",
    "action_mask",
    "action_of",
    "encode",
    "layout",
    "observation_size",
    "rules_ones",
]

#: Every action in index order: plays, calls, hides, the reveal.
ACTIONS: tuple[Action, ...] = (*PLAYS, *CALLS, *HIDES, REVEAL)
NUM_ACTIONS = len(ACTIONS)  # 109
PLAY_OFFSET = 0
CALL_OFFSET = 52
HIDE_OFFSET = 56
REVEAL_INDEX = 108

#: Phase one-hot order (``Observation.phase`` values).
PHASES: tuple[str, ...] = ("deal", "call", "hide", "play", "over")
#: The ``rules`` field, in order: (option, value) pairs, each 1 when the rules have that value.
RULES_FEATURES: tuple[tuple[str, object], ...] = (
    ("trump", "called"),
    ("trump", "cut"),
    ("trump", "hidden"),
    ("trump", "hidden_auto"),
    ("trump", "open_draw"),
    ("staged_deal", True),
    ("collection", "centre"),
    ("collection", "immediate"),
    ("scoring", "pagat"),
    ("scoring", "taash"),
    ("scoring", "mendikot"),
    ("trick_minimum", True),
)

#: Field names and sizes as (name, cards or values, per-player multiplier): size = fixed + per_player * P.
FIELDS: tuple[tuple[str, int, int], ...] = (
    ("hand", 52, 0),
    ("hidden_card", 52, 0),
    ("revealed_card", 52, 0),
    ("open_draw", 52, 0),
    ("trick", 0, 52),
    ("played_by", 0, 52),
    ("played", 52, 0),
    ("centre", 52, 0),
    ("captured", 104, 0),
    ("trump", 4, 0),
    ("led", 4, 0),
    ("trump_hidden", 1, 0),
    ("phase", len(PHASES), 0),
    ("rules", len(RULES_FEATURES), 0),
    ("dealer", 0, 1),
    ("leader", 0, 1),
    ("to_act", 0, 1),
    ("chooser", 0, 1),
    ("next_collector", 0, 1),
    ("hand_sizes", 0, 1),
    ("undealt", 0, 1),
    ("tens", 2, 0),
    ("tricks_won", 2, 0),
    ("tricks_played", 1, 0),
    ("score", 2, 0),
    ("streak", 2, 0),
    ("match_over", 1, 0),
)


@dataclass(frozen=True)
class Layout:
    """Offsets of every field for ``players`` seats: ``layout(4).trick`` is where the trick block starts."""

    players: int
    size: int
    hand: int
    hidden_card: int
    revealed_card: int
    open_draw: int
    trick: int
    played_by: int
    played: int
    centre: int
    captured: int
    trump: int
    led: int
    trump_hidden: int
    phase: int
    rules: int
    dealer: int
    leader: int
    to_act: int
    chooser: int
    next_collector: int
    hand_sizes: int
    undealt: int
    tens: int
    tricks_won: int
    tricks_played: int
    score: int
    streak: int
    match_over: int

    def field_slice(self, name: str) -> slice:
        """The slice of one field (by its name in ``FIELDS``)."""
        for field_name, fixed, per_player in FIELDS:
            if field_name == name:
                start: int = getattr(self, name)
                return slice(start, start + fixed + per_player * self.players)
        raise DehlaError(f"no observation field {name!r}; fields are: {', '.join(f[0] for f in FIELDS)}")


@cache
def layout(players: int) -> Layout:
    """The observation layout for a table of ``players`` (4, 6 or 8)."""
    if players not in (4, 6, 8):
        raise DehlaError(f"players must be 4, 6 or 8, not {players!r}")
    offsets: dict[str, int] = {}
    at = 0
    for name, fixed, per_player in FIELDS:
        offsets[name] = at
        at += fixed + per_player * players
    return Layout(players=players, size=at, **offsets)


def observation_size(players: int) -> int:
    """Length of the observation vector for ``players`` seats."""
    return layout(players).size


#: Each action's index, by the action's value (actions hash and compare by value).
_INDEX: dict[Action, int] = {action: index for index, action in enumerate(ACTIONS)}


def action_index(action: Action) -> int:
    """The index of ``action`` in ``ACTIONS``."""
    index = _INDEX.get(action)
    if index is not None:
        return index
    if isinstance(action, Play):
        return PLAY_OFFSET + int(action.card)
    if isinstance(action, Call):
        return CALL_OFFSET + int(action.suit)
    if isinstance(action, Hide):
        return HIDE_OFFSET + int(action.card)
    if isinstance(action, Reveal):
        return REVEAL_INDEX
    raise DehlaError(f"not an action: {action!r}")


def action_of(index: int) -> Action:
    """The action at ``index`` (0 .. NUM_ACTIONS - 1)."""
    if not 0 <= int(index) < NUM_ACTIONS:
        raise DehlaError(f"action index must be 0..{NUM_ACTIONS - 1}, not {index!r}")
    return ACTIONS[int(index)]


def action_mask(observation: Observation) -> npt.NDArray[np.int8]:
    """1 for each legal action of the observation (all zero when it is not the seat's turn)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    legal = observation.legal_actions
    if legal:
        get = _INDEX.get
        indices = [get(action, -1) for action in legal]
        if -1 in indices:  # not an action of ACTIONS: action_index says what it is instead
            indices = [action_index(action) for action in legal]
        mask[indices] = 1
    return mask


_PHASE_INDEX = {name: index for index, name in enumerate(PHASES)}


@lru_cache(maxsize=256)
def rules_ones(rules: Rules, features: tuple[tuple[str, object], ...] = RULES_FEATURES) -> tuple[int, ...]:
    """Which of ``features`` (``(option, value)`` pairs) ``rules`` has: the indices of the ones of a rules field,
    worked out once per ``Rules`` value."""
    return tuple(index for index, (name, value) in enumerate(features) if getattr(rules, name) == value)


@cache
def _count_indices(lay: Layout) -> list[int]:
    """Where the non-binary values go, in the order ``encode`` lists them."""
    players = lay.players
    return [
        *range(lay.hand_sizes, lay.hand_sizes + players),
        *range(lay.undealt, lay.undealt + players),
        lay.tens,
        lay.tens + 1,
        lay.tricks_won,
        lay.tricks_won + 1,
        lay.tricks_played,
        lay.score,
        lay.score + 1,
        lay.streak,
        lay.streak + 1,
    ]


#: The played_by and played indices of a finished trick as seen from a seat: a trick is encoded again at
#: every later decision of its hand, so its indices are kept (keyed by the trick's value, bounded).
_TRICK_INDICES: dict[tuple[Trick, int, int], tuple[int, ...]] = {}


def _trick_indices(lay: Layout, trick: Trick, seat: int) -> tuple[int, ...]:
    if len(_TRICK_INDICES) > 50_000:
        _TRICK_INDICES.clear()
    players = lay.players
    indices: list[int] = []
    for offset, card in enumerate(trick.cards):
        indices.append(lay.played_by + 52 * ((trick.leader + offset - seat) % players) + card)
        indices.append(lay.played + card)
    return tuple(indices)


def encode(observation: Observation) -> npt.NDArray[np.float32]:
    """The observation vector of ``observation`` (layout in the module docstring)."""
    players = observation.players
    lay = layout(players)
    seat = observation.seat
    rules = observation.rules
    vector = np.zeros(lay.size, dtype=np.float32)
    ones: list[int] = [lay.hand + card for card in observation.hand]
    if observation.hidden_card is not None:
        ones.append(lay.hidden_card + observation.hidden_card)
    if observation.revealed_card is not None:
        ones.append(lay.revealed_card + observation.revealed_card)
    if observation.open_draw is not None:
        ones.append(lay.open_draw + observation.open_draw)
    trick = lay.trick
    for trick_seat, card in observation.trick:
        ones.append(trick + 52 * ((trick_seat - seat) % players) + card)
    cache = _TRICK_INDICES
    for finished in observation.tricks:
        key = (finished, seat, players)
        indices = cache.get(key)
        if indices is None:
            indices = cache[key] = _trick_indices(lay, finished, seat)
        ones.extend(indices)
    ones.extend(lay.centre + card for card in observation.centre)
    team = seat % 2
    for relative_team in (0, 1):
        base = lay.captured + 52 * relative_team
        ones.extend(base + card for card in observation.captured[(team + relative_team) % 2])
    if observation.trump is not None:
        ones.append(lay.trump + observation.trump)
    if observation.led is not None:
        ones.append(lay.led + observation.led)
    if observation.trump_hidden:
        ones.append(lay.trump_hidden)
    ones.append(lay.phase + _PHASE_INDEX[observation.phase])
    ones.extend(lay.rules + index for index in rules_ones(rules))
    ones.append(lay.dealer + (observation.dealer - seat) % players)
    for offset, who in (
        (lay.leader, observation.leader),
        (lay.to_act, observation.to_act),
        (lay.chooser, observation.chooser),
        (lay.next_collector, observation.next_collector),
    ):
        if who is not None:
            ones.append(offset + (who - seat) % players)
    if observation.match_over:
        ones.append(lay.match_over)
    vector[ones] = 1.0
    # The counts, in one assignment: their indices are fixed for a seat, their values from the observation.
    size = rules.hand_size
    order = [(seat + relative) % players for relative in range(players)]
    other = 1 - team
    tricks = rules.tricks_per_hand
    target = observation.target
    scale = rules.streak_kot or 7
    tens, won, score, streak = observation.tens, observation.tricks_won, observation.score, observation.streak
    values = [observation.hand_sizes[s] / size for s in order]
    values += [observation.undealt[s] / size for s in order]
    values += [
        tens[team] / 4,
        tens[other] / 4,
        won[team] / tricks,
        won[other] / tricks,
        len(observation.tricks) / tricks,
        min(score[team] / target, 1.0),
        min(score[other] / target, 1.0),
        min(streak[team] / scale, 1.0),
        min(streak[other] / scale, 1.0),
    ]
    vector[_count_indices(lay)] = values
    return vector
