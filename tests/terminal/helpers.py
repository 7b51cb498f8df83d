"""Helpers for the full-screen table's tests: a seeded table, the screen as text, waiting for the table to settle."""

from __future__ import annotations

import asyncio
import io
import random

from rich.console import Console
from textual.pilot import Pilot
from textual.widget import Widget

from dehla.bots import make_bot
from dehla.rules import parse_rules
from dehla.terminal.app import TableApp
from dehla.terminal.game import TableGame


def make_table(preset: str, seed: int, me: int = 0, bots: str = "heuristic", **options: object) -> TableApp:
    """A table with bots of one kind, seeded as ``dehla play --seed`` seeds them; moments wait for a key."""
    rules = parse_rules(preset)
    rng = random.Random(seed)
    names = ["You" if seat == me else f"{bots.capitalize()}{seat}" for seat in range(rules.players)]
    players = [None if seat == me else make_bot(bots, rng.getrandbits(64)) for seat in range(rules.players)]
    settings: dict[str, object] = {"pause": None, "pace": 0.0, "hinter": lambda: make_bot("heuristic", 0)}
    settings.update(options)
    return TableApp(TableGame(rules, players, me, names, rng), **settings)  # type: ignore[arg-type]


def screen_text(app: TableApp) -> str:
    """What the terminal shows now, as plain text (no colour), one line a row."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens, simplify=True))
    return console.export_text()


def region_text(app: TableApp, widget: Widget) -> str:
    """The part of the screen a widget covers."""
    region = widget.region
    lines = screen_text(app).splitlines()
    return "\n".join(line[region.x : region.right] for line in lines[region.y : region.bottom])


def settled(app: TableApp) -> bool:
    """The table waits for the person: their turn, a moment on show, a panel open, or the app has ended."""
    return app.person_turn or app.holding or len(app.screen_stack) > 1 or app.return_value is not None


async def settle(pilot: Pilot[object], app: TableApp, seconds: float = 60.0) -> None:
    """Wait (bots decide in threads) until the table waits for the person."""
    deadline = asyncio.get_running_loop().time() + seconds
    await pilot.pause()
    while not settled(app):
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("the table did not settle")
        await pilot.pause(0.01)
    await pilot.pause()
