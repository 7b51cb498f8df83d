"""The replay shows the learned value's estimate where the solver could not answer, marked as an estimate.

Debian's chromium, headless, driven by Playwright, as in test_e2e.py.  The server's node limit is one
node, so a first-trick decision that needs a search is left unsolved and carries an estimate.  A play
after which its team wins the hand needs none (the next position's result says it kept the result), so
a hand may have no estimate: the test looks at the first hand that has one.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from tests.web.helpers import LiveServer  # noqa: E402
from tests.web.page_walk import CHROMIUM  # noqa: E402

SHOTS = Path(__file__).parent / "screenshots"

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")


def _finished_match(server: LiveServer) -> str:
    """Four random bots play a Taash match; the table's id once it is in the history."""
    body = json.dumps({"rules": "taash", "seats": [{"kind": "bot", "bot": "random"}] * 4}).encode()
    request = urllib.request.Request(server.url + "/api/tables", body, {"Content-Type": "application/json"})
    table: str = json.loads(urllib.request.urlopen(request, timeout=10).read())["id"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if json.loads(urllib.request.urlopen(server.url + "/api/history", timeout=10).read())["matches"]:
            return table
        time.sleep(0.2)
    raise AssertionError("the match did not finish")


def _get(server: LiveServer, path: str) -> dict[str, object]:
    answer: dict[str, object] = json.loads(urllib.request.urlopen(server.url + path, timeout=240).read())
    return answer


def _hand_with_estimates(server: LiveServer, table: str) -> tuple[int, int]:
    """A hand whose first trick has a decision left unsolved with an estimate (most hands have one), and how
    many clicks on "next" show its first trick from the replay's start.  Its analysis is then kept for the page."""
    hands = _get(server, f"/api/history/{table}/1/replay")["replay"]["hands"]  # type: ignore[index]
    clicks = 1
    for number, hand in enumerate(hands):
        decisions = _get(server, f"/api/history/{table}/1/analysis/{number}")["hand"]["decisions"]  # type: ignore[index]
        if any(item["trick"] == 1 and not item["solved"] and "estimate" in item for item in decisions):
            return number, clicks
        clicks += len(hand["tricks"]) + 1
    raise AssertionError("no hand of the match left a first-trick decision unsolved")


def _analysed_replay(browser: object, server: LiveServer, table: str, lang: str, clicks: int = 1) -> object:
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale=lang)  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(f"{server.url}/replay/{table}/1?lang={lang}")
    page.wait_for_selector("#replay-next")
    for _ in range(clicks):  # the first trick of the hand on screen, where the estimates are
        page.click("#replay-next")
    page.click("#replay-analyse")
    try:  # generous: the first solve in a new server process loads (or compiles) the kernel
        page.wait_for_selector("#analysis .seat-summary", timeout=240_000)
    except playwright_api.Error:
        page.screenshot(path=str(SHOTS / "failure.png"), full_page=True)
        raise
    return page


def test_replay_marks_unsolved_decisions_with_the_models_estimate_in_both_languages(
    browser: object, tmp_path: Path
) -> None:
    server = LiveServer(str(tmp_path / "estimates.sqlite3"), analysis_nodes=1).start()
    try:
        table = _finished_match(server)
        hand, clicks = _hand_with_estimates(server, table)
        page = _analysed_replay(browser, server, table, "en", clicks)
        assert f"Hand {hand + 1} of" in page.inner_text("#main")  # type: ignore[attr-defined]
        estimates = page.query_selector("#estimates")  # type: ignore[attr-defined]
        assert estimates is not None, "no estimate shown for the unsolved first trick"
        text = estimates.inner_text()
        assert "Estimates (not exact)" in text and "learned value's estimate" in text
        listed = page.eval_on_selector_all("#estimates li", "all => all.length")  # type: ignore[attr-defined]
        assert listed >= 1 and text.lower().count("estimate") >= listed
        # On the trick: a "~" of its own class for each estimated decision, never the marks of exact findings.
        marks = page.eval_on_selector_all(  # type: ignore[attr-defined]
            ".tricks .verdict.estimate", "all => all.map(m => [m.textContent, m.title])"
        )
        # the title says what `dehla analyse` says of the decision (dehla.analysis.render), in the page's language
        assert marks and all(mark == "~" and title.startswith("not solved; ~ estimate: ") for mark, title in marks)
        assert re.search(rf"\b{listed} early decisions? (was|were) too big to solve", text)
        # Estimates are not mistakes: the list of costly plays names exact findings only.
        costly = page.eval_on_selector_all(".mistakes li", "all => all.map(li => li.textContent)")  # type: ignore[attr-defined]
        assert not any("estimate" in line for line in costly)
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "replay-estimates.png"), full_page=True)  # type: ignore[attr-defined]
        assert not page.errors  # type: ignore[attr-defined]

        spanish = _analysed_replay(browser, server, table, "es", clicks)
        text = spanish.inner_text("#estimates")  # type: ignore[attr-defined]
        assert "Estimaciones (no exactas)" in text and "estimación" in text
        titles = spanish.eval_on_selector_all(".tricks .verdict.estimate", "all => all.map(m => m.title)")  # type: ignore[attr-defined]
        assert titles and all(title.startswith("sin resolver; ~ estimación: ") for title in titles)
        spanish.screenshot(path=str(SHOTS / "replay-estimates-es.png"), full_page=True)  # type: ignore[attr-defined]
        assert not spanish.errors  # type: ignore[attr-defined]
    finally:
        server.stop()
