"""End-to-end: Debian's chromium, headless, driven by Playwright; people click cards against bots and each other.

Screenshots of tables in play are saved in tests/web/screenshots/ for people to look at.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from tests.web import page_walk  # noqa: E402
from tests.web.helpers import LiveServer  # noqa: E402

SHOTS = page_walk.SHOTS

pytestmark = page_walk.NEEDS_CHROMIUM


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from page_walk.serve(tmp_path_factory, "e2e", bot_delay=0.03, hand_pause=0.5)


def _click_once(page: Any) -> bool:
    """Make this page's move if it is its turn: call trump, or play the first legal card."""
    for selector in (".call-row button", ".hand button.legal"):
        button = page.query_selector(selector)
        if button is None:
            continue
        try:
            if not button.is_enabled():
                continue
            button.click(timeout=2000)
        except playwright_api.Error:
            return False  # the page re-rendered between finding the button and clicking it; look again
        return True
    return False


def _play_hand(pages: list[Any], timeout: float = 60, stop_after: int | None = None) -> int:
    """Click for every page until each shows the hand summary (or ``stop_after`` clicks); returns the clicks."""
    clicks = 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if stop_after is not None and clicks >= stop_after:
            return clicks
        if all(page.query_selector("#hand-summary") for page in pages):
            return clicks
        moved = False
        for page in pages:
            if _click_once(page):
                clicks += 1
                moved = True
                page.wait_for_timeout(60)
        if not moved:
            pages[0].wait_for_timeout(40)
    SHOTS.mkdir(exist_ok=True)
    pages[0].screenshot(path=str(SHOTS / "failure.png"), full_page=True)
    raise AssertionError("the hand did not finish in time (see screenshots/failure.png)")


def _quick_game(page: Any, server: LiveServer, name: str = "Asha") -> None:
    page.goto(server.url + "/")
    page.fill("#player-name", name)
    page.click("#quick-play")
    page.wait_for_selector(".felt")


def test_a_person_and_three_bots_play_a_whole_hand_by_clicking(browser: Any, server: LiveServer) -> None:
    page = page_walk.new_page(browser, width=1100, height=900)
    _quick_game(page, server)
    assert "You: seat 1" in page.inner_text(".table-head")
    assert page.query_selector(".explain")  # the game's words explained on first use
    # keyboard play: the first legal choice is a button reachable by focus, played with Enter
    page.wait_for_selector(".call-row button, .hand button.legal")
    page.focus(".call-row button, .hand button.legal")
    page.keyboard.press("Enter")
    _play_hand([page], stop_after=6)
    page.wait_for_selector(".hand button.legal")
    # read in one step in the page, so that a re-render cannot detach a button between two calls
    dimmed = ".hand button.dimmed"
    assert page.eval_on_selector_all(dimmed, "all => all.every(b => b.getAttribute('aria-disabled') === 'true')")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "table-desktop.png"))
    page.set_viewport_size({"width": 375, "height": 812})
    page.wait_for_timeout(300)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width} px wide on a 375 px phone"
    page.screenshot(path=str(SHOTS / "table-phone.png"), full_page=True)
    _play_hand([page])
    summary = page.inner_text("#hand-summary")
    assert "Tens" in summary and ("wins the hand" in summary or "Nobody" in summary)
    assert not page.errors


def test_two_people_in_two_browsers_play_against_each_other(browser: Any, server: LiveServer) -> None:
    host = page_walk.new_page(browser, width=1100, height=900)
    host.goto(server.url + "/")
    host.fill("#player-name", "Bela")
    host.select_option("#preset", "mendikot")
    host.select_option("#seat-1", "person")
    host.click("#create-form button[type=submit]")
    host.wait_for_selector("#start-now")
    link = host.input_value("input.invite")
    guest = page_walk.new_page(browser, width=1100, height=900)
    guest.goto(link)
    guest.wait_for_selector(".felt")
    host.wait_for_selector(".felt")
    assert "You: seat 2" in guest.inner_text(".table-head")
    assert "#token" not in guest.url  # the token moved to the browser's storage
    _play_hand([host, guest])
    assert "Tens" in guest.inner_text("#hand-summary")
    host.screenshot(path=str(SHOTS / "hand-summary.png"))
    assert not host.errors and not guest.errors


def test_a_reload_mid_hand_resumes_the_seat(browser: Any, server: LiveServer) -> None:
    page = page_walk.new_page(browser, width=1100, height=900)
    _quick_game(page, server)
    _play_hand([page], stop_after=4)
    page.wait_for_selector(".hand button.legal")
    before = page.eval_on_selector_all(".hand button", "all => all.map(b => b.dataset.card)")
    page.reload()
    page.wait_for_selector(".hand button.legal")
    after = page.eval_on_selector_all(".hand button", "all => all.map(b => b.dataset.card)")
    assert after == before and "You: seat 1" in page.inner_text(".table-head")
    _play_hand([page])


def test_a_server_restart_resumes_the_table(browser: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "restart.sqlite3")
    server = LiveServer(db, bot_delay=0.03, hand_pause=0.5).start()
    try:
        page = page_walk.new_page(browser, width=1100, height=900)
        _quick_game(page, server)
        _play_hand([page], stop_after=5)
        page.wait_for_selector(".hand button.legal")
        held = len(page.query_selector_all(".hand button"))
        server.kill()
        page.wait_for_selector("text=reconnecting", timeout=5000)
        server = LiveServer(db, port=server.port, bot_delay=0.03, hand_pause=0.5).start()
        page.wait_for_selector(".hand button.legal", timeout=15000)
        assert len(page.query_selector_all(".hand button")) == held
        _play_hand([page])
    finally:
        server.stop()


def test_the_spanish_interface(browser: Any, server: LiveServer) -> None:
    page = page_walk.new_page(browser, width=375, height=900, lang="es")
    page.goto(server.url + "/")
    page.wait_for_selector("#quick-play")
    assert page.inner_text("#quick-play") == "Jugar ya contra bots"
    page.click("#quick-play")
    page.wait_for_selector(".felt")
    assert "Dehla: un diez" in page.inner_text(".notes")
    _play_hand([page], stop_after=3)
    page.screenshot(path=str(SHOTS / "table-phone-es.png"), full_page=True)
    _play_hand([page])
    assert "Dieces" in page.inner_text("#hand-summary")
    page.select_option("#lang", "en")
    page.wait_for_selector("text=Tens")
    assert not page.errors


def test_a_finished_match_replays_trick_by_trick_with_the_solvers_analysis(browser: Any, tmp_path: Path) -> None:
    import json
    import urllib.request

    server = LiveServer(str(tmp_path / "replay.sqlite3"), analysis_nodes=200_000).start()
    try:
        body = json.dumps({"rules": "taash", "seats": [{"kind": "bot", "bot": "random"}] * 4}).encode()
        request = urllib.request.Request(server.url + "/api/tables", body, {"Content-Type": "application/json"})
        table = json.loads(urllib.request.urlopen(request, timeout=10).read())["id"]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if json.loads(urllib.request.urlopen(server.url + "/api/history", timeout=10).read())["matches"]:
                break
            time.sleep(0.2)
        page = page_walk.new_page(browser, width=1100, height=900)
        page.goto(f"{server.url}/history")
        page.click("text=Replay")
        page.wait_for_selector("#replay-next")
        assert page.url.endswith(f"/replay/{table}/1")
        for shown in range(1, 4):
            page.click("#replay-next")
            assert len(page.query_selector_all(".tricks li")) == shown
        page.click("#replay-analyse")
        # generous: the first solve in a new server process loads (or, with a cold cache, compiles) the kernel
        try:
            page.wait_for_selector("#analysis .seat-summary", timeout=240_000)
        except playwright_api.Error:
            page.screenshot(path=str(SHOTS / "failure.png"), full_page=True)
            raise
        for _ in range(20):  # to the end of the first hand: its last tricks are always solved
            shown, total = re.findall(r"Trick (\d+) of (\d+)", page.inner_text(".replay-buttons"))[0]
            if shown == total:
                break
            page.click("#replay-next")
        marks = page.eval_on_selector_all(".tricks .verdict", "all => all.map(m => m.textContent)")
        assert marks and set(marks) <= {"✓", "✗", "?", "~"} and ("✓" in marks or "✗" in marks)  # ~: an estimate
        # one mark per decision of the hand (cards, and the call, hide and reveal where there are some) ...
        decisions = page.eval_on_selector_all(".tricks [data-index]", "all => all.length")
        assert len(marks) == decisions
        # ... so that the text's count of decisions too big to solve is the count of "?" marks
        unsolved = page.query_selector("#unsolved")
        said = int(re.findall(r"\d+", unsolved.inner_text())[0]) if unsolved else 0
        assert said == marks.count("?")
        assert "Tens" in page.inner_text(".replay")
        page.screenshot(path=str(SHOTS / "replay-analysis.png"), full_page=True)
        assert not page.errors
    finally:
        server.stop()
