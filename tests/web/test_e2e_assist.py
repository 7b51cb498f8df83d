"""End-to-end, in Debian's chromium: a player asks for a hint and plays the hinted card, takes back a card against
bots, and claims the rest of the hand (a claim the solver proves, one the other team refuses).

Screenshots of a claim waiting for the other team's answer, and of its refusal as the claimer is told it, are kept in
tests/web/screenshots/ (claim-*.png, at 320, 375 and 1280 px), each with no sideways scrolling and no axe violation;
so is a hint that says why (hint-reasons-*.png, 375 and 1280 px).
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from tests.web import page_walk  # noqa: E402
from tests.web.helpers import LiveServer  # noqa: E402

from dehla.play.reasons import REASON_TEMPLATES  # noqa: E402

SHOTS = page_walk.SHOTS
#: The widths of the claim's screenshots (issue 38): a desktop, a common phone and the narrowest phone.
WIDTHS = (1280, 375, 320)

pytestmark = page_walk.NEEDS_CHROMIUM


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from page_walk.serve(tmp_path_factory, "assist", bot_delay=0.02, hand_pause=0.3)


def _table_with_bots(page: Any, server: LiveServer, preset: str = "mendikot") -> None:
    """A table of ``preset``: this page at seat 0, bots in the other seats."""
    page.goto(server.url + "/")
    page.fill("#player-name", "Asha")
    page.select_option("#preset", preset)
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".felt")


def _my_card_turn(page: Any, timeout: float = 30000) -> None:
    """Wait until this page may play a card (the trump call made first where there is one)."""
    deadline = time.monotonic() + timeout / 1000
    while time.monotonic() < deadline:
        call = page.query_selector(".call-row button")
        if call is not None:
            with contextlib.suppress(playwright_api.Error):
                call.click(timeout=1000)
        if page.query_selector(".hand button.legal"):
            return
        page.wait_for_timeout(50)
    raise AssertionError("no card to play in time")


def _toast(page: Any) -> str:
    return str(page.eval_on_selector("#toast", "box => box.textContent"))


def _hand(page: Any) -> list[str]:
    return list(page.eval_on_selector_all(".hand button", "all => all.map(b => b.dataset.action)"))


def test_a_player_asks_for_a_hint_then_plays_the_hinted_card(browser: Any, server: LiveServer) -> None:
    page = page_walk.new_page(browser, height=900)
    _table_with_bots(page, server)
    _my_card_turn(page)
    page.keyboard.press("h")  # the key asks as the button does
    page.wait_for_selector("#hint-box", timeout=90000)
    words = page.inner_text("#hint-box")
    assert "the strongest bot would play" in words
    hinted = page.get_attribute(".hand button.hinted", "data-action")
    assert hinted and hinted in _hand(page)
    page.click(".hand button.hinted")
    page_walk.until(lambda: hinted not in _hand(page), 30, page)
    assert hinted not in _hand(page)
    assert not page.errors


def _is_reason(line: str) -> bool:
    """Is ``line`` one of a hint's reasons in English (``play.reasons``), whatever its card, suit or seat?"""
    for template in REASON_TEMPLATES.values():
        pattern = re.sub(r"\\\{\w+\\\}", ".+", re.escape(template))
        if re.fullmatch(pattern, line):
            return True
    return False


def test_a_player_asks_for_hints_until_one_says_why_in_words(browser: Any, server: LiveServer) -> None:
    page = page_walk.new_page(browser, height=900)
    _table_with_bots(page, server)
    for _ in range(13):  # a hand of mendikot: some hint of it says what its card does (trumps, wins, throws away)
        _my_card_turn(page)
        page.click("#hint-button")
        page.wait_for_selector("#hint-box", timeout=90000)
        lines = [line for line in page.inner_text("#hint-box").splitlines() if line.strip()]
        assert "the strongest bot would play" in lines[0]
        if any(_is_reason(line) for line in lines[1:]):
            break
        hinted = page.get_attribute(".hand button.hinted", "data-action")
        page.click(".hand button.hinted")
        page_walk.until(lambda hinted=hinted: hinted not in _hand(page), 30, page)
    else:
        raise AssertionError("no hint of a whole hand gave a reason")
    page.screenshot(path=str(SHOTS / "hint-reasons-desktop.png"))
    page.set_viewport_size({"width": 375, "height": 800})
    page.wait_for_timeout(400)  # the page lays its hand out again 80 ms after a resize
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    assert any(_is_reason(line) for line in page.inner_text("#hint-box").splitlines())
    page.screenshot(path=str(SHOTS / "hint-reasons-phone.png"), full_page=True)
    assert not page.errors


def test_a_player_takes_back_a_card_played_against_bots(browser: Any, server: LiveServer) -> None:
    page = page_walk.new_page(browser, height=900)
    _table_with_bots(page, server)
    _my_card_turn(page)
    before = _hand(page)
    played = page.get_attribute(".hand button.legal", "data-action")
    page.click(".hand button.legal")
    page_walk.until(lambda: played not in _hand(page), 30, page)
    page.wait_for_selector("#undo-button:not([disabled])")
    page.click("#undo-button")
    page.wait_for_selector(f'.hand button[data-action="{played}"]')
    assert sorted(_hand(page)) == sorted(before)
    assert "took back" in _toast(page)
    assert not page.errors


def _play_to_my_turn(pages: list[Any], mine: Any, timeout: float = 60) -> None:
    """Every page plays its first legal card until ``mine`` may play, at the play (not the call)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if mine.query_selector(".hand button.legal") and mine.query_selector("#claim-tricks"):
            return
        for page in pages:
            for selector in (".call-row button", ".hand button.legal"):
                button = page.query_selector(selector)
                if button is None or (page is mine and selector == ".hand button.legal"):
                    continue
                with contextlib.suppress(playwright_api.Error):
                    button.click(timeout=1000)
        pages[0].wait_for_timeout(60)
    raise AssertionError("never my turn")


def test_a_claim_is_refused_by_the_other_team_and_reveals_no_card(browser: Any, server: LiveServer) -> None:
    host = page_walk.new_page(browser, height=900, bypass_csp=True)  # axe is injected past the page's CSP
    host.goto(server.url + "/")
    host.fill("#player-name", "Bela")
    host.select_option("#preset", "mendikot")
    host.select_option("#seat-1", "person")
    host.select_option("#seat-3", "person")
    host.click("#create-form button[type=submit]")
    host.wait_for_selector("#start-now")
    links = [box.input_value() for box in host.query_selector_all("input.invite")]
    guests = []
    for link in links:
        guest = page_walk.new_page(browser, height=900, bypass_csp=True)
        guest.goto(link)
        guests.append(guest)
    for page in [host, *guests]:
        page.wait_for_selector(".felt")
    _play_to_my_turn([host, *guests], host)
    host.click("#claim-tricks")
    guest = guests[0]
    guest.wait_for_selector("#claim-accept")
    assert "claims every remaining trick" in guest.inner_text("#claim-box")
    assert "You claim every remaining trick." in host.inner_text("#claim-box")  # not "You claims"
    assert guest.is_disabled("#undo-button") and guest.is_disabled("#hint-button")  # not while a claim waits
    for width in WIDTHS:  # the claim waiting for this player's answer, on a desktop and on phones
        guest.set_viewport_size({"width": width, "height": 900 if width > 500 else 700})
        guest.wait_for_timeout(300)
        page_walk.check_screen(guest, width, f"claim-waiting-{width}")
    guest.click("#claim-refuse")
    page_walk.until(lambda: "refused" in _toast(host), 30, host)
    assert _toast(host) == "The claim was refused."
    # the notice is kept up for the screenshots (its timer hides it after 4.5 s)
    host.evaluate("async () => { const {app} = await import('/static/js/state.js'); clearTimeout(app.toastTimer); }")
    for width in WIDTHS:
        host.set_viewport_size({"width": width, "height": 900 if width > 500 else 700})
        host.wait_for_timeout(300)
        page_walk.check_screen(host, width, f"claim-refused-{width}")
    assert not host.query_selector("#claim-box") and host.query_selector(".hand button.legal")
    assert not host.errors and not any(page.errors for page in guests)


def test_a_claim_the_solver_proves_ends_the_hand(browser: Any, server: LiveServer) -> None:
    page = page_walk.new_page(browser, height=900)
    _table_with_bots(page, server)
    claims = {"accepted": 0, "refused": 0}

    def claim_the_tens() -> bool:
        """The test's own step: on its turn with four cards or fewer, claim the tens (False: it acted); else, and
        after a refusal, ``play_until`` plays a card or goes on to the next hand."""
        if (
            len(_hand(page)) > 4
            or not page.query_selector(".hand button.legal")
            or not page.query_selector("#claim-tens")
        ):
            return True
        page.click("#claim-tens")
        page_walk.until(lambda: "refused" in _toast(page) or "accepted" in _toast(page), 30, page)
        if "accepted" in _toast(page):
            claims["accepted"] += 1
            return False
        claims["refused"] += 1
        page.evaluate("document.getElementById('toast').textContent = ''")
        return True

    def a_claim_held() -> bool:
        return claims["accepted"] > 0

    page_walk.play_until(page, a_claim_held, timeout=240, click=claim_the_tens)
    assert claims["accepted"], f"no claim held in time ({claims['refused']} refused)"
    page.wait_for_selector("#hand-summary")
    assert not page.errors
