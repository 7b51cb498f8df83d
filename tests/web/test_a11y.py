"""Accessibility: axe-core (installed from npm by test.sh) finds no violation on any screen a player meets.

The page sends a strict Content-Security-Policy, so axe is injected into a context
that bypasses it (``bypass_csp``); everything else is the page as players get it.
Screens: the lobby, a table in play, the result dialog, the history, a replay,
the scorekeeper and the daily duplicate, at a desktop size and on a phone, in English and (on a phone) in
every other language offered, with the page's ``lang`` attribute set to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from tests.web import page_walk  # noqa: E402
from tests.web.helpers import LiveServer  # noqa: E402

from dehla.web import i18n  # noqa: E402

pytestmark = [
    pytest.mark.skipif(not Path(page_walk.CHROMIUM).exists(), reason="Debian's chromium is not installed"),
    pytest.mark.skipif(not page_walk.AXE.exists(), reason="axe-core is not installed (test.sh installs it from npm)"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = str(tmp_path_factory.mktemp("a11y") / "a11y.sqlite3")
    with LiveServer(db, bot_delay=0.02, hand_pause=60, trick_pause=0.1) as live:
        yield live


@pytest.fixture(scope="module")
def finished(server: LiveServer) -> tuple[str, int]:
    return page_walk.finished_match(server)


SCREENS: dict[str, Callable[[Any, LiveServer, tuple[str, int], str], object]] = {
    "lobby": lambda page, server, match, lang: page_walk.lobby(page, server, lang),
    "table": lambda page, server, match, lang: page_walk.table_in_play(page, server, lang),
    "hand-result": lambda page, server, match, lang: page_walk.hand_result(page, server, lang),
    "match-result": lambda page, server, match, lang: page_walk.result_dialog(page, server, lang),
    "history": lambda page, server, match, lang: page_walk.history(page, server, lang),
    "replay": lambda page, server, match, lang: page_walk.replay(page, server, match, lang),
    "scorekeeper": lambda page, server, match, lang: page_walk.scorekeeper(page, server, lang),
    "daily": lambda page, server, match, lang: page_walk.daily_played(page, server, lang),
}
#: English at a desktop size and on a phone; every other language on a phone, where its longer words wrap most.
SIZES = [("en", 1280), ("en", 375), *((lang, 375) for lang in i18n.LANGUAGES if lang != "en")]


@pytest.mark.parametrize(("lang", "width"), SIZES)
@pytest.mark.parametrize("screen", list(SCREENS))
def test_no_accessibility_violation(
    browser: Any, server: LiveServer, finished: tuple[str, int], screen: str, lang: str, width: int
) -> None:
    page = page_walk.new_page(browser, lang=lang, width=width, height=800 if width > 500 else 812, bypass_csp=True)
    try:
        SCREENS[screen](page, server, finished, lang)
        assert page.evaluate("document.documentElement.lang") == lang  # screen readers pick the voice by it
        found = page_walk.violations(page)
        if found:
            page_walk.SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(page_walk.SHOTS / "failure.png"), full_page=True)
        assert not found, f"axe on the {screen} in {lang} at {width} px:\n{page_walk.describe(found)}"
        assert not page.errors, page.errors
    finally:
        page.context.close()
