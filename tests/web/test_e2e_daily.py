"""The daily duplicate in headless Debian chromium: two players (two browser contexts) each play the day's deal
from the daily page, and the leaderboard shows both; screenshots of the leaderboard at 320, 375 and 1280 px, each
with no sideways scrolling and no axe-core violation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from tests.web import page_walk
from tests.web.helpers import LiveServer

pytestmark = page_walk.NEEDS_CHROMIUM


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # one deal a day, quick bots (serve_for_tests' daily settings), short pauses
    yield from page_walk.serve(tmp_path_factory, "daily", bot_delay=0.02, hand_pause=60, trick_pause=0.05)


def _play_the_daily_deal(page: Any, server: LiveServer, name: str) -> None:
    page.goto(server.url + "/")
    page.fill("#player-name", name)
    page.click("#daily-link")
    page.wait_for_selector("#daily-play-0")
    assert len(page.inner_text("#daily-commitment")) == 64 and page.query_selector("#daily-seed") is None
    page.click("#daily-play-0")
    page.wait_for_selector(".felt")
    page_walk.play_until(page, "#hand-summary")
    page.click("#back-to-daily")  # the table's one deal is played: no next hand, no rematch
    page.wait_for_selector("#daily-board tr.you")


def test_two_players_play_the_daily_deal_and_the_leaderboard_shows_both(browser: Any, server: LiveServer) -> None:
    first = page_walk.new_page(browser, bypass_csp=True)  # axe is injected past the page's CSP
    second = page_walk.new_page(browser, width=375, height=812, bypass_csp=True)
    _play_the_daily_deal(first, server, "Asha")
    _play_the_daily_deal(second, server, "Bela")
    for page, width in ((first, 1280), (second, 375)):
        page.goto(server.url + "/daily")
        page.wait_for_selector("#daily-board tr.you")
        page.wait_for_function("document.querySelectorAll('#daily-board tr').length === 3", timeout=15_000)
        page.wait_for_selector("text=The bots' own play", timeout=30_000)  # the bots' result comes in by itself
        board = page.inner_text("#daily-board")
        assert "Asha" in board and "Bela" in board
        assert page.query_selector("#daily-play-0") is None  # played: the deal offers no second game
        page_walk.check_screen(page, width, f"daily-leaderboard-{width}")
    second.set_viewport_size({"width": 320, "height": 700})  # the narrowest phone
    second.wait_for_timeout(200)
    page_walk.check_screen(second, 320, "daily-leaderboard-320")
    # each player's own game replays on the replay page
    first.click("#daily-deals a[href*='/replay/']")
    first.wait_for_selector("#replay-next")
    assert not first.errors and not second.errors
