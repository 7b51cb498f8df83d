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
from pathlib import Path
from typing import Any

from tests.web.helpers import LiveServer

ROOT = Path(__file__).resolve().parent.parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
SHOTS = Path(__file__).parent / "screenshots"
#: Where test.sh installs axe-core from npm.
AXE = ROOT / ".axe" / "node_modules" / "axe-core" / "axe.min.js"
#: The browser's own language setting for a page in each language (its navigator.languages and Accept-Language).
BROWSER_LOCALES = {"en": "en-GB", "es": "es-ES", "hi": "hi-IN", "mr": "mr-IN", "gu": "gu-IN"}
#: A match that ends after its first hand: quick to play to the end, so the match result shows too.
ONE_HAND = {"preset": "mendikot", "target": 1}


def new_page(browser: Any, *, lang: str = "en", width: int = 1280, height: int = 800, bypass_csp: bool = False) -> Any:
    """A page in a fresh context (its own storage); script errors are kept in ``page.errors``."""
    locale = BROWSER_LOCALES.get(lang, lang)
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale, bypass_csp=bypass_csp)
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


def open_seat(page: Any, server: LiveServer, created: dict[str, Any], lang: str = "en") -> None:
    """Open a seat link as the invited person would, and wait for the table."""
    page.goto(f"{server.url}/t/{created['id']}{query(lang)}#seat={created['seat']}&token={created['token']}")
    page.wait_for_selector(".felt")


def wait_for_turn(page: Any, timeout: float = 30) -> None:
    """Wait until the person may act (a legal card or a trump call): the table is then still."""
    page.wait_for_selector(
        ".hand button.legal:not([disabled]), .call-row button:not([disabled])", timeout=timeout * 1000
    )


def play_until(page: Any, selector: str, timeout: float = 90) -> None:
    """Make the person's moves (call trump, first legal card) until ``selector`` is visible."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        shown = page.query_selector(selector)
        if shown is not None and shown.is_visible():
            return
        button = page.query_selector(".call-row button:not([disabled]), .hand button.legal:not([disabled])")
        if button is not None:
            # the page may re-render between finding the button and clicking it: look again then
            with contextlib.suppress(Exception):
                button.click(timeout=2000)
            page.wait_for_timeout(40)
        else:
            page.wait_for_timeout(60)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "failure.png"), full_page=True)
    raise AssertionError(f"{selector} did not show in time (see screenshots/failure.png)")


def finished_match(server: LiveServer, timeout: float = 90) -> tuple[str, int]:
    """A match four bots played to its end, for the history and the replay."""
    body = {"rules": ONE_HAND, "seats": [{"kind": "bot", "bot": "random"}] * 4}
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
