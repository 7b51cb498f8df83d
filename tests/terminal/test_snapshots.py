"""Snapshots of the full-screen table (pytest-textual-snapshot): mid-trick, a finished trick, the result panel.

Each at 80x24 (the smallest terminal the table is made for) and 120x40.  The match is seeded and
moments wait for a key (``pause=None``), so nothing on screen depends on a clock.  After a deliberate
change to the screen, look at the new pictures (``snapshot_report.html``) and run
``pytest tests/terminal/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from tests.terminal.helpers import make_table, settle
from textual.pilot import Pilot

from dehla.engine.actions import Call
from dehla.terminal.app import ResultScreen, TableApp

SIZES = [(80, 24), (120, 40)]
Stop = Callable[[TableApp], bool]


def play_until(app: TableApp, stop: Stop) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """Keys for the person (the first legal choice, trump hearts) until ``stop`` holds."""

    async def run(pilot: Pilot[Any]) -> None:
        for _ in range(400):
            await settle(pilot, app)
            if stop(app):
                return
            if app.holding:
                await pilot.press("space")
            elif app.view is not None and Call(1) in app.view.legal_actions:
                await pilot.press("c", "a", "l", "l", "space", "h", "enter")
            else:
                await pilot.press("enter")
        raise AssertionError("the moment never came")

    return run


def mid_trick(app: TableApp) -> bool:
    return app.person_turn and app.view is not None and len(app.view.trick) >= 2


def finished_trick(app: TableApp) -> bool:
    return app.holding and app.moment is not None and app.moment.trick is not None and app.moment.trick.number >= 2


def result_panel(app: TableApp) -> bool:
    return isinstance(app.screen, ResultScreen)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize(
    ("preset", "stop"),
    [("pagat", mid_trick), ("pagat", finished_trick), ("mendikot", result_panel)],
    ids=["mid_trick", "finished_trick", "result"],
)
def test_table_snapshot(snap_compare: Any, preset: str, stop: Stop, size: tuple[int, int]) -> None:
    app = make_table(preset, 1)
    assert snap_compare(app, terminal_size=size, run_before=play_until(app, stop))
