"""End-to-end, a deal anyone can check: the table shows the commitment while a hand is played and the seed once it is
over; the replay's "Check this deal" recomputes the deal in the browser (Web Crypto) and agrees with ``dehla verify``,
and both refuse a record whose deal was altered."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from tests.test_fairdeal import VECTORS  # noqa: E402
from tests.web import page_walk  # noqa: E402
from tests.web.helpers import LiveServer  # noqa: E402

from dehla.cli.main import main  # noqa: E402

SHOTS = page_walk.SHOTS
#: The ``verify`` fixture: ``dehla verify`` on a record, its status and output.
Verify = Callable[[dict[str, Any]], tuple[int, str]]

pytestmark = page_walk.NEEDS_CHROMIUM


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from page_walk.serve(tmp_path_factory, "verify", bot_delay=0.02, hand_pause=0.5)


@pytest.fixture(scope="module")
def finished(server: LiveServer) -> tuple[str, dict[str, Any]]:
    """A match of four bots played to its end: the table and its kept record."""
    table, match_no = page_walk.finished_match(server, 60, trick_pause=0)
    return table, server.get(f"/api/history/{table}/{match_no}/record")


@pytest.fixture
def verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Verify:
    """``dehla verify`` on a record written to a file: its exit status and what it printed."""

    def run(record: dict[str, Any]) -> tuple[int, str]:
        path = tmp_path / "record.json"
        path.write_text(json.dumps(record))
        status = main(["verify", str(path)])
        return status, capsys.readouterr().out

    return run


def _swapped(record: dict[str, Any]) -> tuple[dict[str, Any], str, str]:
    """The record with the fourth card of seat 0 and the ninth of seat 2 of its first hand swapped."""
    altered = json.loads(json.dumps(record))
    cards = altered["hands"][0]["cards"]
    first, second = cards[0].split(), cards[2].split()
    first[3], second[8] = second[8], first[3]
    cards[0], cards[2] = " ".join(first), " ".join(second)
    return altered, first[3], second[8]


def test_a_player_sees_the_commitment_while_playing_and_the_seed_when_the_hand_is_over(
    browser: Any, server: LiveServer
) -> None:
    page = page_walk.new_page(browser, width=1100, height=900)
    page.goto(server.url + "/")
    page.fill("#player-name", "Asha")
    page.click("#quick-play")
    page.wait_for_selector("#deal-commitment")
    commitment = page.get_attribute("#deal-commitment", "data-commitment")
    assert commitment and len(commitment) == 64 and commitment[:12] in page.inner_text(".table-head")
    page_walk.play_until(page, "#hand-summary")
    page.wait_for_selector("#hand-summary #revealed-seed")
    page.click("#revealed-seed summary")
    seed = page.inner_text("#revealed-seed code").strip()
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
    page.set_viewport_size({"width": 375, "height": 812})
    page.wait_for_timeout(200)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the table is {width} px wide on a 375 px phone"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "hand-summary-seed-phone.png"))
    assert not page.errors


def test_a_finished_hands_deal_is_checked_by_the_button_and_by_dehla_verify(
    browser: Any, server: LiveServer, finished: tuple[str, dict[str, Any]], verify: Verify
) -> None:
    table, record = finished
    page = page_walk.new_page(browser, width=375, height=900)
    page.goto(f"{server.url}/replay/{table}/1")
    page.wait_for_selector("#check-deal")
    assert record["hands"][0]["seed"] in page.inner_text("#deal-check")
    page.click("#check-deal")
    page.wait_for_selector("#deal-check-result .check-good")
    assert "This deal follows from the revealed seed." in page.inner_text("#deal-check-result")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the replay is {width} px wide on a 375 px phone"
    SHOTS.mkdir(exist_ok=True)
    page.locator("#deal-check").screenshot(path=str(SHOTS / "replay-deal-check-phone.png"))
    assert not page.errors
    status, out = verify(record)
    assert status == 0 and "hand 0: the deal follows from the revealed seed" in out


def test_an_altered_deal_is_refused_by_the_button_and_by_dehla_verify(
    browser: Any, server: LiveServer, finished: tuple[str, dict[str, Any]], verify: Verify
) -> None:
    table, record = finished
    altered, moved_to_0, moved_to_2 = _swapped(record)
    page = page_walk.new_page(browser, width=1100, height=900)

    def serve_altered(route: Any) -> None:
        response = route.fetch()
        data = response.json()
        data["record"] = altered
        route.fulfill(response=response, body=json.dumps(data))

    page.route(f"**/api/history/{table}/1/replay", serve_altered)
    page.goto(f"{server.url}/replay/{table}/1")
    page.click("#check-deal")
    page.wait_for_selector("#deal-check-result .check-problems")
    said = page.inner_text("#deal-check-result")
    assert "This deal does not follow from the revealed seed" in said
    names = record["players"]
    assert f"{names[0]} holds {_short(moved_to_0)}, which the seed does not deal them." in said
    assert f"{names[2]} lacks {_short(moved_to_0)}, which the seed deals them." in said
    assert f"{names[2]} holds {_short(moved_to_2)}" in said
    page.screenshot(path=str(SHOTS / "replay-deal-refused.png"), full_page=True)
    assert not page.errors
    status, out = verify(altered)
    assert status == 1 and f"hand 0: MISMATCH: seat 0 holds {moved_to_0}, which the seed does not deal it" in out


def _short(card: str) -> str:
    """A card as the page writes it in text (cards.js cardShort): rank and suit symbol."""
    return card[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[-1]]


def test_the_pages_derivation_deals_the_fixed_vectors(browser: Any, server: LiveServer) -> None:
    """The browser's own derivation (js/verify.js, Web Crypto) against the vectors the engine is held to."""
    page = page_walk.new_page(browser, width=1100, height=900)
    page.goto(server.url + "/")
    page.wait_for_selector("#quick-play")
    for seed, preset, hand, cards, drawn in VECTORS:
        players = len(cards)
        dealt = page.evaluate(
            """async ([seed, hand, players, openDraw]) => {
                const verify = await import("/static/js/verify.js");
                return verify.dealFromSeed(verify.hexBytes(seed), hand, players, openDraw);
            }""",
            [seed, hand, players, drawn is not None],
        )
        assert [" ".join(seat) for seat in dealt["hands"]] == cards, preset
        assert dealt["drawn"] == drawn
    assert not page.errors
