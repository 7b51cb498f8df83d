"""One named test per clause and ruling of SPEC sections 1 and 3.

Positions are dealt by hand: ``begin(rules, {seat: cards}, void={seat: suits})``
gives each seat the cards named (the rest of its hand is filler, never of a
suit it must be void in).  Unless said otherwise seat 3 deals, so seat 0 makes
trump or leads trick 1; seats 0 and 2 are team 0, seats 1 and 3 team 1.
"""

from __future__ import annotations

import random

import pytest
from tests.helpers import (
    act,
    begin,
    block_hand,
    deal,
    finish_hand,
    last_result,
    legal_texts,
    of_type,
    play_pagat_hand,
    play_scripted,
)

from dehla import IllegalActionError, Match, Reveal, Suit, parse_card
from dehla.engine.events import (
    CentreCollected,
    HandEnded,
    StagedDeal,
    Trick,
    TrumpRevealed,
    TrumpSet,
)
from dehla.engine.state import Phase, draw_first_dealer
from dehla.record import replay, to_record


def winner_of_last_trick(match: Match) -> int:
    return match.tricks[-1].winner


def suits_of(texts: list[str]) -> set[str]:
    return {text[-1] for text in texts}


# =============================================================================================
# 1. Common ground


def test_1_seats_play_in_order_seat_after_seat() -> None:
    match = Match("mendikot-6", 2)
    match.apply(match.random_deal(random.Random(4)))
    seen = []
    for _ in range(6):
        seen.append(match.to_act)
        match.apply(match.legal_actions()[0])
    assert seen == [3, 4, 5, 0, 1, 2]


def test_1_the_first_trick_is_led_by_the_player_after_the_dealer() -> None:
    for dealer in range(4):
        match = Match("mendikot", dealer)
        match.apply(match.random_deal(random.Random(dealer)))
        assert match.to_act == (dealer + 1) % 4


def test_1_team_is_seat_mod_2_so_partners_sit_opposite() -> None:
    match = begin("mendikot", {0: "2H", 1: "3H", 2: "AH", 3: "4H"})
    act(match, "2H 3H AH 4H")
    assert winner_of_last_trick(match) == 2
    assert match.observe(1).tricks_won == (1, 0)  # seat 2 won it for team 0
    assert [match.team_of(seat) for seat in range(4)] == [0, 1, 0, 1]


def test_1_with_six_players_teams_alternate_around_the_table() -> None:
    match = begin("mendikot-6", {3: "3H", 4: "AH", 5: "4H", 0: "5H", 1: "6H", 2: "7H"}, dealer=2)
    act(match, "3H AH 4H 5H 6H 7H")
    assert winner_of_last_trick(match) == 4
    assert match.observe(0).tricks_won == (1, 0)


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        ("2H 10H JH 9H", 2),  # the jack beats the ten
        ("2H 10H 9H 8H", 1),  # the ten beats the nine
        ("KH AH QH JH", 1),  # ace high
        ("3H 2H 4H 5H", 3),
        ("QH JH KH 10H", 2),
    ],
)
def test_1_ranks_run_a_k_q_j_10_9_down_to_2(plays: str, winner: int) -> None:
    cards = plays.split()
    match = begin("mendikot", {seat: cards[seat] for seat in range(4)})
    act(match, plays)
    assert winner_of_last_trick(match) == winner


def test_1_ranks_are_the_same_in_the_trump_suit() -> None:
    # Spades are trump (open draw); two void players trump, the jack beats the ten.
    match = begin("mendikot-open", {0: "AH", 1: "10S", 2: "JS", 3: "KH"}, void={1: "H", 2: "H"}, open_draw="2S")
    act(match, "AH 10S JS KH")
    assert winner_of_last_trick(match) == 2


def test_1_follow_suit_when_able() -> None:
    match = begin("mendikot", {0: "AH", 1: "10H 2C AS"})
    act(match, "AH")
    assert suits_of(legal_texts(match)) == {"H"}
    with pytest.raises(IllegalActionError) as caught:
        act(match, "AS")
    assert "must follow hearts" in str(caught.value)


def test_1_a_player_who_cannot_follow_may_play_any_card() -> None:
    match = begin("mendikot", {0: "AH"}, void={1: "H"})
    act(match, "AH")
    assert sorted(legal_texts(match)) == sorted(str(card) for card in match.hand_of(1))
    assert len(legal_texts(match)) == 13


def test_1_nobody_is_forced_to_trump() -> None:
    # Spades trump; seat 1 has no heart but holds trumps, and may still throw a diamond.
    match = begin("mendikot-open", {0: "AH", 1: "3S 4D"}, void={1: "H"}, open_draw="2S")
    act(match, "AH")
    assert "4D" in legal_texts(match) and "3S" in legal_texts(match)
    act(match, "4D")


def test_1_nobody_is_forced_to_overtake() -> None:
    match = begin("mendikot", {0: "KH", 1: "AH 2H"})
    act(match, "KH")
    assert {"AH", "2H"} <= set(legal_texts(match))
    act(match, "2H")


def test_1_the_highest_trump_wins_the_trick() -> None:
    match = begin("mendikot-open", {0: "AH", 1: "3S", 2: "QH", 3: "9S"}, void={1: "H", 3: "H"}, open_draw="KS")
    act(match, "AH 3S QH 9S")
    assert winner_of_last_trick(match) == 3


def test_1_without_a_trump_the_highest_card_of_the_suit_led_wins_and_other_suits_never_do() -> None:
    match = begin("mendikot-open", {0: "9H", 1: "AD", 2: "QH", 3: "AC"}, void={1: "H", 3: "H"}, open_draw="KS")
    act(match, "9H AD QH AC")
    assert winner_of_last_trick(match) == 2


def test_1_a_trick_winner_leads_the_next_trick() -> None:
    match = begin("mendikot", {0: "9H", 1: "AH", 2: "QH", 3: "2H"})
    act(match, "9H AH QH 2H")
    assert match.to_act == 1


def test_1_tens_of_a_team_are_tens_it_has_collected_not_tens_in_the_centre() -> None:
    match = begin("pagat", {0: "AH", 1: "10H", 2: "3H", 3: "7H"})
    act(match, "call D AH 10H 3H 7H")
    observation = match.observe(2)
    assert observation.tens == (0, 0)
    assert observation.centre_tens == 1


# =============================================================================================
# 3.1 Centre: two in a row


def _centre_hand(winners: list[int], tens: tuple[int, int, int, int] = (0, 0, 0, 0), **options: object) -> Match:
    rules = {"preset": "pagat", **options}
    match, _ = play_scripted(rules, 3, block_hand(0, winners, tens=tens), before="call S")
    return match


def test_3_1_a_trick_won_once_stays_in_the_centre() -> None:
    match = _centre_hand([0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3])
    assert [trick.collected_by for trick in last_result(match).tricks[:12]] == [None] * 12


def test_3_1_same_player_winning_two_in_a_row_collects_the_whole_centre_this_trick_included() -> None:
    match = Match("pagat", 3)
    script = block_hand(0, [1, 2, 3, 3, 0, 1, 2, 3, 0, 1, 2, 3], tens=(0, 0, 0, 0))
    events = list(match.apply(script.deal()))
    events += act(match, ["call S", *script.plays[:16]])
    collected = of_type(events, CentreCollected)
    assert len(collected) == 1
    assert (collected[0].seat, collected[0].team, len(collected[0].cards)) == (3, 1, 16)
    assert collected[0].tens == 2  # the tens of spades (trick 1) and hearts (trick 4)
    assert match.observe(0).tens == (0, 2)
    assert match.observe(0).centre == ()


def test_3_1_third_consecutive_win_stays_in_centre() -> None:
    match = _centre_hand([2, 2, 2, 0, 1, 2, 3, 0, 1, 2, 3, 0])
    assert [trick.collected_by for trick in last_result(match).tricks[:3]] == [None, 2, None]


def test_3_1_fourth_consecutive_win_collects_again() -> None:
    match = _centre_hand([2, 2, 2, 2, 1, 2, 3, 0, 1, 2, 3, 0])
    assert [trick.collected_by for trick in last_result(match).tricks[:4]] == [None, 2, None, 2]


def test_3_1_partners_winning_in_turn_never_collect() -> None:
    match = _centre_hand([0, 2] * 6)
    tricks = last_result(match).tricks
    assert [trick.collected_by for trick in tricks[:12]] == [None] * 12


def test_3_1_the_winner_of_the_last_trick_collects_whatever_remains() -> None:
    # Nobody ever wins two in a row; trick 13 goes to seat 0 (it holds the 2S, trump) and takes all 52 cards.
    match, events = play_scripted("pagat", 3, block_hand(0, [0, 2] * 6, twos="SHDC"), before="call S")
    result = last_result(match)
    assert result.tricks[-1].winner == 0 and result.tricks[-1].collected_by == 0
    collected = of_type(events, CentreCollected)
    assert len(collected) == 1 and len(collected[0].cards) == 52
    assert result.tens == (4, 0)


def test_3_1_last_trick_collects_even_after_a_single_win() -> None:
    match = _centre_hand([0, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2])
    last = last_result(match).tricks[-1]
    assert last.winner != last_result(match).tricks[-2].winner
    assert last.collected_by == last.winner


def test_3_1_taash_b2b_collects_two_in_a_row_too() -> None:
    match, _ = play_scripted("taash-b2b", 3, block_hand(0, [0, 1, 1, 2, 3, 3, 0, 1, 2, 3, 0, 1]))
    tricks = last_result(match).tricks
    assert [trick.collected_by for trick in tricks[:6]] == [None, None, 1, None, None, 3]


# =============================================================================================
# 3.2 Cut trump (katte)


def test_3_2_first_card_of_a_player_who_cannot_follow_sets_trump() -> None:
    match = begin("mendikot", {0: "AH", 1: "10H", 2: "3C", 3: "KH"}, void={2: "H"})
    events = act(match, "AH 10H")
    assert match.trump is None
    events = act(match, "3C")
    assert of_type(events, TrumpSet) == [TrumpSet(Suit.C, 2, "cut", parse_card("3C"))]
    assert match.trump is Suit.C
    assert match.observe(1).trump is Suit.C


def test_3_2_cut_card_counts_as_trump_in_same_trick() -> None:
    match = begin("mendikot", {0: "AH", 1: "10H", 2: "3C", 3: "KH"}, void={2: "H"})
    act(match, "AH 10H 3C KH")
    assert winner_of_last_trick(match) == 2
    assert match.observe(0).tens == (1, 0)  # the ten of hearts goes to the cutter's team


def test_3_2_a_later_player_also_void_may_overtrump_the_cut() -> None:
    match = begin("mendikot", {0: "AH", 1: "10H", 2: "3C", 3: "9C"}, void={2: "H", 3: "H"})
    act(match, "AH 10H 3C 9C")
    assert winner_of_last_trick(match) == 3


def test_3_2_a_later_void_player_of_another_suit_neither_wins_nor_changes_trump() -> None:
    match = begin("mendikot", {0: "AH", 1: "10H", 2: "3C", 3: "AD"}, void={2: "H", 3: "H"})
    events = act(match, "AH 10H 3C AD")
    assert len(of_type(events, TrumpSet)) == 1
    assert match.trump is Suit.C
    assert winner_of_last_trick(match) == 2


def test_3_2_trump_stays_for_the_rest_of_the_hand() -> None:
    match = begin("mendikot", {0: "AH AS", 1: "10H 5C", 2: "3C 4S", 3: "KH 2D"}, void={1: "S", 2: "H", 3: "S"})
    act(match, "AH 10H 3C KH")  # seat 2 cuts: clubs are trump
    events = act(match, "4S 2D AS 5C")  # seat 3 discards a diamond, seat 1 trumps with the 5C
    assert of_type(events, TrumpSet) == []
    assert match.trump is Suit.C
    assert winner_of_last_trick(match) == 1


def test_3_2_leading_a_suit_never_sets_trump() -> None:
    match = begin("mendikot", {0: "2D"})
    events = act(match, "2D")
    assert of_type(events, TrumpSet) == [] and match.trump is None


def test_3_2_katte_with_nobody_ever_void_has_no_trump() -> None:
    # Six players, every trick follows suit: all eight tricks are played without trump.
    match, events = play_scripted("mendikot-6", 0, block_hand(1, [1, 2, 3, 4, 5, 0, 1, 2], players=6))
    assert of_type(events, TrumpSet) == []
    assert last_result(match).trump is None


# =============================================================================================
# 3.3 Staged deal


def test_3_3_each_player_starts_with_the_first_five_cards_of_its_hand() -> None:
    match = begin("taash", {0: "AS KS QS JS 10S", 1: "2H 3H 4H 5H 6H"})
    assert [str(card) for card in match.hand_of(0)] == ["AS", "KS", "QS", "JS", "10S"]
    assert [str(card) for card in match.hand_of(1)] == ["6H", "5H", "4H", "3H", "2H"]
    assert match.observe(0).undealt == (8, 8, 8, 8)


def test_3_3_void_in_the_opening_five_may_cut_though_the_suit_comes_later() -> None:
    match = begin("taash", {0: "AH", 1: "KH", 2: "3C 4C 5C 6C 7C 2H", 3: "QH"})
    act(match, "AH KH")
    assert "3C" in legal_texts(match)
    events = act(match, "3C")
    assert of_type(events, TrumpSet)[0].suit is Suit.C


def test_3_3_staged_deal_after_trump_trick() -> None:
    match = begin("taash", {0: "AS AH", 1: "KS 10H", 2: "QS 2C", 3: "JS KH"}, void={2: "H"})
    act(match, "AS KS QS JS")  # trick 1: everybody follows
    assert all(len(match.hand_of(seat)) == 4 for seat in range(4))
    events = act(match, "AH 10H 2C")  # seat 2 cuts: clubs are trump ...
    assert of_type(events, StagedDeal) == []
    assert len(match.hand_of(3)) == 4  # ... but the rest waits for the end of the trick
    events = act(match, "KH")
    kinds = [type(event) for event in events]
    assert kinds.index(StagedDeal) > kinds.index(Trick)
    assert of_type(events, StagedDeal) == [StagedDeal(2, Suit.C)]
    assert all(len(match.hand_of(seat)) == 11 for seat in range(4))
    assert match.observe(0).undealt == (0, 0, 0, 0)
    assert winner_of_last_trick(match) == 2


def test_3_3_five_tricks_without_void_means_no_trump() -> None:
    script = block_hand(0, [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3], tens=(2, 2, 2, 2))
    match = Match("taash", 3)
    events = list(match.apply(script.deal()))
    events += act(match, script.plays[:20])
    assert of_type(events, StagedDeal) == [StagedDeal(5, None)]
    assert all(len(match.hand_of(seat)) == 8 for seat in range(4))
    events += act(match, script.plays[20:])
    # In trick 13 everybody but the leader is void, yet nobody sets trump: the lead wins.
    assert of_type(events, TrumpSet) == []
    result = last_result(match)
    assert result.trump is None
    assert result.tricks[-1].winner == result.tricks[-1].leader


def test_3_3_a_cut_in_the_fifth_trick_still_sets_trump() -> None:
    match = begin(
        "pagat-cut",
        {0: "AS KS AH KH AD", 1: "QS JS QH JH 2D", 2: "10S 9S 10H 9H 2C", 3: "8S 7S 8H 7H 3D"},
    )
    act(match, "AS QS 10S 8S KS JS 9S 7S AH QH 10H 8H KH JH 9H 7H")  # four tricks, all follow
    assert match.trump is None
    events = act(match, "AD 2D 2C 3D")  # seat 2 has no diamond in its five cards: clubs are trump
    assert of_type(events, TrumpSet)[0].suit is Suit.C
    assert of_type(events, StagedDeal) == [StagedDeal(5, Suit.C)]
    assert winner_of_last_trick(match) == 2


def test_3_3_a_player_who_runs_out_during_the_opening_tricks_cuts_and_the_rest_follows_that_trick() -> None:
    match = begin(
        "pagat-cut",
        {0: "AS KS QS JS 2D", 1: "10S 9S 8S 7S 3D", 2: "6S 5S 4S 3S 2C", 3: "2S AC KC QC 4D"},
        void={2: "D"},
    )
    act(match, "AS 10S 6S 2S")  # trick 1: all follow (seat 3 had one spade)
    assert match.trump is None
    events = act(match, "KS 9S 5S")
    events += act(match, "AC")  # seat 3 is now void in spades: clubs are trump
    assert match.trump is Suit.C
    assert of_type(events, StagedDeal) == [StagedDeal(2, Suit.C)]


# =============================================================================================
# 3.4 Band hukum (hidden trump); mendikot-band, seat 0 chooses


def test_3_4_chooser_is_dealer_plus_one_and_hides_one_of_its_13_cards() -> None:
    match = begin("mendikot-band", {0: "9S"})
    assert match.phase is Phase.HIDE and match.to_act == 0
    assert len(legal_texts(match)) == 13 and all(text.startswith("hide ") for text in legal_texts(match))
    act(match, "hide 9S")
    assert len(match.hand_of(0)) == 12
    assert match.observe(0).hidden_card == parse_card("9S")
    assert match.to_act == 0  # the chooser leads trick 1


def test_3_4_chooser_may_not_hide_a_card_it_does_not_hold() -> None:
    match = begin("mendikot-band", {1: "9S"})
    with pytest.raises(IllegalActionError) as caught:
        act(match, "hide 9S")
    assert "does not hold" in str(caught.value)


def test_3_4_no_trump_until_the_reveal() -> None:
    match = begin("mendikot-band", {0: "9S KH", 1: "AS", 2: "2H", 3: "3H"}, void={1: "H"})
    act(match, "hide 9S KH AS 2H 3H")  # seat 1 throws the ace of the hidden suit without asking
    assert match.trump is None
    assert winner_of_last_trick(match) == 0


def test_3_4_trump_suit_card_before_reveal_is_not_trump() -> None:
    # Seat 1 throws AS before anyone asks; seat 2 then asks, spades become trump, and seat 2's 3S wins.
    match = begin("mendikot-band", {0: "9S KH", 1: "AS", 2: "3S", 3: "AH"}, void={1: "H", 2: "H"})
    act(match, "hide 9S KH AS")
    events = act(match, "reveal")
    assert of_type(events, TrumpRevealed) == [TrumpRevealed(Suit.S, parse_card("9S"), 0, 2)]
    act(match, "3S AH")
    assert winner_of_last_trick(match) == 2


def test_3_4_a_reveal_with_no_trump_played_after_it_leaves_the_trick_to_the_suit_led() -> None:
    # Seat 1 throws the AS before the reveal; seat 2 asks but holds no spade; the KH still wins.
    match = begin("mendikot-band", {0: "9S KH", 1: "AS", 2: "4D", 3: "2H"}, void={1: "H", 2: "HS"})
    act(match, "hide 9S KH AS reveal 4D 2H")
    assert match.trump is Suit.S
    assert winner_of_last_trick(match) == 0


def test_3_4_reveal_makes_the_hidden_suit_trump_and_returns_the_card_to_the_chooser() -> None:
    match = begin("mendikot-band", {0: "9S KH", 2: "3S"}, void={1: "H", 2: "H"})
    act(match, "hide 9S KH")
    act(match, str(match.hand_of(1)[0]))
    act(match, "reveal")
    assert match.trump is Suit.S
    assert parse_card("9S") in match.hand_of(0)
    for seat in range(4):
        observation = match.observe(seat)
        assert observation.trump is Suit.S and not observation.trump_hidden
        assert observation.revealed_card == parse_card("9S")
        assert observation.hidden_card is None


def test_3_4_asker_must_play_trump() -> None:
    match = begin("mendikot-band", {0: "9S KH", 2: "3S 4D"}, void={1: "H", 2: "H"})
    act(match, "hide 9S KH")
    act(match, str(match.hand_of(1)[0]))  # seat 1 has no heart and throws a card without asking
    act(match, "reveal")
    assert suits_of(legal_texts(match)) == {"S"}
    with pytest.raises(IllegalActionError) as caught:
        act(match, "4D")
    assert "must play a trump" in str(caught.value)


def test_3_4_asker_without_a_trump_may_play_any_card() -> None:
    match = begin("mendikot-band", {0: "9S KH", 2: "4D"}, void={1: "H", 2: "HS"})
    act(match, "hide 9S KH")
    act(match, str(match.hand_of(1)[0]))
    act(match, "reveal")
    assert len(legal_texts(match)) == 13
    act(match, "4D")


def test_3_4_only_a_player_who_cannot_follow_may_ask() -> None:
    match = begin("mendikot-band", {0: "9S KH", 1: "2H"})
    act(match, "hide 9S KH")
    assert "reveal" not in legal_texts(match)
    with pytest.raises(IllegalActionError) as caught:
        match.apply(Reveal())
    assert "only a player who cannot follow hearts may ask" in str(caught.value)


def test_3_4_the_leader_may_not_ask() -> None:
    match = begin("mendikot-band", {0: "9S"})
    act(match, "hide 9S")
    with pytest.raises(IllegalActionError) as caught:
        match.apply(Reveal())
    assert "leader" in str(caught.value)


def test_3_4_a_void_player_may_ask_before_playing_but_need_not() -> None:
    match = begin("mendikot-band", {0: "9S KH"}, void={1: "H"})
    act(match, "hide 9S KH")
    assert legal_texts(match)[0] == "reveal"
    assert len(legal_texts(match)) == 14  # reveal, or any of its 13 cards


def test_3_4_no_second_reveal_once_the_trump_is_known() -> None:
    match = begin("mendikot-band", {0: "9S KH"}, void={1: "H", 2: "H"})
    act(match, "hide 9S KH reveal")
    act(match, str(match.legal_actions()[0]))
    assert "reveal" not in legal_texts(match)
    with pytest.raises(IllegalActionError) as caught:
        match.apply(Reveal())
    assert "already revealed" in str(caught.value)


def test_3_4_the_hidden_card_does_not_count_for_following_suit() -> None:
    # The chooser's only heart is the hidden 5H; when hearts are led it counts as void.
    match = begin("mendikot-band", {0: "5H 2C 6C", 1: "AC KH", 2: "3C QH", 3: "4C JH"}, void={0: "H"})
    act(match, "hide 5H 2C AC 3C 4C")  # seat 1 wins trick 1 and leads hearts
    act(match, "KH QH JH")
    legal = legal_texts(match)
    assert "reveal" in legal and "6C" in legal and "5H" not in legal
    with pytest.raises(IllegalActionError) as caught:
        act(match, "5H")
    assert "hidden trump card, still face down" in str(caught.value)


def test_3_4_chooser_may_ask_too_and_must_then_follow_with_the_returned_card() -> None:
    match = begin("mendikot-band", {0: "5H 2C 6C", 1: "AC KH", 2: "3C QH", 3: "4C JH"}, void={0: "H"})
    act(match, "hide 5H 2C AC 3C 4C KH QH JH")
    events = act(match, "reveal")
    assert of_type(events, TrumpRevealed) == [TrumpRevealed(Suit.H, parse_card("5H"), 0, 0)]
    assert legal_texts(match) == ["5H"]
    act(match, "5H")
    assert winner_of_last_trick(match) == 1  # hearts led and trump: the highest heart (KH) wins


def test_3_4_when_the_suit_led_turns_out_to_be_trump_the_highest_card_of_it_wins() -> None:
    # Spades led; AS played before the reveal still wins, as every spade there followed suit.
    match = begin("mendikot-band", {0: "9S 4S", 1: "AS", 2: "3D", 3: "KS"}, void={2: "S"})
    act(match, "hide 9S 4S AS reveal 3D KS")
    assert match.trump is Suit.S
    assert winner_of_last_trick(match) == 1


def test_3_4_chooser_with_only_hidden_card_plays_it_as_trump() -> None:
    # Block hand: seat 0 hides its two of spades; in trick 13 it holds nothing else.
    script = block_hand(0, [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 1], twos="SHDC")
    match = Match("mendikot-band", 3)
    match.apply(script.deal())
    act(match, ["hide 2S", *script.plays[:48]])
    assert match.hand_of(0) == [] and match.observe(0).hidden_card == parse_card("2S")
    events = act(match, "2H 2D")  # seat 1 leads, seat 2 discards without asking
    events += act(match, "2C")  # seat 3 discards; seat 0 must play and holds only the hidden card
    assert of_type(events, TrumpRevealed) == [TrumpRevealed(Suit.S, parse_card("2S"), 0, None)]
    assert legal_texts(match) == ["2S"]
    act(match, "2S")
    result = last_result(match)
    assert result.trump is Suit.S
    assert result.tricks[-1].winner == 0
    assert to_record(match)["hands"][0]["actions"][-1] == "2S"  # written as a card like any other


def test_3_4_forced_reveal_of_the_last_card_beats_a_higher_card_of_its_suit_played_before_it() -> None:
    # As above, but the chooser gives seat 2 the spade it would have played to trick 3 and takes seat 2's
    # 2D: in trick 3 the chooser has no spade but the hidden one, so it throws the 2D, and seat 2 keeps a
    # spade for trick 13.  There that spade comes before the reveal and is no trump; the 2S is, and wins.
    script = block_hand(0, [0, 1, 3, 3, 0, 1, 2, 3, 0, 1, 2, 1], twos="SHDC")
    hands = [cards.split() for cards in script.hands]
    plays = list(script.plays)
    spade = hands[0][2]  # the chooser's card for trick 3
    hands[0][2], hands[2][12] = "2D", spade
    plays[8 + plays[8:12].index(spade)] = "2D"
    plays[48 + plays[48:52].index("2D")] = spade
    match = Match("mendikot-band", 3)
    match.apply(deal(*[" ".join(cards) for cards in hands]))
    act(match, ["hide 2S", *plays[:48]])
    assert match.trump is None
    act(match, plays[48:52])
    trick = match.tricks[-1]
    assert [str(card) for card in trick.cards] == ["2H", spade, "2C", "2S"]
    assert trick.winner == 0


def test_3_4_after_someone_else_asks_a_chooser_who_gets_back_a_card_of_the_suit_led_must_follow() -> None:
    match = begin("mendikot-band", {0: "5H 2C 6C", 1: "AC KH", 2: "3C 4D", 3: "4C JH"}, void={0: "H", 2: "H"})
    act(match, "hide 5H 2C AC 3C 4C KH reveal 4D JH")  # seat 2 asks; the 5H goes back to seat 0
    assert legal_texts(match) == ["5H"]
    act(match, "5H")
    assert winner_of_last_trick(match) == 1


def test_3_4_auto_reveal_by_another_player_leaves_the_chooser_bound_to_follow_suit() -> None:
    match = begin("mendikot-band-auto", {0: "5H 2C 6C", 1: "AC KH", 2: "3C 4D", 3: "4C JH"}, void={0: "H", 2: "H"})
    events = act(match, "hide 5H 2C AC 3C 4C KH")  # seat 2 cannot follow: the 5H is turned up for it
    assert of_type(events, TrumpRevealed) == [TrumpRevealed(Suit.H, parse_card("5H"), 0, None)]
    act(match, "4D JH")
    assert legal_texts(match) == ["5H"]  # the free choice was seat 2's, not the chooser's


def test_3_4_auto_reveal_when_a_player_on_its_turn_cannot_follow() -> None:
    match = begin("mendikot-band-auto", {0: "9S KH", 1: "2H"}, void={2: "H"})
    act(match, "hide 9S KH")
    events = act(match, "2H")  # seat 2 is next and has no heart: the card is turned up at once
    assert of_type(events, TrumpRevealed) == [TrumpRevealed(Suit.S, parse_card("9S"), 0, None)]
    assert match.trump is Suit.S and match.to_act == 2


def test_3_4_auto_reveal_player_may_play_any_card() -> None:
    match = begin("mendikot-band-auto", {0: "9S KH", 1: "2H", 2: "3S 4D", 3: "AH"}, void={2: "H"})
    act(match, "hide 9S KH 2H")
    assert len(legal_texts(match)) == 13  # trumps or not, any card
    act(match, "4D AH")
    assert winner_of_last_trick(match) == 3


def test_3_4_auto_reveal_chooser_may_play_any_card_even_if_the_returned_card_is_of_the_suit_led() -> None:
    match = begin("mendikot-band-auto", {0: "5H 2C 6C", 1: "AC KH", 2: "3C QH", 3: "4C JH"}, void={0: "H"})
    act(match, "hide 5H 2C AC 3C 4C KH QH")
    events = act(match, "JH")
    assert of_type(events, TrumpRevealed) == [TrumpRevealed(Suit.H, parse_card("5H"), 0, None)]
    legal = legal_texts(match)
    assert "5H" in legal and "6C" in legal and len(legal) == 12
    act(match, "6C")
    assert winner_of_last_trick(match) == 1


def test_3_4_auto_reveal_is_never_asked_for() -> None:
    match = begin("mendikot-band-auto", {0: "9S KH"}, void={1: "H"})
    act(match, "hide 9S KH")
    assert "reveal" not in legal_texts(match)
    with pytest.raises(IllegalActionError) as caught:
        match.apply(Reveal())
    assert "automatically" in str(caught.value)


def test_3_4_auto_reveal_is_not_written_in_the_record() -> None:
    match = begin("mendikot-band-auto", {0: "9S KH", 1: "2H"}, void={2: "H"})
    act(match, "hide 9S KH 2H")
    finish_hand(match)
    actions = to_record(match)["hands"][0]["actions"]
    assert "reveal" not in actions
    assert replay(to_record(match)).results == match.results


def test_3_4_the_revealed_card_is_later_played_as_an_ordinary_trump() -> None:
    match = begin("mendikot-band", {0: "9S KH", 1: "AD AC", 2: "3S 5C", 3: "AH 6C"}, void={0: "C", 1: "H", 2: "H"})
    act(match, "hide 9S KH AD reveal 3S AH")  # seat 2 asks and trumps with the 3S
    assert winner_of_last_trick(match) == 2
    act(match, "5C 6C 9S AC")  # the chooser has no club and trumps with the card it got back
    assert winner_of_last_trick(match) == 0


# =============================================================================================
# 3.5 Open draw


def test_3_5_open_draw_card_sets_trump_before_play() -> None:
    match = Match("mendikot-open", 1)
    events = match.apply(match.random_deal(random.Random(9)))
    drawn = match.observe(3).open_draw
    assert drawn is not None
    assert match.trump is drawn.suit
    assert of_type(events, TrumpSet) == [TrumpSet(drawn.suit, 2, "open_draw", drawn)]


def test_3_5_the_drawn_card_goes_back_into_the_pack_and_is_dealt() -> None:
    match = Match("mendikot-open", 1)
    match.apply(match.random_deal(random.Random(9)))
    drawn = match.observe(0).open_draw
    assert any(drawn in match.hand_of(seat) for seat in range(4))


def test_3_5_every_seat_sees_the_drawn_card() -> None:
    match = begin("mendikot-open", {}, open_draw="QD")
    assert {str(match.observe(seat).open_draw) for seat in range(4)} == {"QD"}


# =============================================================================================
# 3.6 Hand result, Pagat rules


def test_3_6_trick_counts_never_matter_in_pagat() -> None:
    # Seats 1 and 3 win eight tricks in turn but never two in a row, so those tricks wait in the centre and
    # seat 2 (tricks 7-8) and seat 0 (trick 13) collect them: team 0 has three tens with five tricks.
    winners = [0, 0, 1, 3, 1, 3, 2, 2, 1, 1, 3, 1]
    script = block_hand(0, winners, tens=(0, 0, 2, 1), twos="SHDC")
    match, _ = play_scripted("pagat", 3, script, before="call S")
    result = last_result(match)
    assert result.tricks_won == (5, 8)
    assert result.tens == (3, 1)
    assert result.winner == 0


def test_3_6_a_hand_earns_at_most_one_kot() -> None:
    match = Match({"preset": "pagat", "target": 3}, 3)
    for _ in range(6):
        play_pagat_hand(match, team=0)
    result = play_pagat_hand(match, team=0, tens=4)  # the seventh win in a row, with all four tens
    assert result.kot and result.sweep
    assert match.score == (1, 0)


def test_3_6_a_win_by_the_other_team_starts_its_own_streak_at_one() -> None:
    match = Match("pagat", 3)
    assert play_pagat_hand(match, team=0).streak == (1, 0)
    assert play_pagat_hand(match, team=0).streak == (2, 0)
    assert play_pagat_hand(match, team=1).streak == (0, 1)
    assert play_pagat_hand(match, team=0).streak == (1, 0)


def test_3_6_after_a_four_tens_kot_both_streaks_restart() -> None:
    match = Match({"preset": "pagat", "target": 2}, 3)
    play_pagat_hand(match, team=1)
    result = play_pagat_hand(match, team=0, tens=4)
    assert result.kot and result.streak == (0, 0)
    assert play_pagat_hand(match, team=0).streak == (1, 0)


def test_3_6_after_a_seven_in_a_row_kot_both_streaks_restart() -> None:
    match = Match({"preset": "pagat", "target": 2}, 3)
    for _ in range(7):
        result = play_pagat_hand(match, team=1)
    assert result.kot and result.streak == (0, 0) and match.score == (0, 1)
    assert play_pagat_hand(match, team=1).streak == (0, 1)


def test_3_6_a_kot_does_not_count_twice_and_a_streak_of_six_is_no_kot() -> None:
    match = Match({"preset": "pagat", "target": 2}, 3)
    for _ in range(6):
        result = play_pagat_hand(match, team=0)
    assert not result.kot and match.score == (0, 0) and result.streak == (6, 0)


# =============================================================================================
# 3.7 Taash ends a hand early


TAASH_THREE_ONE = [1, 3, 1, 0, 3, 1, 0, 1, 3, 0, 3, 1]  # team 0 takes the tens of H (4), D (7), C (10)


def test_3_7_taash_ends_early_when_settled() -> None:
    match, events = play_scripted("taash", 3, block_hand(0, TAASH_THREE_ONE))
    result = last_result(match)
    assert result.ended_early and len(result.tricks) == 10
    assert of_type(events, HandEnded) == [HandEnded(True, 10)]
    assert (result.tens, result.winner, result.points) == ((3, 1), 0, (30, 0))
    assert match.is_chance and match.legal_actions() == ()


def test_3_7_no_early_end_while_a_ten_is_not_yet_collected() -> None:
    script = block_hand(0, [0, 2, 0, 0, 2, 0, 0, 2, 0, 1, 3, 1])  # team 0 has three tens after trick 7
    match = Match("taash", 3)
    match.apply(script.deal())
    act(match, script.plays[:36])
    assert match.observe(0).tens == (3, 0)
    assert match.phase is Phase.PLAY  # 4-0 (80) or 3-1 (30) still open
    act(match, script.plays[36:40])
    assert last_result(match).ended_early and len(match.tricks) == 10


def test_3_7_two_two_ends_when_a_team_reaches_seven_tricks() -> None:
    # Tens: S (1) and D (7) to team 1, H (4) and C (10) to team 0; after 10 tricks team 1 has 6.
    winners = [1, 3, 0, 0, 1, 3, 1, 0, 3, 2, 3, 0]
    script = block_hand(0, winners)
    match = Match("taash", 3)
    match.apply(script.deal())
    act(match, script.plays[:40])
    assert match.observe(0).tens == (2, 2) and match.observe(0).tricks_won == (4, 6)
    assert match.phase is Phase.PLAY
    act(match, script.plays[40:44])  # trick 11 to seat 3: seven tricks for team 1
    result = last_result(match)
    assert result.ended_early and len(result.tricks) == 11
    assert (result.winner, result.points) == (1, (0, 20))


def test_3_7_tens_still_in_the_centre_are_not_collected_yet() -> None:
    # taash-b2b: seat 0 wins trick 10 (ten of clubs) alone, so that ten waits in the centre.
    winners = [0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 2, 2]
    script = block_hand(0, winners, tens=(0, 0, 0, 0))
    match = Match("taash-b2b", 3)
    match.apply(script.deal())
    act(match, script.plays[:40])
    observation = match.observe(0)
    assert observation.tens == (2, 1) and observation.centre_tens == 1
    assert match.phase is Phase.PLAY
    act(match, script.plays[40:48])  # seat 2 wins 11 and 12: team 0 collects the ten of clubs
    result = last_result(match)
    assert result.tens == (3, 1)
    assert result.ended_early and len(result.tricks) == 12


def test_3_7_a_hand_that_ended_early_is_never_a_whitewash() -> None:
    match, _ = play_scripted("taash", 3, block_hand(0, [0, 2] * 6))
    result = last_result(match)
    assert result.ended_early and result.tricks_won == (10, 0)
    assert not result.whitewash and result.sweep


def test_3_7_no_action_is_allowed_after_the_early_end() -> None:
    script = block_hand(0, TAASH_THREE_ONE)
    match, _ = play_scripted("taash", 3, script)
    with pytest.raises(IllegalActionError):
        act(match, script.plays[40])


def test_3_7_mendikot_always_plays_all_thirteen_tricks() -> None:
    match, _ = play_scripted("mendikot", 3, block_hand(0, [0, 2] * 6))
    result = last_result(match)
    assert not result.ended_early and len(result.tricks) == 13


def test_3_7_pagat_never_ends_early() -> None:
    match, _ = play_scripted("pagat", 3, block_hand(0, [0, 0] * 6), before="call S")
    assert len(last_result(match).tricks) == 13


# =============================================================================================
# 3.8 First dealer


class _ScriptedDraws(random.Random):
    """A random source whose card draws for the first dealer are given in advance."""

    def __init__(self, draws: list[list[str]]) -> None:
        super().__init__(0)
        self.draws = [[int(parse_card(text)) for text in draw] for draw in draws]

    def sample(self, population: object, k: int, **_: object) -> list[int]:  # type: ignore[override]
        draw = self.draws.pop(0)
        assert len(draw) == k
        return draw


def test_3_8_first_dealer_by_lot_the_highest_card_deals() -> None:
    assert draw_first_dealer(4, _ScriptedDraws([["3S", "KH", "AD", "10C"]])) == 2


def test_3_8_first_dealer_by_lot_ties_redraw() -> None:
    rng = _ScriptedDraws([["AS", "KH", "AD", "2C"], ["5S", "9C"]])
    assert draw_first_dealer(4, rng) == 2  # seats 0 and 2 tie on aces; seat 2 draws higher


def test_3_8_first_dealer_by_lot_is_reproducible_from_the_seed_and_any_seat_can_deal() -> None:
    for players, name in ((4, "pagat"), (6, "mendikot-6"), (8, "mendikot-8")):
        dealers = {Match.new(name, seed).dealer for seed in range(200)}
        assert dealers == set(range(players))
    assert Match.new("taash", 17).dealer == Match.new("taash", 17).dealer


def test_3_8_a_record_may_simply_state_the_first_dealer() -> None:
    match = Match("mendikot", 2)
    match.apply(match.random_deal(random.Random(1)))
    finish_hand(match)
    record = to_record(match)
    assert record["first_dealer"] == 2
    assert replay(record).results[0].dealer == 2
