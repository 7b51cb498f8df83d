"""The winner's pile, the next hand's commitment and the guide's step for asking trump, as a player meets them in
Debian's chromium: a finished trick's cards travel to the pile of the team that won it and its count grows; with
reduced motion nothing moves; between hands the next hand's commitment is shown before its deal and is the one
the record carries; a guided band hukum hand explains asking for the hidden trump.

Screenshots of a table with both teams' piles at 320 and 1280 px are kept in tests/web/screenshots/.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from tests.web import page_walk  # noqa: E402
from tests.web.helpers import LiveServer  # noqa: E402

pytestmark = pytest.mark.skipif(not Path(page_walk.CHROMIUM).exists(), reason="Debian's chromium is not installed")

SHOTS = page_walk.SHOTS

#: Each sweep of a finished trick: where it went, the pile's tricks before and after it, and how far each card of
#: the trick ends from the pile's middle (the motion is set to its end to measure it, then let finish).
SWEEPS = """
window.__sweeps = []; window.__most = 0;
const frame = () => {
  window.__most = Math.max(window.__most, document.getAnimations().length);
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);
document.addEventListener("dehla-sweep", (event) => {
  const id = event.detail.target;
  const pile = id ? document.getElementById(id) : null;
  const sweep = {target: id, before: pile ? Number(pile.dataset.tricks) : null, far: [], after: null,
    cardsBefore: pile ? Number(pile.dataset.cards) : null, cardsAfter: null};
  const moving = document.getAnimations().filter((a) => a.id === "dehla-sweep");
  for (const a of moving) { a.pause(); a.currentTime = a.effect.getTiming().duration; }
  // a card's own flight to the trick (motion.js) is shorter than the sweep: over by the time the sweep ends
  for (const a of document.getAnimations()) if (a.id === "dehla-travel") a.finish();
  if (pile) {
    const goal = pile.getBoundingClientRect();
    for (const card of document.querySelectorAll(".felt .played.finished .card")) {
      const r = card.getBoundingClientRect();
      const dx = r.left + r.width / 2 - goal.left - goal.width / 2;
      const dy = r.top + r.height / 2 - goal.top - goal.height / 2;
      sweep.far.push(Math.hypot(dx, dy));
    }
  }
  for (const a of moving) a.play();
  window.__sweeps.push(sweep);
  // read when the cards have arrived and the felt is drawn again (before the next trick's sweep can begin); every
  // motion is waited for to its end or its cancelling (the hand drawn again cancels its cards' transitions), as
  // waiting for all to succeed would end at the first cancelled one, before the felt is drawn again
  const ending = document.getAnimations().filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity);
  Promise.allSettled(ending.map((a) => a.finished)).then(() => setTimeout(() => {
    const now = id && document.getElementById(id);
    sweep.after = now ? Number(now.dataset.tricks) : null;
    sweep.cardsAfter = now ? Number(now.dataset.cards) : null;
  }, 0));
});
"""

#: Both teams' piles as drawn: their counts, words, label, and whether anything but card backs is in them.
PILES = """() => [...document.querySelectorAll('.felt .won-pile')].map((p) => ({
  team: Number(p.dataset.team), seat: Number(p.dataset.seat), tricks: Number(p.dataset.tricks),
  cards: Number(p.dataset.cards), tens: Number(p.dataset.tens), words: p.textContent,
  label: p.getAttribute('aria-label'),
  faces: p.querySelectorAll('.card:not(.back)').length, box: p.getBoundingClientRect().toJSON()}))"""

SETTLED = "() => !document.getAnimations().some((a) => a.playState === 'running')"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = str(tmp_path_factory.mktemp("pile") / "pile.sqlite3")
    with LiveServer(db, bot_delay=0.12, hand_pause=30, trick_pause=0.1) as live:
        yield live


def _page(browser: Any, width: int = 1280, reduced: bool = False, bypass_csp: bool = False) -> Any:
    height = 800 if width > 500 else 700
    return page_walk.new_page(
        browser, width=width, height=height, reduced_motion=reduced, bypass_csp=bypass_csp, init_script=SWEEPS
    )


def _seat(page: Any, server: LiveServer, rules: object = "mendikot", **extra: Any) -> dict[str, Any]:
    return page_walk.take_seat(page, server, rules, **extra)


def _play_until(
    page: Any, done: Callable[[], Any], timeout: float = 120, click: Callable[[], bool] | None = None
) -> Any:
    """The shared ``page_walk.play_until``, with the longer wait a pile's moments need."""
    return page_walk.play_until(page, done, timeout, click)


@pytest.mark.parametrize("rules", ["mendikot", "pagat"])
def test_the_trick_travels_to_the_winners_pile_and_the_piles_count_grows(
    browser: Any, server: LiveServer, rules: str
) -> None:
    page = _page(browser)
    _seat(page, server, rules, trick_pause=0.3)

    def to_piles() -> list[dict[str, Any]]:
        sweeps = page.evaluate("window.__sweeps")
        return [s for s in sweeps if (s["target"] or "").startswith("won-pile") and s["after"] is not None]

    # until several tricks (in Pagat, collections of the centre) have gone to a pile already on the felt
    _play_until(page, lambda: len(to_piles()) >= (3 if rules == "mendikot" else 1))
    for sweep in to_piles():
        # every card of the trick lands on the pile, and the pile then counts one trick more (and its cards)
        assert sweep["far"] and max(sweep["far"]) < 20, sweep
        assert sweep["after"] == sweep["before"] + 1 and sweep["cardsAfter"] >= sweep["cardsBefore"] + 4, sweep
    if rules == "pagat":  # a trick nobody collects goes to the centre, as before
        assert "centre-pile" in [s["target"] for s in page.evaluate("window.__sweeps")]
    piles = _play_until(page, lambda: page.evaluate(PILES))  # (none at the very start of a hand)
    assert all(p["faces"] == 0 for p in piles)  # face down: nothing but backs
    for pile in piles:
        assert pile["label"] == ("Cards won by Us" if pile["team"] == 0 else "Cards won by Them")
        # tricks where each trick goes to its winner, cards where a collection of the centre brings many at once
        count = f"{pile['tricks']} trick" if rules == "mendikot" else f"{pile['cards']} card"
        assert count in pile["words"] and f"{pile['tens']} ten" in pile["words"]
        assert pile["seat"] % 2 == pile["team"]  # by a seat of its own team
    assert not page.errors
    page.context.close()


def test_a_page_running_behind_still_sees_every_trick_go_to_its_pile_one_at_a_time(
    browser: Any, server: LiveServer
) -> None:
    """The table's messages held back and let through in bursts, as a slow link or a busy machine delivers them, to
    a watcher of four bots (who wait for nobody): a trick the table moved past before the page could show it still
    goes to its pile in sight, so no pile ever counts a trick it was not seen to take."""
    page = _page(browser)
    held: list[str | bytes] = []
    routes: list[Any] = []
    holding = [False]  # not until the table is on the page

    def hold_back(route: Any) -> None:
        upstream = route.connect_to_server()
        route.on_message(lambda message: upstream.send(message))
        upstream.on_message(lambda message: held.append(message) if holding[0] else route.send(message))
        routes.append(route)

    page.route_web_socket(re.compile(r"/ws/"), hold_back)
    seats = [{"kind": "bot", "bot": "random"}] * 4
    table = server.post("/api/tables", {"rules": "mendikot", "seats": seats, "trick_pause": 0.3})
    page.goto(f"{server.url}/t/{table['id']}")
    page.wait_for_selector(".felt")
    holding[0] = True

    def sweeps() -> list[dict[str, Any]]:
        return [s for s in page.evaluate("window.__sweeps") if s["after"] is not None]

    def let_through() -> None:
        for message in held:
            routes[-1].send(message)
        del held[:]

    deadline = time.monotonic() + 90
    while len(sweeps()) < 8 and not page.query_selector("#hand-summary"):
        assert time.monotonic() < deadline, page_walk.fail(page, "eight tricks were not swept in time")
        page.wait_for_timeout(1500)
        let_through()
    holding[0] = False
    let_through()
    for sweep in sweeps():
        if (sweep["target"] or "").startswith("won-pile"):
            assert sweep["after"] == sweep["before"] + 1, [(s["target"], s["before"], s["after"]) for s in sweeps()]
    assert not page.errors
    page.context.close()


def test_with_reduced_motion_the_trick_goes_to_the_pile_without_moving(browser: Any, server: LiveServer) -> None:
    page = _page(browser, reduced=True)
    _seat(page, server, trick_pause=0.3)
    piles = _play_until(page, lambda: [p for p in page.evaluate(PILES) if p["tricks"] >= 2])
    assert piles[0]["cards"] >= 8  # two tricks of four cards: the counts come in all the same
    assert page.evaluate("window.__most") == 0, "an animation ran although the player asked for reduced motion"
    assert page.evaluate("window.__sweeps.length") == 0  # a finished trick is taken away at once, never swept
    assert not page.errors
    page.context.close()


@pytest.mark.parametrize("width", [320, 1280])
def test_a_table_with_both_piles_fits_the_screen_and_covers_no_name(
    browser: Any, server: LiveServer, width: int
) -> None:
    page = _page(browser, width=width)
    _seat(page, server)
    _play_until(page, lambda: len(page.evaluate(PILES)) == 2 and page.query_selector(".hand button.legal"))
    page.wait_for_function(SETTLED, timeout=10000)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"table-piles-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    seats = page.eval_on_selector_all(".felt .seat", "all => all.map((s) => s.getBoundingClientRect().toJSON())")
    felt = page.eval_on_selector(".felt", "f => f.getBoundingClientRect().toJSON()")
    played = page.eval_on_selector_all(
        ".felt .played .card", "all => all.map((c) => c.getBoundingClientRect().toJSON())"
    )
    for pile in page.evaluate(PILES):
        box = pile["box"]
        for card in played:  # the pile's words stay readable: no card played covers them
            covered = box["left"] < card["right"] and card["left"] < box["right"]
            assert not (covered and box["top"] < card["bottom"] and card["top"] < box["bottom"]), f"covered at {width}"
        assert felt["left"] <= box["left"] and box["right"] <= felt["right"], f"a pile leaves the felt at {width} px"
        for seat in seats:
            covers = box["left"] < seat["right"] and seat["left"] < box["right"]
            covers = covers and box["top"] < seat["bottom"] and seat["top"] < box["bottom"]
            assert not covers, f"a pile covers a name box at {width} px"
    assert not page.errors
    page.context.close()


@pytest.mark.skipif(not page_walk.AXE.exists(), reason="axe-core is not installed (test.sh installs it from npm)")
def test_a_table_with_piles_has_no_accessibility_violation(browser: Any, server: LiveServer) -> None:
    page = _page(browser, width=375, bypass_csp=True)
    _seat(page, server)
    _play_until(page, lambda: len(page.evaluate(PILES)) == 2 and page.query_selector(".hand button.legal"))
    page.wait_for_function(SETTLED, timeout=10000)
    found = page_walk.violations(page)
    assert not found, page_walk.describe(found)
    assert not page.errors
    page.context.close()


def test_the_next_hands_commitment_is_shown_before_its_deal_and_is_the_records(
    browser: Any, server: LiveServer
) -> None:
    page = _page(browser)
    created = _seat(page, server, {"preset": "mendikot", "target": 2})
    # the first hand's result: the next hand's commitment is already there, before its deal
    _play_until(page, lambda: page.query_selector("#hand-summary #next-commitment"))
    committed = page.get_attribute("#next-commitment", "data-commitment")
    assert committed and len(committed) == 64 and committed[:16] in page.inner_text("#next-commitment")
    assert page.get_attribute("#deal-commitment", "data-commitment") != committed  # the header: the hand just over
    page.click("#next-hand")
    # dealt: the header's commitment for the hand in play is the one promised
    page.wait_for_function(
        "(c) => { const d = document.querySelector('#deal-commitment'); return d && d.dataset.commitment === c; }",
        arg=committed,
        timeout=30000,
    )

    def match_over() -> bool:
        return bool(page.query_selector("#match-result, #match-summary"))

    _play_until(page, match_over, timeout=240)
    with urllib.request.urlopen(f"{server.url}/api/history/{created['id']}/1/record", timeout=10) as answer:
        record = json.loads(answer.read())
    assert record["hands"][1]["commitment"] == committed
    assert not page.errors
    page.context.close()


def _guide_clicks(page: Any, seen: list[str]) -> Callable[[], bool]:
    """A guided player's click: "Got it" on each new card (noting its step), else a move."""

    def click() -> bool:
        card = page.query_selector(".guide-card")
        button = page.query_selector("#guide-next")
        if card is None or button is None or page.is_visible("#next-hand"):
            return True
        step = card.get_attribute("data-step")
        if step == "ask":
            return False  # kept on screen for the test to read
        with contextlib.suppress(playwright_api.Error):
            button.click(timeout=2000)
            if step and step not in seen:
                seen.append(step)
        return False

    return click


def _guided_band_hukum_hand(browser: Any, server: LiveServer, seen: list[str]) -> Any:
    """A guided first hand of Mendikot with band hukum played until the guide's card for asking trump (the page),
    or to its end (``None``): the moment comes only if this player is void in the suit led while trump is hidden."""
    page = _page(browser, width=375)
    created = page_walk.create_table(server, "mendikot-band")
    page.goto(server.url + "/")
    page.evaluate("(id) => localStorage.setItem('dehla.guide', JSON.stringify({table: id, seen: []}))", created["id"])
    page_walk.open_seat(page, server, created)
    found = _play_until(
        page,
        lambda: page.query_selector('.guide-card[data-step="ask"]') or page.query_selector("#guide-finish"),
        click=_guide_clicks(page, seen),
        timeout=120,
    )
    # (a move already on its way as the moment came may have taken it: then this hand does not count)
    if found.get_attribute("data-step") == "ask" and page.is_visible("#ask-trump"):
        return page
    page.context.close()
    return None


def test_the_guide_explains_asking_for_the_hidden_trump_in_band_hukum(browser: Any, server: LiveServer) -> None:
    # hands (each a new guided table, a random deal) are tried until one where the player may ask: in 6 hands of 10
    # the chance never comes (another seat is void first, or none is; 118 of 300 simulated hands had it), so six
    # tries fail one run in twenty, fourteen one in a thousand
    for _ in range(14):
        seen: list[str] = []
        page = _guided_band_hukum_hand(browser, server, seen)
        if page is not None:
            break
    else:
        pytest.fail("in fourteen band hukum hands the player was never able to ask for the trump")
    text = page.inner_text('.guide-card[data-step="ask"] .guide-text')
    assert "Ask for trump" in text and "hidden" in text and "turned up" in text
    assert {"deal", "trump"} <= set(seen)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "guide-ask-trump-375.png"))
    # the player asks: the hidden card is turned up, and the guide goes on
    page.click("#guide-next")
    page.click("#ask-trump")
    page.wait_for_function("() => /Trump: [♠♥♦♣]/.test(document.querySelector('#trump').textContent)", timeout=10000)
    assert not page.errors
    page.context.close()
