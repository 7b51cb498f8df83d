"""SPEC section 2: the ten presets, each matching its row; every option; JSON round-trip; bad rules.

The row tests play real hands through the engine (scripted with ``block_hand``
so that the test decides who wins each trick and where the tens fall) and
check the deal, trump, collection, hand result, match and next dealer that
SPEC's table gives for that preset.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from tests.helpers import (
    act,
    block_hand,
    deal,
    finish_hand,
    last_result,
    legal_texts,
    of_type,
    play_pagat_hand,
    play_scripted,
    start,
)

from dehla import PRESETS, DehlaError, Match, Rules, RulesError, Suit, parse_rules, preset
from dehla.engine.events import CentreCollected, KotAwarded, MatchOver, StagedDeal, TrumpRevealed, TrumpSet
from dehla.engine.state import Phase
from dehla.rules import OPTIONS

FOUR_PLAYER = [
    "pagat",
    "pagat-cut",
    "taash",
    "taash-b2b",
    "mendikot",
    "mendikot-band",
    "mendikot-band-auto",
    "mendikot-open",
]

# A full 52-card deal in which no seat is void anywhere in its first five cards.
NO_VOID_DEAL = (
    "AS KS 5S 8H 7H QH JD 5D 3D JC 7C 4C 2S",
    "10S 8S QS JH 6H 4H AD KD 10D 9C 6C 3C 2H",
    "JS 7S 4S AH 10H 3H 9D 7D QD 10C KC QC 2D",
    "9S 6S 3S 9H KH 5H 8D 6D 4D AC 8C 5C 2C",
)


# ---------------------------------------------------------------------------------------------
# The preset table


def test_2_there_are_exactly_the_ten_presets_of_the_spec() -> None:
    assert list(PRESETS) == [
        "pagat",
        "pagat-cut",
        "taash",
        "taash-b2b",
        "mendikot",
        "mendikot-band",
        "mendikot-band-auto",
        "mendikot-open",
        "mendikot-6",
        "mendikot-8",
    ]


# preset: (players, trump, staged_deal, collection, scoring, target, direction)
PRESET_ROWS: dict[str, tuple[int, str, bool, str, str, int, str]] = {
    "pagat": (4, "called", False, "centre", "pagat", 1, "anticlockwise"),
    "pagat-cut": (4, "cut", True, "centre", "pagat", 1, "anticlockwise"),
    "taash": (4, "cut", True, "immediate", "taash", 100, "clockwise"),
    "taash-b2b": (4, "cut", True, "centre", "taash", 100, "clockwise"),
    "mendikot": (4, "cut", False, "immediate", "mendikot", 5, "clockwise"),
    "mendikot-band": (4, "hidden", False, "immediate", "mendikot", 5, "clockwise"),
    "mendikot-band-auto": (4, "hidden_auto", False, "immediate", "mendikot", 5, "clockwise"),
    "mendikot-open": (4, "open_draw", False, "immediate", "mendikot", 5, "clockwise"),
    "mendikot-6": (6, "cut", False, "immediate", "mendikot", 5, "clockwise"),
    "mendikot-8": (8, "cut", False, "immediate", "mendikot", 5, "clockwise"),
}


@pytest.mark.parametrize("name", list(PRESET_ROWS))
def test_2_preset_options_match_their_row(name: str) -> None:
    players, trump, staged, collection, scoring, target, direction = PRESET_ROWS[name]
    rules = PRESETS[name]
    assert rules.preset == name
    assert (rules.players, rules.trump, rules.staged_deal, rules.collection) == (players, trump, staged, collection)
    assert (rules.scoring, rules.target, rules.direction) == (scoring, target, direction)
    assert rules.streak_kot == (7 if scoring == "pagat" else 0)
    assert rules.streak_resets is True
    assert rules.rotation == "rules"
    assert rules.after_whitewash == "partner"
    assert rules.trick_minimum is False
    assert rules.sweep_bonus == "none"
    assert rules.tricks_per_hand == {4: 13, 6: 8, 8: 6}[players]
    assert rules.description


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.parametrize("dealer", [0, 1, 3])
def test_2_in_every_preset_dealer_plus_one_makes_trump_then_leads_trick_one(name: str, dealer: int) -> None:
    rules = PRESETS[name]
    match = Match(rules, dealer)
    match.apply(match.random_deal(random.Random(dealer)))
    first = (dealer + 1) % rules.players
    assert match.to_act == first
    if match.phase is Phase.CALL:
        act(match, "call H")
    elif match.phase is Phase.HIDE:
        match.apply(match.legal_actions()[0])
    assert match.phase is Phase.PLAY
    assert match.to_act == first
    assert match.observe(0).leader == first


# ---------------------------------------------------------------------------------------------
# Deal column


def test_2_pagat_deals_five_each_then_trump_is_called_then_four_and_four() -> None:
    match = start("pagat", 3, *NO_VOID_DEAL)
    assert match.phase is Phase.CALL
    for seat in range(4):
        observation = match.observe(seat)
        assert len(observation.hand) == 5
        assert observation.undealt[seat] == 8
    assert [str(card) for card in match.hand_of(0)] == ["AS", "KS", "5S", "8H", "7H"]
    act(match, "call D")
    assert all(len(match.hand_of(seat)) == 13 for seat in range(4))
    assert sum(match.observe(0).undealt) == 0


@pytest.mark.parametrize("name", ["pagat-cut", "taash", "taash-b2b"])
def test_2_staged_presets_deal_five_each_and_the_other_eight_after_the_trump_trick(name: str) -> None:
    match = start(name, 3, *NO_VOID_DEAL)
    assert match.phase is Phase.PLAY and match.trump is None
    assert all(len(match.hand_of(seat)) == 5 for seat in range(4))
    assert match.observe(2).undealt == (8, 8, 8, 8)


@pytest.mark.parametrize("name", ["mendikot", "mendikot-band", "mendikot-band-auto", "mendikot-open"])
def test_2_mendikot_presets_deal_all_thirteen_at_once(name: str) -> None:
    match = start(name, 3, *NO_VOID_DEAL, open_draw="7H" if name == "mendikot-open" else None)
    assert all(len(match.hand_of(seat)) == 13 for seat in range(4))
    assert match.observe(1).undealt == (0, 0, 0, 0)


@pytest.mark.parametrize(("name", "each"), [("mendikot-6", 8), ("mendikot-8", 6)])
def test_2_six_and_eight_players_use_48_cards_without_the_twos(name: str, each: int) -> None:
    rules = PRESETS[name]
    assert rules.deck_size == 48 and rules.hand_size == each
    match = Match(rules, 0)
    dealt = match.random_deal(random.Random(5))
    assert all(len(hand) == each for hand in dealt.hands)
    assert not any(card.rank == 0 for hand in dealt.hands for card in hand)
    match.apply(dealt)
    assert all(len(match.hand_of(seat)) == each for seat in range(rules.players))


# ---------------------------------------------------------------------------------------------
# Trump column


def test_2_pagat_trump_is_called_by_dealer_plus_one_from_its_first_five_cards() -> None:
    match = start("pagat", 1, *NO_VOID_DEAL)
    assert match.to_act == 2
    assert legal_texts(match) == ["call S", "call H", "call D", "call C"]
    events = act(match, "call C")
    assert of_type(events, TrumpSet) == [TrumpSet(Suit.C, 2, "called")]
    assert str(match.trump) == "C"
    assert match.to_act == 2  # the caller leads


@pytest.mark.parametrize("name", ["pagat-cut", "taash", "taash-b2b", "mendikot", "mendikot-6", "mendikot-8"])
def test_2_cut_presets_start_without_trump(name: str) -> None:
    rules = PRESETS[name]
    match = Match(rules, 0)
    match.apply(match.random_deal(random.Random(1)))
    assert match.phase is Phase.PLAY
    assert match.trump is None
    assert legal_texts(match)  # the leader plays at once: no call, no hide


@pytest.mark.parametrize("name", ["mendikot-band", "mendikot-band-auto"])
def test_2_band_hukum_presets_start_with_a_hidden_card(name: str) -> None:
    match = start(name, 3, *NO_VOID_DEAL)
    assert match.phase is Phase.HIDE and match.to_act == 0
    assert len(match.legal_actions()) == 13
    act(match, "hide 2S")
    assert match.trump is None
    assert match.observe(1).trump_hidden


def test_2_mendikot_open_trump_is_the_suit_of_the_drawn_card() -> None:
    match = Match("mendikot-open", 3)
    events = match.apply(deal(*NO_VOID_DEAL, open_draw="7H"))
    assert str(match.trump) == "H"
    trump_set = of_type(events, TrumpSet)[0]
    assert (str(trump_set.card), trump_set.how, trump_set.seat) == ("7H", "open_draw", 0)


# ---------------------------------------------------------------------------------------------
# Collection column

CENTRE_WINNERS = [0, 1, 1, 2, 3, 0, 0, 1, 2, 3, 3, 3]


@pytest.mark.parametrize("name", ["pagat", "pagat-cut", "taash-b2b"])
def test_2_centre_presets_keep_tricks_in_the_centre_until_two_in_a_row(name: str) -> None:
    script = block_hand(0, CENTRE_WINNERS, tens=(1, 0, 2, 2))
    match, events = play_scripted(name, 3, script, before="call S" if name == "pagat" else ())
    tricks = last_result(match).tricks
    assert tricks[0].collected_by is None  # seat 0 won trick 1 alone: it stays in the centre
    assert tricks[2].collected_by == 1  # seat 1 won tricks 2 and 3: the centre goes to team 1
    collections = of_type(events, CentreCollected)
    assert len(collections[0].cards) == 12


@pytest.mark.parametrize("name", ["taash", "mendikot", "mendikot-band", "mendikot-band-auto", "mendikot-open"])
def test_2_immediate_presets_give_each_trick_to_its_winners_team(name: str) -> None:
    before = "hide 2S" if "band" in name else ()
    script = block_hand(0, CENTRE_WINNERS, tens=(1, 0, 2, 2))
    match, _ = play_scripted(name, 3, script, before=before, open_draw="5S" if name == "mendikot-open" else None)
    for trick in last_result(match).tricks:
        assert trick.collected_by == trick.winner


def test_2_taash_b2b_counts_tricks_for_their_winner_at_once_while_tens_wait_in_the_centre() -> None:
    match = start("taash-b2b", 3, *NO_VOID_DEAL)
    act(match, "AS 10S JS 9S")  # seat 0 wins trick 1, with the ten of spades
    observation = match.observe(2)
    assert observation.tricks_won == (1, 0)
    assert observation.tens == (0, 0)
    assert "10S" in [str(card) for card in observation.centre]


# ---------------------------------------------------------------------------------------------
# Hand result column (dealer 3 is on team 1; seat 0 leads)

# Tens fall in trick 1 (spades), 4 (hearts), 7 (diamonds) and 10 (clubs) with tens=(0, 0, 0, 0).
TEAM0_THREE_TENS_FEW_TRICKS = [0, 1, 1, 0, 1, 1, 2, 3, 3, 1, 3, 1]  # team 0 wins only tricks 1, 4, 7 (+13)


def test_2_pagat_three_tens_win_whatever_the_tricks() -> None:
    # Same-player pairs: seat 0 takes tricks 1-2 (ten of spades), seat 1 tricks 3-4 (ten of hearts), seat 2
    # tricks 9-10 (tens of diamonds and clubs); team 0 wins 6 tricks, team 1 seven (13 goes to the 2C, trump).
    winners = [0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 1, 1]
    script = block_hand(0, winners, tens=(0, 0, 2, 0))
    match, _ = play_scripted("pagat", 3, script, before="call C")
    result = last_result(match)
    assert result.tens == (3, 1)
    assert result.tricks_won == (6, 7)
    assert (result.winner, result.points) == (0, (1, 0))
    assert not result.kot and match.score == (0, 0)
    assert result.streak == (1, 0)


def _pagat_two_two(dealer: int, name: str = "pagat") -> Match:
    # Pairs: seat L wins tricks 1-2, seat L+1 tricks 3-4, ... so each pair collects one ten.
    leader = (dealer + 1) % 4
    pairs = [
        leader,
        leader,
        leader + 1,
        leader + 1,
        leader,
        leader,
        leader + 1,
        leader + 1,
        leader + 2,
        leader + 2,
        leader + 3,
        leader + 3,
    ]
    winners = [seat % 4 for seat in pairs]
    script = block_hand(leader, winners, tens=(0, 0, 0, 0), twos="SHDC")
    match, _ = play_scripted(name, dealer, script, before="call S" if name == "pagat" else ())
    return match


@pytest.mark.parametrize("name", ["pagat", "pagat-cut"])
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_2_pagat_two_two_goes_to_the_team_that_did_not_deal(dealer: int, name: str) -> None:
    match = _pagat_two_two(dealer, name)
    result = last_result(match)
    assert result.tens == (2, 2)
    assert result.winner == 1 - dealer % 2
    assert result.next_dealer == dealer  # the dealing team lost: the same dealer deals again


def test_2_pagat_dealing_team_win_passes_the_deal_to_dealer_plus_one() -> None:
    # Dealer 3 (team 1): seat 1 wins tricks 1-2 (ten of spades), 4-5 (ten of hearts), 7-8 (ten of diamonds).
    winners = [1, 1, 2, 1, 1, 0, 1, 1, 0, 2, 2, 0]
    script = block_hand(0, winners, tens=(0, 0, 0, 1), twos="HDSC")
    match, _ = play_scripted("pagat", 3, script, before="call S")
    result = last_result(match)
    assert result.tens == (1, 3) and result.winner == 1
    assert result.next_dealer == 0


@pytest.mark.parametrize("name", ["pagat", "pagat-cut"])
def test_2_pagat_four_tens_is_a_kot_and_wins_the_match(name: str) -> None:
    winners = [0, 0, 1, 0, 0, 2, 2, 2, 1, 2, 2, 0]
    script = block_hand(0, winners, tens=(0, 1, 0, 0))
    match, events = play_scripted(name, 3, script, before="call S" if name == "pagat" else ())
    result = last_result(match)
    assert result.tens == (4, 0) and result.sweep and result.kot
    assert of_type(events, KotAwarded)[0].team == 0
    assert of_type(events, MatchOver) == [MatchOver(0, (1, 0))]
    assert match.is_over and match.score == (1, 0)
    assert result.next_dealer is None


@pytest.mark.parametrize("name", ["pagat", "pagat-cut"])
def test_2_pagat_seven_hand_wins_in_a_row_is_a_kot(name: str) -> None:
    match = Match(name, 3)
    for hand in range(7):
        result = play_pagat_hand(match, team=0)
        assert result.winner == 0 and result.tens == (3, 1)
        if hand < 6:
            assert result.streak == (hand + 1, 0) and not result.kot
            assert not match.is_over
    assert last_result(match).kot
    assert match.is_over and match.winner == 0 and match.score == (1, 0)


def test_2_taash_four_tens_score_80_three_tens_30_and_the_match_is_to_100() -> None:
    match = Match("taash", 3)
    # Hand 1 (dealer 3): team 0 wins every trick with a ten: 4-0 = 80, ended once the fourth ten is in.
    script = block_hand(0, [0, 1, 3, 2, 0, 1, 2, 3, 0, 2, 2, 2], tens=(0, 0, 0, 0))
    play_scripted("taash", 3, script, match=match)
    first = last_result(match)
    assert (first.tens, first.points, first.winner, first.sweep) == ((4, 0), (80, 0), 0, True)
    assert first.next_dealer == 0  # dealer+1 every hand
    assert not match.is_over
    # Hand 2 (dealer 0, seat 1 leads): 3-1 to team 0 = 30, and 110 passes the target of 100.
    script = block_hand(1, [2, 0, 1, 0, 1, 3, 2, 3, 1, 3, 0, 2], tens=(0, 0, 0, 0))
    play_scripted("taash", 0, script, match=match)
    second = last_result(match)
    assert (second.tens, second.points, second.winner) == ((3, 1), (30, 0), 0)
    assert match.is_over and match.winner == 0 and match.score == (110, 0)
    assert second.next_dealer is None


def test_2_taash_two_two_scores_20_to_the_team_with_more_tricks() -> None:
    # Tens: S (trick 1) and D (trick 7) to team 1, H (trick 4) and C (trick 10) to team 0; team 1 takes 7 tricks.
    winners = [1, 3, 1, 0, 3, 1, 3, 1, 0, 2, 0, 2]
    script = block_hand(0, winners, tens=(0, 0, 0, 0))
    match, _ = play_scripted("taash", 3, script)
    result = last_result(match)
    assert result.tens == (2, 2)
    assert result.tricks_won[1] >= 7
    assert (result.winner, result.points) == (1, (0, 20))
    assert result.next_dealer == 0  # Taash: dealer+1 even though the dealing team won


@pytest.mark.parametrize("name", ["mendikot", "mendikot-band", "mendikot-band-auto", "mendikot-open"])
def test_2_mendikot_three_tens_win_the_hand_even_with_fewer_tricks(name: str) -> None:
    before = "hide 2S" if "band" in name else ()  # the chooser hides its two; it comes out in trick 13
    script = block_hand(0, TEAM0_THREE_TENS_FEW_TRICKS)
    match, _ = play_scripted(name, 3, script, before=before, open_draw="9D" if name == "mendikot-open" else None)
    result = last_result(match)
    assert result.tens == (3, 1)
    assert result.tricks_won[0] < result.tricks_won[1]
    assert (result.winner, result.points) == (0, (1, 0))
    assert match.score == (1, 0)
    assert result.next_dealer == 3  # the dealer's team lost (but took tricks): the same dealer again


def test_2_mendikot_two_two_goes_to_the_team_with_seven_or_more_tricks() -> None:
    # Tens S, H to team 0 (tricks 1, 4), D, C to team 1 (tricks 7, 10); team 1 wins 7 tricks.
    winners = [0, 1, 3, 2, 1, 3, 1, 1, 3, 3, 0, 1]
    script = block_hand(0, winners)
    match, _ = play_scripted("mendikot", 3, script)
    result = last_result(match)
    assert result.tens == (2, 2) and result.tricks_won[1] >= 7
    assert (result.winner, result.points) == (1, (0, 1))
    assert result.next_dealer == 0  # the dealer's team won: dealer+1


def test_2_mendikot_four_tens_is_a_mendikot_sweep_worth_one_point() -> None:
    winners = [0, 1, 1, 2, 1, 1, 0, 3, 3, 2, 3, 3]
    script = block_hand(0, winners)
    match, _ = play_scripted("mendikot", 3, script)
    result = last_result(match)
    assert result.tens == (4, 0) and result.sweep and not result.whitewash
    assert result.points == (1, 0)
    assert match.score == (1, 0)


def test_2_mendikot_whitewash_deal_passes_to_partner() -> None:
    # Open draw 5S makes spades trump; seat 0 holds the 2S, so team 0 wins trick 13 as well: all 13 tricks.
    script = block_hand(0, [0, 2] * 6, twos="SHDC")
    match, _ = play_scripted("mendikot-open", 3, script, open_draw="5S")
    result = last_result(match)
    assert result.tricks_won == (13, 0) and result.whitewash and result.sweep
    assert result.next_dealer == 1  # dealer 3's partner


def test_2_mendikot_dealer_team_win_passes_the_deal_on() -> None:
    winners = [1, 1, 3, 1, 3, 0, 3, 1, 2, 1, 0, 2]  # team 1 (dealer 3) takes all four tens
    script = block_hand(0, winners)
    match, _ = play_scripted("mendikot", 3, script)
    result = last_result(match)
    assert result.winner == 1
    assert result.next_dealer == 0


def test_2_mendikot_first_team_to_five_points_wins_the_match() -> None:
    match = Match("mendikot", 3)
    for hand in range(5):
        assert match.dealer == 3  # team 0 keeps winning, so dealer 3 keeps the deal
        script = block_hand(0, TEAM0_THREE_TENS_FEW_TRICKS)
        play_scripted("mendikot", 3, script, match=match)
        assert match.score == (hand + 1, 0)
    assert match.is_over and match.winner == 0
    assert last_result(match).next_dealer is None


def test_2_mendikot_6_has_eight_tricks_and_two_two_goes_to_more_tricks() -> None:
    # Dealer 0 (team 0), seat 1 leads. Tens S, H to team 1 (tricks 1, 3); D, C to team 0 (tricks 5, 7).
    winners = [1, 3, 3, 5, 0, 1, 2, 5]
    script = block_hand(1, winners, tens=(0, 0, 0, 0), players=6)
    match, _ = play_scripted("mendikot-6", 0, script)
    result = last_result(match)
    assert len(result.tricks) == 8
    assert result.tens == (2, 2) and result.tricks_won == (2, 6)
    assert result.winner == 1
    assert result.next_dealer == 0  # the dealer's team lost but took tricks: same dealer


def test_2_mendikot_6_equal_tricks_is_a_drawn_hand_and_the_deal_passes_on() -> None:
    winners = [1, 1, 2, 3, 4, 5, 0, 0]  # four tricks each; tens S, D to team 1, H, C to team 0
    script = block_hand(1, winners, tens=(0, 0, 1, 1), players=6)
    match, _ = play_scripted("mendikot-6", 0, script)
    result = last_result(match)
    assert result.tricks_won == (4, 4) and result.tens == (2, 2)
    assert result.winner is None and result.points == (0, 0)
    assert match.score == (0, 0)
    assert result.next_dealer == 1


def test_2_mendikot_6_whitewash_passes_the_deal_to_dealer_plus_two() -> None:
    script = block_hand(1, [1, 3, 5, 1, 3, 5, 1, 3], players=6)
    match, _ = play_scripted("mendikot-6", 0, script)
    result = last_result(match)
    assert result.tricks_won == (0, 8) and result.whitewash
    assert result.next_dealer == 2


def test_2_mendikot_8_teams_alternate_around_the_table() -> None:
    rules = PRESETS["mendikot-8"]
    match = Match(rules, 6)
    match.apply(match.random_deal(random.Random(3)))
    assert match.to_act == 7
    assert [match.team_of(seat) for seat in range(8)] == [0, 1, 0, 1, 0, 1, 0, 1]


def test_2_mendikot_8_drawn_hand_scores_nothing_and_passes_the_deal_on() -> None:
    rules = PRESETS["mendikot-8"]
    for seed in range(500):
        rng = random.Random(seed)
        match = Match(rules, 5)
        match.apply(match.random_deal(rng))
        finish_hand(match, lambda game, rng=rng: rng.choice(game.legal_actions()))
        result = last_result(match)
        if result.tens == (2, 2) and result.tricks_won == (3, 3):
            break
    else:  # pragma: no cover
        pytest.fail("no drawn hand in 500 random eight-player hands")
    assert result.winner is None and result.points == (0, 0)
    assert result.next_dealer == 6 and match.score == (0, 0)


# ---------------------------------------------------------------------------------------------
# Options


def test_option_target_sets_how_many_points_win_the_match() -> None:
    rules = parse_rules({"preset": "mendikot", "target": 2})
    match = Match(rules, 3)
    for _ in range(2):
        play_scripted(rules, 3, block_hand(0, TEAM0_THREE_TENS_FEW_TRICKS), match=match)
    assert match.is_over and match.score == (2, 0)


def test_option_target_counts_kots_under_pagat_rules() -> None:
    rules = parse_rules({"preset": "pagat", "target": 2})
    match = Match(rules, 3)
    winners = [0, 0, 1, 0, 0, 2, 2, 2, 1, 2, 2, 0]
    play_scripted(rules, 3, block_hand(0, winners, tens=(0, 1, 0, 0)), before="call S", match=match)
    assert last_result(match).kot and match.score == (1, 0) and not match.is_over
    assert last_result(match).next_dealer == 3  # team 0 (not dealing) won: dealer 3 deals again


def test_option_rotation_simple_passes_the_deal_to_dealer_plus_one_after_every_hand() -> None:
    for name, expected in (("mendikot", 3), ({"preset": "mendikot", "rotation": "simple"}, 0)):
        match, _ = play_scripted(name, 3, block_hand(0, TEAM0_THREE_TENS_FEW_TRICKS))
        assert last_result(match).next_dealer == expected


def test_option_after_whitewash_next_passes_the_deal_to_the_next_player() -> None:
    rules = {"preset": "mendikot-open", "after_whitewash": "next"}
    match, _ = play_scripted(rules, 3, block_hand(0, [0, 2] * 6), open_draw="5S")
    result = last_result(match)
    assert result.whitewash and result.next_dealer == 0


def test_option_streak_resets_false_every_further_win_in_a_row_collects() -> None:
    winners = [0, 0, 0, 0, 1, 2, 3, 1, 1, 2, 3, 0]
    script = block_hand(0, winners, tens=(2, 0, 1, 0))
    resets, _ = play_scripted("pagat", 3, script, before="call S")
    keeps, _ = play_scripted({"preset": "pagat", "streak_resets": False}, 3, script, before="call S")
    assert [trick.collected_by for trick in last_result(resets).tricks[:4]] == [None, 0, None, 0]
    assert [trick.collected_by for trick in last_result(keeps).tricks[:4]] == [None, 0, 0, 0]


@pytest.mark.parametrize("direction", ["clockwise", "anticlockwise"])
def test_option_direction_is_display_only(direction: str) -> None:
    script = block_hand(0, TEAM0_THREE_TENS_FEW_TRICKS)
    plain, _ = play_scripted("mendikot", 3, script)
    turned, _ = play_scripted({"preset": "mendikot", "direction": direction}, 3, script)
    assert last_result(turned) == last_result(plain)
    assert turned.observe(0).direction == direction


def test_option_trick_minimum_more_tens_without_seven_tricks_scores_nothing() -> None:
    winners = [1, 3, 1, 0, 3, 1, 0, 1, 3, 0, 3, 1]  # team 0 catches tens H, D, C but wins few tricks
    script = block_hand(0, winners)
    plain, _ = play_scripted("taash", 3, script)
    strict, _ = play_scripted({"preset": "taash", "trick_minimum": True}, 3, script)
    assert last_result(plain).tens == (3, 1) and last_result(plain).points == (30, 0)
    result = last_result(strict)
    assert result.tens == (3, 1) and result.tricks_won[0] < 7
    assert result.winner is None and result.points == (0, 0)
    assert strict.score == (0, 0)


def test_option_sweep_bonus_double_scores_160_for_four_tens() -> None:
    script = block_hand(0, [0, 1, 3, 2, 0, 1, 2, 3, 0, 2, 2, 2])
    match, _ = play_scripted({"preset": "taash", "sweep_bonus": "double", "target": 500}, 3, script)
    assert last_result(match).points == (160, 0)
    assert not match.is_over


def test_option_sweep_bonus_match_ends_the_match_at_once() -> None:
    script = block_hand(0, [0, 1, 3, 2, 0, 1, 2, 3, 0, 2, 2, 2])
    match, events = play_scripted({"preset": "taash", "sweep_bonus": "match", "target": 500}, 3, script)
    assert last_result(match).points == (80, 0)
    assert match.is_over and match.winner == 0
    assert of_type(events, MatchOver)


@pytest.mark.parametrize("trump", ["called", "cut", "hidden", "hidden_auto", "open_draw"])
def test_option_trump_every_method_works_with_mendikot(trump: str) -> None:
    rules = parse_rules({"preset": "mendikot", "trump": trump})
    match = Match(rules, 3)
    events = match.apply(deal(*NO_VOID_DEAL, open_draw="4C" if trump == "open_draw" else None))
    expected_phase = {"called": Phase.CALL, "hidden": Phase.HIDE, "hidden_auto": Phase.HIDE}.get(trump, Phase.PLAY)
    assert match.phase is expected_phase
    if trump == "open_draw":
        assert str(match.trump) == "C" and of_type(events, TrumpSet)
    finish_hand(match)
    assert last_result(match).trump is not None or trump == "cut"


def test_option_staged_deal_can_be_switched_on_for_cut_trump_and_off_for_taash() -> None:
    staged = start({"preset": "mendikot", "staged_deal": True}, 3, *NO_VOID_DEAL)
    assert len(staged.hand_of(0)) == 5
    whole = start({"preset": "taash", "staged_deal": False}, 3, *NO_VOID_DEAL)
    assert len(whole.hand_of(0)) == 13
    events = finish_hand(staged)
    assert of_type(events, StagedDeal)


def test_option_collection_centre_and_immediate_can_be_swapped() -> None:
    script = block_hand(0, CENTRE_WINNERS, tens=(1, 0, 2, 2))
    centre, _ = play_scripted({"preset": "mendikot", "collection": "centre"}, 3, script)
    immediate, _ = play_scripted({"preset": "pagat", "collection": "immediate"}, 3, script, before="call S")
    assert last_result(centre).tricks[0].collected_by is None
    assert [trick.collected_by for trick in last_result(immediate).tricks] == [
        trick.winner for trick in last_result(immediate).tricks
    ]


def test_option_hidden_trump_under_pagat_rules_is_a_hide_then_reveal_game() -> None:
    match = start({"preset": "pagat", "trump": "hidden"}, 3, *NO_VOID_DEAL)
    assert match.phase is Phase.HIDE
    events = act(match, "hide 2S")
    assert not of_type(events, TrumpRevealed)
    finish_hand(match)
    assert last_result(match).trump is not None


# ---------------------------------------------------------------------------------------------
# JSON round trip

OPTION_VALUES: list[tuple[str, dict[str, Any]]] = [
    ("pagat", {"target": 3}),
    ("pagat", {"streak_resets": False}),
    ("pagat", {"rotation": "simple"}),
    ("mendikot", {"after_whitewash": "next"}),
    ("mendikot", {"direction": "anticlockwise"}),
    ("taash", {"trick_minimum": True}),
    ("pagat", {"trump": "hidden"}),
    ("mendikot", {"trump": "called"}),
    ("mendikot", {"trump": "hidden_auto"}),
    ("pagat-cut", {"trump": "open_draw", "staged_deal": False}),
    ("mendikot", {"staged_deal": True}),
    ("mendikot", {"collection": "centre"}),
    ("taash", {"sweep_bonus": "double"}),
    ("taash", {"sweep_bonus": "match"}),
    ("taash-b2b", {"target": 250, "trick_minimum": True, "streak_resets": False}),
]


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_json_preset_name_round_trips(name: str) -> None:
    rules = preset(name)
    assert rules.to_json() == name
    assert parse_rules(json.loads(json.dumps(rules.to_json()))) == rules


@pytest.mark.parametrize(("name", "options"), OPTION_VALUES)
def test_rules_json_object_with_options_round_trips(name: str, options: dict[str, Any]) -> None:
    rules = parse_rules({"preset": name, **options})
    for key, value in options.items():
        assert getattr(rules, key) == value
    form = rules.to_json()
    assert form == {"preset": name, **options}
    again = parse_rules(json.loads(json.dumps(form)))
    assert again == rules
    assert again.options() == rules.options()
    assert Rules.from_json(form) == rules


def test_rules_json_options_equal_to_the_preset_are_left_out() -> None:
    assert parse_rules({"preset": "taash", "target": 100}).to_json() == "taash"


def test_rules_replace_changes_options_and_validates() -> None:
    rules = preset("mendikot").replace(target=7)
    assert rules.target == 7 and rules.to_json() == {"preset": "mendikot", "target": 7}
    with pytest.raises(RulesError):
        preset("mendikot").replace(target=0)


def test_rules_value_is_frozen() -> None:
    with pytest.raises(AttributeError):
        preset("pagat").target = 5  # type: ignore[misc]


def test_every_option_in_the_spec_table_is_an_option() -> None:
    spec_options = {
        "target",
        "streak_resets",
        "rotation",
        "after_whitewash",
        "direction",
        "trick_minimum",
        "trump",
        "staged_deal",
        "collection",
        "sweep_bonus",
    }
    assert spec_options <= set(OPTIONS)


# ---------------------------------------------------------------------------------------------
# Bad rules


def test_unknown_preset_lists_the_valid_presets() -> None:
    for value in ("nope", {"preset": "nope"}, "Pagat"):
        with pytest.raises(RulesError) as caught:
            parse_rules(value)
        message = str(caught.value)
        assert "unknown preset" in message
        assert all(name in message for name in PRESETS)


def test_unknown_option_lists_the_valid_options() -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules({"preset": "pagat", "trumps": "cut"})
    message = str(caught.value)
    assert "'trumps'" in message
    assert all(name in message for name in ("target", "streak_resets", "rotation", "after_whitewash", "trump"))


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("target", "5", "positive whole number"),
        ("target", 0, "positive whole number"),
        ("target", -3, "positive whole number"),
        ("target", True, "positive whole number"),
        ("target", 2.5, "positive whole number"),
        ("streak_resets", "yes", "true or false"),
        ("streak_resets", 1, "true or false"),
        ("rotation", "fast", "'rules', 'simple'"),
        ("after_whitewash", "dealer", "'partner', 'next'"),
        ("direction", "left", "'anticlockwise', 'clockwise'"),
        ("trick_minimum", "no", "true or false"),
        ("trump", "spades", "'called', 'cut', 'hidden', 'hidden_auto', 'open_draw'"),
        ("staged_deal", None, "true or false"),
        ("collection", "pile", "'centre', 'immediate'"),
        ("sweep_bonus", "triple", "'none', 'double', 'match'"),
    ],
)
def test_wrong_option_value_says_what_is_allowed(option: str, value: object, allowed: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules({"preset": "taash", option: value})
    assert option in str(caught.value)
    assert allowed in str(caught.value)


@pytest.mark.parametrize(
    ("rules", "why"),
    [
        ({"preset": "pagat", "staged_deal": True}, 'staged_deal needs trump "cut"'),
        ({"preset": "mendikot-band", "staged_deal": True}, 'staged_deal needs trump "cut"'),
        ({"preset": "taash", "trump": "called"}, 'staged_deal needs trump "cut"'),
        ({"preset": "taash", "trump": "open_draw"}, 'staged_deal needs trump "cut"'),
        ({"preset": "mendikot", "trick_minimum": True}, "Taash rule"),
        ({"preset": "pagat", "sweep_bonus": "double"}, "Taash rule"),
        ({"preset": "pagat", "after_whitewash": "next"}, "Mendikot rule"),
        ({"preset": "taash", "after_whitewash": "next"}, "Mendikot rule"),
    ],
)
def test_nonsensical_combination_is_an_error_saying_why(rules: dict[str, Any], why: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules(rules)
    assert why in str(caught.value)


@pytest.mark.parametrize("value", [5, None, ["pagat"], {"target": 3}, {"preset": 4}])
def test_rules_that_are_neither_a_name_nor_an_object_with_a_preset_are_refused(value: object) -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules(value)
    assert "preset" in str(caught.value)


def test_rules_error_is_a_dehla_error() -> None:
    assert issubclass(RulesError, DehlaError)
    with pytest.raises(DehlaError):
        Match("no-such-preset")


def test_the_option_types_name_every_field_of_rules_with_its_type() -> None:
    """``OPTIONS`` (the keys of ``RuleOptions``), ``OptionChanges`` and the fields of ``Rules`` list the same options,
    in the same order and with the same types: ``Rules.options()`` and ``Rules.replace`` are typed by them."""
    import dataclasses
    import typing

    from dehla.rules import OptionChanges, RuleOptions, Rules

    fields = typing.get_type_hints(Rules)
    names = [field.name for field in dataclasses.fields(Rules) if field.name not in ("preset", "description")]
    assert list(OPTIONS) == names
    assert typing.get_type_hints(RuleOptions) == {name: fields[name] for name in names}
    assert typing.get_type_hints(OptionChanges) == {name: fields[name] for name in names}
    assert preset("taash").options() == {name: getattr(preset("taash"), name) for name in names}
