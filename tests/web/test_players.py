"""Players, not links: the defects of issue 35, each as a test named after what a player meets.

A browser gets a player identity (a signed cookie) on its first visit; a seat belongs to the first player who
opens its link; a finished match is visible to whoever could see its table while it was played; analysis requests
are bounded; an action names the position it was chosen at; a finished match lost by a crash is kept from the log.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.web.test_tables import _until

from dehla.analysis.render import HandReply
from dehla.web import analysis as analysis_module
from dehla.web.analysis import AnalysisService
from dehla.web.app import WebSettings, create_app
from dehla.web.messages import WebError
from dehla.web.players import COOKIE, Identities
from dehla.web.storage import open_storage
from dehla.web.storage.migrations import CURRENT

RANDOM_BOTS = [{"kind": "bot", "bot": "random"}] * 3


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        open_storage(str(tmp_path / "players.sqlite3")), WebSettings(bot_delay=0, hand_pause=0, trick_pause=0)
    )
    with TestClient(app) as test_client:
        yield test_client


def new_player(client: TestClient) -> str:
    """A browser's first visit: the cookie it is given (its player identity)."""
    client.cookies.clear()
    answer = client.get("/")
    assert "httponly" in answer.headers["set-cookie"].lower() and "samesite=lax" in answer.headers["set-cookie"].lower()
    return str(client.cookies[COOKIE])


def be(client: TestClient, cookie: str | None) -> None:
    """Make the client's next requests those of the player with this cookie (``None``: a stranger without one)."""
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set(COOKIE, cookie)


def _finished(client: TestClient, table: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(item["table"] == table for item in client.get("/api/history").json()["matches"]):
            return
        time.sleep(0.05)
    raise AssertionError("the match did not finish")


def test_a_cookie_not_signed_by_the_server_is_no_identity() -> None:
    identities = Identities()
    identities.start("secret one")
    signed = identities.sign("player-1")
    assert identities.read(signed) == "player-1"
    other = Identities()
    other.start("secret two")
    assert other.read(signed) is None
    assert identities.read("player-1") is None and identities.read("") is None and identities.read(None) is None


def test_a_private_tables_finished_match_is_seen_only_by_its_players_and_link_holders(client: TestClient) -> None:
    host = new_player(client)
    created = client.post(
        "/api/tables", json={"rules": "taash", "listed": False, "grace": 0, "seats": [{"kind": "me"}, *RANDOM_BOTS]}
    ).json()
    table = created["id"]
    _finished(client, table)  # the host sees it in the history
    urls = [f"/api/history/{table}/1/replay", f"/api/history/{table}/1/record", f"/api/history/{table}/1/analysis/0"]
    be(client, None)  # a stranger, no cookie, no token
    assert table not in {item["table"] for item in client.get("/api/history").json()["matches"]}
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 404 and answer.json()["code"] == "no_finished_match", url
    be(client, new_player(client))  # another player, with an identity of their own
    assert table not in {item["table"] for item in client.get("/api/history").json()["matches"]}
    assert client.get(urls[1]).status_code == 404
    be(client, None)  # the holder of the watch link
    assert client.get(f"{urls[1]}?watch={created['watch_token']}").json()["format"] == "dehla-record/1"
    assert client.get(f"{urls[1]}?watch=not-the-link").status_code == 404
    be(client, host)
    line = next(item for item in client.get("/api/history").json()["matches"] if item["table"] == table)
    assert line["listed"] is False
    assert client.get(urls[0]).json()["record"]["format"] == "dehla-record/1"


def test_a_listed_tables_finished_match_is_public(client: TestClient) -> None:
    new_player(client)
    created = client.post(
        "/api/tables", json={"rules": "taash", "listed": True, "grace": 0, "seats": [{"kind": "me"}, *RANDOM_BOTS]}
    ).json()
    _finished(client, created["id"])
    be(client, None)
    assert created["id"] in {item["table"] for item in client.get("/api/history").json()["matches"]}
    assert client.get(f"/api/history/{created['id']}/1/record").status_code == 200


def test_an_invite_link_seats_only_the_first_player_who_opens_it(client: TestClient) -> None:
    host, friend, stranger = new_player(client), new_player(client), new_player(client)
    be(client, host)
    created = client.post(
        "/api/tables",
        json={"rules": "pagat", "seats": [{"kind": "me"}, {"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]},
    ).json()
    table, link = created["id"], created["invites"][0]["token"]
    with client.websocket_connect(f"/ws/{table}") as host_socket:
        host_socket.send_json({"type": "hello", "token": created["token"]})
        _until(host_socket, lambda m: m["type"] == "state" and m["seat"] == 0)
        be(client, friend)
        with client.websocket_connect(f"/ws/{table}") as friend_socket:
            friend_socket.send_json({"type": "hello", "token": link, "name": "Bela"})
            _until(friend_socket, lambda m: m["type"] == "state" and m["seat"] == 1)
            be(client, stranger)
            with client.websocket_connect(f"/ws/{table}") as stranger_socket:
                stranger_socket.send_json({"type": "hello", "token": link})
                refusal = _until(stranger_socket, lambda m: m["type"] in ("error", "state"))
                assert (
                    refusal["type"] == "error" and refusal["code"] == "seat_owned" and refusal["params"] == {"seat": 1}
                )
            notice = _until(host_socket, lambda m: m["type"] == "notice")
            assert notice["code"] == "invite_reused" and notice["params"] == {"seat": 1}
            # the friend kept the seat: the next state they get is still seat 1's, with their cards
            friend_socket.send_json({"type": "ping"})
            seen: list[dict[str, Any]] = []
            _until(friend_socket, lambda m: seen.append(m) is None and m["type"] == "pong")
            assert not [m for m in seen if m["type"] == "notice"]
            assert all(m["seat"] == 1 for m in seen if m["type"] == "state")
            # the friend on a second device (same player) moves the seat there
            be(client, friend)
            with client.websocket_connect(f"/ws/{table}") as second:
                second.send_json({"type": "hello", "token": link})
                _until(second, lambda m: m["type"] == "state" and m["seat"] == 1)
                moved = _until(friend_socket, lambda m: m["type"] == "notice")
                assert moved["code"] == "moved_elsewhere"
    # a stranger cannot take the seat through the lobby either
    be(client, stranger)
    assert client.post(f"/api/tables/{table}/join", json={"seat": 1}).status_code in (403, 409)


def test_play_now_makes_a_table_only_its_player_sees(client: TestClient) -> None:
    """The lobby's "Play now against bots" asks for an unlisted table (static/js/lobby.js) and says so."""
    script = (Path(analysis_module.__file__).parent / "static" / "js" / "lobby.js").read_text()
    quick = script[script.index("export async function quickGame") : script.index("\n}\n", script.index("quickGame"))]
    assert "listed: open" in quick and 'quickGame("pagat", quickOpen.checked)' in script
    new_player(client)
    created = client.post(
        "/api/tables",
        json={
            "rules": "pagat",
            "listed": False,
            "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
        },
    ).json()
    assert created["id"] not in {table["id"] for table in client.get("/api/tables").json()["tables"]}
    assert client.get(f"/api/tables/{created['id']}").status_code == 200  # its player sees it
    be(client, None)
    assert client.get(f"/api/tables/{created['id']}").status_code == 404
    assert client.post(f"/api/tables/{created['id']}/join", json={"seat": 1}).status_code == 403


def test_an_action_names_the_position_it_was_chosen_at(client: TestClient) -> None:
    new_player(client)
    created = client.post(
        "/api/tables",
        json={
            "rules": "mendikot",
            "seats": [{"kind": "me"}, {"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}],
            "listed": True,
        },
    ).json()
    table = created["id"]
    with client.websocket_connect(f"/ws/{table}") as socket:
        socket.send_json({"type": "hello", "token": created["token"]})
        socket.send_json({"type": "start"})
        state = _until(
            socket,
            lambda m: (
                m["type"] == "state"
                and m["observation"] is not None
                and m["observation"]["to_act"] == 0
                and bool(m["observation"]["legal_actions"])
            ),
        )
        legal = state["observation"]["legal_actions"]
        socket.send_json({"type": "act", "action": legal[0]})
        assert _until(socket, lambda m: m["type"] == "error")["code"] == "no_version"
        # the host's seat command writes a seat entry: the version moves on, the game does not
        socket.send_json({"type": "settings", "trick_pause": 0.5})
        moved = _until(socket, lambda m: m["type"] == "state" and m["version"] > state["version"])
        assert moved["observation"]["to_act"] == 0
        # two windows of the seat send different cards chosen at the same version: one is played, the other is
        # refused as stale and never lands in the next trick
        socket.send_json({"type": "act", "action": legal[0], "version": state["version"]})
        socket.send_json({"type": "act", "action": legal[-1], "version": state["version"]})
        played = _until(socket, lambda m: m["type"] == "state" and m["last"] is not None and m["last"]["seat"] == 0)
        assert played["last"]["action"] == legal[0]
        refusal = _until(socket, lambda m: m["type"] == "error")
        assert refusal["code"] in ("stale", "not_your_turn")


class _GatedAnalyses(AnalysisService):
    """The analysis service with its worker replaced by a gate the test opens (no solver, no process)."""

    def __init__(self, **limits: int) -> None:
        super().__init__(**limits)
        self.gate = asyncio.Event()
        self.computed: list[tuple[str, int, int]] = []

    async def _compute(self, key: tuple[str, int, int], record: Any) -> HandReply:
        await self.gate.wait()
        self.computed.append(key)
        return {
            "format": "test",
            "hand": {"hand": key[2], "decisions": [], "start": None},
            "seats": [],
            "node_limit": 0,
        }


def test_analysis_requests_are_bounded_per_player_and_in_all() -> None:
    async def run() -> None:
        service = _GatedAnalyses(per_asker=2, max_waiting=5)
        asks = [asyncio.ensure_future(service.hand("t", 1, {}, hand, "player:a")) for hand in range(30)]
        await asyncio.sleep(0.05)
        refused = [ask for ask in asks if ask.done()]
        assert len(refused) == 28
        for ask in refused:
            error = ask.exception()
            assert isinstance(error, WebError) and error.code == "analysis_busy" and error.status == 429
            assert isinstance(error.params["n"], int) and error.params["n"] >= 1
        others = [asyncio.ensure_future(service.hand("t", 2, {}, hand, f"player:{hand}")) for hand in range(5)]
        await asyncio.sleep(0.05)
        # five waiting or running in all: three more fit, the last two are refused
        assert [ask.done() for ask in others] == [False, False, False, True, True]
        # a page that goes away drops its hand before it starts
        others[2].cancel()
        await asyncio.sleep(0.01)
        service.gate.set()
        answers = await asyncio.gather(*(ask for ask in asks if not ask.done()))
        assert [answer["hand"]["hand"] for answer in answers] == [0, 1]
        await asyncio.gather(*others[:2])
        assert ("t", 2, 2) not in service.computed and len(service.computed) == 4

    asyncio.run(run())


def test_a_busy_analysis_is_refused_with_a_time_to_come_back(
    monkeypatch: pytest.MonkeyPatch, client: TestClient
) -> None:
    created = client.post("/api/tables", json={"rules": "taash", "seats": [{"kind": "bot", "bot": "random"}] * 4})
    _finished(client, created.json()["id"])
    busy = WebError("analysis_busy", "busy", n=30)

    async def refuse(*args: object, **kwargs: object) -> HandReply:
        raise busy

    monkeypatch.setattr(AnalysisService, "hand", refuse)
    answer = client.get(f"/api/history/{created.json()['id']}/1/analysis/0")
    assert answer.status_code == 429 and answer.headers["retry-after"] == "30"
    assert answer.json()["code"] == "analysis_busy" and answer.json()["params"] == {"n": 30}


def test_a_finished_match_lost_by_a_crash_is_kept_from_the_log(tmp_path: Path) -> None:
    """The process that commits a match's last action dies before it keeps the finished match: the log has every
    action, so the next process to load the table keeps it (here: the row deleted, as if never written)."""
    db = tmp_path / "crash.sqlite3"
    settings = WebSettings(bot_delay=0, hand_pause=0, trick_pause=0)
    with TestClient(create_app(open_storage(str(db)), settings)) as client:
        created = client.post("/api/tables", json={"rules": "taash", "seats": [{"kind": "bot", "bot": "random"}] * 4})
        table = created.json()["id"]
        _finished(client, table)
        record = client.get(f"/api/history/{table}/1/record").json()
    with sqlite3.connect(db) as connection:
        connection.execute("DELETE FROM finished")
    with TestClient(create_app(open_storage(str(db)), settings)) as client:
        assert client.get(f"/api/history/{table}/1/record").json() == record
        assert client.get("/api/history").json()["matches"][0]["table"] == table


#: A database written by the release before player identities (tests/web/fixtures, made with that release's
#: code): a private table's finished match, a listed one's, and a private table still waiting for its invitee.
OLD_RELEASE = Path(__file__).parent / "fixtures" / "release-2026-12-04.sqlite3"
OLD_PRIVATE, OLD_PRIVATE_WATCH, OLD_PUBLIC, OLD_WAITING = (
    "T6cVxMnWhz0",
    "iIVcaY8v3ku2FsY4jYH2ABcl86l50Iq7",
    "pE5tYLhNyoc",
    "lGvwUHibwAI",
)
OLD_WAITING_TOKEN = "ERPp-8jQkUQTMMCqexvzs0nxe5EQDKLC"


def test_a_database_of_the_release_before_opens_with_everything_kept_and_private_matches_private(
    tmp_path: Path,
) -> None:
    db = tmp_path / "upgraded.sqlite3"
    db.write_bytes(OLD_RELEASE.read_bytes())
    with sqlite3.connect(db) as connection:
        logs_before = connection.execute("SELECT table_id, seq, entry FROM log ORDER BY table_id, seq").fetchall()
        records_before = dict(
            ((table, match_no), record)
            for table, match_no, record in connection.execute("SELECT table_id, match_no, record FROM finished")
        )
    settings = WebSettings(bot_delay=0, hand_pause=0, trick_pause=0)
    with TestClient(create_app(open_storage(str(db)), settings)) as client:
        public = {item["table"] for item in client.get("/api/history").json()["matches"]}
        assert public == {OLD_PUBLIC}  # the private table's match is no longer shown to everyone
        assert client.get(f"/api/history/{OLD_PRIVATE}/1/record").status_code == 404
        kept = client.get(f"/api/history/{OLD_PRIVATE}/1/record?watch={OLD_PRIVATE_WATCH}")
        assert kept.status_code == 200 and kept.text.strip().startswith("{")
        assert client.get(f"/api/history/{OLD_PUBLIC}/1/replay").status_code == 200
        # the table still waiting for its invitee is there, private, and its host's link still seats them
        assert client.get(f"/api/tables/{OLD_WAITING}").status_code == 404
        with client.websocket_connect(f"/ws/{OLD_WAITING}") as socket:
            socket.send_json({"type": "hello", "token": OLD_WAITING_TOKEN})
            assert _until(socket, lambda m: m["type"] == "state")["seat"] == 0
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT version FROM schema_version").fetchall() == [(CURRENT,)]
        logs_after = connection.execute("SELECT table_id, seq, entry FROM log ORDER BY table_id, seq").fetchall()
        assert set(logs_before) <= set(logs_after)  # every entry kept (a seat taken above adds one)
        for key, record in records_before.items():
            assert connection.execute(
                "SELECT record FROM finished WHERE table_id = ? AND match_no = ?", key
            ).fetchone() == (record,)
        assert {row[0] for row in connection.execute("SELECT id FROM tables")} == {OLD_PRIVATE, OLD_PUBLIC, OLD_WAITING}
    # opened again: already at this version, nothing changes
    with TestClient(create_app(open_storage(str(db)), settings)) as client:
        assert {item["table"] for item in client.get("/api/history").json()["matches"]} == {OLD_PUBLIC}


def test_your_games_list_your_private_matches_with_statistics_and_an_export(client: TestClient) -> None:
    from dehla.record import replay, replay_json

    me = new_player(client)
    created = client.post(
        "/api/tables",
        json={"rules": "taash", "listed": False, "grace": 0, "seats": [{"kind": "me", "name": "Asha"}, *RANDOM_BOTS]},
    ).json()
    _finished(client, created["id"])
    games = client.get("/api/me/games").json()
    assert [(line["table"], line["seat"], line["listed"]) for line in games["matches"]] == [(created["id"], 0, False)]
    record = client.get(f"/api/history/{created['id']}/1/record").json()
    hands = replay_json(replay(record))["hands"]
    taash = games["stats"]["taash"]
    assert taash["matches"] == 1 and taash["hands"] == len(hands)
    assert taash["hands_won"] == sum(hand["winner"] == 0 for hand in hands)
    assert taash["matches_won"] == (replay(record).winner == 0)
    assert taash["tens_per_hand"] == round(sum(hand["tens"][0] for hand in hands) / len(hands), 2)
    assert taash["partners"] == [[record["players"][2], 1]]
    export = client.get("/api/me/records")
    assert "attachment" in export.headers["content-disposition"] and export.json() == [record]
    be(client, new_player(client))  # someone else has no games yet
    assert client.get("/api/me/games").json() == {"matches": [], "stats": {}}
    be(client, me)
    assert len(client.get("/api/me/games").json()["matches"]) == 1


def test_a_player_names_themselves_and_can_forget_everything(client: TestClient) -> None:
    be(client, None)
    refused = client.post("/api/me", json={"name": "Asha"})
    assert refused.status_code == 403 and refused.json()["code"] == "no_player"
    me = new_player(client)
    assert client.get("/api/me").json() == {"player": True, "name": "", "passkeys": 0}
    assert client.post("/api/me", json={"name": "  Asha   Rao "}).json() == {
        "player": True,
        "name": "Asha Rao",
        "passkeys": 0,
    }
    assert client.get("/api/me").json()["name"] == "Asha Rao"
    assert client.post("/api/me", json={"name": "\u0007"}).json()["code"] == "bad_name"
    client.post(
        "/api/tables", json={"rules": "taash", "listed": False, "grace": 0, "seats": [{"kind": "me"}, *RANDOM_BOTS]}
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not client.get("/api/me/games").json()["matches"]:
        time.sleep(0.05)
    assert client.get("/api/me/games").json()["matches"]
    gone = client.delete("/api/me")
    assert (
        gone.json() == {"deleted": True} and 'dehla_player=""' in gone.headers["set-cookie"]
    ) or "max-age=0" in gone.headers["set-cookie"].lower()
    be(client, me)  # even the old cookie finds nothing of the player any more
    assert client.get("/api/me").json()["name"] == ""
    assert client.get("/api/me/games").json() == {"matches": [], "stats": {}}
    assert client.get("/api/history").json()["matches"] == []


def test_a_rated_table_needs_a_person_in_every_seat(client: TestClient) -> None:
    new_player(client)
    refused = client.post(
        "/api/tables", json={"rules": "taash", "rated": True, "seats": [{"kind": "me"}, *RANDOM_BOTS]}
    )
    assert refused.status_code == 400 and refused.json()["code"] == "rated_needs_people"


def test_a_rated_match_rates_its_four_players_as_openskill_does(client: TestClient) -> None:
    from openskill.models import PlackettLuce

    from dehla.record import replay

    players = [new_player(client) for _ in range(4)]
    be(client, players[0])
    created = client.post(
        "/api/tables",
        json={
            "rules": "taash",
            "rated": True,
            "grace": 0,
            "name": "P0",
            "seats": [{"kind": "me"}, {"kind": "person"}, {"kind": "person"}, {"kind": "person"}],
        },
    ).json()
    table = created["id"]
    tokens = {0: created["token"], **{invite["seat"]: invite["token"] for invite in created["invites"]}}
    for seat, cookie in enumerate(players):  # each takes their seat, then leaves: the stand-ins play it out
        be(client, cookie)
        with client.websocket_connect(f"/ws/{table}") as socket:
            socket.send_json({"type": "hello", "token": tokens[seat], "name": f"P{seat}"})
            _until(socket, lambda m, seat=seat: m["type"] == "state" and m["seat"] == seat)
    be(client, players[0])
    _finished(client, table)
    record = client.get(f"/api/history/{table}/1/record").json()
    winner = replay(record).winner
    model = PlackettLuce()
    teams = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    rated = model.rate(teams, ranks=[0.0 if team == winner else 1.0 for team in (0, 1)])
    expected = {f"P{seat}": rated[seat % 2][seat // 2] for seat in range(4)}
    board = client.get("/api/ratings/taash").json()
    assert {row["name"] for row in board["players"]} == set(expected)
    for row in board["players"]:
        assert row["mu"] == round(expected[row["name"]].mu, 2) and row["sigma"] == round(expected[row["name"]].sigma, 2)
        assert row["matches"] == 1 and row["provisional"]
    assert [row["you"] for row in board["players"] if row["name"] == "P0"] == [True]
    mine = client.get("/api/me/ratings").json()["families"]["taash"]
    assert len(mine) == 1 and mine[0]["mu"] == round(expected["P0"].mu, 2)
    assert client.get("/api/ratings/whist").json()["code"] == "no_family"


def test_a_player_who_leaves_a_rated_match_loses_it_for_rating() -> None:
    from dehla.web.ratings import rate_match

    seats = {0: "a", 1: "b", 2: "c", 3: "d"}
    stayed = rate_match(seats, 0, set(), {})
    left = rate_match(seats, 0, {"a"}, {})
    assert stayed["a"].mu > 25 > left["a"].mu == stayed["b"].mu  # a's team won, but a left: a loses
    assert left["c"] == stayed["c"] and left["b"] == stayed["b"]  # nobody else changes
    assert all(rating.matches == 1 for rating in left.values())


def test_four_players_finding_a_game_are_seated_together_and_eight_at_two_tables(client: TestClient) -> None:
    players = [new_player(client) for _ in range(8)]
    for number, cookie in enumerate(players[:3]):
        be(client, cookie)
        status = client.post("/api/queue", json={"preset": "pagat", "name": f"P{number}"}).json()
        assert status["waiting"] and status["table"] is None
    be(client, None)
    counts = client.get("/api/queue").json()["counts"]
    assert counts == [{"preset": "pagat", "target": 1, "rated": False, "waiting": 3}]  # the lobby shows it
    be(client, players[3])
    fourth = client.post("/api/queue", json={"preset": "pagat", "name": "P3"}).json()
    assert fourth["table"] is not None and not fourth["waiting"]
    table = fourth["table"]
    seats = set()
    for number, cookie in enumerate(players[:4]):
        be(client, cookie)
        status = client.get("/api/queue").json()
        assert status["table"] == table
        seats.add(status["seat"])
        with client.websocket_connect(f"/ws/{table}") as socket:  # their identity opens their seat: no link
            socket.send_json({"type": "hello", "mine": True})
            state = _until(socket, lambda m: m["type"] == "state" and m["seat"] is not None)
            assert state["seat"] == status["seat"] and state["table"]["seats"][state["seat"]]["name"] == f"P{number}"
    assert seats == {0, 1, 2, 3}
    be(client, None)
    assert client.get(f"/api/tables/{table}").status_code == 404  # a private table of its four
    for number, cookie in enumerate(players[4:]):
        be(client, cookie)
        client.post("/api/queue", json={"preset": "pagat", "name": f"Q{number}"})
    tables = set()
    for cookie in players[4:]:
        be(client, cookie)
        tables.add(client.get("/api/queue").json()["table"])
    assert len(tables) == 1 and table not in tables  # the next four at a second table
    be(client, players[0])
    assert client.delete("/api/queue").json()["table"] is None


def test_a_player_tired_of_waiting_fills_the_seats_with_bots(client: TestClient) -> None:
    me = new_player(client)
    assert client.post("/api/queue", json={"preset": "mendikot", "rated": True}).json()["waiting"]
    status = client.post("/api/queue/bots").json()
    assert status["table"] is not None and status["seat"] == 0
    info = client.get(f"/api/tables/{status['table']}").json()
    assert [seat["kind"] for seat in info["seats"]] == ["person", "bot", "bot", "bot"] and not info["rated"]
    be(client, me)
    assert client.post("/api/queue/bots").json()["code"] == "not_queued"
    assert client.post("/api/queue", json={"preset": "whist"}).json()["code"] == "bad_queue"


def test_a_passkey_answer_that_does_not_verify_is_refused(client: TestClient) -> None:
    be(client, None)
    assert client.post("/api/passkeys/register/options", json={}).json()["code"] == "no_player"
    new_player(client)
    options = client.post("/api/passkeys/register/options", json={}).json()
    assert options["options"]["rp"]["id"] == "testserver" and options["state"]
    forged = client.post("/api/passkeys/register", json={"state": options["state"], "credential": {"id": "x"}})
    assert forged.status_code == 400 and forged.json()["code"] == "passkey_failed"
    assert (
        client.post("/api/passkeys/register", json={"state": "not ours", "credential": {}}).json()["code"]
        == "passkey_failed"
    )
    login = client.post("/api/passkeys/login/options", json={}).json()
    unknown = client.post("/api/passkeys/login", json={"state": login["state"], "credential": {"id": "nobody"}})
    assert unknown.status_code == 404 and unknown.json()["code"] == "passkey_unknown"


def _admin(db: Path, *args: str) -> str:
    import contextlib
    import io

    from dehla.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["admin", "--db", str(db), *args]) == 0
    return out.getvalue()


def test_a_reported_chat_line_reaches_the_admins_and_a_banned_player_may_only_watch(tmp_path: Path) -> None:
    db = tmp_path / "moderation.sqlite3"
    with TestClient(create_app(open_storage(str(db)), WebSettings(bot_delay=0, hand_pause=0, trick_pause=0))) as client:
        host, rude = new_player(client), new_player(client)
        be(client, host)
        created = client.post(
            "/api/tables",
            json={
                "rules": "pagat",
                "listed": True,
                "seats": [{"kind": "me"}, {"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}],
            },
        ).json()
        table, link = created["id"], created["invites"][0]["token"]
        with client.websocket_connect(f"/ws/{table}") as host_socket:
            host_socket.send_json({"type": "hello", "token": created["token"]})
            _until(host_socket, lambda m: m["type"] == "chat_log")
            be(client, rude)
            with client.websocket_connect(f"/ws/{table}") as rude_socket:
                rude_socket.send_json({"type": "hello", "token": link, "name": "Rude"})
                _until(rude_socket, lambda m: m["type"] == "chat_log")
                rude_socket.send_json({"type": "chat", "text": "something nasty"})
                line = _until(host_socket, lambda m: m["type"] == "chat")
                host_socket.send_json({"type": "report", "chat": line["id"]})
                assert _until(host_socket, lambda m: m["type"] == "notice")["code"] == "reported"
                host_socket.send_json({"type": "report", "chat": 999})
                assert _until(host_socket, lambda m: m["type"] == "error")["code"] == "no_chat_line"
    reports = _admin(db, "reports")
    assert "something nasty" in reports and "Rude" in reports
    rude_player = reports.split("(player ")[1].split(")")[0]
    assert "is banned" in _admin(db, "ban", rude_player, "--reason", "abuse")
    assert rude_player in _admin(db, "bans")
    with TestClient(create_app(open_storage(str(db)), WebSettings(bot_delay=0, hand_pause=0, trick_pause=0))) as client:
        be(client, rude)
        refused = client.post("/api/tables", json={"rules": "pagat"})
        assert refused.status_code == 403 and refused.json()["code"] == "banned"
        assert client.post("/api/queue", json={"preset": "pagat"}).json()["code"] == "banned"
        with client.websocket_connect(f"/ws/{table}") as socket:  # their seat is refused; the listed table watched
            socket.send_json({"type": "hello", "token": link})
            messages: list[dict[str, Any]] = []
            _until(socket, lambda m: messages.append(m) is None and m["type"] == "error")
            assert messages[-1]["code"] == "banned"
            assert all(m["seat"] is None for m in messages if m["type"] == "state")
    assert "may play again" in _admin(db, "unban", rude_player)


def test_a_blocked_player_is_never_seated_with_the_blocker_and_their_chat_is_hidden(client: TestClient) -> None:
    blocker, blocked = new_player(client), new_player(client)
    be(client, blocker)
    created = client.post(
        "/api/tables",
        json={"rules": "pagat", "seats": [{"kind": "me"}, {"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]},
    ).json()
    table, link = created["id"], created["invites"][0]["token"]
    with client.websocket_connect(f"/ws/{table}") as mine:
        mine.send_json({"type": "hello", "token": created["token"]})
        _until(mine, lambda m: m["type"] == "chat_log")
        be(client, blocked)
        with client.websocket_connect(f"/ws/{table}") as theirs:
            theirs.send_json({"type": "hello", "token": link, "name": "Pest"})
            _until(theirs, lambda m: m["type"] == "chat_log")
            be(client, blocker)
            assert client.post("/api/me/blocks", json={"table": table, "seat": 1}).json()["blocks"] == [
                {"player": client.get("/api/me/blocks").json()["blocks"][0]["player"], "name": "Pest"}
            ]
            assert client.post("/api/me/blocks", json={"table": table, "seat": 0}).json()["code"] == "block_self"
            theirs.send_json({"type": "chat", "text": "can you hear me"})
            assert _until(theirs, lambda m: m["type"] == "chat")["text"] == "can you hear me"
            mine.send_json({"type": "chat", "text": "only mine"})
            heard = _until(mine, lambda m: m["type"] == "chat")
            assert heard["text"] == "only mine"  # the blocked line never came
    # Find a game never seats the two together: four others and them wait, one table is made without the blocked
    others = [new_player(client) for _ in range(3)]
    be(client, blocker)
    client.post("/api/queue", json={"preset": "taash"})
    be(client, blocked)
    client.post("/api/queue", json={"preset": "taash"})
    for cookie in others:
        be(client, cookie)
        client.post("/api/queue", json={"preset": "taash"})
    be(client, blocker)
    seated = client.get("/api/queue").json()["table"]
    be(client, blocked)
    assert seated is not None and client.get("/api/queue").json()["waiting"]


def test_a_friend_is_followed_seen_online_and_invited_to_a_table_by_name(client: TestClient) -> None:
    host, friend = new_player(client), new_player(client)
    be(client, host)
    client.post("/api/me", json={"name": "Asha"})
    first = client.post(
        "/api/tables",
        json={"rules": "pagat", "seats": [{"kind": "me"}, {"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]},
    ).json()
    be(client, friend)
    with client.websocket_connect(f"/ws/{first['id']}") as socket:
        socket.send_json({"type": "hello", "token": first["invites"][0]["token"], "name": "Bela"})
        _until(socket, lambda m: m["type"] == "chat_log")
    be(client, host)
    followed = client.post("/api/me/friends", json={"table": first["id"], "seat": 1}).json()["friends"]
    assert [(item["name"], item["online"]) for item in followed] == [("Bela", True)]
    assert client.post("/api/me/friends", json={"table": first["id"], "seat": 0}).json()["code"] == "follow_self"
    second = client.post(
        "/api/tables",
        json={"rules": "taash", "seats": [{"kind": "me"}, {"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]},
    ).json()
    friend_id = followed[0]["player"]
    assert (
        client.post(f"/api/tables/{second['id']}/invite", json={"friend": "someone", "seat": 1}).json()["code"]
        == "not_a_friend"
    )
    assert client.post(f"/api/tables/{second['id']}/invite", json={"friend": friend_id, "seat": 1}).json() == {
        "ok": True
    }
    be(client, friend)
    notices = client.get("/api/me/notices").json()["notices"]
    assert [(item["table"], item["seat"], item["from"]) for item in notices] == [(second["id"], 1, "Asha")]
    with client.websocket_connect(f"/ws/{second['id']}") as socket:  # the friend's identity opens the seat
        socket.send_json({"type": "hello", "mine": True})
        assert _until(socket, lambda m: m["type"] == "state" and m["seat"] is not None)["seat"] == 1
    assert (
        client.post(f"/api/tables/{second['id']}/invite", json={"friend": friend_id, "seat": 2}).json()["code"]
        == "not_a_friend"
    )  # only the host invites, and only whom they follow
    assert client.request("DELETE", "/api/me/notices", json={"id": notices[0]["id"]}).json()["notices"] == []


def test_a_table_is_a_fold_of_its_log_through_the_one_step(tmp_path: Path) -> None:
    """``step.apply_entry`` alone, over a plain state, rebuilds what a live table and its record say."""
    from dataclasses import dataclass, field

    from dehla.engine.state import Match
    from dehla.record import replay
    from dehla.rules import Rules, parse_rules
    from dehla.web.log import ActionEntry, upgrade_entry
    from dehla.web.schema import FinishedTrick, LastAction
    from dehla.web.table.seats import SeatInfo
    from dehla.web.table.step import apply_entry

    @dataclass
    class State:
        rules: Rules
        seats: list[SeatInfo]
        listed: bool = True
        watchers_allowed: bool = True
        trick_pause: float = 0.0
        watch_hash: str | None = None
        match: Match | None = None
        match_no: int = 0
        status: str = "waiting"
        seq: int = 0
        game_seq: int = 0
        last: LastAction | None = None
        finished_trick: FinishedTrick | None = None
        match_players: dict[int, str] = field(default_factory=dict)
        ready: set[int] = field(default_factory=set)
        seeds: list[bytes | None] = field(default_factory=list)
        next_seed: tuple[int, bytes] | None = None
        hand_log: list[ActionEntry] = field(default_factory=list)
        assists: bool = True

    db = tmp_path / "fold.sqlite3"
    with TestClient(create_app(open_storage(str(db)), WebSettings(bot_delay=0, hand_pause=0, trick_pause=0))) as client:
        table = client.post("/api/tables", json={"rules": "taash", "seats": RANDOM_BOTS + RANDOM_BOTS[:1]}).json()["id"]
        _finished(client, table)
        record = client.get(f"/api/history/{table}/1/record").json()
    with sqlite3.connect(db) as connection:
        entries = [
            upgrade_entry(json.loads(row[0]))
            for row in connection.execute("SELECT entry FROM log WHERE table_id = ? ORDER BY seq", (table,))
        ]
    state = State(parse_rules("taash"), [SeatInfo("bot", "random", f"Bot {seat}") for seat in range(4)])
    for entry in entries:
        state.seq += 1
        apply_entry(state, entry)
    expected = replay(record)
    assert state.match is not None and state.match.is_over and state.status == "playing"
    assert list(state.match.score) == list(expected.score) and state.match.results == expected.results
    assert state.game_seq == len(entries) and state.last is not None


def test_a_new_player_id_never_starts_with_a_dash_so_an_admin_can_name_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """An id starting with "-" reads as an option on ``dehla admin ban ID``: new ids skip such tokens."""
    tokens = iter(["-starts-with-a-dash", "plain-id"])
    monkeypatch.setattr("dehla.web.players.secrets.token_urlsafe", lambda size: next(tokens))
    assert Identities.new_player() == "plain-id"
