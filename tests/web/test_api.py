"""HTTP API tests (Starlette's TestClient, in process): lobby, validation, history, scorekeeper, languages."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from dehla.bots import bot_names
from dehla.engine.state import Match
from dehla.record import replay, replay_json, to_record
from dehla.rules import PRESETS
from dehla.web import i18n
from dehla.web.app import WebSettings, create_app
from dehla.web.protocol import ProtocolError, RateLimiter, parse_message, watcher_view
from dehla.web.storage import open_storage


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(open_storage(str(tmp_path / "api.sqlite3")), WebSettings(bot_delay=0, hand_pause=0, trick_pause=0))
    with TestClient(app) as test_client:
        yield test_client


def test_meta_offers_every_preset_and_every_registered_bot(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert [preset["name"] for preset in meta["presets"]] == list(PRESETS)
    assert [bot["name"] for bot in meta["bots"]] == bot_names(for_people=True)  # never the card-seeing "cheat"
    assert meta["default_bot"] in bot_names()
    assert [language["code"] for language in meta["languages"]] == list(i18n.LANGUAGES)
    assert {"en", "es", "hi", "mr", "gu"} <= set(i18n.LANGUAGES)


def test_pages_scripts_and_styles_are_served(client: TestClient) -> None:
    for path in ("/", "/t/abc", "/history", "/scorekeeper", "/replay/abc/1"):
        response = client.get(path)
        assert response.status_code == 200 and "<main" in response.text
    import re

    scripts = re.findall(r'<script[^>]* src="([^"]+)"', client.get("/").text)
    assert scripts and all(client.get(src).status_code == 200 for src in scripts)
    assert ".card" in client.get("/static/style.css").text


@pytest.mark.parametrize(
    ("body", "code", "params"),
    [
        ({"rules": "whist"}, "bad_rules", {}),
        ({"rules": "pagat", "seats": [{"kind": "me"}]}, "seat_count", {"n": 4}),
        ({"rules": "pagat", "seats": [{"kind": "me"}, {"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}]}, "one_me", {}),
        (
            {
                "rules": "pagat",
                "seats": [{"kind": "me"}, {"kind": "bot", "bot": "cmd:rm -rf /"}, {"kind": "bot"}, {"kind": "bot"}],
            },
            "unknown_bot",
            {"seat": 1},
        ),
        (
            {"rules": "pagat", "seats": [{"kind": "me"}, {"kind": "alien"}, {"kind": "bot"}, {"kind": "bot"}]},
            "seat_kind",
            {"seat": 1},
        ),
        ({"rules": "pagat", "grace": -1}, "bad_grace", {"max": 3600}),
        ({"rules": "pagat", "timer": "soon"}, "bad_timer", {"min": 1}),
        ({"rules": "pagat", "trick_pause": 9}, "bad_trick_pause", {"max": 5}),
        ({"rules": "pagat", "listed": "yes"}, "bad_listed", {}),
        ({"rules": {"preset": "pagat", "staged_deal": True}}, "bad_rules", {}),
        ({"rules": "pagat", "colour": "red"}, "unknown_field", {"text": "colour"}),
        ([1, 2], "table_not_object", {}),
    ],
)
def test_bad_table_requests_are_refused_with_a_code_and_params(
    client: TestClient, body: object, code: str, params: dict[str, object]
) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    answer = response.json()
    assert answer["code"] == code and params.items() <= answer["params"].items()
    assert answer["error"]  # the English text, for programs and logs


def test_bad_json_and_huge_bodies_are_refused(client: TestClient) -> None:
    response = client.post("/api/tables", content=b"{not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and response.json()["code"] == "bad_json"
    response = client.post("/api/tables", content=b"[" + b"1," * 20000 + b"1]")
    assert response.status_code == 400 and response.json()["code"] == "body_too_large"


def test_create_and_join_seats(client: TestClient) -> None:
    created = client.post(
        "/api/tables",
        json={
            "rules": "mendikot",
            "name": "Asha",
            "listed": True,
            "seats": [{"kind": "me"}, {"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}],
        },
    ).json()
    assert created["seat"] == 0 and len(created["token"]) >= 30
    assert [invite["seat"] for invite in created["invites"]] == [1]
    assert "watch_token" not in created  # a listed table needs no watch link
    listed = client.get("/api/tables").json()["tables"]
    assert listed[0]["id"] == created["id"] and listed[0]["status"] == "waiting"
    assert "token" not in str(listed) and created["token"] not in str(listed)
    assert listed[0]["seats"][0]["name"] == "Asha" and listed[0]["host"] == 0 and not listed[0]["private"]
    with client.websocket_connect(f"/ws/{created['id']}") as socket:  # the invited person opens the link
        socket.send_json({"type": "hello", "token": created["invites"][0]["token"], "name": "Bela"})
        while (message := socket.receive_json())["type"] != "state" or message["seat"] != 1:
            pass
    again = client.post(f"/api/tables/{created['id']}/join", json={"seat": 1, "name": "Chand"})
    assert again.status_code == 409 and again.json()["code"] == "seat_taken" and again.json()["params"] == {"seat": 1}
    info = client.get(f"/api/tables/{created['id']}").json()
    assert info["status"] == "playing"  # every person seat is taken: the match starts
    assert info["seats"][1]["name"] == "Bela"
    missing = client.post("/api/tables/nope/join", json={"seat": 1})
    assert missing.status_code == 404 and missing.json()["code"] == "no_table"
    bad = client.post(f"/api/tables/{created['id']}/join", json={"seat": 9})
    assert bad.status_code == 400 and bad.json() == {
        "error": "Choose a seat from 0 to 3.",
        "code": "bad_seat",
        "params": {"max": 3},
    }


def test_a_bots_only_match_is_kept_in_history_and_downloads_as_a_record(client: TestClient) -> None:
    created = client.post("/api/tables", json={"rules": "taash", "seats": [{"kind": "bot"}] * 4}).json()
    deadline = time.monotonic() + 30
    matches: list[dict[str, object]] = []
    while time.monotonic() < deadline and not matches:
        matches = client.get("/api/history").json()["matches"]
        time.sleep(0.05)
    assert matches and matches[0]["table"] == created["id"]
    download = client.get(f"/api/history/{created['id']}/1/record")
    assert "attachment" in download.headers["content-disposition"]
    record = download.json()
    assert record["format"] == "dehla-record/1"
    match = replay(record)
    assert match.is_over and list(match.score) == matches[0]["score"]
    view = client.get(f"/api/history/{created['id']}/1/replay").json()
    assert view["replay"] == replay_json(match)
    assert client.get(f"/api/history/{created['id']}/7/record").status_code == 404


def test_the_replay_offers_the_solvers_analysis_one_hand_at_a_time(tmp_path: Path) -> None:
    from dehla.analysis.record import analyse_record

    settings = WebSettings(bot_delay=0, hand_pause=0, trick_pause=0, analysis_nodes=100_000)
    with TestClient(create_app(open_storage(str(tmp_path / "analysis.sqlite3")), settings)) as client:
        seats = [{"kind": "bot", "bot": "random"}] * 4
        created = client.post("/api/tables", json={"rules": "taash", "seats": seats}).json()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not client.get("/api/history").json()["matches"]:
            time.sleep(0.05)
        record = client.get(f"/api/history/{created['id']}/1/record").json()
        answer = client.get(f"/api/history/{created['id']}/1/analysis/0")
        assert answer.status_code == 200
        data = answer.json()
        # the same analysis as `dehla analyse` gives for that hand, with the same node limit
        expected = analyse_record(record, node_limit=100_000, hands={0}).to_json()
        assert data["hand"] == expected["hands"][0] and data["seats"] == expected["seats"]
        # and what is said of each decision, decided by the one renderer `dehla analyse` prints with
        assert [item["index"] for item in data["verdicts"]] == [item["index"] for item in data["hand"]["decisions"]]
        assert all(
            item["mark"] in ("good", "bad", "unknown", "estimate") and item["words"] for item in data["verdicts"]
        )
        decisions = data["hand"]["decisions"]
        assert len(decisions) == len(record["hands"][0]["actions"])
        assert all(item["solved"] for item in decisions[-8:])  # the last tricks are always small enough to solve
        for item in decisions:
            if item["solved"] and not item["forced"]:
                assert (item["levels_lost"] == 0) == (item["action"] in item["best"])
        assert client.get(f"/api/history/{created['id']}/1/analysis/0").json() == data  # kept for the next viewer
        assert client.get(f"/api/history/{created['id']}/1/analysis/99").status_code == 404
        # no analysis running: the page's progress line reads zeros
        progress = client.get(f"/api/history/{created['id']}/1/analysis/0/progress").json()
        assert progress == {"done": 0, "total": 0, "preparing": False}
        assert client.get(f"/api/history/{created['id']}/5/analysis/0").status_code == 404


def test_an_analysis_worker_says_it_waits_for_the_solvers_first_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a fresh install the worker waits for the kernel compiled aside: it reports ``preparing`` first (the page
    says the solver is being prepared), then the decisions as they are solved."""
    import queue

    from dehla.solver import warm
    from dehla.web import analysis

    rng = random.Random(3)
    match = Match.new("taash", rng)
    while not match.is_over:
        match.apply(match.random_deal(rng) if match.is_chance else rng.choice(match.legal_actions()))
    asked: list[bool] = []

    def warm_up(wait: bool = False) -> bool:
        asked.append(wait)
        return wait  # not ready until waited for, as while the compile aside runs

    reports: queue.Queue[tuple[object, int, int, bool]] = queue.Queue()
    monkeypatch.setattr(warm, "warm_up", warm_up)
    monkeypatch.setattr(analysis, "_progress_queue", reports)
    key = ("t", 1, 0)
    reply = analysis._analyse_hand(to_record(match), 0, 20_000, key)
    assert asked == [False, True]
    first = reports.get_nowait()
    assert first == (key, 0, 0, True)
    later = [reports.get_nowait() for _ in range(reports.qsize())]
    assert later and all(not preparing for *_, preparing in later)
    assert later[-1][1] == later[-1][2] == len(reply["hand"]["decisions"])


def _engine_hands(preset: str, seed: int) -> tuple[Match, list[dict[str, list[int]]]]:
    rng = random.Random(seed)
    match = Match.new(preset, rng)
    while not match.is_over:
        match.apply(match.random_deal(rng) if match.is_chance else rng.choice(match.legal_actions()))
    return match, [{"tens": list(result.tens), "tricks": list(result.tricks_won)} for result in match.results]


@pytest.mark.parametrize("preset", ["pagat", "taash", "taash-b2b", "mendikot", "mendikot-6"])
def test_scorekeeper_agrees_with_the_engine(client: TestClient, preset: str) -> None:
    for seed in range(4):
        match, hands = _engine_hands(preset, seed)
        data = client.post(
            "/api/scorekeeper", json={"rules": preset, "first_dealer": match.first_dealer, "hands": hands}
        ).json()
        assert data["over"] and data["winner"] == match.winner
        assert data["score"] == list(match.score)
        assert [row["dealer"] for row in data["hands"]] == [result.dealer for result in match.results]
        assert [row["kot"] for row in data["hands"]] == [result.kot for result in match.results]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"rules": "pagat", "hands": [{"tens": [3, 0]}]}, "add up to 4"),
        ({"rules": "mendikot", "hands": [{"tens": [2, 2], "tricks": [7, 7]}]}, "add up to 13"),
        ({"rules": "mendikot", "hands": [{"tens": [2, 2]}]}, "tricks must be two"),
        ({"rules": "pagat", "hands": [{"tens": [4, 0]}, {"tens": [4, 0]}]}, "already over"),
        ({"rules": "pagat", "first_dealer": 7}, "first_dealer"),
        ({"rules": "pagat", "hands": [{"tens": [-1, 5]}]}, "whole numbers"),
    ],
)
def test_scorekeeper_refuses_impossible_hands(client: TestClient, body: object, message: str) -> None:
    response = client.post("/api/scorekeeper", json=body)
    assert response.status_code == 400 and message in response.json()["error"]


def test_catalogs_are_served_as_json(client: TestClient) -> None:
    """(What the catalogs hold is checked in test_i18n.py.)"""
    catalog = client.get("/api/i18n/es").json()
    assert catalog["lang"] == "es" and catalog["messages"]["Play now against bots"] != "Play now against bots"
    assert client.get("/api/i18n/en").json()["messages"] == {}
    missing = client.get("/api/i18n/xx")
    assert missing.status_code == 404 and missing.json()["code"] == "no_language"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (b"binary", "bad_message"),
        ("x" * 5000, "too_big"),
        ("{", "bad_message"),
        ("[]", "bad_message"),
        ('{"type": "dance"}', "bad_message"),
        ('{"type": "act"}', "bad_message"),
        ('{"type": "act", "action": 5}', "bad_message"),
        ('{"type": "act", "action": "' + "A" * 40 + '"}', "bad_message"),
        ('{"type": "act", "action": "10H", "extra": 1}', "bad_message"),
        ('{"type": "act", "action": "10H", "version": true}', "bad_message"),
        ('{"type": "hello", "token": "\\u0000"}', "bad_message"),
        ("[" * 3000, "too_big"),
    ],
)
def test_malformed_messages_are_refused(text: object, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_message(text)
    assert caught.value.code == code


def test_valid_messages_pass() -> None:
    assert parse_message('{"type": "act", "action": "10H", "version": 3}') == {
        "type": "act",
        "action": "10H",
        "version": 3,
    }
    assert parse_message('{"type": "hello"}') == {"type": "hello"}


def test_the_message_types_say_what_the_protocol_table_checks() -> None:
    """``parse_message`` checks each message against ``MESSAGE_FIELDS`` and ``REQUIRED`` and returns it as one of the
    ``ClientMessage`` types: each type names the same fields, with the same value types, required or not."""
    import typing

    from dehla.web import protocol

    types: dict[str, type] = {}
    for member in typing.get_args(protocol.ClientMessage):
        for kind in typing.get_args(typing.get_type_hints(member)["type"]):
            types[kind] = member
    assert set(types) == set(protocol.MESSAGE_FIELDS)
    for kind, fields in protocol.MESSAGE_FIELDS.items():
        member = types[kind]
        hints = typing.get_type_hints(member)
        assert set(hints) - {"type"} == set(fields), kind
        marked = typing.get_type_hints(member, include_extras=True)
        required = {name for name, hint in marked.items() if typing.get_origin(hint) is not typing.NotRequired}
        assert required - {"type"} == set(protocol.REQUIRED.get(kind, ())), kind
        for name, (expected, _) in fields.items():
            assert hints[name] is expected, (kind, name)


def test_rate_limiter_allows_bursts_then_refuses() -> None:
    limiter = RateLimiter(rate=1, burst=3)
    assert [limiter.allow() for _ in range(5)] == [True, True, True, False, False]
    assert limiter.refused == 2


def test_watcher_view_holds_no_private_field() -> None:
    rng = random.Random(3)
    match = Match.new("mendikot-band", rng)
    match.apply(match.random_deal(rng))
    match.apply(match.legal_actions()[0])  # the chooser hides a card
    view = watcher_view(match)
    assert view["hand"] == [] and view["hidden_card"] is None and view["legal_actions"] == []
    assert view["history"] == ["hide ?"] and view["seat"] is None
