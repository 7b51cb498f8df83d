"""Cards that look like cards and move like cards, in Debian's chromium: faces with corner indices and pips,
the felt and card-back themes, the deal and the cards travelling to the trick, reduced motion honoured, and a
card pressed while cards move is sent at once.  Screenshots of a trick in play and a finished trick at 320,
375 and 1280 px are kept in tests/web/screenshots/ (cards-*.png) for people to look at.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from tests.web import page_walk  # noqa: E402
from tests.web.helpers import LiveServer  # noqa: E402

pytestmark = page_walk.NEEDS_CHROMIUM

#: Counts the page's animations on every frame, and keeps every message the page sends on its table socket.
WATCH = """
window.__most = 0; window.__dehla = 0; window.__sent = []; window.__ids = new Set();
const frame = () => {
  const running = document.getAnimations();
  window.__most = Math.max(window.__most, running.length);
  window.__dehla = Math.max(window.__dehla, running.filter((a) => String(a.id).startsWith("dehla-")).length);
  running.forEach((a) => window.__ids.add(String(a.id)));
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);
// every motion started, however short (a frame of a loaded machine may come after a whole deal has flown)
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const animation = animate.apply(this, args);
  queueMicrotask(() => window.__ids.add(String(animation.id)));
  return animation;
};
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) { window.__sent.push(String(data)); return send.call(this, data); };
"""

#: What a drawn card's face (its picture, a data: URL of SVG) shows: pips, the corner indices, a court frame, shapes.
FACE = """((el) => {
  const image = getComputedStyle(el).backgroundImage;   // url("data:image/svg+xml,...")
  const url = image.startsWith('url("data:image/svg+xml,')
    ? image.slice(image.indexOf(",") + 1, image.lastIndexOf('"')) : "";
  const svg = new DOMParser().parseFromString(decodeURIComponent(url), "image/svg+xml");
  return {pips: svg.querySelectorAll(".pip-mark").length,
    index: [...svg.querySelectorAll(".index text")].map((t) => t.textContent),
    court: !!svg.querySelector(".court-frame"), ace: svg.querySelectorAll(".ace").length};
})(card)"""

#: The motions have all ended (the cards lie where they are drawn).
STILL = "() => !document.getAnimations().some((a) => a.playState === 'running')"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from page_walk.serve(tmp_path_factory, "cards", bot_delay=0.15, hand_pause=60)


def _page(browser: Any, width: int = 1280, height: int = 800, reduced: bool = False, axe: bool = False) -> Any:
    """A page that watches its motions; ``axe``: past the page's CSP, so that axe-core can be injected."""
    return page_walk.new_page(
        browser, width=width, height=height, reduced_motion=reduced, bypass_csp=axe, init_script=WATCH
    )


def _table(page: Any, server: LiveServer, rules: object = "mendikot", **extra: Any) -> dict[str, Any]:
    return page_walk.take_seat(page, server, rules, **extra)


def _play_one(page: Any) -> str | None:
    """Call trump or play the first legal card, if it is our turn; the action pressed."""
    for selector in (".call-row button:not([disabled])", ".hand button.legal:not([disabled])"):
        button = page.query_selector(selector)
        if button is None:
            continue
        action = button.get_attribute("data-action")
        with contextlib.suppress(playwright_api.Error):
            button.click(timeout=2000, force=True)
            return str(action)
    return None


def _play_until(page: Any, condition: str, timeout: float = 60) -> None:
    """Make our moves until the page's ``condition`` (a JS function) holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.evaluate(condition):
            return
        # let the cards come to rest first (a finished trick going away hides the next trick's first cards)
        with contextlib.suppress(playwright_api.Error):
            page.wait_for_function(STILL, timeout=3000)
        if page.evaluate(condition):
            return
        if _play_one(page) is None:
            page.wait_for_timeout(50)
        else:
            page.wait_for_timeout(120)
    page_walk.SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(page_walk.SHOTS / "failure.png"), full_page=True)
    raise AssertionError(f"{condition} did not hold in time (see screenshots/failure.png)")


#: Our turn in the middle of a trick: someone has led, we have not played yet.
MID_TRICK = (
    "() => document.querySelectorAll('.felt .played:not(.finished)').length >= 1"
    " && !document.querySelector('.felt .played.mine') && !!document.querySelector('.hand button.legal')"
)


def test_a_card_shows_its_corner_indices_and_pips(browser: Any, server: LiveServer) -> None:
    page = _page(browser)
    _table(page, server)
    page_walk.wait_for_turn(page)
    drawn = page.evaluate(
        """async () => {
      const cards = await import("/static/js/cards.js");
      const out = {};
      for (const rank of ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]) {
        const card = cards.cardFace(rank + "H");
        document.body.append(card);
        out[rank] = face(card);
        card.remove();
      }
      return out;
    }""".replace("face(card)", FACE)
    )
    assert drawn["7"]["pips"] == 7
    for rank in range(2, 11):
        assert drawn[str(rank)]["pips"] == rank, rank
    for rank, face in drawn.items():
        assert face["index"] == [rank, rank], rank  # the rank in two corners
    assert all(drawn[rank]["court"] for rank in "JQK") and not drawn["10"]["court"]
    assert drawn["A"]["pips"] == 0 and drawn["A"]["ace"] == 1  # one large pip
    # in the hand: every card is drawn so, and each card's name is still read out
    hand = page.eval_on_selector_all(
        ".hand .card-button",
        "all => all.map((b) => [b.dataset.card, FACE, b.querySelector('.sr-only').textContent])".replace(
            "FACE", FACE.replace("card", "b.querySelector('.card')")
        ),
    )
    assert hand
    for card, face, name in hand:
        rank = card[:-1]
        assert face["index"] == [rank, rank] and " of " in name, card
        assert face["pips"] == (int(rank) if rank.isdigit() else 0), card
    assert not page.errors
    page.context.close()


@pytest.mark.parametrize("width", [320, 375])
def test_on_a_phone_each_overlapped_card_shows_its_corner_index(browser: Any, server: LiveServer, width: int) -> None:
    page = _page(browser, width=width, height=720, reduced=True)
    _table(page, server, rules="pagat")
    _play_until(
        page,
        "() => document.querySelectorAll('.hand .card-button').length >= 12"
        " && !!document.querySelector('.hand button.legal')",
    )
    hidden = page.evaluate("""() => {
      const out = [];
      for (const row of document.querySelectorAll('.hand-row')) {
        const buttons = [...row.querySelectorAll('.card-button')];
        buttons.forEach((button, i) => {
          // the corner index is drawn in the left 22% of the face (faces.js: x from 2 to 22 of 100)
          const card = button.querySelector('.card').getBoundingClientRect();
          const next = buttons[i + 1];
          const covered = next && card.left + 0.22 * card.width > next.getBoundingClientRect().left + 1;
          if (covered) out.push(button.dataset.card);
        });
      }
      return out;
    }""")
    assert hidden == [], f"corner index covered by the next card at {width} px: {hidden}"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.context.close()


def test_themes_switch_the_felt_and_the_card_backs(browser: Any, server: LiveServer) -> None:
    page = _page(browser)
    _table(page, server)
    page.wait_for_selector(".seat-backs .card.back")
    felt_before = page.eval_on_selector(".felt", "el => getComputedStyle(el).backgroundImage")
    back_before = page.eval_on_selector(".seat-backs .card.back", "el => getComputedStyle(el).backgroundColor")
    page.click("#looks summary")
    page.select_option("#felt-theme", "wine")
    page.select_option("#back-theme", "gold")
    felt_after = page.eval_on_selector(".felt", "el => getComputedStyle(el).backgroundImage")
    back_after = page.eval_on_selector(".seat-backs .card.back", "el => getComputedStyle(el).backgroundColor")
    assert felt_after != felt_before and "rgb(90, 22, 38)" in felt_after
    assert back_after != back_before and back_after == "rgb(31, 29, 36)"
    page.screenshot(path=str(page_walk.SHOTS / "cards-theme-wine-gold.png"))
    # the four-colour deck still works with the drawn faces: diamonds turn blue, clubs green, hearts stay red
    inks = """async () => {
      const cards = await import("/static/js/cards.js");
      const faces = ["10D", "10C", "10H"].map((card) => cards.cardFace(card));
      document.body.append(...faces);
      const ink = (face) => decodeURIComponent(getComputedStyle(face).backgroundImage).match(/fill="(#[0-9a-f]+)"/)[1];
      const out = faces.map(ink);
      faces.forEach((face) => face.remove());
      return out;
    }"""
    assert page.evaluate(inks) == ["#c0111f", "#111", "#c0111f"]
    page.click("#fourcolour")
    assert page.evaluate(inks) == ["#1450c8", "#117a2a", "#c0111f"]
    page.click("#fourcolour")
    # kept in the browser: the next page has them too, and the Spanish panel names them in Spanish
    page.goto(server.url + "/?lang=es")
    page.wait_for_selector("#quick-play")
    assert page.evaluate(
        "document.body.classList.contains('felt-wine') && document.body.classList.contains('back-gold')"
    )
    page.click("#looks summary")
    assert page.inner_text("#looks").startswith("Aspecto")
    assert "Burdeos" in page.inner_text("#felt-theme") and "Negro y oro" in page.inner_text("#back-theme")
    assert not page.errors
    page.context.close()


def test_with_reduced_motion_no_card_moves(browser: Any, server: LiveServer) -> None:
    page = _page(browser, reduced=True)
    _table(page, server, trick_pause=0.6)
    # the deal, several cards played and a finished trick going to its winner
    _play_until(page, "() => !!document.querySelector('.felt.trick-done')")
    _play_until(page, "() => document.querySelectorAll('.hand .card-button').length <= 10")
    assert page.evaluate("window.__most") == 0, "an animation ran although the player asked for reduced motion"
    assert page.evaluate("document.getAnimations().length") == 0
    assert not page.errors
    page.context.close()


def test_a_card_played_while_cards_move_is_sent_at_once(browser: Any, server: LiveServer) -> None:
    page = _page(browser)
    # a seat kept for a friend holds the table back until we press Start now: the deal then happens before our eyes
    bot = {"kind": "bot", "bot": "random"}
    body = {"rules": "mendikot", "name": "Asha", "seats": [{"kind": "me"}, {"kind": "person"}, bot, bot]}
    created = server.post("/api/tables", body)
    page.goto(f"{server.url}/t/{created['id']}#seat={created['seat']}&token={created['token']}")
    page.click("#start-now")
    # the deal moves; later, a card a bot has just played travels to the trick as our turn comes: press then
    deadline = time.monotonic() + 90
    pressed = None
    while pressed is None and time.monotonic() < deadline:
        seen = page.evaluate("""() => {
          const moving = document.getAnimations()
            .filter((a) => String(a.id).startsWith('dehla-') && a.playState === 'running');
          const button = document.querySelector('.hand button.legal:not([disabled])');
          if (!moving.length || !button) return {turn: !!button || !!document.querySelector('.call-row button')};
          const before = window.__sent.length;
          button.click();
          const sent = window.__sent.slice(before).map((m) => JSON.parse(m));
          return {card: button.dataset.action, moving: moving.length, sent};
        }""")
        if "card" in seen:
            pressed = seen
        elif seen["turn"]:
            _play_one(page)  # our turn with nothing moving: play on, for a later turn
        else:
            page.wait_for_timeout(10)
    assert pressed is not None, "never our turn while cards were moving"
    # sent in the same moment as the press, not after the motion
    assert [message["action"] for message in pressed["sent"] if message["type"] == "act"] == [pressed["card"]]
    # and taken by the server: the card leaves the hand (on the felt it may already be gone with a finished trick)
    gone = f"""() => !document.querySelector('.hand [data-card="{pressed["card"]}"]')"""
    page.wait_for_function(gone, timeout=10000)
    # the deal and a card travelling to the trick were seen moving
    assert {"dehla-deal", "dehla-travel"} <= set(page.evaluate("[...window.__ids]"))
    assert not page.errors
    page.context.close()


def test_a_seat_name_stays_readable_where_its_box_leaves_the_felt(browser: Any, server: LiveServer) -> None:
    """A seat grown by its marks can reach past the felt's rounded edge onto the page's light background: its name
    must keep its contrast there (axe once found 4.0:1 on a phone, a translucent box over the page's cream)."""
    page = _page(browser, width=320, height=720, axe=True)
    _table(page, server, rules="pagat")
    page_walk.wait_for_turn(page)
    page.evaluate("() => document.querySelectorAll('.felt .seat').forEach((s) => s.style.setProperty('top', '0%'))")
    found = [v for v in page_walk.violations(page) if v["id"] == "color-contrast"]
    assert not found, page_walk.describe(found)
    page.context.close()


@pytest.mark.parametrize("width", [320, 375, 1280])
def test_screenshots_of_a_trick_in_play_and_a_finished_trick(browser: Any, server: LiveServer, width: int) -> None:
    height = 800 if width > 600 else 720
    page = _page(browser, width=width, height=height, axe=True)
    _table(page, server, rules="pagat", trick_pause=5)
    _play_until(page, MID_TRICK)
    page.wait_for_function(STILL)
    page_walk.check_screen(page, width, f"cards-mid-trick-{width}")  # no sideways scrolling, no axe violation
    _play_until(page, "() => !!document.querySelector('.felt.trick-done')")
    page.wait_for_function(STILL)
    page_walk.check_screen(page, width, f"cards-finished-trick-{width}")
    assert not page.errors
    page.context.close()
