"""A hint's reasons in words (issue 38): each reason on a position built for it, and every reason given over random
positions of every preset checked true on the real cards through the engine.

The deal below (``mendikot-open``, dealer seat 4, so seat 1 leads; the drawn 7S makes spades trump) is written
so that each reason comes up in its first tricks.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.helpers import ALL_RULES, position, rules_id

from dehla import Match
from dehla.bots import make_bot
from dehla.cards import SUIT_MASKS, Card, mask_of, parse_card
from dehla.engine.actions import Call, Hide, Play, parse_action
from dehla.engine.events import CentreCollected, Event, Trick, TrumpSet
from dehla.engine.state import Phase
from dehla.play.hints import HINT_TEMPLATES, hint_of, hint_words, web_words
from dehla.play.reasons import REASON_TEMPLATES, Reason, reason_text, reasons_for
from dehla.terminal.words import hint_note

HANDS = [
    "AH KH 7H 2H AC 9C 3S 4S 2D 3D 4D 5D 6D",
    "QH JH 3H KC QC 2C 7S 8S 7D 8D 9D 10D JD",
    "9H 8H 4H JC 10C 3C 4C 5C 9S AS QD KD AD",
    "10H 6H 5H 8C 7C 6C JS QS KS 10S 2S 5S 6S",
]


def _open(actions: str = "", rules: str = "mendikot-open") -> Match:
    return position(rules, 3, HANDS, actions, open_draw="7S" if rules == "mendikot-open" else None)


def _reasons(match: Match, action: str) -> list[tuple[str, dict[str, int | str]]]:
    seat = match.to_act
    assert seat is not None
    observation = match.observe(seat)
    chosen = parse_action(action)
    assert chosen in observation.legal_actions
    return [(reason.code, reason.params) for reason in reasons_for(observation, chosen)]


# -- one position per reason --------------------------------------------------------------------


def test_trumping_last_takes_the_trick_and_brings_its_ten_home() -> None:
    match = _open("2D 10D AD")
    assert _reasons(match, "2S") == [
        ("reason_trumps", {"suit": "D"}),
        ("reason_last_takes", {}),
        ("reason_brings_ten", {"card": "10D"}),
    ]


def test_trumping_with_a_ten_keeps_it_and_brings_the_other_home() -> None:
    assert _reasons(_open("2D 10D AD"), "10S") == [
        ("reason_trumps", {"suit": "D"}),
        ("reason_last_takes", {}),
        ("reason_brings_ten", {"card": "10D"}),
        ("reason_keeps_ten", {"card": "10S"}),
    ]


def test_a_void_player_throws_away_a_card_that_cannot_win() -> None:
    # the 10H it keeps back would have been lost too; the 10S would have trumped, so it is not "saved"
    assert _reasons(_open("2D 10D AD"), "6H") == [
        ("reason_discards", {"suit": "D"}),
        ("reason_saves_ten", {"card": "10H"}),
    ]


def test_the_first_off_suit_card_cuts_and_sets_trump() -> None:
    match = _open("2D 10D AD", rules="mendikot")
    assert _reasons(match, "2S") == [
        ("reason_cuts", {"suit": "D"}),
        ("reason_last_takes", {}),
        ("reason_brings_ten", {"card": "10D"}),
    ]


def test_the_highest_trump_left_takes_the_trick_before_the_last_player() -> None:
    assert _reasons(_open("3S 7S"), "AS") == [("reason_takes_trick", {})]


def test_a_card_that_a_later_player_may_beat_only_wins_so_far() -> None:
    assert _reasons(_open("3S 7S"), "9S") == [("reason_wins_so_far", {})]


def test_a_ten_played_last_wins_and_is_kept() -> None:
    assert _reasons(_open("2H 3H 4H"), "10H") == [("reason_last_takes", {}), ("reason_keeps_ten", {"card": "10H"})]


def test_a_ten_on_the_partners_trick_that_nobody_can_beat_goes_to_the_team() -> None:
    match = _open("2H QH 4H")
    assert _reasons(match, "10H") == [("reason_partner_safe", {"seat": 1}), ("reason_feeds_ten", {"card": "10H"})]
    assert _reasons(match, "5H") == [("reason_partner_safe", {"seat": 1})]


def test_a_ten_on_the_partners_trick_winning_so_far_says_only_so_far() -> None:
    match = _open("AC 2C")
    assert _reasons(match, "10C") == [("reason_partner_winning", {"seat": 0}), ("reason_gives_ten", {"card": "10C"})]
    assert _reasons(match, "3C") == [("reason_partner_winning", {"seat": 0})]


def test_a_low_card_keeps_the_ten_out_of_the_other_teams_trick() -> None:
    assert _reasons(_open("9C KC"), "3C") == [("reason_saves_ten", {"card": "10C"})]


def test_leading_the_highest_card_of_a_suit() -> None:
    match = _open()
    assert _reasons(match, "AH") == [("reason_lead_top", {"suit": "H"})]
    assert _reasons(match, "KH") == []  # the ace is higher, even in the leader's own hand


def test_leading_a_suit_the_partner_has_shown_out_of() -> None:
    match = _open("2D 10D AD 2S 6H 7H QH 9H")  # seat 4 showed no diamonds; seat 2 won the second trick
    assert match.to_act == 1
    assert _reasons(match, "7D") == [("reason_lead_partner_void", {"seat": 3, "suit": "D"})]


def test_calling_the_suit_held_most_of() -> None:
    match = position("pagat", 3, HANDS)  # seat 1 calls from AH KH 7H 2H AC
    assert _reasons(match, "call H") == [("reason_call_longest", {"suit": "H"})]
    assert _reasons(match, "call C") == []
    even = position("pagat", 3, ["AH KH AC 9C 2D 7H 2H 3S 4S 3D 4D 5D 6D", *HANDS[1:]])
    assert _reasons(even, "call C") == [("reason_call_equal", {"suit": "C"})]


def test_hiding_a_card_of_the_longest_suit() -> None:
    match = position("mendikot-band", 3, HANDS)
    assert match.phase is Phase.HIDE
    assert _reasons(match, "hide 2D") == [("reason_call_longest", {"suit": "D"})]
    assert _reasons(match, "hide AH") == []


def test_the_hint_says_its_reasons_on_the_web_and_in_the_terminal() -> None:
    match = _open("2D 10D AD")
    observation = match.observe(3)
    hint = hint_of(make_bot("heuristic", 3), observation, Play(parse_card("2S")))
    codes = [word.code for word in web_words(hint)]
    assert codes[:4] == ["hint_play", "reason_trumps", "reason_last_takes", "reason_brings_ten"]
    short, full = hint_words(hint)
    assert short.startswith("You have no diamonds: it trumps the trick. You play last: it takes the trick.")
    assert "It brings 10D home to your team." in full
    assert all(code in HINT_TEMPLATES for code in codes)


def test_the_terminal_hint_of_a_bot_that_samples_nothing_gives_its_reasons_only() -> None:
    observation = _open("2D 10D AD").observe(3)
    short, full = hint_note(make_bot("heuristic", 3), observation, Play(parse_card("2S")))
    said = "You have no diamonds: it trumps the trick. You play last: it takes the trick."
    assert short == full == f"{said} It brings 10D home to your team."


def test_every_reason_has_words_with_only_the_params_it_is_given() -> None:
    assert set(REASON_TEMPLATES) <= set(HINT_TEMPLATES)
    text = reason_text(Reason("reason_lead_partner_void", {"seat": 3, "suit": "D"}))
    assert text == "Seat 4, your partner, has no diamonds left in hand."


# -- every reason given is true on the real cards ------------------------------------------------


def _finishes(match: Match, rng: random.Random, budget: int = 400) -> list[tuple[Trick, int]]:
    """Ways the trick in progress may end from here on the real cards (every one while there are at most
    ``budget``, else the first ``budget`` of a depth-first walk in random order), each with what was collected."""
    out: list[tuple[Trick, int]] = []

    def walk(node: Match) -> None:
        actions = list(node.legal_actions())
        rng.shuffle(actions)
        for action in actions:
            if len(out) >= budget:
                return
            child = node.clone()
            events = child.apply(action)
            trick = next((event for event in events if isinstance(event, Trick)), None)
            if trick is None:
                walk(child)
                continue
            out.append((trick, _taken(events, trick)))

    walk(match)
    return out


def _taken(events: tuple[Event, ...], trick: Trick) -> int:
    """The cards a team collected when ``trick`` ended: the centre, or the trick itself, or nothing."""
    centre = next((event.mask for event in events if isinstance(event, CentreCollected)), None)
    if centre is not None:
        return centre
    return mask_of(trick.cards) if trick.collected_by is not None else 0


def _check(match: Match, card: Card, reason: Reason, rng: random.Random) -> None:
    """Check one reason for playing ``card`` on the real cards of ``match``, by the engine alone."""
    seat = match.to_act
    assert seat is not None
    state = match.hand_state()
    team = seat % 2
    after = match.clone()
    events = after.apply(Play(card))
    finished = next((event for event in events if isinstance(event, Trick)), None)
    ends = [(finished, _taken(events, finished))] if finished is not None else _finishes(after, rng)
    winner_so_far = finished.winner if finished else after.observe(seat).trick_winner
    led = state.led
    params = reason.params
    code = reason.code
    ten = parse_card(str(params["card"])) if "card" in params else None
    suit_mask = SUIT_MASKS["SHDC".index(str(params["suit"]))] if "suit" in params else 0
    if code in ("reason_last_takes", "reason_takes_trick"):
        assert (finished is not None) == (code == "reason_last_takes")
        assert all(trick.winner == seat for trick, _ in ends)
    elif code == "reason_wins_so_far":
        assert winner_so_far == seat
    elif code in ("reason_brings_ten", "reason_keeps_ten", "reason_feeds_ten"):
        assert ten is not None and ten.is_ten and (ten == card) == (code != "reason_brings_ten")
        assert all(trick.winner % 2 == team and taken >> ten & 1 for trick, taken in ends)
    elif code == "reason_partner_safe":
        partner = params["seat"]
        assert isinstance(partner, int) and partner != seat and partner % 2 == team
        assert all(trick.winner == partner for trick, _ in ends)
    elif code == "reason_partner_winning":
        assert params["seat"] != seat and winner_so_far == params["seat"] and winner_so_far % 2 == team
    elif code == "reason_gives_ten":
        assert card.is_ten and ten == card and winner_so_far is not None and winner_so_far % 2 == team
    elif code == "reason_saves_ten":
        assert ten is not None and ten.is_ten and not card.is_ten and Play(ten) in match.legal_actions()
        assert winner_so_far is not None and winner_so_far % 2 != team
        instead = match.clone()
        instead_events = instead.apply(Play(ten))
        instead_trick = next((event for event in instead_events if isinstance(event, Trick)), None)
        instead_winner = instead_trick.winner if instead_trick else instead.observe(seat).trick_winner
        assert instead_winner is not None and instead_winner % 2 != team
    elif code in ("reason_trumps", "reason_cuts", "reason_discards"):
        assert led is not None and suit_mask == SUIT_MASKS[led] and not state.hands[seat] & suit_mask
        if code == "reason_trumps":
            assert after.trump is not None and after.trump != led
            assert finished is not None or after.observe(seat).trick_trumps[-1]
        elif code == "reason_cuts":
            assert any(isinstance(event, TrumpSet) and event.how == "cut" and event.seat == seat for event in events)
        else:
            assert not card.is_ten and all(trick.winner != seat for trick, _ in ends)
    elif code == "reason_lead_top":
        assert not state.trick and suit_mask >> card & 1
        above = suit_mask & ~((2 << card) - 1)
        hidden = 0 if state.hidden_card is None else 1 << state.hidden_card
        assert not above & (hidden | _all(state.hands) | _all(state.pending))
    elif code == "reason_lead_partner_void":
        partner = params["seat"]
        assert isinstance(partner, int) and partner != seat and partner % 2 == team
        assert not state.trick and suit_mask >> card & 1 and not state.hands[partner] & suit_mask
    else:
        raise AssertionError(f"no check for {code}")


def _all(masks: tuple[int, ...]) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


def _check_suit_choice(match: Match, suit: int, reason: Reason) -> None:
    """A call or a hidden card's suit: the seat holds at least as many of it as of any other (more when longest)."""
    seat = match.to_act
    assert seat is not None
    cards = match.hand_of(seat)
    counts = [sum(1 for card in cards if card.suit == each) for each in range(4)]
    assert reason.params == {"suit": "SHDC"[suit]}
    others = max(count for each, count in enumerate(counts) if each != suit)
    assert counts[suit] > others if reason.code == "reason_call_longest" else counts[suit] == others


def _random_decision(rules: str | dict[str, Any], seed: int) -> Match | None:
    """A match at a random decision of its first hands (None if it ended first)."""
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    steps = rng.randrange(0, 120)
    for _ in range(steps + 1):
        if match.is_chance:
            match.apply(match.random_deal(rng))
        elif match.to_act is None:
            return None
        else:
            match.apply(rng.choice(match.legal_actions()))
    return match if match.to_act is not None else None


CHECKS = settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
@CHECKS
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_every_reason_given_is_true_on_the_real_cards(rules: str | dict[str, Any], seed: int) -> None:
    match = _random_decision(rules, seed)
    if match is None:
        return
    seat = match.to_act
    assert seat is not None
    observation = match.observe(seat)
    rng = random.Random(seed)
    for action in observation.legal_actions:
        for reason in reasons_for(observation, action):
            if isinstance(action, Play):
                _check(match, action.card, reason, rng)
            elif isinstance(action, Call | Hide):
                _check_suit_choice(match, action.suit if isinstance(action, Call) else action.card.suit, reason)
            else:
                raise AssertionError(f"{action} has no reasons, yet gave {reason}")
