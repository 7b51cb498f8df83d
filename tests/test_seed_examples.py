"""The worked examples of the seed texts, played through the engine.

Seed 000 section 8 (seed 004 is the same text in Spanish) names the players A,
B, C, D in order of play; A leads, so A is seat 0 and seat 3 deals.  A and C
(seats 0 and 2) are partners.
"""

from __future__ import annotations

from tests.helpers import act, begin, block_hand, finish_hand, of_type
from tests.oracle.spec_oracle import replay_record

from dehla import Match, Suit
from dehla.engine.events import CentreCollected, StagedDeal, TrumpSet
from dehla.record import replay, replay_json, to_record

A, B, C, D = 0, 1, 2, 3


def _seed_000_match() -> Match:
    """Diamonds trump; A holds AH AS 4S, B 10H QS, C 3H 2S KS, D 7H 10S."""
    return begin("pagat", {A: "AH AS 4S", B: "10H QS", C: "3H 2S KS", D: "7H 10S"})


def test_seed_000_a_wins_the_first_trick_and_the_four_cards_stay_in_the_centre() -> None:
    match = _seed_000_match()
    events = act(match, "call D")
    assert of_type(events, TrumpSet)[0].suit is Suit.D
    assert match.to_act == A  # the trump maker leads
    events = act(match, "AH 10H 3H 7H")
    trick = match.tricks[-1]
    assert trick.winner == A
    assert trick.collected_by is None
    assert of_type(events, CentreCollected) == []
    observation = match.observe(C)
    assert len(observation.centre) == 4
    assert observation.tens == (0, 0)


def test_seed_000_a_wins_again_and_collects_eight_cards_and_both_tens_for_ac() -> None:
    match = _seed_000_match()
    act(match, "call D AH 10H 3H 7H")
    events = act(match, "AS QS 2S 10S")
    trick = match.tricks[-1]
    assert trick.winner == A and trick.collected_by == A
    [collection] = of_type(events, CentreCollected)
    assert (collection.seat, collection.team, len(collection.cards), collection.tens) == (A, 0, 8, 2)
    assert {str(card) for card in collection.cards} == {"AH", "10H", "3H", "7H", "AS", "QS", "2S", "10S"}
    observation = match.observe(B)
    assert observation.tens == (2, 0)
    assert observation.centre == ()
    assert len(observation.captured[0]) == 8


def test_seed_000_had_partner_c_won_the_second_trick_the_centre_would_stay_common() -> None:
    match = _seed_000_match()
    act(match, "call D AH 10H 3H 7H")
    events = act(match, "4S QS KS 10S")  # C's king wins the second trick
    trick = match.tricks[-1]
    assert trick.winner == C
    assert trick.collected_by is None
    assert of_type(events, CentreCollected) == []
    observation = match.observe(A)
    assert len(observation.centre) == 8 and observation.centre_tens == 2
    assert observation.tens == (0, 0)


def test_seed_000_worked_example_replays_the_same_in_the_oracle() -> None:
    match = _seed_000_match()
    act(match, "call D AH 10H 3H 7H AS QS 2S 10S")
    finish_hand(match)
    record = to_record(match)
    ours = replay_json(replay(record))
    theirs = replay_record(record)
    assert (
        ours["hands"][0]["tricks"][:2]
        == theirs["hands"][0]["tricks"][:2]
        == [
            {"leader": 0, "cards": ["AH", "10H", "3H", "7H"], "winner": 0, "collected_by": None},
            {"leader": 0, "cards": ["AS", "QS", "2S", "10S"], "winner": 0, "collected_by": 0},
        ]
    )


def test_seed_001_four_different_winners_leave_16_cards_and_two_tens_then_partner_takes_24() -> None:
    # Tricks 1-4 are won by seats 1, 2, 3, 0 (the tens of spades and hearts among them); partner C
    # (seat 2) wins tricks 5 and 6 and takes all 24 cards.  Pagat-cut: nobody is void in the opening
    # five cards, so the rest are dealt after trick 5 and the hand is played without trump.
    script = block_hand(A, [B, C, D, A, C, C, 0, 1, 2, 3, 0, 1], tens=(0, 0, 0, 0))
    match = Match("pagat-cut", D)
    match.apply(script.deal())
    events = act(match, script.plays[:16])
    assert [trick.winner for trick in match.tricks] == [B, C, D, A]
    assert all(trick.collected_by is None for trick in match.tricks)
    observation = match.observe(A)
    assert len(observation.centre) == 16 and observation.centre_tens == 2
    events = act(match, script.plays[16:20])  # trick 5 to C
    assert match.tricks[-1].collected_by is None
    assert of_type(events, StagedDeal) == [StagedDeal(5, None)]
    events = act(match, script.plays[20:24])  # trick 6 to C again
    [collection] = of_type(events, CentreCollected)
    assert (collection.seat, collection.team, len(collection.cards), collection.tens) == (C, 0, 24, 2)
    assert match.observe(B).tens == (2, 0)


def test_seed_001_example_under_called_trump_too() -> None:
    script = block_hand(A, [B, C, D, A, C, C, 0, 1, 2, 3, 0, 1], tens=(0, 0, 0, 0))
    match = Match("pagat", D)
    match.apply(script.deal())
    events = act(match, ["call C", *script.plays[:24]])
    [collection] = of_type(events, CentreCollected)
    assert (collection.seat, len(collection.cards), collection.tens) == (C, 24, 2)


def test_seed_003_the_lone_trump_2s_wins_and_the_ten_goes_to_the_third_players_team() -> None:
    # Taash: the lead 4H, the next player 10H, the third is void in hearts and cuts with the 2S,
    # the fourth plays the KH.  The 2S sets spades as trump and wins the trick.
    match = begin("taash", {A: "4H", B: "10H", C: "2S", D: "KH"}, void={C: "H"})
    events = act(match, "4H 10H 2S KH")
    assert of_type(events, TrumpSet)[0].suit is Suit.S
    trick = match.tricks[-1]
    assert trick.winner == C
    assert trick.collected_by == C
    observation = match.observe(B)
    assert observation.tens == (1, 0)  # captured by the third player's team, not the team that played it
    assert {str(card) for card in observation.captured[0]} == {"4H", "10H", "2S", "KH"}


def test_seed_003_with_spades_already_trump_the_lone_trump_still_wins() -> None:
    # Spades became trump in trick 1 (D cut with the 3S); D then leads the 4H, A plays the 10H,
    # B has no heart and trumps with the 2S, C plays the KH: B wins and the ten goes to B's team.
    match = begin("taash", {A: "AD 10H", B: "KD 2S", C: "QD KH", D: "3S 4H"}, void={B: "H", D: "D"})
    act(match, "AD KD QD 3S")
    assert match.trump is Suit.S and match.to_act == D
    act(match, "4H 10H 2S KH")
    assert match.tricks[-1].winner == B
    assert match.observe(A).tens == (0, 1)
