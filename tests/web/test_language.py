"""Every language all the way: every screen in Spanish, Hindi, Marathi and Gujarati, and every server refusal worded in
each by the page.

English left on screen is found word by word (``tests/web/english.py`` says which words
are English in each language).  The refusals are triggered for real, over the
WebSocket and the HTTP API, and the page words each one (code and params) with its
own ``errorText`` in each language; codes no test can bring about (a storage failure)
are worded with sample params.  How the language is chosen, and the plural forms:
``tests/web/test_language_choice.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
websockets = pytest.importorskip("websockets")

from tests.web import page_walk  # noqa: E402
from tests.web.english import LATIN, english_in, visible_texts  # noqa: E402
from tests.web.helpers import LiveServer, SeatClient  # noqa: E402

from dehla.play.reasons import REASON_TEMPLATES  # noqa: E402
from dehla.web import i18n  # noqa: E402
from dehla.web.messages import TEMPLATES  # noqa: E402

pytestmark = pytest.mark.skipif(not Path(page_walk.CHROMIUM).exists(), reason="Debian's chromium is not installed")

#: Refusals no test brings about for real, and why; they are worded with sample params.
NOT_TRIGGERED = {
    "storage": "a failing database",
    "illegal": "the engine's catch-all, after every more precise reason",
    "illegal_action": "unreachable: every action kind has its own reason",
    "bad_request": "a library error the scorekeeper does not turn into its own code",
    "not_found": "a file of the page missing from the installation",
    "not_now": "a rematch at a daily duplicate's table: brought about in tests/web/test_daily.py",
    "daily_no_deal": "needs a player's cookie: brought about in tests/web/test_daily.py",
    "daily_played": "needs a player's cookie and a finished game: brought about in tests/web/test_daily.py",
    "seat_owned": "needs two player identities (cookies): brought about in tests/web/test_players.py",
    "invite_reused": "the host's notice of the same: tests/web/test_players.py",
    "analysis_busy": "a full analysis queue: brought about in tests/web/test_players.py",
    "bad_name": "needs a player's cookie: brought about in tests/web/test_players.py",
    "rated_needs_people": "brought about in tests/web/test_players.py (a rated table with a bot)",
    "not_queued": "needs a player's cookie: brought about in tests/web/test_players.py",
    "passkey_failed": "a passkey's answer that does not verify: tests/web/test_players.py",
    "banned": "a banned player (dehla admin ban): tests/web/test_players.py",
    "no_chat_line": "a report of a line no longer kept: tests/web/test_players.py",
    "reported": "the reporter's notice: tests/web/test_players.py",
    "block_whom": "needs a player's cookie: tests/web/test_players.py",
    "block_nobody": "needs a player's cookie: tests/web/test_players.py",
    "block_self": "needs a player's cookie: tests/web/test_players.py",
    "follow_self": "needs a player's cookie: tests/web/test_players.py",
    "not_a_friend": "needs a player's cookie: tests/web/test_players.py",
    "passkey_unknown": "a passkey of another server: tests/web/test_players.py",
    "bad_queue": "needs a player's cookie: brought about in tests/web/test_players.py",
    **{
        code: "hints, undo and claims: brought about in tests/web/test_assist.py"
        for code in (
            "assists_off",
            "assists_rated",
            "bad_claim",
            "claim_accepted",
            "claim_not_now",
            "claim_refused",
            "claim_tens",
            "claim_tricks",
            "no_claim",
            "nothing_to_undo",
            "undo_after_person",
            "undone",
        )
    },
    **{
        code: "a hint's words: which ones depends on the bot's move (one hint in tests/web/test_assist.py)"
        for code in (
            "hint_play",
            "hint_call",
            "hint_hide",
            "hint_reveal",
            "hint_forced",
            "hint_solved",
            "hint_playout",
            "hint_heuristic",
            "hint_heuristic_early",
            "hint_estimate",
        )
    },
    **{
        code: "a hint's reasons: which ones depends on the position (each built in tests/test_hint_reasons.py)"
        for code in REASON_TEMPLATES
    },
    "bad_assists": "a create request with a wrong assists flag, like bad_rated",
    "claim_pending": "a second claim while one waits for answers",
    "hint_busy": "a second hint asked while the first is thought out",
    "hint_not_your_turn": "a hint asked for out of turn",
    "no_hint": "a hint whose bot failed",
}
#: Sample params by name, for codes worded without being triggered.
SAMPLE = {
    "card": "10H",
    "cards": ["KC", "JC"],
    "suit": "C",
    "seat": 1,
    "n": 2,
    "max": 4,
    "min": 0,
    "hand": 1,
    "text": "10H",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = str(tmp_path_factory.mktemp("language") / "language.sqlite3")
    with LiveServer(db, bot_delay=0.02, hand_pause=60, trick_pause=0.1) as live:
        yield live


@pytest.fixture(scope="module")
def finished(server: LiveServer) -> tuple[str, int]:
    return page_walk.finished_match(server)


# The screens in Spanish -----------------------------------------------------------------------


def _invite_table(page: Any, server: LiveServer, lang: str) -> None:
    """A private table for friends: the host's waiting room with its invite and watch links."""
    created = server.post(
        "/api/tables",
        {
            "rules": "mendikot",
            "name": "Asha",
            "seats": [
                {"kind": "me"},
                {"kind": "person"},
                {"kind": "bot", "bot": "random"},
                {"kind": "bot", "bot": "random"},
            ],
        },
    )
    page.goto(f"{server.url}/t/{created['id']}?lang={lang}#seat=0&token={created['token']}")
    page.wait_for_selector(".felt, #start-now")
    page.wait_for_timeout(300)


def _scorekeeper_refused(page: Any, server: LiveServer, lang: str) -> None:
    """The scorekeeper refusing the issue's impossible Taash hand (tens 1-1, tricks 6-3)."""
    page.goto(f"{server.url}/scorekeeper?lang={lang}")
    page.wait_for_selector("#sk-add")
    page.select_option("#sk-preset", "taash")
    page.wait_for_selector("#sk-tricks0")
    for selector, value in (("#sk-tens0", "1"), ("#sk-tens1", "1"), ("#sk-tricks0", "6"), ("#sk-tricks1", "3")):
        page.fill(selector, value)
    page.click("#sk-add")
    page.wait_for_selector("#toast:not([hidden])")


def _second_window(page: Any, server: LiveServer, lang: str) -> None:
    """The same seat opened in a second window: this (first) window is told."""
    created = page_walk.table_in_play(page, server, lang)
    other = page_walk.new_page(page.context.browser, lang=lang)
    try:
        page_walk.open_seat(other, server, created, lang)
        page.wait_for_timeout(800)
    finally:
        other.context.close()


def _words_panel(page: Any, server: LiveServer, lang: str) -> None:
    """The glossary panel opened from a table."""
    page_walk.table_in_play(page, server, lang)
    page.click("#words-button")
    page.wait_for_timeout(300)


#: Each screen, brought about in a language: (page, server, a finished match, language).
SCREENS: dict[str, Callable[[Any, LiveServer, tuple[str, int], str], object]] = {
    "lobby": lambda page, server, match, lang: page_walk.lobby(page, server, lang),
    "invite-table": lambda page, server, match, lang: _invite_table(page, server, lang),
    "table": lambda page, server, match, lang: page_walk.table_in_play(page, server, lang),
    "words": lambda page, server, match, lang: _words_panel(page, server, lang),
    "hand-result": lambda page, server, match, lang: page_walk.hand_result(page, server, lang),
    "result": lambda page, server, match, lang: page_walk.result_dialog(page, server, lang),
    "second-window": lambda page, server, match, lang: _second_window(page, server, lang),
    "history": lambda page, server, match, lang: page_walk.history(page, server, lang),
    "replay": lambda page, server, match, lang: page_walk.replay(page, server, match, lang),
    "scorekeeper": lambda page, server, match, lang: page_walk.scorekeeper(page, server, lang),
    "scorekeeper-refusal": lambda page, server, match, lang: _scorekeeper_refused(page, server, lang),
    "daily": lambda page, server, match, lang: page_walk.daily_played(page, server, lang),
}
#: Screens kept as screenshots for people to look at, per language (on a phone, 375 px wide).
SHOTS = {lang: {"lobby": f"{lang}-lobby", "table": f"{lang}-table"} for lang in LATIN}
SHOTS.update(
    {
        "es": {"table": "spanish-table", "result": "spanish-result"},
        "hi": {"lobby": "hindi-lobby", "table": "hindi-table"},
        "mr": {"lobby": "marathi-lobby", "table": "marathi-table"},
        "gu": {"lobby": "gujarati-lobby", "table": "gujarati-table"},
    }
)


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("lang", list(LATIN))
def test_every_screen_is_in_the_language(
    browser: Any, server: LiveServer, finished: tuple[str, int], lang: str, screen: str
) -> None:
    page = page_walk.new_page(browser, lang=lang, width=375, height=812)
    try:
        SCREENS[screen](page, server, finished, lang)
        if screen in SHOTS[lang]:  # for people to look at: the page on a phone in the language
            page_walk.SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(page_walk.SHOTS / f"{SHOTS[lang][screen]}.png"), full_page=True)
        assert page.evaluate("document.documentElement.lang") == lang
        # longer words in the language never push the page sideways on a phone
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, f"horizontal scroll: {lang} {screen}"
        texts = visible_texts(page)
        found = english_in(texts, lang)
        assert not found, f"English on the {lang} {screen} screen:\n" + "\n".join(found)
        # numbers in the digits the cards and scores use, dates and ratings too (Intl would write Marathi's own)
        assert not [text for text in texts if re.search("[\u0966-\u096f]", text)], f"Devanagari digits: {screen}"
        assert not [text for text in texts if re.search("[\u0ae6-\u0aef]", text)], f"Gujarati digits: {screen}"
        assert not page.errors, page.errors
    finally:
        page.context.close()


class Refusals:
    """Every refusal seen: code -> params of its first occurrence (and the HTTP answers' shape)."""

    def __init__(self) -> None:
        self.found: dict[str, dict[str, Any]] = {}
        self.http_without_code: list[str] = []

    def add(self, code: str, params: dict[str, Any] | None) -> None:
        self.found.setdefault(code, params or {})

    def http(self, server: LiveServer, method: str, path: str, body: object = None) -> None:
        if method == "GET":
            _, answer = page_walk.get_raw(server, path)
        else:
            _, answer = page_walk.post_raw(server, path, body)
        if isinstance(answer, dict) and "code" in answer:
            self.add(answer["code"], answer.get("params"))
        else:
            self.http_without_code.append(f"{method} {path}: {str(answer)[:120]}")

    async def expect(self, client: SeatClient, message: object) -> dict[str, Any] | None:
        """Send a message that the server refuses, and keep the refusal."""
        count = len(client.errors)
        await client.send(message)
        try:
            error = await client.wait_error(count + 1, timeout=5)
        except TimeoutError:
            return None
        self.add(error.get("code", "?"), error.get("params"))
        return error


def _http_refusals(server: LiveServer, refusals: Refusals, finished: tuple[str, int]) -> None:
    http = refusals.http
    seats = [{"kind": "me"}] + [{"kind": "bot", "bot": "random"}] * 3
    http(server, "POST", "/api/tables", [])
    http(server, "POST", "/api/me", {"name": "Asha"})  # no_player: a program without a cookie
    http(server, "GET", "/api/ratings/whist")  # no_family
    http(server, "POST", "/api/tables", {"rules": "pagat", "rated": "yes"})  # bad_rated
    http(server, "POST", "/api/tables", {"rules": "pagat", "colour": 1})
    http(server, "POST", "/api/tables", {"rules": "whist"})
    http(server, "POST", "/api/tables", {"rules": "pagat", "seats": []})
    http(server, "POST", "/api/tables", {"rules": "pagat", "seats": [{"kind": "alien"}, *seats[1:]]})
    http(server, "POST", "/api/tables", {"rules": "pagat", "seats": [{"kind": "me"}] * 4})
    http(server, "POST", "/api/tables", {"rules": "pagat", "seats": [*seats[:3], {"kind": "bot", "bot": "zz"}]})
    http(server, "POST", "/api/tables", {"rules": "pagat", "grace": -1})
    http(server, "POST", "/api/tables", {"rules": "pagat", "listed": "yes"})
    http(server, "POST", "/api/tables", {"rules": "pagat", "timer": "soon"})
    http(server, "POST", "/api/tables", {"rules": "pagat", "trick_pause": 9})
    http(server, "POST", "/api/tables", {"rules": "pagat", "watchers_allowed": "maybe"})
    http(server, "POST", "/api/tables", b"{")
    http(server, "POST", "/api/tables", {"name": "x" * 20_000})
    http(server, "POST", "/api/rules", {"preset": "whist"})
    http(server, "GET", "/api/i18n/xx")
    http(server, "GET", "/api/tables/nope")
    http(server, "GET", "/api/history/nope/1/replay")
    http(server, "GET", f"/api/history/{finished[0]}/{finished[1]}/analysis/99")
    http(server, "POST", "/api/daily/play", {"deal": 0})  # no player cookie
    http(server, "GET", "/api/daily/2999-01-01")
    http(server, "GET", "/api/daily/2001-01-01/games/nope/replay")
    # joining: a table in play with a person and bots (listed), and a private table with an invite
    listed = page_walk.create_table(server, "mendikot")
    private = server.post(
        "/api/tables",
        {"rules": "mendikot", "seats": [{"kind": "me"}, {"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]},
    )
    http(server, "POST", f"/api/tables/{listed['id']}/join", [])
    http(server, "POST", f"/api/tables/{listed['id']}/join", {"seat": 9, "name": "Dev"})
    http(server, "POST", f"/api/tables/{listed['id']}/join", {"seat": 0, "name": "Dev"})
    http(server, "POST", f"/api/tables/{listed['id']}/join", {"seat": 1, "name": "Dev"})
    http(server, "POST", f"/api/tables/{private['id']}/join", {"seat": 1, "name": "Dev"})
    http(server, "POST", f"/api/tables/{private['id']}/join", {"seat": 2, "name": "Dev"})
    # the scorekeeper's reasons
    for hand in ({"tens": [3, 0]}, {"tens": [5, 0]}, {"tens": [-1, 5]}, [4, 0]):
        http(server, "POST", "/api/scorekeeper", {"rules": "pagat", "hands": [hand]})
    for hand in (
        {"tens": [2, 2]},
        {"tens": [2, 2], "tricks": [7, 7]},
        {"tens": [2, 2], "tricks": [14, 0]},
        {"tens": [3, 1], "tricks": [13, 0]},
    ):
        http(server, "POST", "/api/scorekeeper", {"rules": "mendikot", "hands": [hand]})
    for hand in (
        {"tens": [1, 1], "tricks": [6, 3]},
        {"tens": [3, 2], "tricks": [7, 6]},
        {"tens": [2, 2], "tricks": [8, 7]},
        {"tens": [2, 1], "tricks": [7, 6]},
    ):
        http(server, "POST", "/api/scorekeeper", {"rules": "taash", "hands": [hand]})
    http(server, "POST", "/api/scorekeeper", {"rules": "pagat", "hands": [{"tens": [4, 0]}, {"tens": [4, 0]}]})
    http(server, "POST", "/api/scorekeeper", {"rules": "pagat", "first_dealer": 7})
    http(server, "POST", "/api/scorekeeper", {"rules": "pagat", "hands": [{"tens": [2, 2]}] * 501})
    http(server, "POST", "/api/scorekeeper", [])
    http(server, "POST", "/api/scorekeeper", {"rules": "whist"})
    http(server, "POST", "/api/scorekeeper", {"rules": {"preset": "pagat", "target": -1}})


async def _hello_errors(server: LiveServer, table: str, *messages: dict[str, Any]) -> list[dict[str, Any]]:
    """Say hello (and more) on a table's socket and keep the errors until it closes (or a second passes)."""
    errors: list[dict[str, Any]] = []
    async with websockets.connect(f"{server.ws_url}/ws/{table}", origin=server.url) as socket:
        for message in messages:
            with contextlib.suppress(Exception):
                await socket.send(json.dumps(message))
                await asyncio.sleep(0.2)
        while True:
            try:
                text = await asyncio.wait_for(socket.recv(), 1.0)
            except (TimeoutError, websockets.ConnectionClosed):
                break
            message = json.loads(text)
            if message.get("type") == "error":
                errors.append(message)
    return errors


async def _play_one(client: SeatClient) -> None:
    """The seat to act makes its first legal move (hides its last card), and waits for the table to move on."""
    state = client.state
    assert state is not None
    version = state["version"]
    legal = state["observation"]["legal_actions"]
    # leads come first in suit order (spades); a hidden club keeps trump apart from the suit led
    await client.send({"type": "act", "action": legal[-1] if legal[0].startswith("hide") else legal[0]})
    await client.wait(lambda now: now is not None and now["version"] > version)


async def _until(client: SeatClient, condition: Callable[[dict[str, Any]], bool], timeout: float = 60) -> None:
    """Play the client's seat (first legal move) until its state meets ``condition``."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        state = client.state
        if state is not None and state.get("observation") and condition(state):
            return
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"stuck at {json.dumps(state)[:600]}")
        observation = state.get("observation") if state else None
        if (
            state
            and observation
            and observation["to_act"] == state["seat"]
            and observation["legal_actions"]
            and state["table"]["status"] == "playing"
        ):
            await _play_one(client)
        else:
            with contextlib.suppress(TimeoutError):
                await client.wait(
                    lambda now, v=state["version"] if state else -1: now is not None and now["version"] > v, timeout=2
                )


async def _game_refusals(server: LiveServer, refusals: Refusals) -> None:
    """Four people at a band hukum table: every refusal of play, chat, seats and settings."""
    expect = refusals.expect
    created = server.post(
        "/api/tables",
        {
            "rules": "mendikot-band",
            "name": "Asha",
            "seats": [{"kind": "me"}, {"kind": "person"}, {"kind": "person"}, {"kind": "person"}],
            "watchers_allowed": True,
        },
    )
    tokens = {0: created["token"], **{invite["seat"]: invite["token"] for invite in created["invites"]}}
    table = created["id"]
    first = await SeatClient(server, table, tokens[0]).open()
    # before everyone came: the match has not started
    await expect(first, {"type": "act", "action": "hide AS"})
    clients = [first] + [await SeatClient(server, table, tokens[seat]).open() for seat in (1, 2, 3)]

    def ready(state: dict[str, Any] | None) -> bool:
        return bool(state and state.get("observation") and state["observation"]["to_act"] is not None)

    for client in clients:
        await client.wait(ready)

    async def next_actor() -> SeatClient | None:
        """The client whose own latest state says it is to act (None when nobody is, within a few seconds)."""
        for _ in range(100):
            for client in clients:
                state = client.state
                observation = state.get("observation") if state else None
                if state and observation and observation["to_act"] == state["seat"] and observation["legal_actions"]:
                    return client
            await asyncio.sleep(0.05)
        return None

    chooser = await next_actor()
    assert chooser is not None
    other = clients[(clients.index(chooser) + 1) % 4]
    await expect(other, {"type": "act", "action": "AS"})  # not_your_turn
    assert chooser.state is not None
    await expect(chooser, {"type": "act", "action": chooser.state["observation"]["hand"][0]})  # must_hide
    await expect(chooser, {"type": "act", "action": "call S"})  # no_call_now (or must_hide)
    await expect(chooser, {"type": "act", "action": "zz"})  # bad_action
    await expect(chooser, '{"type": "act", "action": "AS"}')  # no_version (sent as text: the helper adds none)
    await expect(chooser, {"type": "act", "action": "hide 10H", "version": 99_999})  # stale
    await expect(chooser, {"type": "next"})  # no_hand_to_move_on
    await expect(chooser, {"type": "start"})  # match_started
    await expect(chooser, {"type": "rematch"})  # rematch_not_yet
    await expect(chooser, {"type": "chat", "text": "x" * 300})  # chat_too_long
    await expect(chooser, {"type": "chat", "text": "   "})  # chat_empty
    await expect(chooser, {"type": "react", "reaction": "💩"})  # bad_reaction
    for _ in range(8):
        await chooser.send({"type": "chat", "text": "hola"})
    await expect(chooser, {"type": "chat", "text": "hola"})  # chat_rate
    host, guest = clients[0], clients[1]
    await expect(guest, {"type": "settings", "listed": True})  # not_host
    await expect(host, {"type": "seat", "seat": 9, "kind": "bot"})  # bad_seat
    await expect(host, {"type": "seat", "seat": 0, "kind": "bot"})  # own_seat
    await expect(host, {"type": "seat", "seat": 1, "kind": "alien"})  # seat_kind
    await expect(host, {"type": "seat", "seat": 1, "kind": "bot"})  # not_between_hands
    await _play_one(chooser)  # the hidden card
    leader = await next_actor()
    assert leader is not None
    hidden = leader.state["observation"]["hidden_card"]  # type: ignore[index]
    if hidden:
        await expect(leader, {"type": "act", "action": hidden})  # hidden_card
    await expect(leader, {"type": "act", "action": "reveal"})  # reveal_leader
    await expect(leader, {"type": "act", "action": "hide 2C"})  # no_hide_now
    held = set(leader.state["observation"]["hand"])  # type: ignore[index]
    missing = next(card for card in ("AS", "KS", "AH", "KH", "AD", "KD", "AC", "KC") if card not in held)
    await expect(leader, {"type": "act", "action": missing})  # not_held

    # play on, trying the refusals of following players, until the trump is asked for and turned up
    def hidden_suit() -> str | None:
        """The suit of the hidden card, which only its chooser's window knows."""
        for client in clients:
            observation = client.state and client.state.get("observation")
            if observation and observation.get("hidden_card"):
                return str(observation["hidden_card"])[-1]
        return None

    wanted = {"must_follow", "reveal_can_follow", "trump_revealed", "must_trump"}
    hands = 1
    for _ in range(400):
        found = await next_actor()
        if found is None:  # the hand is over: everyone moves on to the next (a new deal, a new chance)
            if "waiting_for_deal" not in refusals.found:
                await expect(clients[0], {"type": "act", "action": "AS"})  # waiting_for_deal
            if hands == 8:
                break
            hands += 1
            for client in clients:
                await client.send({"type": "next"})
            continue
        client = found
        state = client.state
        assert state is not None
        if state["observation"]["phase"] != "play":
            await _play_one(client)
            continue
        observation = state["observation"]
        legal = observation["legal_actions"]
        led = observation["led"]
        if led is not None:
            plays = [action for action in legal if action not in ("reveal",)]
            off = [card for card in observation["hand"] if card not in plays]
            if off and plays and all(card[-1] == led for card in plays):
                await expect(client, {"type": "act", "action": off[0]})  # must_follow
                if observation["trump_hidden"]:
                    await expect(client, {"type": "act", "action": "reveal"})  # reveal_can_follow
            elif (
                "reveal" in legal
                and led != hidden_suit()
                and any(card[-1] == hidden_suit() for card in observation["hand"])
            ):
                # ask only when the asker then holds a trump and the suit led is not trump: it must play one
                version = state["version"]
                await client.send({"type": "act", "action": "reveal"})
                await client.wait(lambda now, v=version: now is not None and now["version"] > v)
                await expect(client, {"type": "act", "action": "reveal"})  # trump_revealed
                now = client.state["observation"]  # type: ignore[index]
                wrong = [card for card in now["hand"] if card not in now["legal_actions"]]
                if wrong:
                    await expect(client, {"type": "act", "action": wrong[0]})  # must_trump
        if wanted | {"waiting_for_deal"} <= set(refusals.found):
            break
        await _play_one(client)
    # a window that watches: it may not act; a second window of a seat: the first is told
    watching = {"type": "hello", "watch": created["watch_token"]}
    for error in await _hello_errors(server, table, watching, {"type": "act", "action": "AS", "version": 0}):
        refusals.add(error["code"], error.get("params"))
    moved = await SeatClient(server, table, tokens[1]).open()
    for _ in range(50):
        notices = [message for message in guest.messages if message.get("type") == "notice"]
        if notices:
            refusals.add(notices[0].get("code", "?"), notices[0].get("params"))
            break
        await asyncio.sleep(0.1)
    for error in await _hello_errors(server, table, {"type": "hello", "token": "not-a-token"}):
        refusals.add(error["code"], error.get("params"))
    for client in [*clients, moved]:
        await client.close()


async def _rule_refusals(server: LiveServer, refusals: Refusals) -> None:
    """Refusals that need other rules or tables: trump calling, automatic reveal, a finished or private table."""
    for rules, action in (("mendikot", "reveal"), ("mendikot-band-auto", "reveal")):
        created = page_walk.create_table(server, rules)
        client = await SeatClient(server, created["id"], created["token"]).open()
        await _until(
            client, lambda now: now["observation"]["phase"] == "play" and now["observation"]["to_act"] == now["seat"]
        )
        await refusals.expect(client, {"type": "act", "action": action})
        if rules == "mendikot":
            await refusals.expect(client, {"type": "act", "action": "hide AS"})  # no_hide_now
        await client.close()
    # four people at a Pagat table: the caller plays a card before calling trump
    created = server.post("/api/tables", {"rules": "pagat", "seats": [{"kind": "me"}] + [{"kind": "person"}] * 3})
    tokens = [created["token"]] + [invite["token"] for invite in created["invites"]]
    people = [await SeatClient(server, created["id"], token).open() for token in tokens]
    for _ in range(100):
        caller = next(
            (
                client
                for client in people
                if client.state
                and client.state.get("observation")
                and client.state["observation"]["to_act"] == client.state["seat"]
            ),
            None,
        )
        if caller is not None:
            await refusals.expect(caller, {"type": "act", "action": "AS"})  # must_call
            break
        await asyncio.sleep(0.05)
    for client in people:
        await client.close()
    # a match that is over
    created = page_walk.create_table(server, page_walk.ONE_HAND)
    client = await SeatClient(server, created["id"], created["token"]).open()
    await _until(client, lambda now: now["table"]["status"] == "over")
    await refusals.expect(client, {"type": "act", "action": "AS"})  # match_over
    await client.close()
    # a private table that allows no watchers
    created = server.post(
        "/api/tables",
        {
            "rules": "mendikot",
            "watchers_allowed": False,
            "seats": [{"kind": "me"}, {"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}],
        },
    )
    for error in await _hello_errors(server, created["id"], {"type": "hello"}):
        refusals.add(error["code"], error.get("params"))
    # no such table, a message too big or not understood
    for error in await _hello_errors(server, "nope", {"type": "hello"}):
        refusals.add(error["code"], error.get("params"))
    created = page_walk.create_table(server, "mendikot")
    client = await SeatClient(server, created["id"], created["token"]).open()
    await refusals.expect(client, "{")
    await refusals.expect(client, "x" * 5000)
    await client.close()


async def _rate_refusal(refusals: Refusals, db: str) -> None:
    """A server with a tight message rate: the burst after it is refused."""
    with LiveServer(db, rate=1, burst=2) as tight:
        created = page_walk.create_table(tight, "mendikot")
        client = await SeatClient(tight, created["id"], created["token"]).open()
        for _ in range(6):
            await client.send({"type": "ping"})
        await asyncio.sleep(0.5)
        for error in client.errors:
            refusals.add(error["code"], error.get("params"))
        await client.close()


@pytest.fixture(scope="module")
def refusals(server: LiveServer, finished: tuple[str, int], tmp_path_factory: pytest.TempPathFactory) -> Refusals:
    found = Refusals()
    _http_refusals(server, found, finished)
    db = str(tmp_path_factory.mktemp("rate") / "rate.sqlite3")

    async def everything() -> None:
        await _game_refusals(server, found)
        await _rule_refusals(server, found)
        await _rate_refusal(found, db)

    # in a thread of its own: Playwright's sync API owns this thread's event loop
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, everything()).result(timeout=300)
    return found


def test_every_server_refusal_is_triggered(refusals: Refusals) -> None:
    untriggered = sorted(set(TEMPLATES) - set(refusals.found) - set(NOT_TRIGGERED))
    unknown = sorted(set(refusals.found) - set(TEMPLATES))
    assert not unknown, f"refusals without an English template in dehla.web.messages: {unknown}"
    assert not refusals.http_without_code, "HTTP refusals without a code:\n" + "\n".join(refusals.http_without_code)
    assert not untriggered, f"refusals this test could not bring about: {untriggered}"


def _sample(template: str) -> dict[str, Any]:
    return {name: SAMPLE.get(name, 1) for name in re.findall(r"\{(\w+)\}", template)}


def _without_echoes(text: str, params: dict[str, Any]) -> str:
    """A refusal's words without the text it echoes back (a rule or bot name someone sent, such as "whist")."""
    for name, value in params.items():
        if name == "text" and isinstance(value, str) and value:
            text = text.replace(value, " ")
    return text


@pytest.mark.parametrize("lang", list(LATIN))
def test_every_server_refusal_reads_in_the_language(
    browser: Any, server: LiveServer, refusals: Refusals, lang: str
) -> None:
    worded_from = {code: refusals.found.get(code, _sample(template)) for code, template in TEMPLATES.items()}
    page = page_walk.new_page(browser, lang=lang)
    try:
        page_walk.lobby(page, server, lang)
        worded: dict[str, str] = page.evaluate(
            """async (refusals) => {
          const errors = await import("/static/js/errors.js");
          const out = {};
          for (const [code, params] of Object.entries(refusals)) out[code] = errors.errorText(code, params, "");
          return out;
        }""",
            worded_from,
        )
    finally:
        page.context.close()
    found = [
        f"{code} {json.dumps(worded_from[code], ensure_ascii=False)}: {line}"
        for code, text in sorted(worded.items())
        for line in english_in([_without_echoes(text, worded_from[code])], lang)
    ]
    assert not found, f"refusals in English on the {lang} page:\n" + "\n".join(found)


@pytest.mark.parametrize("lang", list(LATIN))
def test_the_catalog_module_is_served_for_the_page(server: LiveServer, lang: str) -> None:
    with urllib.request.urlopen(server.url + f"/i18n/{lang}.js", timeout=10) as response:
        assert response.headers["Content-Type"].startswith("text/javascript")
        assert response.read().decode() == i18n.module_js(lang)
