"""A bot decides from its seat's observation only, and cannot reach a card its seat has not seen.

Three angles:

* structure: nothing reachable from an ``Observation`` (or its JSON) is the match or part of its hidden state;
* information: two matches that differ only in cards the seat has not seen give the seat the very same
  observation, so every registered bot makes the very same choice in both;
* the wire: the observation JSON an outside bot receives names no card the seat has not seen.

Plus the registry: bots by name, with levels that front ends offer.
"""

from __future__ import annotations

import gc
import json
import random
from collections.abc import Iterator

import pytest

from dehla import PRESETS, Deal, Hide, Match, Play
from dehla.bots import BOTS, Bot, bot_names, make_bot
from dehla.bots.search import CheatBot, SearchBot, SearchSettings
from dehla.cards import ALL_CARDS, Card
from dehla.cli.main import main
from dehla.errors import DehlaError

SEEDS = range(6)


def random_hand(preset: str, seed: int) -> tuple[Match, Deal, list]:
    """A first hand played to its end by random choices: the match, its deal and its actions."""
    rng = random.Random(seed)
    match = Match.new(preset, rng)
    deal = match.random_deal(rng)
    match.apply(deal)
    while not match.is_chance and not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match, deal, match.hand_actions(0)


def replayed(preset: str, first_dealer: int, deal: Deal, actions: list) -> Match:
    match = Match(preset, first_dealer)
    match.apply(deal)
    for action in actions:
        match.apply(action)
    return match


def seen_by(match: Match, seat: int) -> set[Card]:
    """Every card ``seat`` has seen: its hand, the cards played, its own hidden card, the revealed and drawn cards."""
    observation = match.observe(seat)
    seen = set(observation.hand)
    seen.update(card for trick in observation.tricks for card in trick.cards)
    seen.update(card for _, card in observation.trick)
    for card in (observation.hidden_card, observation.revealed_card, observation.open_draw):
        if card is not None:
            seen.add(card)
    return seen


def shuffled_unseen(match: Match, deal: Deal, actions: list, seat: int, rng: random.Random) -> tuple[Deal, list]:
    """The same hand with the cards ``seat`` has not seen shuffled within each suit among their places.

    Every seat keeps as many cards of each suit at each place of its deal, and no played card moves,
    so the same actions stay legal and win the same tricks.
    """
    seen = seen_by(match, seat)
    places = [
        (owner, index) for owner, cards in enumerate(deal.hands) for index, card in enumerate(cards) if card not in seen
    ]
    mapping: dict[Card, Card] = {}
    for suit in range(4):
        cards = [deal.hands[owner][index] for owner, index in places if deal.hands[owner][index].suit == suit]
        moved = cards[:]
        rng.shuffle(moved)
        mapping.update(zip(cards, moved))
    hands = [[mapping.get(card, card) for card in cards] for cards in deal.hands]
    new_actions = [
        Hide(mapping.get(action.card, action.card)) if isinstance(action, Hide) else action for action in actions
    ]
    return Deal(hands, deal.open_draw), new_actions


def cut_points(preset: str) -> Iterator[tuple[Match, Deal, list, int]]:
    for seed in SEEDS:
        match, deal, actions = random_hand(preset, seed)
        rng = random.Random(seed * 7 + 1)
        for cut in sorted(rng.sample(range(len(actions)), 4)):
            yield Match(preset, match.first_dealer), deal, actions[:cut], seed


@pytest.mark.parametrize("preset", list(PRESETS))
def test_unseen_cards_change_nothing_a_seat_or_a_bot_can_know(preset: str) -> None:
    differing = 0
    for fresh, deal, actions, seed in cut_points(preset):
        original = replayed(preset, fresh.first_dealer, deal, actions)
        for seat in range(original.players):
            other_deal, other_actions = shuffled_unseen(original, deal, actions, seat, random.Random(seed + seat))
            other = replayed(preset, fresh.first_dealer, other_deal, other_actions)
            if other_deal != deal:
                differing += 1
            assert other.observe(seat) == original.observe(seat)
            assert other.observe(seat).to_json() == original.observe(seat).to_json()
            if original.to_act == seat:
                for name in bot_names(for_people=True):
                    ours = _reproducible_bot(name).act(original.observe(seat))
                    theirs = _reproducible_bot(name).act(other.observe(seat))
                    assert ours == theirs, f"{name} chose differently on cards seat {seat} never saw"
    assert differing > 0  # the test did move hidden cards


def _reproducible_bot(name: str, seed: int = 99, match: Match | None = None) -> Bot:
    """The registered bot, quick and reproducible: the search bots count nodes instead of watching the clock.

    ``cheat`` is bound to ``match`` (the only way it sees cards) and capped, so a test never waits on a full solve.
    """
    if name in ("hard", "expert"):
        return SearchBot(seed, max_samples=3, name=name, settings=SearchSettings(sample_nodes=30_000))
    if name == "cheat":
        cheat = CheatBot(seed, node_limit=200_000)
        if match is not None:
            cheat.bind(match)
        return cheat
    return make_bot(name, seed)


def test_the_cheat_bot_is_never_offered_to_people_and_cannot_play_unbound() -> None:
    assert "cheat" in bot_names() and "cheat" not in bot_names(for_people=True)
    match = Match.new("pagat", random.Random(3))
    match.apply(match.random_deal(random.Random(3)))
    seat = match.to_act
    assert seat is not None
    with pytest.raises(DehlaError, match="bind"):
        make_bot("cheat", 1).act(match.observe(seat))


def _reachable(root: object, limit: int = 200_000) -> Iterator[object]:
    """Every object reachable from ``root`` through references (classes and modules excluded)."""
    seen = {id(root)}
    stack = [root]
    count = 0
    while stack and count < limit:
        item = stack.pop()
        count += 1
        yield item
        for child in gc.get_referents(item):
            if isinstance(child, type) or type(child).__name__ in ("module", "function", "builtin_function_or_method"):
                continue
            if id(child) not in seen:
                seen.add(id(child))
                stack.append(child)


@pytest.mark.parametrize("preset", ["pagat", "taash", "mendikot-band", "mendikot-open"])
def test_nothing_reachable_from_an_observation_is_the_match(preset: str) -> None:
    match, _, _ = random_hand(preset, 3)
    rng = random.Random(3)
    match = Match.new(preset, rng)
    match.apply(match.random_deal(rng))
    for _ in range(9):
        match.apply(rng.choice(match.legal_actions()))
    hand = match._hand
    hidden_state = {
        id(value)
        for value in (
            match,
            hand,
            hand.hands,
            hand.pending,
            hand.trick,
            match._log,
            hand.actions,
            hand.captured,
            hand.events,
        )
    }
    for seat in range(match.players):
        observation = match.observe(seat)
        for item in _reachable(observation):
            assert not isinstance(item, Match)
            assert id(item) not in hidden_state


def cards_named(value: object, texts: set[str]) -> set[str]:
    """Every card text anywhere in a JSON value (whole words of strings: '10H', 'hide 10H')."""
    if isinstance(value, str):
        return {word for word in value.split() if word in texts}
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return set().union(*(cards_named(item, texts) for item in items))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_wire_form_names_only_cards_the_seat_has_seen(preset: str) -> None:
    texts = {str(card) for card in ALL_CARDS}
    for fresh, deal, actions, _ in cut_points(preset):
        match = replayed(preset, fresh.first_dealer, deal, actions)
        for seat in range(match.players):
            allowed = {str(card) for card in seen_by(match, seat)}
            data = match.observe(seat).to_json()
            named = cards_named(json.loads(json.dumps(data)), texts)
            assert named <= allowed, f"seat {seat} is told of {sorted(named - allowed)}"


def test_the_hidden_card_is_masked_for_everyone_but_its_chooser() -> None:
    rng = random.Random(4)
    match = Match.new("mendikot-band", rng)
    match.apply(match.random_deal(rng))
    chooser = match.to_act
    hide = match.legal_actions()[0]
    match.apply(hide)
    for seat in range(4):
        observation = match.observe(seat)
        if seat == chooser:
            assert observation.history == (str(hide),)
            assert observation.hidden_card == hide.card
        else:
            assert observation.history == ("hide ?",)
            assert observation.hidden_card is None
        assert observation.trump_hidden


def test_bots_act_only_on_their_turn_with_legal_actions() -> None:
    rng = random.Random(1)
    match = Match.new("pagat", rng)
    match.apply(match.random_deal(rng))
    waiting = (match.to_act + 1) % 4
    assert match.observe(waiting).legal_actions == ()
    for name in bot_names():
        action = _reproducible_bot(name, 1, match).act(match.observe(match.to_act))
        assert action in match.legal_actions()


# ------------------------------------------------------------------------------ the registry


def test_bots_are_registered_by_name_with_levels() -> None:
    names = bot_names()
    assert "random" in names
    levels = [BOTS[name].level for name in names]
    assert levels == sorted(levels)
    for name in names:
        info = BOTS[name]
        assert isinstance(info.level, int) and info.level >= 0
        assert info.label and info.description
        bot = make_bot(name, 1)
        assert hasattr(bot, "act")
    assert BOTS["random"].level == 0


def test_every_registered_bot_finishes_a_hand_of_every_preset() -> None:
    for preset in PRESETS:
        for name in bot_names():
            rng = random.Random(2)
            match = Match.new(preset, rng)
            match.apply(match.random_deal(rng))
            bots = [_reproducible_bot(name, seat, match) for seat in range(match.players)]
            while not match.is_chance and not match.is_over:
                seat = match.to_act
                action = bots[seat].act(match.observe(seat))
                assert action in match.legal_actions(), (preset, name, action)
                match.apply(action)
            assert match.results


def test_unknown_bot_names_list_the_registry() -> None:
    with pytest.raises(DehlaError) as caught:
        make_bot("deep-thought")
    for name in bot_names():
        assert name in str(caught.value)


def test_play_help_offers_bots_by_name_and_level(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in bot_names(for_people=True):
        assert f"{name} (level {BOTS[name].level}" in text
    assert "cheat" not in text  # sees every card: for measurement, never offered as a partner or opponent


def test_a_play_action_is_the_only_thing_a_bot_returns() -> None:
    """Bots return actions (values), never touch the match: the engine applies them."""
    rng = random.Random(5)
    match = Match.new("mendikot", rng)
    match.apply(match.random_deal(rng))
    before = match.observe(match.to_act)
    for name in bot_names():
        action = _reproducible_bot(name, 3, match).act(before)
        assert isinstance(action, Play)
    assert match.observe(match.to_act) == before
