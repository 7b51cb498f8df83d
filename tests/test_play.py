"""Running matches (``dehla.play``): the hand loop every runner shares, and the arena's shared statistics."""

from __future__ import annotations

import random

import pytest

from dehla import PRESETS, Match
from dehla.arena.stats import percentile
from dehla.bots import RandomBot
from dehla.engine.observe import Observation
from dehla.play import checked_act, play_hand, play_match


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_play_hand_plays_one_hand_exactly_as_play_match_does(preset: str) -> None:
    rules = PRESETS[preset]
    seen: list[tuple[int, int | None]] = []
    rng = random.Random(5)
    match = Match.new(rules, rng)
    bots = [RandomBot(seat) for seat in range(rules.players)]

    def choose(seat: int, observation: Observation) -> object:
        seen.append((seat, observation.seat))
        return checked_act(bots[seat], observation)

    match.apply(match.random_deal(rng))
    play_hand(match, choose)  # type: ignore[arg-type]
    assert len(match.results) == 1 and (match.is_chance or match.is_over)
    assert seen and all(seat == shown for seat, shown in seen)  # each seat is shown its own observation
    play_hand(match, choose)  # type: ignore[arg-type]  # nothing to decide between hands
    assert len(match.results) == 1

    # the same seeds through play_match give the same first hand
    chance = random.Random(5)
    again = play_match(
        rules, [RandomBot(seat) for seat in range(rules.players)], chance, match=Match.new(rules, chance)
    )
    assert again.hand_actions(0) == match.hand_actions(0)


def test_percentile_is_the_nearest_rank() -> None:
    values = [5.0, 1.0, 4.0, 2.0, 3.0]
    assert percentile(values, 0.0) == 1.0
    assert percentile(values, 0.5) == 3.0
    assert percentile(values, 0.99) == 5.0
    assert percentile(values, 1.0) == 5.0
    assert percentile([7.0], 0.95) == 7.0
    assert percentile([], 0.5) == 0.0
    assert percentile([float(value) for value in range(101)], 0.95) == 95.0


def test_an_unpaced_match_runs_in_place_and_refuses_to_wait() -> None:
    import asyncio

    from dehla.errors import DehlaError
    from dehla.play import run_in_place

    async def at_once() -> int:
        return 7

    async def waits() -> None:
        await asyncio.sleep(0)

    assert run_in_place(at_once()) == 7
    with pytest.raises(DehlaError, match="waited"):
        run_in_place(waits())


class _PacedTable:
    """A table for the shared driver: seat 0 a person whose turn a timer plays after ``timer`` seconds."""

    playing = True
    hand_pause = 0.0

    def __init__(self, match: Match, timer: float | None, bot_delay: float) -> None:
        import asyncio

        self.match = match
        self.timer = timer
        self.bot_delay = bot_delay
        self.changed = asyncio.Event()
        self.lock = asyncio.Lock()
        self.version = 0
        self.turn_started = self.hand_ended = 0.0
        self.moves: list[tuple[int, str]] = []
        self.bots = [RandomBot(seat) for seat in range(match.rules.players)]

    @property
    def done(self) -> bool:
        return bool(self.match.results)

    def person_in_control(self, seat: int, now: float) -> bool:
        return seat == 0

    def people_waited_for(self, now: float) -> bool:
        return False

    def person_due(self, seat: int, now: float) -> float | None:
        return None if self.timer is None else self.turn_started + self.timer

    def held_until(self, now: float) -> float | None:
        return None

    def let_go(self) -> None:
        pass

    async def refresh(self) -> None:
        pass

    async def deal(self) -> None:
        self.match.apply(self.match.random_deal(random.Random(3)))
        self.stepped()

    async def commit(self, seat: int, action: object, by: str) -> None:
        self.match.apply(action)  # type: ignore[arg-type]
        self.moves.append((seat, by))
        self.stepped()

    def stepped(self) -> None:
        import time

        self.version += 1
        self.turn_started = time.monotonic()

    async def finish(self) -> None:
        pass

    async def think(self, seat: int, observation: Observation) -> object:
        import asyncio

        return await asyncio.to_thread(self.bots[seat].act, observation)

    async def step_failed(self, error: Exception) -> bool:
        raise error


def test_the_driver_plays_bots_and_waits_for_a_person_until_their_timer() -> None:
    import asyncio

    from dehla.play import MatchDriver

    async def run() -> None:
        table = _PacedTable(Match.new("pagat", random.Random(1)), timer=0.01, bot_delay=0.0)
        await asyncio.wait_for(MatchDriver(table).run(), 60)  # type: ignore[arg-type]
        assert len(table.match.results) == 1
        assert {by for seat, by in table.moves if seat == 0} == {"timer"}  # the person never acted: the timer did
        assert {by for seat, by in table.moves if seat != 0} == {"bot"}

        waiting = _PacedTable(Match.new("pagat", random.Random(1)), timer=None, bot_delay=0.0)
        driver = asyncio.create_task(MatchDriver(waiting).run())  # type: ignore[arg-type]
        for _ in range(500):
            await asyncio.sleep(0.01)
            if waiting.match.to_act == 0 and not waiting.match.is_chance:
                break
        await asyncio.sleep(0.1)
        assert waiting.match.to_act == 0  # no timer: the driver waits for the person
        action = waiting.match.legal_actions()[0]
        waiting.match.apply(action)  # the person acts on their own path, then the table says it changed
        waiting.stepped()
        waiting.changed.set()
        for _ in range(500):
            await asyncio.sleep(0.01)
            if waiting.match.to_act == 0 or waiting.done:
                break
        assert waiting.version > 2 and all(seat != 0 for seat, _ in waiting.moves)
        driver.cancel()

    asyncio.run(run())
