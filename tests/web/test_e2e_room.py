"""Browser tests for issue 16 (a card room people come back to), in headless Debian chromium.

The finished trick seen to its end, a centre collection, the result dialog in view, no sideways scrolling
on phones, one seat in one window, chat shown as text, reduced motion, band hukum, the replay's decisions,
host controls, and the page's modules under the Content-Security-Policy.  Screenshots go to
tests/web/screenshots/ for people to look at.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from tests.web import page_walk  # noqa: E402
from tests.web.helpers import LiveServer  # noqa: E402

SHOTS = page_walk.SHOTS

pytestmark = page_walk.NEEDS_CHROMIUM


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from page_walk.serve(tmp_path_factory, "room", bot_delay=0.02, hand_pause=0.5)


def _context(browser: Any, width: int = 1280, height: int = 800, lang: str = "en", **options: Any) -> Any:
    return browser.new_context(viewport={"width": width, "height": height}, locale=lang, **options)


def _page(context: Any) -> Any:
    page = context.new_page()
    page.errors = []
    page.csp = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on(
        "console", lambda message: page.csp.append(message.text) if "Content Security Policy" in message.text else None
    )
    return page


def _table(server: LiveServer, rules: Any, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return server.post("/api/tables", {"rules": rules, "seats": seats, "name": "Asha", **extra})


def _bots(n: int, bot: str = "random") -> list[dict[str, Any]]:
    return [{"kind": "bot", "bot": bot} for _ in range(n)]


def _open_seat(page: Any, server: LiveServer, created: dict[str, Any]) -> None:
    page.goto(f"{server.url}/t/{created['id']}#seat={created['seat']}&token={created['token']}")
    page.wait_for_selector(".felt, #start-now")


def _click_once(page: Any) -> bool:
    for selector in (".call-row button", "#ask-trump", ".hand button.legal"):
        button = page.query_selector(selector)
        if button is None:
            continue
        try:
            if not button.is_enabled():
                continue
            button.click(timeout=1500)
        except playwright_api.Error:
            return False
        return True
    return False


def _play_until(page: Any, selector: str, timeout: float = 60, skip: bool = False) -> None:
    """Play the first legal card whenever it is our turn until ``selector`` shows up."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.query_selector(selector):
            return
        if skip and page.query_selector(".trick-result:not(.collect)"):
            page.keyboard.press("Escape")
        if not _click_once(page):
            page.wait_for_timeout(40)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "failure.png"), full_page=True)
    raise AssertionError(f"{selector} did not appear (see screenshots/failure.png)")


def _sweeping(page: Any) -> bool:
    """Whether a finished trick's cards are still on their way (the sweep's animations are finite)."""
    return bool(
        page.evaluate("""() => document.getAnimations().some((a) => a.playState === "running"
        && a.effect && a.effect.target && a.effect.target.closest && a.effect.target.closest(".felt")
        && Number.isFinite(a.effect.getComputedTiming().endTime))""")
    )


def _inside(page: Any, selector: str) -> bool:
    return bool(
        page.eval_on_selector(
            selector,
            """el => { const r = el.getBoundingClientRect();
        return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }""",
        )
    )


def test_the_finished_trick_stays_with_its_winner_then_goes(browser: Any, server: LiveServer) -> None:
    context = _context(browser)
    page = _page(context)
    created = _table(server, "taash", [{"kind": "me"}, *_bots(3)], trick_pause=5)
    _open_seat(page, server, created)
    _play_until(page, ".trick-result")
    # when we won the trick, the loop may have led the next one as the banner came, which sweeps it away
    # (a key during a sweep is not kept): the bots' next trick is then the one on display
    page_walk.until(lambda: not _sweeping(page))
    page.wait_for_selector(".trick-result")
    text = page.inner_text(".trick-result")
    assert "Won by" in text or "You win the trick" in text
    assert len(page.query_selector_all(".played.finished")) == 4
    assert page.query_selector(".played.finished.winner")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "finished-trick.png"))
    assert page.title() in {"dehla", "● Your turn · dehla"}
    # a key skips the pause: the cards go to the winner's side and the felt moves on
    # (Escape: Space or Enter would also play the card that has the focus when it is our lead)
    skipped = time.monotonic()
    page.keyboard.press("Escape")
    # (the longest pause a table allows: a loaded machine gets a second more than the pause minus the time to here)
    page.wait_for_selector(".trick-result", state="detached", timeout=4000)
    assert time.monotonic() - skipped < 4  # well before the 5 s pause would end
    page.wait_for_selector(".hand button.legal", timeout=15000)
    page_walk.until(lambda: page.title().startswith("●"))  # the tab says when it is your turn
    assert not page.errors and not page.csp


def test_the_finished_trick_on_a_phone_in_spanish(browser: Any, server: LiveServer) -> None:
    context = _context(browser, width=375, height=812, lang="es-ES")
    page = _page(context)
    created = _table(server, "pagat", [{"kind": "me"}, *_bots(3)], trick_pause=3)
    _open_seat(page, server, created)
    _play_until(page, ".trick-result")
    page.evaluate("scrollTo(0, 0)")
    span = "e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; }"
    banner = page.eval_on_selector(".trick-result", span)
    felt = page.eval_on_selector(".felt", span)
    assert felt[0] <= banner[0] and banner[1] <= felt[1]
    assert "Won by" not in page.inner_text(".trick-result")
    page.screenshot(path=str(SHOTS / "finished-trick-phone-es.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert not page.errors and not page.csp


def test_a_centre_collection_is_its_own_moment(browser: Any, server: LiveServer) -> None:
    context = _context(browser)
    page = _page(context)
    created = _table(server, "pagat", [{"kind": "me"}, *_bots(3)], trick_pause=1.0)
    _open_seat(page, server, created)
    _play_until(page, ".trick-result.collect", timeout=90, skip=True)
    text = page.inner_text(".trick-result.collect .collect-line")
    assert "collect" in text and "card" in text
    said = page.text_content(".trick-result.collect .sr-only") or ""  # the whole moment, for screen readers
    tens = page.eval_on_selector_all(".trick-result.collect .collect-cards .card[data-card]", "all => all.length")
    assert ("with" in said) == (tens > 0)
    page.screenshot(path=str(SHOTS / "centre-collection.png"))
    assert not page.errors and not page.csp


def test_the_result_dialog_takes_focus_and_fits_every_screen(browser: Any, server: LiveServer) -> None:
    context = _context(browser)
    page = _page(context)
    created = _table(server, {"preset": "mendikot", "target": 2}, [{"kind": "me"}, *_bots(3)], trick_pause=0)
    _open_seat(page, server, created)
    _play_until(page, "dialog#hand-summary[open]", timeout=90)
    dialog = "dialog#hand-summary"
    assert page.eval_on_selector(dialog, "d => d.contains(document.activeElement)")
    text = page.inner_text(dialog)
    assert "Us" in text and "Them" in text and "Tens" in text and "Tricks" in text
    assert _inside(page, dialog) and _inside(page, "#next-hand")
    page.screenshot(path=str(SHOTS / "result-dialog.png"))
    page.set_viewport_size({"width": 375, "height": 812})
    page.wait_for_timeout(150)
    assert _inside(page, dialog) and _inside(page, "#next-hand")
    page.screenshot(path=str(SHOTS / "result-dialog-phone.png"))
    page.keyboard.press("Escape")
    page.wait_for_selector(dialog, state="detached", timeout=3000)
    assert not page.errors and not page.csp


def _finished_match(server: LiveServer, rules: Any = None) -> tuple[str, int]:
    rules = rules or {"preset": "mendikot-band", "target": 1}
    created = _table(server, rules, _bots(4), trick_pause=0)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for item in server.get("/api/history")["matches"]:
            if item["table"] == created["id"]:
                return created["id"], item["match_no"]
        time.sleep(0.1)
    raise AssertionError("the bots' match did not finish")


#: No card of the page's motions (the deal, a card travelling to the trick) is still on its way.
SETTLED = "() => !document.getAnimations().some((a) => String(a.id).startsWith('dehla-') && a.playState === 'running')"


@pytest.mark.parametrize("width", [320, 375])
def test_no_page_scrolls_sideways_on_a_phone(browser: Any, server: LiveServer, width: int) -> None:
    table, match_no = _finished_match(server)
    context = _context(browser, width=width, height=740)
    page = _page(context)
    created = _table(server, "pagat", [{"kind": "me"}, *_bots(3)], trick_pause=0)
    pages = {
        "lobby": "/",
        "history": "/history",
        "replay": f"/replay/{table}/{match_no}",
        "scorekeeper": "/scorekeeper",
        "table": f"/t/{created['id']}#seat=0&token={created['token']}",
    }
    wait = {
        "lobby": "#table-list",
        "history": ".history",
        "replay": "#replay-next",
        "scorekeeper": "#sk-add",
        "table": ".hand button",
    }
    for name, path in pages.items():
        page.goto(server.url + path)
        page.wait_for_selector(wait[name])
        page.wait_for_timeout(100)
        if name == "replay":
            for _ in range(13):
                page.click("#replay-next")
        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert scroll <= inner, f"{name} is {scroll} px wide at {inner} px"
    # the cards as they lie in the hand, once the deal (js/table/motion.js) has brought them there
    page.wait_for_function(SETTLED, timeout=10000)
    widths = page.eval_on_selector_all(".hand .card", "all => all.map(c => c.getBoundingClientRect().width)")
    assert widths and min(widths) >= 44
    rows = page.eval_on_selector_all(".hand .hand-row", "all => all.length")
    assert rows <= 2
    if width == 375:
        page.screenshot(path=str(SHOTS / "table-phone-375.png"), full_page=True)
    assert not page.errors and not page.csp


def test_thirteen_cards_fit_in_two_rows_on_a_small_phone(browser: Any, server: LiveServer) -> None:
    context = _context(browser, width=320, height=700)
    page = _page(context)
    created = _table(server, "mendikot", [{"kind": "me"}, *_bots(3)], trick_pause=0)
    _open_seat(page, server, created)
    page.wait_for_selector(".hand button")
    count = len(page.query_selector_all(".hand button"))
    assert count == 13
    assert page.eval_on_selector_all(".hand .hand-row", "all => all.length") <= 2
    page.wait_for_function(SETTLED, timeout=10000)  # measured once the deal's cards have landed (motion.js)
    box_of = "c => { const r = c.getBoundingClientRect(); return [r.left, r.right, r.width]; }"
    boxes = page.eval_on_selector_all(".hand .card", f"all => all.map({box_of})")
    assert min(box[2] for box in boxes) >= 44
    assert min(box[0] for box in boxes) >= 0 and max(box[1] for box in boxes) <= 320
    # the felt and the whole hand in one screen, without scrolling
    page.evaluate("scrollTo(0, 0)")
    assert _inside(page, ".felt") and _inside(page, ".hand")
    # the same under the longest prompts, which wrap here (a seat void in the led suit, band hukum's hide)
    for longest in (
        "You cannot follow suit: play any card, or ask for trump.",
        "Band hukum: choose a card to hide face down. Its suit will be trump once it is turned up.",
    ):
        page.eval_on_selector(".prompt", "(el, text) => { el.textContent = text; }", longest)
        assert page.eval_on_selector(".prompt", "el => el.getBoundingClientRect().height") > 30
        assert _inside(page, ".felt") and _inside(page, ".hand"), longest
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.screenshot(path=str(SHOTS / "hand-13-phone.png"))
    # the game's words: one panel, dismissed with "Got it" and opened again from the header
    assert len(page.query_selector_all(".notes .explain")) == 1
    page.click("#words-done")
    assert page.is_hidden(".notes")
    page.click("#words-button")
    assert len(page.query_selector_all(".notes li")) == 5 and len(page.query_selector_all(".notes .explain")) == 1
    page.click("#words-button")
    assert page.is_hidden(".notes")


def test_a_second_window_takes_the_seat_and_the_first_is_told(browser: Any, server: LiveServer) -> None:
    context = _context(browser)
    first = _page(context)
    created = _table(server, "taash", [{"kind": "me"}, *_bots(3)], trick_pause=0)
    _open_seat(first, server, created)
    first.wait_for_selector(".hand button")
    second = _page(context)  # same browser, same stored token: the seat opens in another window
    second.goto(f"{server.url}/t/{created['id']}")
    second.wait_for_selector(".hand button")
    first.wait_for_selector("#moved-banner:not([hidden])", timeout=5000)
    assert "another window" in first.inner_text("#moved-banner")
    assert not first.query_selector(".hand button")  # it watches now: no cards, nothing to send
    first.click("#take-back")
    first.wait_for_selector(".hand button", timeout=5000)
    second.wait_for_selector("#moved-banner:not([hidden])", timeout=5000)
    assert first.is_hidden("#moved-banner")
    assert not first.errors and not second.errors


def test_chat_shows_markup_as_text(browser: Any, server: LiveServer) -> None:
    context = _context(browser)
    page = _page(context)
    created = _table(server, "taash", [{"kind": "me"}, *_bots(3)], trick_pause=0)
    _open_seat(page, server, created)
    page.wait_for_selector("#chat-text")
    markup = '<b>bold</b><img src=x id="injected">'
    page.fill("#chat-text", markup)
    page.click("#chat-form button[type=submit]")
    page.wait_for_selector(".chat-line")
    assert markup in page.inner_text("#chat-log")
    assert not page.query_selector("#chat-log b, #chat-log img, #injected")
    assert page.eval_on_selector("#chat-text", "el => el.maxLength") == 200
    # a quick reaction shows by the seat of who sent it
    page.click(".reactions button[data-reaction='👏']")
    page.wait_for_selector(".seat[data-seat='0'] .reaction-bubble")
    # the sound switch is off by default and remembered by this browser
    assert page.get_attribute("#sound-button", "aria-pressed") == "false"
    page.click("#sound-button")
    assert page.evaluate("localStorage.getItem('dehla.sound')") == "true"
    # mute: the chat is hidden and the choice is remembered
    page.click("#chat-mute")
    assert not page.query_selector("#chat-log")
    page.reload()
    page.wait_for_selector("#chat-mute[aria-pressed=true]")
    assert page.get_attribute("#sound-button", "aria-pressed") == "true"
    page.click("#chat-mute")
    assert not page.errors and not page.csp


def test_reduced_motion_shows_the_trick_without_moving_it(browser: Any, server: LiveServer) -> None:
    context = _context(browser, reduced_motion="reduce")
    page = _page(context)
    created = _table(server, "taash", [{"kind": "me"}, *_bots(3)], trick_pause=0.8)
    _open_seat(page, server, created)
    page.evaluate("""() => { window.moved = 0; const count = () => { window.moved += document.getAnimations().length;
        requestAnimationFrame(count); }; requestAnimationFrame(count); }""")
    _play_until(page, ".trick-result")
    page.wait_for_selector(".trick-result", state="detached", timeout=5000)
    assert page.evaluate("window.moved") == 0
    assert not page.errors


def test_band_hukum_says_who_hid_the_card_and_the_prompt_tells_the_truth(browser: Any, server: LiveServer) -> None:
    context = _context(browser)
    page = _page(context)
    created = _table(server, "mendikot-band", [{"kind": "me"}, *_bots(3)], trick_pause=0)
    _open_seat(page, server, created)
    page.wait_for_selector("#trump")
    # once the card is hidden, the header says who hid it (or "you hid" and the card, to its chooser only)
    told = ("hidden by", "you hid", "♠", "♥", "♦", "♣")
    deadline = time.monotonic() + 20
    while not any(word in (page.text_content("#trump") or "") for word in told):
        assert time.monotonic() < deadline, page.text_content("#trump")
        if not _click_once(page):
            page.wait_for_timeout(40)
    trump = page.text_content("#trump") or ""
    if "hidden by" in trump:
        assert page.query_selector(".seat .mark.hid")
    # the prompt for a hand that cannot follow, worked out by the page's own module
    prompt = page.evaluate("""async () => {
        const {HandControls} = await import('/static/js/table/hand.js');
        const fake = {state: {table: {seats: []}}};
        const controls = new HandControls(fake);
        const obs = {phase: 'play', to_act: 0, trick: [{seat: 3, card: 'KS'}], led: 'S', hand: ['2H', '3D'],
                     legal_actions: ['2H', '3D', 'reveal'], match: {over: false}};
        return [controls.prompt(obs, 0), controls.prompt({...obs, legal_actions: ['2H', '3D']}, 0),
                controls.prompt({...obs, hand: ['2S', '3D']}, 0)];
    }""")
    assert prompt[0] == "You cannot follow suit: play any card, or ask for trump."
    assert prompt[1] == "You cannot follow suit: play any card."
    assert prompt[2].startswith("Your turn: follow suit")
    assert not page.errors


def test_the_replay_shows_the_hidden_card_and_every_decision(browser: Any, server: LiveServer) -> None:
    table, match_no = _finished_match(server)
    context = _context(browser)
    page = _page(context)
    page.goto(f"{server.url}/replay/{table}/{match_no}")
    page.wait_for_selector("#replay-next")
    page.click("#replay-next")
    decisions = page.inner_text(".tricks")
    assert "hides" in decisions and "face down" in decisions
    record = server.get(f"/api/history/{table}/{match_no}/replay")["record"]
    actions = record["hands"][0]["actions"]
    for _ in range(13):
        page.click("#replay-next")
    shown = page.eval_on_selector_all(".tricks [data-index]", "all => all.map(e => Number(e.dataset.index))")
    assert sorted(shown) == list(range(len(actions)))  # every decision of the hand, once
    assert not page.errors and not page.csp


def test_the_host_replaces_a_seat_and_sees_the_links(browser: Any, server: LiveServer) -> None:
    context = _context(browser)
    page = _page(context)
    page.goto(server.url + "/")
    page.fill("#player-name", "Bela")
    page.select_option("#preset", "taash")
    page.select_option("#seat-1", "person")
    assert not page.is_checked("#opt-listed")  # a table with an invite is private unless the host opens it
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#start-now")
    first = page.input_value("#invite-1")
    page.click("#host-controls summary")
    page.click("[data-host-invite='1']")
    page_walk.until(lambda: page.query_selector("#invite-1") and page.input_value("#invite-1") != first)
    page.click("[data-host-bot='1']")
    page_walk.until(lambda: not page.query_selector("#invite-1"))
    assert "watch" in page.input_value("#watch-link")
    table = page.url.rsplit("/", 1)[1]
    assert table not in {item["id"] for item in server.get("/api/tables")["tables"]}
    page.click("#host-listed")  # the host opens the table to anyone: the lobby lists it
    page_walk.until(lambda: table in {item["id"] for item in server.get("/api/tables")["tables"]})
    assert not page.errors and not page.csp


def test_the_page_is_modules_installable_and_inside_its_csp(browser: Any, server: LiveServer) -> None:
    context = _context(browser, width=375, height=812)
    page = _page(context)
    page.goto(server.url + "/")
    page.wait_for_selector("#quick-play")
    html = urllib.request.urlopen(server.url + "/", timeout=10).read().decode()
    assert '<script type="module" src="/static/js/main.js"></script>' in html and "style=" not in html
    manifest = json.loads(urllib.request.urlopen(server.url + "/manifest.webmanifest", timeout=10).read())
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    # presets by their titles, never by their ids
    options = page.eval_on_selector_all("#preset option", "all => all.map(o => o.textContent)")
    assert "mendikot-band" not in options and "pagat" not in options
    assert not page.errors and not page.csp


def test_a_private_table_is_watched_only_with_its_watch_link(browser: Any, server: LiveServer) -> None:
    created = _table(server, "taash", [{"kind": "me"}, {"kind": "person"}, *_bots(2)])
    assert created.get("watch_token")
    friend = _page(_context(browser, width=375, height=812))
    friend.goto(f"{server.url}/t/{created['id']}#watch={created['watch_token']}")
    friend.wait_for_selector(".badge")
    assert "Watching" in friend.inner_text(".table-head")
    assert "#watch" not in friend.url  # the watch token moved to the browser's storage
    stranger = _page(_context(browser))
    stranger.goto(f"{server.url}/t/{created['id']}")
    stranger.wait_for_selector(".table-body a[href='/']", timeout=5000)  # refused, with a way back
    assert not stranger.query_selector(".table-head")
    assert not friend.errors and not stranger.errors


def test_the_last_trick_is_seen_before_the_result(browser: Any, server: LiveServer) -> None:
    context = _context(browser, width=375, height=812)
    page = _page(context)
    created = _table(server, {"preset": "mendikot", "target": 2}, [{"kind": "me"}, *_bots(3)], trick_pause=0.4)
    _open_seat(page, server, created)
    page.wait_for_selector(".hand button")
    deadline = time.monotonic() + 60
    while True:  # play, skipping each trick's pause, until the hand's last trick is on the felt
        assert time.monotonic() < deadline, "the last trick was never shown"
        if page.query_selector(".trick-result") and not page.query_selector(".hand button"):
            break
        if page.query_selector(".trick-result"):
            page.keyboard.press("Escape")
        elif not _click_once(page):
            page.wait_for_timeout(30)
    assert not page.query_selector("dialog#hand-summary")  # the result waits for the last trick
    page.wait_for_selector("dialog#hand-summary[open]", timeout=5000)
    assert not page.errors and not page.csp


def test_the_match_result_offers_a_rematch(browser: Any, server: LiveServer) -> None:
    context = _context(browser)
    page = _page(context)
    created = _table(server, {"preset": "mendikot", "target": 1}, [{"kind": "me"}, *_bots(3)], trick_pause=0)
    _open_seat(page, server, created)
    _play_until(page, "dialog#hand-summary[open] #rematch", timeout=90)
    text = page.inner_text("#match-result")
    assert "wins the match" in text and "after 1 hand." in text  # one hand: no "1 hands"
    assert _inside(page, "#rematch")
    page.click("#rematch")
    page.wait_for_selector("dialog#hand-summary", state="detached", timeout=5000)
    page.wait_for_selector(".hand button", timeout=10000)
    assert "Hand 1" in page.inner_text(".table-head")
    assert not page.errors and not page.csp


def test_the_replay_shows_the_trump_call(browser: Any, server: LiveServer) -> None:
    table, match_no = _finished_match(server, "pagat")
    page = _page(_context(browser, width=375, height=812))
    page.goto(f"{server.url}/replay/{table}/{match_no}")
    page.wait_for_selector("#replay-next")
    page.click("#replay-next")
    assert "calls" in page.inner_text(".tricks li") and "trump" in page.inner_text(".tricks li")
    assert page.query_selector(".tricks .decision[data-index='0']")  # the call is the hand's first decision
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert not page.errors and not page.csp
