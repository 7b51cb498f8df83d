"""The full-screen table's hint (key h) says when the hard bot's move was played out, not solved, with its estimate."""

from __future__ import annotations

import asyncio

import pytest
from tests.terminal.helpers import make_table, settle

from dehla.bots.search import SearchBot, SearchSettings
from dehla.engine.actions import Play
from dehla.learn.value import default_model
from dehla.solver.warm import compile_here

SIZE = (100, 30)

pytestmark = pytest.mark.skipif(default_model() is None, reason="the value model file is not installed")


def test_hint_at_the_first_trick_is_marked_as_played_out_with_an_estimate() -> None:
    # A tiny node budget a sample: the first trick of a full deal is never solved, whatever the machine's speed.
    app = make_table("pagat", 9, hinter=lambda: SearchBot(0, settings=SearchSettings(sample_nodes=2_000)))
    # A bot with a node budget solves without asking whether the kernel is compiled: on a fresh clone that
    # compile (about a minute) would fall inside the hint's wait below, so it is done before the table opens.
    compile_here()

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            obs = app.view
            assert obs is not None and app.person_turn and not obs.tricks  # seed 9: the person's first card
            assert obs.phase == "play" and len(obs.legal_actions) > 1
            await pilot.press("h")
            for _ in range(1000):
                if not app.message.endswith("thinking…"):
                    break
                await pilot.pause(0.01)
            message = app.message
            assert message.startswith("hint: the hard bot would ")
            assert "played out, not solved" in message and "~ estimate" in message and "(-1..+1)" in message
            logged = [line for line in app.log_lines if line.startswith("hint: ")]
            assert logged and "not exact" in logged[-1] and "sampled deals" in logged[-1]
            assert app.selected is not None and Play(app.selected) in obs.legal_actions
            assert "chosen by playing out" in logged[-1] and "none solved exactly" in logged[-1]
            await pilot.press("ctrl+q")

    asyncio.run(run())
