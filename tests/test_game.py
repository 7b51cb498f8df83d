"""The ``Game`` of a rules value: made once per value and shared by every match played under it."""

from __future__ import annotations

import random

from dehla import Match
from dehla.engine.game import Game, game_of
from dehla.rules import parse_rules, preset


def test_equal_rules_share_one_game() -> None:
    rules = preset("mendikot-band")
    same = parse_rules({"preset": "mendikot-band"})
    assert same == rules and game_of(same) is game_of(rules)
    assert game_of(preset("pagat")) is not game_of(rules)
    game = game_of(rules)
    assert isinstance(game, Game) and game.band and game.ask_reveal and not game.auto_reveal
    assert game.players == 4 and game.tricks_per_hand == 13 and game.next_seat == (1, 2, 3, 0)


def test_matches_and_their_clones_share_the_game() -> None:
    rng = random.Random(2)
    match = Match.new("taash", rng)
    match.apply(match.random_deal(rng))
    other = Match.new(preset("taash"), rng)
    clone = match.clone()
    assert match._game is other._game is clone._game
    assert clone.rules is match.rules


def test_a_deal_made_for_a_game_is_not_checked_again() -> None:
    rng = random.Random(4)
    game = game_of(preset("mendikot-6"))
    deal = game.random_deal(rng)
    assert deal.checked_for is game and [len(hand) for hand in deal.hands] == [8] * 6
    game.check_deal(deal)  # (returns at once)
