"""The trick core (``dehla.engine.tricks``) and the engine that plays by it.

* the core's own rules on hand-made tricks;
* ``Match`` (through its ``Hand``) asks the core for legality, the trick winner
  and the collection: on random games of every preset and option variant, every
  legal action list, every trick's winner and every collection must be the core's;
* the compiled kernels mirror the core: tests/kernel/test_core.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.helpers import ALL_RULES, rules_id

from dehla import Match
from dehla.cards import TENS_MASK, Suit, cards_of, mask_of, parse_cards
from dehla.engine.actions import REVEAL, Play
from dehla.engine.events import Trick
from dehla.engine.hand import HAND_FIELDS
from dehla.engine.scoring import Outcome
from dehla.engine.state import MATCH_FIELDS, Phase
from dehla.engine.tricks import (
    NOT_YET,
    STAGED_TRICKS,
    HandState,
    beats,
    can_ask_reveal,
    collect,
    legal_cards,
    outcome,
    playable,
    sets_trump,
    staged_deal_due,
    tens_of,
    trick_winner,
)
from dehla.errors import DehlaError
from dehla.rules import PRESETS

S, H, D, C = Suit.S, Suit.H, Suit.D, Suit.C


def cards(text: str) -> list[int]:
    return [int(card) for card in parse_cards(text)]


# ---------------------------------------------------------------------------------------------
# The core's rules


def test_trick_winner() -> None:
    assert trick_winner(cards("2H AH 10H 3S"), None, NOT_YET) == 1  # no trump: highest of the suit led
    assert trick_winner(cards("2H AH 10H 3S"), S, 0) == 3  # a trump beats the suit led
    assert trick_winner(cards("2H 3S AH 5S"), S, 0) == 3  # an overtrump
    # Trump counts only from trump_from: a band-hukum reveal before the fourth card.
    assert trick_winner(cards("2H 3S AH 5C"), C, 3) == 3
    assert trick_winner(cards("2H AC 4H 3D"), C, 2) == 2  # the ace of clubs was played before the reveal
    # The suit led is trump itself: its highest card wins, whenever it was played.
    assert trick_winner(cards("2S KS AS 3H"), S, 2) == 2
    assert trick_winner(cards("KS 2S"), S, NOT_YET) == 0  # unfinished tricks too


def test_cut_trump_the_first_card_off_the_suit_led_makes_its_suit_trump() -> None:
    assert sets_trump(True, H, cards("3S")[0])  # hearts led, a spade: spades are trump
    assert not sets_trump(True, H, cards("AH")[0])  # following suit sets nothing
    assert not sets_trump(True, None, cards("3S")[0])  # nor does a lead
    assert not sets_trump(False, H, cards("3S")[0])  # trump is set already, or the hand is not cut trump


@given(
    trick=st.lists(st.integers(min_value=0, max_value=51), min_size=1, max_size=6, unique=True),
    trump=st.one_of(st.none(), st.integers(min_value=0, max_value=3)),
    trump_from=st.integers(min_value=0, max_value=6),
)
def test_beats_card_by_card_agrees_with_the_trick_winner(trick: list[int], trump: int | None, trump_from: int) -> None:
    """The bots follow a trick one card at a time (``beats``); the winner must be the core's."""
    led = trick[0] // 13
    best, best_index, best_is_trump = trick[0], 0, False
    for index in range(1, len(trick)):
        card = trick[index]
        counts = trump if index >= trump_from else None
        if beats(card, best, best_is_trump, led, counts):
            best, best_index = card, index
            best_is_trump = counts is not None and card // 13 == counts != led
    assert best_index == trick_winner(trick, trump, trump_from)


def test_collect() -> None:
    trick = mask_of(cards("2H AH 10H 3S"))
    centre = mask_of(cards("10S 4S 5S 6S"))
    # Immediate: the trick goes to the winner's team at once, the centre is untouched.
    assert collect(trick, 1, 0, None, False, True, True) == (trick, 0, None)
    # Centre: a first win piles up, a second in a row collects everything, the count starts again.
    assert collect(trick, 1, centre, None, False, False, True) == (0, centre | trick, 1)
    assert collect(trick, 1, centre, 3, False, False, True) == (0, centre | trick, 1)  # partners never collect
    assert collect(trick, 1, centre, 1, False, False, True) == (centre | trick, 0, None)
    assert collect(trick, 1, centre, 1, False, False, False) == (centre | trick, 0, 1)  # the run goes on
    assert collect(trick, 2, centre, 1, True, False, True) == (centre | trick, 0, None)  # the last trick sweeps


def test_staged_deal_and_outcome() -> None:
    assert staged_deal_due(S, 1) and staged_deal_due(None, STAGED_TRICKS)
    assert not staged_deal_due(None, STAGED_TRICKS - 1)
    tens = mask_of(cards("10S 10H 10D"))
    assert tens_of((tens, mask_of(cards("10C 2C")))) == (3, 1)
    assert outcome(PRESETS["mendikot"], 0, (tens, 1 << cards("10C")[0]), (6, 7)).winner == 0
    assert outcome(PRESETS["pagat"], 1, (0, TENS_MASK), (13, 0)).winner == 1


def test_legal_cards() -> None:
    hand = mask_of(cards("AH 2H 3S 4D"))
    assert playable(hand, None, None, False, False) == hand  # a lead: anything
    assert playable(hand, H, S, False, False) == mask_of(cards("AH 2H"))  # follow suit
    assert playable(hand, C, S, False, False) == hand  # cannot follow: anything
    assert playable(hand, C, S, True, False) == mask_of(cards("3S"))  # asked for the trump: a trump
    assert playable(hand, C, H, True, False) == mask_of(cards("AH 2H"))
    assert playable(hand, H, S, False, True) == hand  # automatic reveal at this turn: anything
    state = _band_state(hand)
    assert legal_cards(state) == mask_of(cards("AH 2H"))
    assert not can_ask_reveal(state)
    void = _band_state(mask_of(cards("3S 4D")))
    assert legal_cards(void) == mask_of(cards("3S 4D")) and can_ask_reveal(void)


def _band_state(hand: int) -> HandState:
    return HandState(
        rules=PRESETS["mendikot-band"],
        dealer=3,
        to_act=1,
        hands=(0, hand, 0, 0),
        pending=(0, 0, 0, 0),
        leader=0,
        led=H,
        trick=(parse_cards("KH")[0],),
        trump=None,
        trump_from=NOT_YET,
        cut_open=False,
        staged=False,
        hidden_card=parse_cards("7C")[0],
        chooser=0,
        revealed_card=None,
        open_draw=None,
        must_trump=False,
        free_play=False,
        centre=0,
        next_collector=None,
        captured=(0, 0),
        tricks_won=(0, 0),
        tricks_played=0,
    )


# ---------------------------------------------------------------------------------------------
# The engine against the core (it calls the core, but through its own state: the two must agree)


def _random_games(rules: Any, seeds: range) -> Any:
    """``(match before, action, match after, events)`` for every decision of random games, a few hands each."""
    for seed in seeds:
        rng = random.Random(seed)
        match = Match.new(rules, rng)
        while not match.is_over and len(match.results) < 3:
            if match.is_chance:
                match.apply(match.random_deal(rng))
                continue
            before = match.clone()
            action = rng.choice(match.legal_actions())
            events = match.apply(action)
            yield before, action, match, events


def _trump_for_card(state: HandState, card: int) -> tuple[int | None, int]:
    """Trump and the position it counts from once ``card`` is played (a cut sets it with the first off-suit card)."""
    if state.cut_open and state.led is not None and card // 13 != state.led:
        return card // 13, len(state.trick)
    return state.trump, state.trump_from


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_the_engine_agrees_with_the_core(rules: Any) -> None:
    checked_tricks = 0
    for before, action, after, events in _random_games(rules, range(2)):
        state = before.hand_state()
        if before.phase is Phase.PLAY:
            legal = before.legal_actions()
            plays = {action.card for action in legal if isinstance(action, Play)}
            assert plays == set(cards_of(legal_cards(state)))
            assert (REVEAL in legal) == can_ask_reveal(state)
            # ``apply`` accepts exactly the legal cards (checked on clones: the state must not move otherwise).
            for card in cards_of(state.hands[state.to_act]):  # type: ignore[index]
                try:
                    before.clone().apply(Play(card))
                    accepted = True
                except DehlaError:
                    accepted = False
                assert accepted == (card in plays)
        finished = [event for event in events if isinstance(event, Trick)]
        if not finished:
            continue
        assert isinstance(action, Play)
        trump, trump_from = _trump_for_card(state, action.card)
        trick = (*state.trick, action.card)
        winner = (state.leader + trick_winner(trick, trump, trump_from)) % before.players
        assert finished[0].winner == winner
        last = state.tricks_played + 1 == before.rules.tricks_per_hand
        taken, centre, collector = collect(
            mask_of(trick),
            winner,
            state.centre,
            state.next_collector,
            last,
            before.rules.collection == "immediate",
            before.rules.streak_resets,
        )
        now = after.hand_state()
        team = winner % 2
        assert now.captured[team] == state.captured[team] | taken
        assert now.captured[1 - team] == state.captured[1 - team]
        assert (finished[0].collected_by is not None) == bool(taken)
        assert now.centre == centre and now.next_collector == collector
        if after.phase is Phase.PLAY and state.staged:
            assert now.staged == (not staged_deal_due(trump, state.tricks_played + 1))
        if len(after.results) > len(before.results) and not after.results[-1].ended_early:
            assert outcome(before.rules, before.dealer, now.captured, now.tricks_won) == Outcome(
                after.results[-1].winner, after.results[-1].points
            )
        checked_tricks += 1
    assert checked_tricks > 20


def test_hand_state_is_a_frozen_copy() -> None:
    rng = random.Random(5)
    match = Match.new("mendikot", rng)
    match.apply(match.random_deal(rng))
    state = match.hand_state()
    assert sum(hand.bit_count() for hand in state.hands) == 52 and state.players == 4
    assert state.legal_cards() == mask_of(action.card for action in match.legal_actions() if isinstance(action, Play))
    match.apply(match.legal_actions()[0])
    assert state != match.hand_state() and sum(hand.bit_count() for hand in state.hands) == 52
    with pytest.raises(AttributeError):
        state.leader = 2  # type: ignore[misc]


def test_clone_shares_no_mutable_state() -> None:
    """``clone`` copies every field of a ``Match``, and every mutable one as a new value (a new field cannot be
    forgotten or shared by mistake)."""
    rng = random.Random(8)
    match = Match.new("mendikot-band", rng)
    match.apply(match.random_deal(rng))
    for _ in range(9):
        match.apply(rng.choice(match.legal_actions()))
    other = match.clone()
    hand, other_hand = match._hand, other._hand
    assert other_hand is not hand
    pairs = [(match, other, name) for name in MATCH_FIELDS if name != "_hand"]
    pairs += [(hand, other_hand, name) for name in HAND_FIELDS]
    for before, after, name in pairs:
        value = getattr(before, name)
        assert getattr(after, name) == value, name  # every field copied
        if isinstance(value, (list, dict, set, bytearray)):
            assert getattr(after, name) is not value, name
    assert other.hand_actions(0) == match.hand_actions(0)
    other.apply(rng.choice(other.legal_actions()))
    assert other.hand_actions(0) != match.hand_actions(0)


@pytest.mark.parametrize("preset", ["pagat", "mendikot-band", "mendikot"])
def test_a_card_is_refused_outside_the_play_phase(preset: str) -> None:
    """``apply`` tells a card in play from every other case with one flag kept with the phase: at a deal,
    while trump is called or hidden, and once the match is over, a held card is refused and nothing moves."""
    rng = random.Random(3)
    match = Match.new(preset, rng)
    refused: set[Phase] = set()
    while len(match.results) < 40:
        if match.phase is not Phase.PLAY:
            seat = match.to_act
            card = match.hand_of(seat)[0] if seat is not None else 0
            before = (match.phase, match.to_act, match.actions, match.legal_actions())
            with pytest.raises(DehlaError):
                match.apply(Play(card))
            assert (match.phase, match.to_act, match.actions, match.legal_actions()) == before
            refused.add(match.phase)
        if match.is_over:
            break
        if match.is_chance:
            match.apply(match.random_deal(rng))
        else:
            match.apply(rng.choice(match.legal_actions()))
    before_play = {"pagat": {Phase.CALL}, "mendikot-band": {Phase.HIDE}}.get(preset, set())
    assert refused == {Phase.DEAL, Phase.OVER} | before_play
