"""Running a match between players that decide from observations (bots, people, outside programs)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from dehla.bots.base import Bot, bind_bots
from dehla.engine.events import Event
from dehla.engine.state import Match
from dehla.rules import Rules

__all__ = ["play_match"]


def play_match(
    rules: Rules | str,
    players: Sequence[Bot],
    rng: random.Random,
    on_events: Callable[[Match, tuple[Event, ...]], None] | None = None,
    match: Match | None = None,
) -> Match:
    """Play a whole match: chance from ``rng``, each seat's decisions from its player's ``act``.

    Each player is shown only its own seat's observation (a measurement-only bot such as ``cheat`` is
    also bound to the match, which is how it sees every card).
    """
    game = match if match is not None else Match.new(rules, rng)
    bind_bots(players, game)
    while not game.is_over:
        if game.is_chance:
            events = game.apply(game.random_deal(rng))
        else:
            seat = game.to_act
            assert seat is not None
            events = game.apply(players[seat].act(game.observe(seat)))
        if on_events is not None and events:
            on_events(game, events)
    return game
