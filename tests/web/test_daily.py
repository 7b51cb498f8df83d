"""The daily duplicate (issue 38, item 9): the same deals for everyone each day, each played once against the
bots, the day's seed committed at once and revealed when the day ends, the bots' own play kept per deal."""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.web.test_players import be, new_player
from tests.web.test_tables import _until

from dehla.cards import cards_text
from dehla.engine.state import Match
from dehla.web.app import WebSettings, create_app
from dehla.web.daily import DailyService, DailySettings, play_reference
from dehla.web.daily_board import standings
from dehla.web.daily_deal import FixedDeal, deal_seed
from dehla.web.storage import DailyEntry, open_storage

#: A quick bot for the tests' tables and reference play (the real daily plays ``hard``).
QUICK = DailySettings(deals=2, preset="pagat", bot="heuristic")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = WebSettings(bot_delay=0, hand_pause=0, trick_pause=0, daily=QUICK)
    app = create_app(open_storage(str(tmp_path / "daily.sqlite3")), settings)
    with TestClient(app) as test_client:
        yield test_client


def daily_of(client: TestClient) -> DailyService:
    service = client.app.state.shared.daily  # type: ignore[attr-defined]
    assert isinstance(service, DailyService)
    return service


def play_out(client: TestClient, table: str) -> list[str]:
    """Play the player's seat of a daily table to the end (first legal action each turn); returns the cards the
    player was dealt."""
    dealt: list[str] = []
    with client.websocket_connect(f"/ws/{table}") as socket:
        socket.send_json({"type": "hello", "mine": True})
        while True:
            state: dict[str, Any] = _until(socket, lambda m: m["type"] == "state")
            assert state["seat"] == 0
            observation = state["observation"]
            if observation is not None and len(observation.get("hand") or []) > len(dealt):
                dealt = list(observation["hand"])  # the whole hand (called trump deals five cards first)
            if state["table"]["status"] == "over":
                return dealt
            if observation is not None and observation["to_act"] == 0 and observation["legal_actions"]:
                action = observation["legal_actions"][0]
                socket.send_json({"type": "act", "action": action, "version": state["version"]})


def finish_deal(client: TestClient, cookie: str, deal: int) -> tuple[str, list[str]]:
    be(client, cookie)
    answer = client.post("/api/daily/play", json={"deal": deal, "name": "Asha"})
    assert answer.status_code == 200, answer.text
    table = answer.json()["table"]
    return table, play_out(client, table)


def wait_for_board(client: TestClient, wanted: int, timeout: float = 60) -> dict[str, Any]:
    """Today as the page sees it, once ``wanted`` games have their results and the bots' results are known."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        day: dict[str, Any] = client.get("/api/daily").json()
        games = sum(row["played"] for row in day["board"])
        if games >= wanted and all(
            reference is not None for reference, mine in zip(day["references"], day["yours"]) if mine["state"] == "done"
        ):
            return day
        time.sleep(0.1)
    raise AssertionError("the daily results did not come")


def test_two_players_are_dealt_the_same_cards_of_the_day(client: TestClient) -> None:
    first, second = new_player(client), new_player(client)
    table_a, cards_a = finish_deal(client, first, 0)
    table_b, cards_b = finish_deal(client, second, 0)
    assert table_a != table_b and cards_a and sorted(cards_a) == sorted(cards_b)
    records = []
    for cookie, table in ((first, table_a), (second, table_b)):
        be(client, cookie)
        data = client.get(f"/api/daily/{daily_of(client).today()}/games/{table}/replay").json()
        records.append(data["record"])
    assert records[0]["hands"][0]["cards"] == records[1]["hands"][0]["cards"]
    assert records[0]["first_dealer"] == records[1]["first_dealer"]
    assert len(records[0]["hands"]) == 1  # the table played the one deal and ended


def test_a_player_plays_each_daily_deal_once(client: TestClient) -> None:
    player = new_player(client)
    started = client.post("/api/daily/play", json={"deal": 1}).json()["table"]
    assert client.post("/api/daily/play", json={"deal": 1}).json()["table"] == started  # back to the same game
    play_out(client, started)
    again = client.post("/api/daily/play", json={"deal": 1})
    assert again.status_code == 409 and again.json()["code"] == "daily_played"
    be(client, player)
    mine = client.get("/api/daily").json()["yours"]
    assert [game["state"] for game in mine] == ["new", "done"]


def test_the_daily_table_is_private_and_ends_without_a_rematch(client: TestClient) -> None:
    player = new_player(client)
    table = client.post("/api/daily/play", json={"deal": 0}).json()["table"]
    info = client.get(f"/api/tables/{table}").json()
    assert info["private"] and not info["watchers_allowed"] and info["listed"] is False
    assert table not in {item["id"] for item in client.get("/api/tables").json()["tables"]}
    play_out(client, table)
    be(client, player)
    with client.websocket_connect(f"/ws/{table}") as socket:
        socket.send_json({"type": "hello", "mine": True})
        _until(socket, lambda m: m["type"] == "state")
        socket.send_json({"type": "rematch"})
        refusal = _until(socket, lambda m: m["type"] == "error")
        assert refusal["code"] == "not_now"


def test_a_daily_table_offers_no_hint_and_no_undo(client: TestClient) -> None:
    new_player(client)
    table = client.post("/api/daily/play", json={"deal": 0}).json()["table"]
    assert client.get(f"/api/tables/{table}").json()["assists"] is False
    with client.websocket_connect(f"/ws/{table}") as socket:
        socket.send_json({"type": "hello", "mine": True})
        state = _until(socket, lambda m: m["type"] == "state")
        socket.send_json({"type": "hint", "version": state["version"]})
        assert _until(socket, lambda m: m["type"] == "error")["code"] == "assists_off"
        socket.send_json({"type": "undo"})
        assert _until(socket, lambda m: m["type"] == "error")["code"] == "assists_off"


def test_the_day_seed_is_hidden_until_the_day_ends_and_then_matches_its_commitment(client: TestClient) -> None:
    service = daily_of(client)
    player = new_player(client)
    table, _ = finish_deal(client, player, 0)
    today = client.get("/api/daily").json()
    assert today["seed"] is None and len(today["commitment"]) == 64 and today["today"]
    assert client.get("/api/daily/days").json()["days"] == []  # today is not in the archive yet
    day = today["day"]
    now = time.time()
    service.clock = lambda: now + 86_400  # the next day
    archive = client.get("/api/daily/days").json()["days"]
    assert [item["day"] for item in archive] == [day]
    past = client.get(f"/api/daily/{day}").json()
    seed = bytes.fromhex(past["seed"])
    assert hashlib.sha256(seed).hexdigest() == past["commitment"] == today["commitment"] == archive[0]["commitment"]
    # anyone can deal the day's first deal from the revealed seed: the cards the player was dealt
    fixed = FixedDeal(deal_seed(seed, 0))
    match = Match("pagat", fixed.first_dealer(4))
    dealt = fixed.deal(match)
    be(client, None)  # a stranger may replay it once the day is over
    record = client.get(f"/api/daily/{day}/games/{table}/replay").json()["record"]
    assert record["hands"][0]["cards"] == [cards_text(hand) for hand in dealt.hands]
    assert record["first_dealer"] == fixed.first_dealer(4)


def test_another_players_game_is_not_shown_before_the_day_ends(client: TestClient) -> None:
    player = new_player(client)
    table, _ = finish_deal(client, player, 0)
    new_player(client)
    day = daily_of(client).today()
    answer = client.get(f"/api/daily/{day}/games/{table}/replay")
    assert answer.status_code == 404 and answer.json()["code"] == "daily_no_game"
    board = client.get("/api/daily").json()["board"]
    assert board[0]["games"][0]["figures"] is None and board[0]["games"][0]["table"] == ""


def test_a_player_downloads_their_daily_game_as_its_record(client: TestClient) -> None:
    player = new_player(client)
    table, _ = finish_deal(client, player, 1)
    base = f"/api/daily/{daily_of(client).today()}/games/{table}"
    download = client.get(base + "/record")
    assert download.status_code == 200 and download.headers["content-type"].startswith("application/json")
    name = f"dehla-daily-{daily_of(client).today()}-{table}.json"
    assert download.headers["content-disposition"] == f'attachment; filename="{name}"'
    assert download.json() == client.get(base + "/replay").json()["record"]
    new_player(client)  # someone else, while the day lasts: no download either
    refused = client.get(base + "/record")
    assert refused.status_code == 404 and refused.json()["code"] == "daily_no_game"


def test_the_bots_own_play_of_a_deal_is_computed_once_and_scores_every_game(client: TestClient) -> None:
    service = daily_of(client)
    first, second = new_player(client), new_player(client)
    finish_deal(client, first, 0)
    finish_deal(client, second, 0)
    be(client, second)
    day = wait_for_board(client, 2)
    assert service.reference_runs == 1
    reference = day["references"][0]
    assert reference is not None and 0 <= reference["tens"] <= 4
    for _ in range(3):
        client.get("/api/daily")
    assert service.reference_runs == 1
    rows = day["board"]
    assert len(rows) == 2 and sum(row["you"] for row in rows) == 1
    for row in rows:
        game = row["games"][0]
        if row["you"]:
            assert game["versus_bots"] == game["figures"]["tens"] - reference["tens"]
        assert 0 <= row["matchpoints"] <= 100
    # the bots' result is their play of the day's deal: the same again from the seed revealed the next day
    now = time.time()
    service.clock = lambda: now + 86_400
    seed = bytes.fromhex(client.get(f"/api/daily/{day['day']}").json()["seed"])
    assert play_reference(service.rules, deal_seed(seed, 0), "heuristic") == reference


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [({"deal": 9}, 400, "daily_no_deal"), ({"deal": "one"}, 400, "daily_no_deal"), ([1], 400, "bad_request")],
)
def test_a_bad_daily_request_is_refused_with_a_reason(client: TestClient, body: object, status: int, code: str) -> None:
    new_player(client)
    answer = client.post("/api/daily/play", json=body)
    assert answer.status_code == status and answer.json()["code"] == code


def test_a_daily_deal_needs_a_player_and_a_day_that_has_come(client: TestClient) -> None:
    be(client, None)
    answer = client.post("/api/daily/play", json={"deal": 0})
    assert answer.status_code == 403 and answer.json()["code"] == "daily_no_player"
    for day in ("2999-01-01", "yesterday", "2001-01-01"):
        answer = client.get(f"/api/daily/{day}")
        assert answer.status_code == 404 and answer.json()["code"] == "daily_no_day"


def test_matchpoints_compare_each_game_with_the_others_on_the_same_deal() -> None:
    def entry(player: str, deal: int, tens: int, tricks: int) -> DailyEntry:
        return DailyEntry(
            "2026-12-05",
            deal,
            player,
            player.upper(),
            f"t{player}{deal}",
            0.0,
            {"tens": tens, "tricks": tricks, "won": tens > 2},
        )

    entries = [entry("a", 0, 3, 7), entry("b", 0, 2, 6), entry("c", 0, 2, 6), entry("a", 1, 1, 2)]
    rows = standings(entries, {0: {"tens": 2, "tricks": 5, "won": False}}, "a", None)
    assert [row["name"] for row in rows] == ["A", "B", "C"]
    first = rows[0]
    assert first["you"] and first["played"] == 2 and first["versus_bots"] == 1  # deal 1 has no bots' result yet
    assert [game["matchpoints"] for game in first["games"]] == [100.0, 50.0]
    assert rows[1]["games"][0]["matchpoints"] == 25.0  # beat nobody, tied one of two


def _postgres_url() -> str | None:
    url = os.environ.get("DEHLA_TEST_POSTGRES", "postgresql://dehla:dehla@127.0.0.1:5432/dehla_test")
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=2):
            return url
    except Exception:
        return None


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_daily_storage_keeps_one_seed_a_day_and_one_game_a_deal(tmp_path: Path, backend: str) -> None:
    url = str(tmp_path / "kept.sqlite3") if backend == "sqlite" else _postgres_url()
    if url is None:
        pytest.skip("no PostgreSQL server (DEHLA_TEST_POSTGRES)")
    day = "9999-" + secrets.token_hex(3)  # a day of its own: runs against a shared database do not meet

    async def run() -> None:
        storage = open_storage(url)
        await storage.open()
        try:
            assert await storage.daily_day(day, "aa", "c1", 1.0) == ("aa", "c1")
            assert await storage.daily_day(day, "bb", "c2", 2.0) == ("aa", "c1")  # the first seed stays
            assert (day, "aa", "c1") in await storage.daily_days(day + "~")
            first = await storage.daily_enter(DailyEntry(day, 0, "p1", "Asha", "t1", 3.0))
            again = await storage.daily_enter(DailyEntry(day, 0, "p1", "Asha", "t2", 4.0))
            assert first.table_id == again.table_id == "t1" and again.result is None
            await storage.daily_enter(DailyEntry(day, 1, "p1", "Asha", "t3", 5.0))
            await storage.daily_result(day, 0, "p1", {"tens": 3, "tricks": 7, "won": True})
            kept = await storage.daily_entries(day)
            assert [(entry.deal, entry.table_id, entry.result) for entry in kept] == [
                (0, "t1", {"tens": 3, "tricks": 7, "won": True}),
                (1, "t3", None),
            ]
            assert await storage.daily_reference(day, 0) is None
            await storage.save_daily_reference(day, 0, {"tens": 2, "tricks": 6, "won": False})
            await storage.save_daily_reference(day, 0, {"tens": 4, "tricks": 9, "won": True})
            assert await storage.daily_reference(day, 0) == {"tens": 2, "tricks": 6, "won": False}
            await storage.delete_player("p1")
            assert await storage.daily_entries(day) == []
        finally:
            await storage.close()

    asyncio.run(run())


def test_two_players_play_the_same_daily_deal_on_postgres() -> None:
    url = _postgres_url()
    if url is None:
        pytest.skip("no PostgreSQL server (DEHLA_TEST_POSTGRES)")
    settings = WebSettings(bot_delay=0, hand_pause=0, trick_pause=0, daily=QUICK)
    with TestClient(create_app(open_storage(url), settings)) as client:
        first, second = new_player(client), new_player(client)
        _, cards_a = finish_deal(client, first, 1)
        _, cards_b = finish_deal(client, second, 1)
        assert cards_a and sorted(cards_a) == sorted(cards_b)
        be(client, second)
        day = wait_for_board(client, 2)
        assert day["yours"][1]["state"] == "done" and day["references"][1] is not None


def test_a_daily_game_is_analysed_as_a_finished_match_is(client: TestClient) -> None:
    player = new_player(client)
    table, _ = finish_deal(client, player, 0)
    base = f"/api/daily/{daily_of(client).today()}/games/{table}"
    assert client.get(base + "/analysis/0/progress").json() == {"done": 0, "total": 0, "preparing": False}
    answer = client.get(base + "/analysis/3")
    assert answer.status_code == 404 and answer.json()["code"] == "no_hand" and answer.json()["params"]["max"] == 0
    new_player(client)  # someone else, while the day lasts: as if the game did not exist
    assert client.get(base + "/analysis/0").json()["code"] == "daily_no_game"


def test_a_daily_of_six_players_seats_five_bots(tmp_path: Path) -> None:
    settings = WebSettings(bot_delay=0, hand_pause=0, trick_pause=0, daily=DailySettings(1, "mendikot-6", "heuristic"))
    with TestClient(create_app(open_storage(str(tmp_path / "six.sqlite3")), settings)) as client:
        new_player(client)
        table = client.post("/api/daily/play", json={"deal": 0}).json()["table"]
        seats = client.get(f"/api/tables/{table}").json()["seats"]
        assert [seat["kind"] for seat in seats] == ["person"] + ["bot"] * 5
        figures = play_reference(daily_of(client).rules, deal_seed(b"\x01" * 32, 0), "heuristic")
        assert 0 <= figures["tens"] <= 4 and figures["tricks"] >= 0
