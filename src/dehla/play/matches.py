"""Matches between players that decide at once (bots, or a person at a blocking prompt), on the shared driver.

* ``play_match`` plays a whole match; ``play_hand`` plays the decisions of one hand after its deal, the loop
  the arena and the benchmarks share; ``play_steps`` is both, with each step reported (``dehla play --plain``).

They run the one pacing loop (``dehla.play.driver.MatchDriver``) with no clock and no pause: nothing is ever
waited for, so the driver's coroutine is run to its end in place (``run_in_place``), with no event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, TypeVar

from dehla.bots.base import Bot, bind_bots
from dehla.engine.actions import Action, Deal
from dehla.engine.events import Event
from dehla.engine.observe import Observation
from dehla.engine.state import Match
from dehla.errors import DehlaError
from dehla.play.driver import MatchDriver
from dehla.rules import Rules

__all__ = ["Chooser", "OnStep", "play_hand", "play_match", "play_steps", "run_in_place"]

T = TypeVar("T")

#: Chooses the action of the seat to act from that seat's observation: ``choose(seat, observation)``.
Chooser = Callable[[int, Observation], Action]
#: Told of each step: the seat that decided and its action (``None`` for a deal), and the engine's events.
OnStep = Callable[[int | None, Action | None, tuple[Event, ...]], None]


def run_in_place(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never waits (everything it awaits completes at once) to its end, without a loop."""
    try:
        coroutine.send(None)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    coroutine.close()
    raise DehlaError("a match without a clock waited for something: every seat must decide at once")


class _AtOnce:
    """A table where every seat decides at once and nothing is shown: no person, no clock, no pause."""

    playing = True
    turn_started = hand_ended = bot_delay = hand_pause = 0.0

    def __init__(
        self,
        match: Match,
        choose: Chooser,
        deal: Callable[[], Deal] | None,
        until: Callable[[Match], bool],
        on_step: OnStep | None,
    ) -> None:
        self.match = match
        self.choose = choose
        self.draw = deal
        self.until = until
        self.on_step = on_step
        self.version = 0
        self.changed = asyncio.Event()
        self.lock = contextlib.nullcontext()

    @property
    def done(self) -> bool:
        return self.until(self.match)

    def person_in_control(self, seat: int, now: float) -> bool:
        return False

    def people_waited_for(self, now: float) -> bool:
        return False

    def person_due(self, seat: int, now: float) -> float | None:
        return None

    def held_until(self, now: float) -> float | None:
        return None

    def let_go(self) -> None:
        pass

    async def refresh(self) -> None:
        pass

    async def deal(self) -> None:
        if self.draw is None:
            raise DehlaError("this match cannot deal")
        self._stepped(None, None, self.match.apply(self.draw()))

    async def commit(self, seat: int, action: Action, by: str) -> None:
        self._stepped(seat, action, self.match.apply(action))

    def _stepped(self, seat: int | None, action: Action | None, events: tuple[Event, ...]) -> None:
        self.version += 1
        if self.on_step is not None:
            self.on_step(seat, action, events)

    async def finish(self) -> None:
        pass

    async def think(self, seat: int, observation: Observation) -> Action:
        return self.choose(seat, observation)

    async def step_failed(self, error: Exception) -> bool:
        raise error


def play_steps(
    match: Match,
    choose: Chooser,
    rng: random.Random | None = None,
    on_step: OnStep | None = None,
    until: Callable[[Match], bool] = lambda game: game.is_over,
) -> None:
    """Play ``match`` until ``until(match)`` holds (by default, to its end): chance from ``rng``, each decision
    from ``choose(seat, observation)``, each step reported to ``on_step``."""
    deal = None if rng is None else (lambda: match.random_deal(rng))
    run_in_place(MatchDriver(_AtOnce(match, choose, deal, until, on_step)).run())


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

    def told(seat: int | None, action: Action | None, events: tuple[Event, ...]) -> None:
        if on_events is not None and events:
            on_events(game, events)

    play_steps(game, lambda seat, seen: players[seat].act(seen), rng, told)
    return game


def play_hand(match: Match, choose: Chooser) -> None:
    """Play the decisions of the hand in progress until it ends (chance is next, or the match is over).

    ``choose(seat, observation)`` decides for the seat to act from that seat's observation, e.g.
    ``lambda seat, seen: checked_act(bots[seat], seen)``; a wrapper may time or inspect the decision.
    """
    play_steps(match, choose, until=lambda game: game.is_chance or game.is_over)
