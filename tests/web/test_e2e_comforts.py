"""The table's comforts, as a player meets them in Debian's chromium: a hand you can read while you wait,
the only legal card played for you (a setting), a phone's hand and felt, seats and teams counted from 1.

Screenshots of the table mid-trick at 320, 375 and 1280 px are kept in tests/web/screenshots/ (checked by axe).
"""

from __future__ import annotations

import contextlib
import itertools
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from tests.web import page_walk  # noqa: E402
from tests.web.helpers import LiveServer  # noqa: E402

pytestmark = page_walk.NEEDS_CHROMIUM

SHOTS = page_walk.SHOTS

#: Every card of the hand as the page shows it: its class, aria-disabled, accessible words and drawn opacity.
READ_HAND = """() => [...document.querySelectorAll('.hand .card-button')].map((b) => ({
  cls: b.className, disabled: b.getAttribute('aria-disabled'), text: b.textContent,
  opacity: Number(getComputedStyle(b.querySelector('.card')).opacity) * Number(getComputedStyle(b).opacity)}))"""


#: No card of the page's motions (the deal, a card travelling to the trick) is still on its way.
SETTLED = "() => !document.getAnimations().some((a) => String(a.id).startsWith('dehla-') && a.playState === 'running')"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # bots think a little, so that there is a time to wait between turns
    yield from page_walk.serve(tmp_path_factory, "comforts", bot_delay=0.15, hand_pause=0.5, trick_pause=0.1)


def _once_settled(page: Any, read: str) -> Any:
    """``read`` (a script answering the hand or null), read again once no card is moving if it answered: a card
    flying in or the trick going to its pile may outlast a bot's thought here, so a still moment is waited for."""
    if not page.evaluate(read):
        return None
    with contextlib.suppress(playwright_api.Error):
        page.wait_for_function(SETTLED, timeout=3000)
    return page.evaluate(read)


def test_reading_the_hand_while_waiting_and_on_your_turn(browser: Any, server: LiveServer) -> None:
    page = page_walk.seated(browser, server)
    # while a bot thinks, every card shows in full: none dimmed, none marked as not playable for a reason
    # (read once the deal has landed: a card still flying in from the dealer is drawn fading in)
    waiting = page_walk.play_until(
        page,
        lambda: _once_settled(
            page,
            "() => { const b = [...document.querySelectorAll('.hand .card-button')];"
            " return b.length && b.every((x) => x.classList.contains('waiting'))"
            " ? (" + READ_HAND + ")() : null; }",
        ),
    )
    assert all(card["opacity"] == 1 and "dimmed" not in card["cls"] for card in waiting)
    assert all("cannot" not in card["text"].lower() for card in waiting)
    # on a turn that must follow suit, only the cards that may not be played are dimmed, each saying why
    hand = page_walk.play_until(
        page,
        lambda: _once_settled(
            page,
            "() => { const b = [...document.querySelectorAll('.hand .card-button')];"
            " return b.some((x) => x.classList.contains('dimmed')) && b.some((x) => x.classList.contains('legal'))"
            " ? (" + READ_HAND + ")() : null; }",
        ),
    )
    dimmed = [card for card in hand if "dimmed" in card["cls"]]
    legal = [card for card in hand if "legal" in card["cls"]]
    assert all(card["disabled"] == "true" and card["opacity"] < 0.8 for card in dimmed)
    assert all("you must follow suit" in card["text"] for card in dimmed)
    assert all(card["disabled"] is None and card["opacity"] == 1 for card in legal)
    # the arrow keys read every card, the dimmed ones too, and a dimmed card does nothing when pressed
    page.focus(".hand .card-button.legal")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    at = page.evaluate("() => [...document.querySelectorAll('.hand .card-button')].indexOf(document.activeElement)")
    assert at == 1
    dimmed_at = page.evaluate(
        "() => { const b = [...document.querySelectorAll('.hand .card-button')];"
        " const i = b.findIndex((x) => x.classList.contains('dimmed')); b[i].focus(); return i; }"
    )
    held = len(hand)
    page.keyboard.press("Enter")
    page.wait_for_timeout(400)
    assert page.eval_on_selector_all(".hand .card-button", "all => all.length") == held and dimmed_at >= 0
    assert not page.errors


def test_the_only_legal_card_is_played_for_you_once_the_setting_is_on(browser: Any, server: LiveServer) -> None:
    page = page_walk.seated(browser, server)
    # not offered before the follow-suit rule has been met (the bots may already have brought it about)
    assert page.evaluate(
        "() => localStorage.getItem('dehla.follow_seen') !== null || !document.querySelector('#auto-play')"
    )
    page_walk.play_until(page, lambda: page.query_selector("#auto-play"))
    assert not page.is_checked("#auto-play")  # offered, off until the player turns it on
    page.check("#auto-play")
    forced: list[int] = []

    def play_unless_forced() -> bool:
        """Play as a person would (the first legal card), except a turn with one legal card: that one must go by
        itself.  The test plays every card itself, so that no card of a forced turn is clicked for it."""
        legal = page.query_selector_all(".hand button.legal")
        if len(legal) == 1 and not page.query_selector(".call-row button"):
            forced.append(1)
            return False
        if len(legal) > 1:
            with contextlib.suppress(Exception):  # re-rendered under the click: the next look tries again
                legal[0].click(timeout=2000)
            return False
        return True

    # to the end of a hand (its result, or the match's when it has ended): the hand's last card, which is always
    # forced, can only have gone by itself, as nothing else plays a card of the person's
    page_walk.play_until(
        page,
        lambda: page.query_selector("#hand-summary, #match-summary"),
        click=play_unless_forced,
        moves=".call-row button:not([disabled])",
    )
    assert forced  # the hand's last card at least was seen waiting to go by itself
    assert not page.errors


CARD_BOXES = """() => ({
  rows: [...document.querySelectorAll('.hand .hand-row')].map((row) =>
    [...row.querySelectorAll('.card')].map((card) => card.getBoundingClientRect().left)),
  played: [...document.querySelectorAll('.felt .played .card')].map((card) => card.getBoundingClientRect().toJSON()),
  seats: [...document.querySelectorAll('.felt .seat')].map((seat) => seat.getBoundingClientRect().toJSON()),
  scroll: document.documentElement.scrollWidth})"""


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


@pytest.mark.parametrize("width", [320, 375, 1280])
def test_a_phone_shows_44_px_of_every_card_and_played_cards_cover_no_name(
    browser: Any, server: LiveServer, width: int
) -> None:
    page = page_walk.seated(browser, server, width=width, axe=True)
    # mid-trick at the person's turn, with the cards of two seats or more on the felt
    page_walk.play_until(
        page,
        lambda: (
            page.query_selector(".hand button.legal")
            and len(page.query_selector_all(".felt .played:not(.finished)")) >= 2
            and not page.query_selector(".trick-result")
        ),
        # look before playing: the hand offers the turn while the last trick is still shown and swept away, and a
        # move made then plays through the moment sought (under load, every time: the flake of CI)
        click=lambda: page.query_selector(".felt.trick-done") is None,
    )
    # where the cards lie, not where the deal or a card's flight to the trick happens to be (js/table/motion.js)
    page.wait_for_function(SETTLED, timeout=10000)
    boxes = page.evaluate(CARD_BOXES)
    page_walk.check_screen(page, width, f"table-mid-trick-{width}")  # no sideways scrolling, no axe violation
    assert boxes["scroll"] <= width, f"the page is {boxes['scroll']} px wide at {width} px"
    shown = [b - a for row in boxes["rows"] for a, b in itertools.pairwise(row)]
    assert shown and min(shown) >= 44, f"an overlapped card shows only {min(shown):.1f} px at {width} px"
    for card in boxes["played"]:
        for seat in boxes["seats"]:
            assert not _overlap(card, seat), f"a played card covers a name box at {width} px"
    assert not page.errors


def test_seats_and_teams_are_numbered_from_1(browser: Any, server: LiveServer) -> None:
    page = page_walk.seated(browser, server)
    page_walk.wait_for_turn(page)
    assert "You: seat 1" in page.inner_text(".table-head")
    labels = page.eval_on_selector_all(".felt .seat", "all => all.map((s) => s.getAttribute('aria-label'))")
    assert sorted(label.split(":")[0] for label in labels) == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    # the server's refusals that name a seat read "That seat (Seat 2) ...", never "Seat Seat 2"
    worded = page.evaluate(
        """async () => { const {errorText} = await import("/static/js/errors.js");
        const {app} = await import("/static/js/state.js");
        return Object.entries(app.meta.messages).filter(([, text]) => text.includes("{seat}"))
          .map(([code]) => errorText(code, {seat: 1, text: "x", n: 1}, "", null)); }"""
    )
    assert worded and all("Seat 2" in text and "Seat Seat" not in text for text in worded), worded
    # a watcher's header: each team's number after its name, teams counted from 1
    watched = server.post("/api/tables", {"rules": "pagat", "seats": [{"kind": "bot", "bot": "random"}] * 4})
    watcher = page_walk.new_page(browser)
    watcher.goto(f"{server.url}/t/{watched['id']}")
    watcher.wait_for_selector("#score")
    score = watcher.inner_text("#score")
    assert "Team 1: " in score and "Team 2: " in score and "Team 0" not in score, score
    assert not page.errors and not watcher.errors


def test_spanish_lists_say_y_not_ampersand(browser: Any, server: LiveServer) -> None:
    page = page_walk.seated(browser, server, lang="es")
    page_walk.wait_for_turn(page)
    members = page.eval_on_selector_all(".teams .members", "all => all.map((m) => m.textContent)")
    assert members and all(" y " in text and "&" not in text for text in members), members
    assert "Tú: asiento 1" in page.inner_text(".table-head")


def _guide_steps(page: Any, seen: list[str]) -> Callable[[], bool]:
    """A player's click in a guided hand: "Got it" on each new card (noting its step), else a move."""

    def click() -> bool:
        card = page.query_selector(".guide-card")
        button = page.query_selector("#guide-next")
        if card is None or button is None or page.is_visible("#next-hand"):
            return True  # a move, or the hand's result (a dialog over the page) to close first
        with contextlib.suppress(playwright_api.Error):
            step = card.get_attribute("data-step")
            button.click(timeout=2000)
            if step and step not in seen:
                seen.append(step)
        return False

    return click


def test_the_guided_first_hand_played_to_its_end(browser: Any, server: LiveServer) -> None:
    page = page_walk.new_page(browser)
    page_walk.lobby(page, server)
    # a first-time visitor meets the offer right after the quick game, before the other panels
    order = page.eval_on_selector_all(".lobby > section, .lobby > form", "all => all.map((p) => p.id)")
    assert order.index("guide-panel") < order.index("find-panel")
    page.click("#guide-pagat")
    page.wait_for_selector(".felt")
    seen: list[str] = []
    page_walk.play_until(page, lambda: page.query_selector("#guide-finish"), click=_guide_steps(page, seen))
    assert {"deal", "trump", "follow", "trick", "centre", "tens"} <= set(seen), seen
    assert seen.index("deal") < seen.index("trick")
    if page.is_visible("#next-hand"):
        page.click("#next-hand")  # the hand's result first, then the guide's last card
    page.click("#guide-finish")
    assert page.is_hidden("#guide")
    page.reload()
    page.wait_for_selector(".felt")
    assert page.is_hidden("#guide")  # finished: it does not come back
    page_walk.lobby(page, server)
    order = page.eval_on_selector_all(".lobby > section, .lobby > form", "all => all.map((p) => p.id)")
    assert order[-1] == "guide-panel"  # still offered from the lobby, out of the way
    assert not page.errors


def test_leaving_the_guide_halfway(browser: Any, server: LiveServer) -> None:
    page = page_walk.new_page(browser, width=375, height=700)
    page_walk.lobby(page, server)
    page.click("#guide-mendikot")
    page.wait_for_selector(".felt")
    seen: list[str] = []
    page_walk.play_until(page, lambda: len(seen) >= 2, click=_guide_steps(page, seen))
    page.wait_for_selector("#guide-leave")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "guide-phone.png"))
    page.click("#guide-leave")
    assert page.is_hidden("#guide")
    # the hand goes on as an ordinary one: moves are still made, and no card of the guide comes back
    page_walk.play_until(page, lambda: page.query_selector(".felt .played"))
    assert page.is_hidden("#guide")
    page.reload()
    page.wait_for_selector(".felt")
    page.wait_for_timeout(300)
    assert page.is_hidden("#guide")
    assert not page.errors


def test_the_length_of_a_match_is_said_before_it_starts(browser: Any, server: LiveServer) -> None:
    page = page_walk.new_page(browser)
    page_walk.lobby(page, server)
    quick = page.inner_text("#quick-length")
    assert re.fullmatch(r"First team to 1 kot: usually \d+ to \d+ hands\.", quick), quick
    page.select_option("#preset", "mendikot")
    page.fill("#opt-target", "3")
    assert page.inner_text("#preset-length") == "First team to win 3 hands: usually 3 to 5 hands."
    assert re.fullmatch(r"First team to \d+ points?: usually \d+ to \d+ hands\.", _length_of(page, "taash")), page
    # the centre says what it is from the start
    table = page_walk.seated(browser, server)
    page_walk.wait_for_turn(table)
    assert re.search(r"Centre: \d+ cards?", table.inner_text("#centre-pile"))
    assert "two tricks in a row" in (table.get_attribute("#centre-pile", "title") or "")


def _length_of(page: Any, preset: str) -> str:
    page.select_option("#find-preset", preset)
    return str(page.inner_text("#find-length"))


@pytest.mark.skipif(not page_walk.AXE.exists(), reason="axe-core is not installed (test.sh installs it from npm)")
def test_a_guide_card_has_no_accessibility_violation(browser: Any, server: LiveServer) -> None:
    page = page_walk.new_page(browser, width=375, height=812, bypass_csp=True)
    page_walk.lobby(page, server)
    page.click("#guide-taash")
    page.wait_for_selector(".guide-card")
    found = page_walk.violations(page)
    assert not found, page_walk.describe(found)
    assert not page.errors
