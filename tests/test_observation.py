"""Hidden information: an observation never shows a seat a card it may not know.

A seat may know its own hand, the band-hukum card if it chose it and it is
still face down, every card played so far, the revealed band-hukum card and
the open-draw card (both shown to everybody).  It may never see another
seat's cards, the hidden card (unless it is the chooser), or cards still to
be dealt -- its own included.  Every card text anywhere in
``observation.to_json()`` is checked against that, at every step of random
matches of every preset.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from tests.helpers import ALL_RULES, act, begin, in_hand, rules_id

from dehla import Match, Observation
from dehla.cards import ALL_CARDS, Card, parse_card
from dehla.engine.state import Phase

CARD_IN_TEXT = re.compile(r"(?<!\w)(?:10|[2-9JQKA])[SHDC](?!\w)")
CARDS_BY_TEXT = {str(card): card for card in ALL_CARDS}


def cards_mentioned(value: Any) -> set[Card]:
    """Every card written anywhere in a JSON value (in texts such as ``"10H"`` or ``"hide 10H"``)."""
    text = json.dumps(value)
    return {CARDS_BY_TEXT[found] for found in CARD_IN_TEXT.findall(text)}


def secrets(match: Match, observations: list[Observation]) -> list[set[Card]]:
    """For each seat, the cards it may not know now.

    Those are the other seats' hands, a hidden card it did not choose, and every
    card not yet dealt (its own too) -- less the revealed band-hukum card and the
    open-draw card, which everybody saw.
    """
    players = match.players
    hands = [set(match.hand_of(seat)) for seat in range(players)]
    hidden: dict[int, Card] = {}
    undealt: set[Card] = set()
    if in_hand(match):
        dealt = match.deals[-1]
        for seat, observation in enumerate(observations):
            if observation.hidden_card is not None:
                hidden[seat] = observation.hidden_card
            waiting = observation.undealt[seat]
            if waiting:
                undealt.update(dealt.hands[seat][-waiting:])
    public = {card for card in (observations[0].revealed_card, observations[0].open_draw) if card is not None}
    out = []
    for seat in range(players):
        secret = set(undealt)
        for other in range(players):
            if other != seat:
                secret |= hands[other]
                if other in hidden:
                    secret.add(hidden[other])
        out.append(secret - public)
    return out


def check_observations(match: Match, past_too: bool = True) -> None:
    observations = [match.observe(seat) for seat in range(match.players)]
    hidden_from = secrets(match, observations)
    for seat, observation in enumerate(observations):
        data = observation.to_json()
        past = data["match"].pop("hands")  # finished hands: every card in them was played face up
        leaked = cards_mentioned(data) & hidden_from[seat]
        assert not leaked, f"seat {seat} sees {sorted(map(str, leaked))} in {match!r}"
        if past_too:
            for result in past:
                played = {parse_card(card) for trick in result["tricks"] for card in trick["cards"]}
                assert cards_mentioned(result) <= played
        assert set(observation.hand) == set(match.hand_of(seat))
        if observation.hidden_card is not None:
            assert seat == observation.chooser and observation.trump_hidden
        if match.to_act != seat:
            assert observation.legal_actions == () and data["legal_actions"] == []
        else:
            assert observation.legal_actions == match.legal_actions()


@pytest.mark.parametrize("rules", ALL_RULES, ids=[rules_id(rules) for rules in ALL_RULES])
def test_no_observation_ever_shows_a_card_the_seat_may_not_know(rules: object) -> None:
    for seed in range(2 if isinstance(rules, str) else 1):
        rng = random.Random(seed)
        match = Match.new(rules, rng)  # type: ignore[arg-type]
        steps = 0
        while not match.is_over and steps < 400:
            if match.is_chance:
                match.apply(match.random_deal(rng))
            else:
                match.apply(rng.choice(match.legal_actions()))
            check_observations(match, past_too=match.is_chance or match.is_over)
            steps += 1


def test_the_hidden_card_is_shown_only_to_its_chooser_until_the_reveal() -> None:
    match = begin("mendikot-band", {0: "9S KH"}, void={1: "H"})
    act(match, "hide 9S")
    assert match.observe(0).to_json()["hidden_card"] == "9S"
    for seat in (1, 2, 3):
        data = match.observe(seat).to_json()
        assert data["hidden_card"] is None and data["trump"] is None and data["trump_hidden"] is True
        assert "9S" not in json.dumps(data)
        assert "hide ?" in data["history"]
    assert "hide 9S" in match.observe(0).to_json()["history"]
    act(match, "KH reveal")
    for seat in range(4):
        data = match.observe(seat).to_json()
        assert data["revealed_card"] == "9S" and data["trump"] == "S" and data["hidden_card"] is None


def test_cards_still_to_be_dealt_are_counted_but_never_shown() -> None:
    match = begin("taash", {0: "AS KS QS JS 10S 9H 8H"})
    for seat in range(4):
        data = match.observe(seat).to_json()
        assert data["undealt"] == [8, 8, 8, 8]
        assert len(data["hand"]) == 5
        assert "9H" not in json.dumps(data) and "8H" not in json.dumps(data)


def test_the_caller_sees_only_its_five_cards_before_calling() -> None:
    match = begin("pagat", {0: "AS KS QS JS 10S 9H"})
    data = match.observe(0).to_json()
    assert data["phase"] == "call" and data["legal_actions"] == ["call S", "call H", "call D", "call C"]
    assert sorted(data["hand"]) == sorted(["AS", "KS", "QS", "JS", "10S"])
    assert "9H" not in json.dumps(data)


def test_between_hands_a_seat_sees_only_its_own_leftover_cards() -> None:
    from tests.helpers import block_hand, play_scripted

    match, _ = play_scripted("taash", 3, block_hand(0, [1, 3, 1, 0, 3, 1, 0, 1, 3, 0, 3, 1]))
    assert match.phase is Phase.DEAL
    check_observations(match)
    assert all(len(match.observe(seat).hand) == 3 for seat in range(4))


def test_observation_shows_what_everybody_saw() -> None:
    match = begin("pagat", {0: "AH AS", 1: "10H QS", 2: "3H 2S", 3: "7H 10S"})
    act(match, "call D AH 10H 3H")
    data = match.observe(3).to_json()
    assert data["trick"] == [{"seat": 0, "card": "AH"}, {"seat": 1, "card": "10H"}, {"seat": 2, "card": "3H"}]
    assert data["led"] == "H" and data["trump"] == "D" and data["to_act"] == 3
    assert data["history"] == ["call D", "AH", "10H", "3H"]
    act(match, "7H")
    data = match.observe(1).to_json()
    assert sorted(data["centre"]) == sorted(["AH", "10H", "3H", "7H"])
    assert data["next_collector"] == 0
    assert data["tricks"][0]["winner"] == 0
    assert data["hand_sizes"] == [12, 12, 12, 12]


def test_the_leak_check_itself_knows_what_each_seat_may_not_see() -> None:
    match = begin("mendikot-band", {0: "9S KH", 1: "AS"})
    act(match, "hide 9S")
    observations = [match.observe(seat) for seat in range(4)]
    hidden_from = secrets(match, observations)
    nine = parse_card("9S")
    assert nine in hidden_from[1] and nine not in hidden_from[0]
    assert parse_card("AS") in hidden_from[0] and parse_card("AS") not in hidden_from[1]
    assert cards_mentioned({"history": ["hide 9S", "10H"], "trump": "S"}) == {nine, parse_card("10H")}
