"""Bring a browser page to each screen a player meets, for the accessibility and the language tests.

The screens: the lobby, a table in play (the person's turn), the hand result dialog
(here also the end of the match: Mendikot to one hand), the history, a replay and the
scorekeeper.  Tables are made through the API (a person and three bots, or four bots for
a finished match), then opened in the page as a player would from a seat link.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.helpers import LiveServer

ROOT = Path(__file__).resolve().parent.parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
SHOTS = Path(__file__).parent / "screenshots"
#: The mark of a module of browser tests: they need Debian's chromium.
NEEDS_CHROMIUM = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
#: Where test.sh installs axe-core from npm.
AXE = ROOT / ".axe" / "node_modules" / "axe-core" / "axe.min.js"
#: The browser's own language setting for a page in each language (its navigator.languages and Accept-Language).
BROWSER_LOCALES = {"en": "en-GB", "es": "es-ES", "hi": "hi-IN", "mr": "mr-IN", "gu": "gu-IN"}
#: A match that ends after its first hand: quick to play to the end, so the match result shows too.
ONE_HAND = {"preset": "mendikot", "target": 1}


def serve(factory: pytest.TempPathFactory, name: str, **options: float | str) -> Iterator[LiveServer]:
    """The body of a module's ``server`` fixture: the app on a fresh database named ``name``, with ``options``."""
    with LiveServer(str(factory.mktemp(name) / f"{name}.sqlite3"), **options) as live:
        yield live


def new_page(
    browser: Any,
    *,
    lang: str = "en",
    width: int = 1280,
    height: int = 800,
    bypass_csp: bool = False,
    reduced_motion: bool = False,
    init_script: str | None = None,
) -> Any:
    """A page in a fresh context (its own storage); script errors are kept in ``page.errors``.  ``bypass_csp`` lets
    axe-core be injected; ``init_script`` runs before the page's own (a test watching its motions)."""
    locale = BROWSER_LOCALES.get(lang, lang)
    context = browser.new_context(
        viewport={"width": width, "height": height},
        locale=locale,
        bypass_csp=bypass_csp,
        reduced_motion="reduce" if reduced_motion else "no-preference",
    )
    if init_script is not None:
        context.add_init_script(init_script)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def query(lang: str) -> str:
    """The address's ``?lang=`` for a language other than English (English is what the browser asks for)."""
    return "" if lang == "en" else f"?lang={lang}"


def create_table(server: LiveServer, rules: object = "pagat", name: str = "Asha", **extra: Any) -> dict[str, Any]:
    """A table with a person in seat 0 and three bots; the answer holds the seat's token."""
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "random"}] * 3
    return server.post("/api/tables", {"rules": rules, "name": name, "seats": seats, **extra})


def take_seat(page: Any, server: LiveServer, rules: object = "pagat", **extra: Any) -> dict[str, Any]:
    """A new table's seat 0 (``create_table``) opened in ``page``; the table's answer, with its tokens."""
    created = create_table(server, rules, **extra)
    open_seat(page, server, created)
    return created


def open_seat(page: Any, server: LiveServer, created: dict[str, Any], lang: str = "en") -> None:
    """Open a seat link as the invited person would, and wait for the table."""
    page.goto(f"{server.url}/t/{created['id']}{query(lang)}#seat={created['seat']}&token={created['token']}")
    page.wait_for_selector(".felt")


def seated(
    browser: Any, server: LiveServer, width: int = 1280, rules: object = "pagat", lang: str = "en", axe: bool = False
) -> Any:
    """A person at seat 0 of a table with three bots, its page open from the seat link; ``axe``: past the CSP."""
    page = new_page(browser, width=width, height=800 if width > 500 else 700, lang=lang, bypass_csp=axe)
    open_seat(page, server, create_table(server, rules), lang)
    return page


def wait_for_turn(page: Any, timeout: float = 30) -> None:
    """Wait until the person may act (a legal card or a trump call): the table is then still."""
    page.wait_for_selector(
        ".hand button.legal:not([disabled]), .call-row button:not([disabled])", timeout=timeout * 1000
    )


#: A move of the person's: a trump call or a legal card.
MOVE = ".call-row button:not([disabled]), .hand button.legal:not([disabled])"

#: What the page shows, for a failure's message: the table's phase and turn, the buttons a person could press,
#: the open dialogs and notices, and the cards on the felt (read in one step, so a re-render cannot split it).
_SHOWN = """async () => {
  const seen = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  const words = (el) => (el.innerText || el.textContent || "").replace(/\\s+/g, " ").trim().slice(0, 120);
  let table = null;
  try {
    const {app} = await import("/static/js/state.js");
    const state = app.page && app.page.state;
    const obs = state && state.observation;
    table = state && {version: state.version, seat: state.seat, phase: obs && obs.phase, to_act: obs && obs.to_act,
      claim: state.table && state.table.claim};
  } catch (error) { table = String(error); }
  const buttons = [...document.querySelectorAll("button")].filter(seen).map((b) =>
    (b.id ? "#" + b.id : b.className ? "." + b.className.split(" ").join(".") : "button")
    + (b.disabled || b.getAttribute("aria-disabled") === "true" ? " (disabled)" : "") + " " + words(b).slice(0, 30));
  const notes = [...document.querySelectorAll("dialog[open], .guide-card, #claim-box, .trick-result, #toast")]
    .filter(seen).map((el) => (el.id ? "#" + el.id : el.tagName.toLowerCase() + "." + el.className) + ": " + words(el));
  return {url: location.pathname, table, buttons: buttons.slice(0, 40), notes,
    played: document.querySelectorAll(".felt .played").length,
    playedFinished: document.querySelectorAll(".felt .played.finished").length};
}"""


#: The version of the table's state the page shows (null off a table).
_VERSION = """async () => { const {app} = await import("/static/js/state.js");
  return app.page && app.page.state ? app.page.state.version : null; }"""


def shown(page: Any) -> str:
    """What the page shows now, in words for a failure's message (why a wait did not end)."""
    try:
        return json.dumps(page.evaluate(_SHOWN), ensure_ascii=False, indent=1)
    except Exception as error:  # the page may be closed or mid-navigation: say so rather than hide the first failure
        return f"(the page could not be read: {error})"


def fail(page: Any, why: str) -> AssertionError:
    """An assertion error saying ``why``, what the page shows and where its screenshot is (screenshots/failure.png)."""
    SHOTS.mkdir(exist_ok=True)
    with contextlib.suppress(Exception):
        page.screenshot(path=str(SHOTS / "failure.png"), full_page=True)
    return AssertionError(f"{why} (see screenshots/failure.png); the page shows:\n{shown(page)}")


def until(condition: Callable[[], Any], timeout: float = 5.0, page: Any = None) -> None:
    """Poll ``condition()`` until it holds; a failure says what ``page`` (when given) shows."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            if page is not None:
                raise fail(page, "the condition was not met in time")
            raise AssertionError("the condition was not met in time")
        time.sleep(0.05)


def play_until(
    page: Any,
    done: str | Callable[[], Any],
    timeout: float = 90,
    click: Callable[[], bool] | None = None,
    moves: str = MOVE,
) -> Any:
    """Make the person's moves (call trump, first legal card; "Next hand" and "Rematch" between hands) until
    ``done`` holds: a selector shown, or a function answering something true (returned).  ``click``: the test's
    own step first; it answers False when it has acted (or waits), True to let a move be made.  ``moves``: the
    buttons taken for the person's moves (a test that plays some moves itself leaves them out: a turn can begin
    between its own look and this one)."""
    wanted = done if isinstance(done, str) else getattr(done, "__name__", "a condition")
    if isinstance(done, str):
        selector = done

        def done() -> Any:
            found = page.query_selector(selector)
            return found if found is not None and found.is_visible() else None

    deadline = time.monotonic() + timeout
    misses, missed = 0, ""
    while time.monotonic() < deadline:
        found = done()
        if found:
            return found
        if click is not None and not click():
            page.wait_for_timeout(30)
            continue
        # deals come from secret seeds: a match may end (a kot in one hand) before the moment sought; its result
        # offers Rematch in the dialog and, once the dialog is closed, in the panel below the table
        # (the dialog's first: while it is open, it covers the panel's)
        button = page.query_selector("#rematch")
        if button is None or not button.is_visible():
            button = page.query_selector("#match-summary button.primary")
        if button is None or not button.is_visible():
            button = page.query_selector("#next-hand")  # a hand's result between hands: go on
        move = button is None or not button.is_visible()
        if move:
            button = page.query_selector(moves)
        elif found := done():  # the result dialog opened since the first look: it may be what is waited for
            return found
        if button is not None:
            try:
                before = page.evaluate(_VERSION) if move else None
                button.click(timeout=2000)
                # the page shows the turn until the server's answer comes: wait for it, or ``done`` could take the
                # moment just played for a new one (a stale hand, a card short after the next key press)
                answered = time.monotonic() + 3
                while move and page.evaluate(_VERSION) == before and time.monotonic() < answered:
                    page.wait_for_timeout(20)
            except Exception as error:  # re-rendered under the click, or covered: look again, and tell of it at the end
                lines = [line.strip() for line in str(error).splitlines() if line.strip()]
                why = [line for line in lines if "intercepts" in line or "not visible" in line or "detached" in line]
                misses, missed = misses + 1, " / ".join(lines[:1] + why[-1:])[:300]
            page.wait_for_timeout(40)
        else:
            page.wait_for_timeout(30)
    said = f"; {misses} clicks missed, the last: {missed}" if misses else ""
    raise fail(page, f"the table did not get there in time (waiting for {wanted}{said})")


def finished_match(server: LiveServer, timeout: float = 90, **extra: Any) -> tuple[str, int]:
    """A match four bots played to its end, for the history and the replay; ``extra``: more of the table's fields."""
    body = {"rules": ONE_HAND, "seats": [{"kind": "bot", "bot": "random"}] * 4, **extra}
    table = server.post("/api/tables", body)["id"]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for item in server.get("/api/history")["matches"]:
            if item["table"] == table:
                return table, int(item["match_no"])
        time.sleep(0.2)
    raise AssertionError("the bots did not finish their match in time")


def _json(data: bytes) -> Any:
    """An answer's JSON, or its text when it is none (a plain 404 page, say)."""
    try:
        return json.loads(data or b"{}")
    except ValueError:
        return data.decode(errors="replace")


def post_raw(server: LiveServer, path: str, body: object) -> tuple[int, Any]:
    """POST without raising on an error status: the status and the JSON answer."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(
        server.url + path, data=data, method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, _json(response.read())
    except urllib.error.HTTPError as error:
        return error.code, _json(error.read())


def get_raw(server: LiveServer, path: str) -> tuple[int, Any]:
    """GET without raising on an error status."""
    try:
        with urllib.request.urlopen(server.url + path, timeout=10) as response:
            return response.status, _json(response.read())
    except urllib.error.HTTPError as error:
        return error.code, _json(error.read())


#: axe's own report of one violation, trimmed to what a person fixing it needs.
_RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => ({target: n.target.join(" "), html: n.html.slice(0, 160),
      summary: (n.failureSummary || "").split("\\n").slice(0, 3).join(" | ")}))}));
}"""


def violations(page: Any) -> list[dict[str, Any]]:
    """Run axe on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(_RUN_AXE)
    return found


def describe(found: list[dict[str, Any]]) -> str:
    lines = []
    for violation in found:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        lines += [f"    {node['target']}: {node['html']}  [{node['summary']}]" for node in violation["nodes"]]
    return "\n".join(lines)


def check_screen(page: Any, width: int, shot: str) -> None:
    """A screen as issue 38 wants it: no sideways scrolling at ``width`` px, no axe-core violation (the page must
    bypass the CSP, ``new_page(bypass_csp=True)``), and a screenshot kept as screenshots/``shot``.png to look at."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{shot}.png"), full_page=True)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{shot}: the page is {wide} px wide at {width} px"
    if AXE.exists():  # test.sh installs axe-core from npm; without it the screenshot is still kept
        found = violations(page)
        assert not found, f"axe on {shot}:\n{describe(found)}"


# The screens ------------------------------------------------------------------------------------


def lobby(page: Any, server: LiveServer, lang: str = "en") -> None:
    page.goto(f"{server.url}/{query(lang)}")
    page.wait_for_selector("#quick-play")


def table_in_play(page: Any, server: LiveServer, lang: str = "en", rules: object = ONE_HAND) -> dict[str, Any]:
    created = create_table(server, rules)
    open_seat(page, server, created, lang)
    wait_for_turn(page)
    return created


def result_dialog(page: Any, server: LiveServer, lang: str = "en") -> None:
    """Play the one-hand match to its end: the result dialog shows the hand and the match."""
    table_in_play(page, server, lang)
    play_until(page, "#hand-summary")
    page.wait_for_timeout(300)  # let the dialog's opening settle (focus, motion)


def hand_result(page: Any, server: LiveServer, lang: str = "en") -> None:
    """A hand's result in a match that goes on: the dialog with "Next hand"."""
    table_in_play(page, server, lang, rules="mendikot")
    play_until(page, "#hand-summary")
    page.wait_for_timeout(300)


def history(page: Any, server: LiveServer, lang: str = "en") -> None:
    page.goto(f"{server.url}/history{query(lang)}")
    page.wait_for_selector("main a[href^='/replay/']")


def replay(page: Any, server: LiveServer, match: tuple[str, int], lang: str = "en") -> None:
    page.goto(f"{server.url}/replay/{match[0]}/{match[1]}{query(lang)}")
    page.wait_for_selector("#replay-next")
    for _ in range(2):
        page.click("#replay-next")
    page.wait_for_timeout(200)


def scorekeeper(page: Any, server: LiveServer, lang: str = "en") -> None:
    """The scorekeeper with one hand entered, so its table of hands shows too."""
    page.goto(f"{server.url}/scorekeeper{query(lang)}")
    page.wait_for_selector("#sk-add")
    page.click("#sk-add")
    page.locator("#sk-table tbody tr").first.wait_for()


def daily_played(page: Any, server: LiveServer, lang: str = "en") -> None:
    """The daily duplicate's page after this player has played the day's first deal: the leaderboard shows."""
    page.goto(f"{server.url}/daily{query(lang)}")
    page.click("#daily-play-0")
    page.wait_for_selector(".felt")
    play_until(page, "#hand-summary")
    page.goto(f"{server.url}/daily{query(lang)}")
    page.wait_for_selector("#daily-board tr.you")
