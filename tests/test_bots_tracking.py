"""Card tracking from an observation: seen and unseen cards, voids, band-hukum and staged-deal exceptions, sampling."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from tests.helpers import position

from dehla import Match, parse_action, parse_cards
from dehla.bots.tracking import CardTracker, _Placements
from dehla.cards import SUIT_MASKS, Suit, mask_of, parse_card
from dehla.engine.actions import REVEAL
from dehla.engine.events import Trick
from dehla.engine.tricks import NOT_YET, trick_winner
from dehla.rules import PRESETS

S, H, D, C = Suit.S, Suit.H, Suit.D, Suit.C


def tracker(match: Match, seat: int) -> CardTracker:
    return CardTracker(match.observe(seat))


def void_suits(track: CardTracker, seat: int) -> set[Suit]:
    return {suit for suit in Suit if track.voids[seat] >> suit & 1}


# Everyone follows to trick 1 (clubs, won by seat 1's ace); in trick 2 seat 2 shows out of diamonds and cuts.
PLAIN = [
    "2C 3C 4C 2S 3S 4S 5S 2H 3H 4H 5H 6H 7H",
    "AC KC 10D 4D 5D 6D 8H 9H 6S 7S 8S 9S 2D",
    "5C 6C 7C 8C 10C JC QC 10S JS QS 10H JH QH",
    "9C 3D 7D 8D 9D JD QD KD AD KH AH KS AS",
]
PLAIN_PLAYS = "2C AC 5C 9C 10D 10S 3D"


def test_a_player_who_shows_out_is_void_in_the_suit_led() -> None:
    match = position("mendikot", 3, PLAIN, PLAIN_PLAYS)
    track = tracker(match, 3)
    assert void_suits(track, 2) == {D}
    assert void_suits(track, 0) == set() and void_suits(track, 1) == set()
    assert track.voids[3] == 0  # nothing is inferred about oneself
    assert track.is_void(2, D) and not track.is_void(2, S)
    assert track.p_void(2, D) == 1.0 and track.p_card(2, parse_card("7D")) == 0.0


def test_seen_and_unseen_cards() -> None:
    match = position("mendikot", 3, PLAIN, PLAIN_PLAYS)
    track = tracker(match, 3)
    played = mask_of(parse_cards(PLAIN_PLAYS))
    assert track.played == played
    assert track.own == mask_of(match.hand_of(3))
    assert track.unseen == ((1 << 52) - 1) & ~played & ~track.own
    assert track.unseen.bit_count() == track.slots_total() == 52 - 7 - 11
    assert track.outstanding(D) & mask_of(parse_cards("3D 10D 7D")) == 0  # played or mine


def test_expected_counts_respect_voids_and_hand_sizes() -> None:
    match = position("mendikot", 3, PLAIN, PLAIN_PLAYS)
    track = tracker(match, 3)
    table = track.expected()
    assert table[D][2] == 0.0
    for suit in Suit:
        assert sum(table[suit]) == pytest.approx((track.unseen & SUIT_MASKS[suit]).bit_count(), abs=0.05)
    for seat in range(3):
        assert sum(table[suit][seat] for suit in Suit) == pytest.approx(track.hand_slots[seat], abs=0.05)
    # Seat 2 cannot hold diamonds, so the other two share all unseen diamonds.
    assert track.p_any(0, SUIT_MASKS[D]) > 0.8


def test_current_trick_winner_with_cut_trump() -> None:
    """Katte: the first off-suit card sets trump and wins; a later void player may overtrump."""
    match = position("mendikot", 3, PLAIN, PLAIN_PLAYS)
    observation = match.observe(3)
    cards = [card for _seat, card in observation.trick]
    assert observation.trump is S
    assert trick_winner(cards, S, 0) == 1
    assert trick_winner([*cards, parse_card("AS")], S, 0) == 3
    assert trick_winner([*cards, parse_card("AD")], S, 0) == 1


# Band hukum: seat 0 (dealer 3 + 1) chooses; it holds no diamonds and six hearts.
BAND = [
    "2H 3H 4H 5H 6H 7H 2C 3C 4C 2S 3S 4S 5S",
    "AC KC QC 10D 4D 5D 6D 8H 9H 6S 7S 8S 9S",
    "5C 6C 7C 8C 2D 7D 8D 9D 10H JH 10S JS QS",
    "9C 10C JC 3D JD QD KD AD QH KH AH KS AS",
]


def test_band_hukum_hidden_card_does_not_count_for_following() -> None:
    """The chooser shows out of diamonds: void in its hand, but the face-down card may still be a diamond."""
    match = position("mendikot-band", 3, BAND, "hide 7H 2C AC 5C 9C 4D 2D 3D 2S")
    track = tracker(match, 1)
    assert void_suits(track, 0) == {D}
    assert track.hidden_holder == 0
    assert track.unseen >> parse_card("7H") & 1  # the hidden card is unseen by seat 1
    assert track.slots_total() == track.unseen.bit_count()
    # The chooser itself knows its card: nothing hidden is unseen to it.
    own = tracker(match, 0)
    assert own.hidden_holder is None and own.private_trump is H
    assert not own.unseen >> parse_card("7H") & 1
    # Samples may put a diamond in the hidden slot but never in the chooser's hand.
    rng = random.Random(3)
    hidden_suits = set()
    for _ in range(200):
        sample = track.sample(rng)
        assert not sample.hands[0] & SUIT_MASKS[D]
        assert sample.hidden is not None
        hidden_suits.add(sample.hidden // 13)
    assert D in hidden_suits


def test_band_hukum_reveal_puts_the_known_card_back_and_the_asker_must_trump() -> None:
    """Seat 0 asks; trump is hearts; the 7H goes back to it (known to all) and counts from its play on."""
    match = position("mendikot-band", 3, BAND, "hide 7H 2C AC 5C 9C 10D 2D 3D")
    match.apply(REVEAL)
    track = tracker(match, 2)
    assert track.known_held[0] == 1 << parse_card("7H")
    assert track.trump_from == 3 and track.reveal_asker == 0
    assert track.p_card(0, parse_card("7H")) == 1.0
    assert not track.is_void(0, H)
    match.apply(parse_action("2H"))  # the asker trumps
    track = tracker(match, 2)
    assert void_suits(track, 0) == {D}


def test_band_hukum_asker_that_plays_no_trump_is_void_in_trump() -> None:
    """Seat 2 cannot follow spades and asks; trump is hearts and it plays a club: it holds no hearts either."""
    hands = [
        "2H 3H 4H 5H 6H 7H 2C 3C 4C 2S 3S 4S 5S",
        "AC KC QC 10D 4D 5D 6D 8H 9H 6S 7S 8S 9S",
        "5C 6C 7C 8C 10C JC 2D 3D 7D 8D 9D JD QD",
        "9C 10H JH QH KH AH 10S JS QS KS AS KD AD",
    ]
    match = position("mendikot-band", 3, hands, "hide 7H 2S 6S reveal")
    assert match.observe(2).trump is H
    match.apply(parse_action("5C"))
    track = tracker(match, 3)
    assert void_suits(track, 2) == {S, H}
    assert track.reveal_asker == 2 and track.trump_from == 2


def test_band_hukum_chooser_that_asks_and_follows_with_its_own_card_is_void_in_the_suit_led() -> None:
    """Hearts led; the chooser holds no heart but the 7H it hid, asks, and follows with it: no heart is left to it."""
    hands = [
        "7H 2C 3C 4C 2S 3S 4S 5S 6S 2D 3D 4D 5D",
        "AC KC QC 10D 6D 7D 8D 8H 9H 7S 8S 9S 10S",
        "5C 6C 7C 8C 9D JD QD 2H 3H 4H JS QS KS",
        "AS 5H 6H 10H JH QH KH AH KD AD 9C 10C JC",
    ]
    match = position("mendikot-band", 3, hands, "hide 7H 2C AC 5C 9C 8H 2H 5H")
    match.apply(REVEAL)
    match.apply(parse_action("7H"))
    track = tracker(match, 2)
    assert track.reveal_asker == 0
    assert void_suits(track, 0) == {H}
    assert track.p_card(0, parse_card("10H")) == 0.0
    rng = random.Random(5)
    assert all(not track.sample(rng).hands[0] & SUIT_MASKS[H] for _ in range(200))


def test_band_hukum_auto_reveal_free_play_still_shows_the_void() -> None:
    """hidden_auto: seat 0 cannot follow diamonds, the card is turned up, it may then play anything."""
    match = position("mendikot-band-auto", 3, BAND, "hide 7H 2C AC 5C 9C 10D 2D 3D")
    observation = match.observe(0)
    assert not observation.trump_hidden and observation.trump is H
    assert len(observation.legal_actions) == len(observation.hand)  # free play
    track = CardTracker(observation)
    assert track.trump_from == 3  # trumps count from seat 0's card on
    match.apply(parse_action("3C"))  # it discards a club instead of trumping
    track = tracker(match, 2)
    assert D in void_suits(track, 0)
    assert track.known_held[0] == 1 << parse_card("7H")
    assert track.reveal_at == 7  # the eighth card of the hand was the first after the reveal


def test_staged_deal_voids_are_forgotten_once_the_rest_is_dealt() -> None:
    """pagat-cut: seat 1 cuts trick 1 holding five cards; after the other eight arrive that says nothing."""
    hands = [
        "2C 3C 4C 5C 6C 2S 3S 4S 5S 2H 3H 4H 5H",
        "AH KH QH JH 10H 7C 8C 9C 10C JC QC KC AC",
        "7S 8S 9S 10S JS QS KS AS 6H 7H 8H 9H 2D",
        "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 6S",
    ]
    match = position("pagat-cut", 3, hands, "2C AH")
    seen_during = tracker(match, 2)
    assert void_suits(seen_during, 1) == {C}
    assert seen_during.unseen.bit_count() == seen_during.slots_total()
    assert seen_during.pending_slots == [8, 8, 8, 8]
    # The observer's own undealt cards are unknown to it as well.
    assert seen_during.unseen >> parse_card("AS") & 1
    match.apply(parse_action("7S"))
    match.apply(parse_action("3D"))
    assert not any(match.observe(0).undealt)
    seen_after = tracker(match, 2)
    assert seen_after.voids[1] == 0
    assert seen_after.staged_done and not seen_after.cut_open


def test_staged_deal_without_a_cut_means_no_trump() -> None:
    """Five tricks with everyone following: the rest is dealt and the hand has no trump, nobody can cut."""
    hands = [
        "2C 3C 4C 2S 3S AC 10S JS QS KS AS 2H 3H",
        "5C 6C 7C 4S 5S 4H 5H 6H 7H 8H 9H 10H JH",
        "8C 9C 10C 6S 7S QH KH AH 2D 3D 4D 5D 6D",
        "JC QC KC 8S 9S 7D 8D 9D 10D JD QD KD AD",
    ]
    plays = "2C 5C 8C JC QC 3C 6C 9C KC 4C 7C 10C 8S 2S 4S 6S 9S 3S 5S 7S"
    match = position("pagat-cut", 3, hands, plays)
    observation = match.observe(3)
    assert observation.trump is None and not any(observation.undealt)
    track = CardTracker(observation)
    assert track.staged_done and not track.cut_open
    assert track.voids == [0, 0, 0, 0]
    assert track.unseen.bit_count() == track.slots_total() == 24


@pytest.mark.parametrize("rules", list(PRESETS), ids=str)
def test_inferences_hold_in_random_play(rules: str) -> None:
    """Every void is true, known cards are held, slots match unseen cards, samples fit, trump_from agrees."""
    rng = random.Random(rules)
    for _game in range(6):
        match = Match.new(rules, rng)
        while not match.is_over and len(match.results) < 2:
            if match.is_chance:
                match.apply(match.random_deal(rng))
                continue
            for seat in range(match.players):
                track = CardTracker(match.observe(seat))
                assert track.unseen.bit_count() == track.slots_total()
                for other in range(match.players):
                    if other == seat:
                        continue
                    hand = mask_of(match.hand_of(other))
                    assert track.known_held[other] & ~hand == 0
                    for suit in Suit:
                        if track.voids[other] >> suit & 1:
                            assert not hand & SUIT_MASKS[suit] & ~track.known_held[other]
                if seat == match.to_act:
                    sample = track.sample(rng)
                    for other in range(match.players):
                        if other != seat:
                            assert sample.hands[other].bit_count() == match.observe(seat).hand_sizes[other]
                            for suit in Suit:
                                if track.voids[other] >> suit & 1:
                                    assert not sample.hands[other] & SUIT_MASKS[suit] & ~track.known_held[other]
                    state = match.hand_state()
                    if state.trick and state.trump is not None and state.trump_from < NOT_YET:
                        assert track.trump_from == state.trump_from or match.rules.trump == "cut"
            match.apply(rng.choice(match.legal_actions()))


def test_trick_winner_agrees_with_the_engine() -> None:
    """Before each trick's last card, the public rule applied to the finished trick picks the engine's winner."""
    for rules in ("pagat", "mendikot", "mendikot-band", "mendikot-band-auto", "taash", "mendikot-8"):
        rng = random.Random(rules)
        match = Match.new(rules, rng)
        checked = 0
        while not match.is_over and checked < 80:
            if match.is_chance:
                match.apply(match.random_deal(rng))
                continue
            seat = match.to_act
            assert seat is not None
            before = CardTracker(match.observe(seat))
            last_card = len(match.current_trick) == match.players - 1
            action = rng.choice(match.legal_actions())
            events = match.apply(action)
            if not last_card or action == REVEAL:
                continue
            trick = next(event for event in events if isinstance(event, Trick))
            cards = list(trick.cards)
            if before.trump is not None:
                trump, trump_from = int(before.trump), before.trump_from
            elif match.trump is not None and not before.hidden_open:
                trump, trump_from = int(match.trump), len(cards) - 1  # the last card cut
            else:
                trump, trump_from = None, 0
            index = trick_winner(cards, trump, trump_from)
            assert (trick.leader + index) % match.players == trick.winner
            checked += 1


def test_deals_enumerates_every_consistent_placement_late_in_a_hand() -> None:
    for seed in range(20):
        rng = random.Random(seed)
        match = Match.new("mendikot", rng)
        match.apply(match.random_deal(rng))
        while match.results == [] and not (match.to_act == 0 and len(match.hand_of(0)) == 2):
            match.apply(rng.choice(match.legal_actions()))
        if match.results:
            continue  # the hand ended another way; try the next seed
        track = tracker(match, 0)
        deals = track.deals(500, rng)
        assert 1 <= len(deals) <= 90
        truth = tuple(mask_of(match.hand_of(seat)) for seat in range(4))
        assert truth in [deal.hands for deal in deals]
        assert len({deal.hands for deal in deals}) == len(deals)
        return
    raise AssertionError("no position found")  # pragma: no cover


def _constrained_position(seed: int) -> CardTracker:
    """Seat 0's tracker with four cards a hand left, after random pagat play (seed 57: three seats void in a suit)."""
    rng = random.Random(seed)
    match = Match.new("pagat", rng)
    match.apply(match.random_deal(rng))
    while not (match.to_act == 0 and len(match.hand_of(0)) == 4):
        match.apply(rng.choice(match.legal_actions()))
    return tracker(match, 0)


def _distance_from_uniform(
    placements: list[tuple[int, ...]], draw: Callable[[random.Random], tuple[int, ...]], draws: int
) -> float:
    """Total variation distance between ``draws`` draws and the uniform spread over ``placements``."""
    rng = random.Random(1)
    counts = Counter(draw(rng) for _ in range(draws))
    assert set(counts) <= set(placements)
    return 0.5 * sum(abs(counts[hands] / draws - 1 / len(placements)) for hands in placements)


def test_samples_are_uniform_over_every_consistent_placement() -> None:
    track = _constrained_position(57)
    assert sum(1 for seat in (1, 2, 3) if track.voids[seat]) == 3
    placements = [deal.hands for deal in track.deals(10_000, random.Random(0))]
    assert len(placements) == 245
    # 20,000 draws spread over 245 placements: a uniform sampler lands about 0.04 from uniform, the greedy pass 0.23.
    exact = _distance_from_uniform(placements, lambda rng: track.sample(rng).hands, 20_000)
    greedy = _distance_from_uniform(placements, lambda rng: track.sample(rng, exact=False).hands, 20_000)
    assert exact < 0.06
    assert greedy > 0.15


def test_sampling_falls_back_to_the_greedy_pass_when_counting_takes_too_long(monkeypatch: pytest.MonkeyPatch) -> None:
    track = _constrained_position(57)
    monkeypatch.setattr(_Placements, "LIMIT", 3)
    for seed in range(50):
        sample = track.sample(random.Random(seed))
        for seat in (1, 2, 3):
            assert not sample.hands[seat] & track.unseen & _void_mask(track.voids[seat])
            assert sample.hands[seat].bit_count() == track.hand_slots[seat] + track.known_held[seat].bit_count()
    assert track._placements is not None and track._placements.total == 0


def _void_mask(voids: int) -> int:
    return sum(SUIT_MASKS[suit] for suit in range(4) if voids >> suit & 1)
