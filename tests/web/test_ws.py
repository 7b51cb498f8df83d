"""WebSocket tests against a real uvicorn: seats and watchers, refusals, grace time, turn timer, rematch."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from tests.web.helpers import LiveServer, SeatClient


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = str(tmp_path_factory.mktemp("ws") / "ws.sqlite3")
    with LiveServer(db, bot_delay=0.02, hand_pause=0.2) as live:
        yield live


def _people(server: LiveServer, preset: str = "pagat", **extra: Any) -> tuple[str, list[str]]:
    created = server.post("/api/tables", {"rules": preset, "seats": [{"kind": "person"}] * 4, **extra})
    return created["id"], [invite["token"] for invite in created["invites"]]


def test_seats_see_their_own_hand_and_watchers_see_none(server: LiveServer) -> None:
    async def run() -> None:
        table, tokens = _people(server, listed=True)
        watcher = await SeatClient(server, table).open()
        seats = [await SeatClient(server, table, token).open() for token in tokens]
        states = [
            await client.wait(lambda s: s["observation"] and s["observation"]["phase"] == "call") for client in seats
        ]
        hands = [set(state["observation"]["hand"]) for state in states]
        assert all(len(hand) == 5 for hand in hands)  # called trump: five cards first
        assert len(set.union(*hands)) == 20
        for number, state in enumerate(states):
            assert state["seat"] == number and state["table"]["seats"][number]["connected"]
        view = await watcher.wait(lambda s: s["observation"] and s["observation"]["phase"] == "call")
        assert view["seat"] is None and view["observation"]["hand"] == []
        caller = next(client for client, state in zip(seats, states) if state["observation"]["to_act"] == state["seat"])
        assert caller.state is not None
        assert caller.state["observation"]["legal_actions"] == ["call S", "call H", "call D", "call C"]
        for client in [watcher, *seats]:
            await client.close()

    asyncio.run(run())


def test_refusals_change_nothing(server: LiveServer) -> None:
    async def run() -> None:
        table, tokens = _people(server, "mendikot")
        seats = [await SeatClient(server, table, token).open() for token in tokens]
        state = await seats[0].wait(lambda s: s["observation"] and s["observation"]["phase"] == "play")
        version = state["version"]
        actor = state["observation"]["to_act"]
        other = seats[(actor + 1) % 4]
        # Every seat gets the state of the same version; wait until this one has it too.
        for seat_client in (other, seats[actor]):
            await seat_client.wait(lambda s: s is not None and s["version"] >= version)
        assert other.state is not None
        await other.send({"type": "act", "action": other.state["observation"]["hand"][0]})
        assert (await other.wait_error(1))["code"] == "not_your_turn"
        mine = seats[actor]
        assert mine.state is not None
        foreign = next(card for card in other.state["observation"]["hand"])
        await mine.send({"type": "act", "action": foreign})
        refused = await mine.wait_error(1)
        assert refused["code"] == "not_held" and refused["params"] == {"card": foreign}
        await mine.send({"type": "act", "action": "11Z"})
        assert (await mine.wait_error(2))["code"] == "bad_action"
        first_legal = mine.state["observation"]["legal_actions"][0]
        await mine.send({"type": "act", "action": first_legal, "version": version - 1})
        assert (await mine.wait_error(3))["code"] == "stale"
        await mine.send({"type": "start"})
        assert (await mine.wait_error(4))["code"] == "match_started"
        await mine.send(b"\x00\x01")
        assert (await mine.wait_error(5))["code"] == "bad_message"
        await mine.send({"type": "ping"})
        await asyncio.sleep(0.2)
        assert mine.state is not None and mine.state["version"] == version
        assert any(message["type"] == "pong" for message in mine.messages)
        intruder = await SeatClient(server, table, "not-a-real-token-at-all").open()
        assert (await intruder.wait_error(1))["code"] == "bad_token"
        assert intruder.state is None  # a private table: a bad seat link sees nothing and is closed
        for client in [intruder, *seats]:
            await client.close()
        listed, _ = _people(server, "mendikot", listed=True)
        intruder = await SeatClient(server, listed, "not-a-real-token-at-all").open()
        assert (await intruder.wait_error(1))["code"] == "bad_token"
        assert intruder.state is not None and intruder.state["seat"] is None  # a listed table: it may watch
        await intruder.send({"type": "act", "action": "AS"})
        assert (await intruder.wait_error(2))["code"] == "watcher"
        await intruder.close()

    asyncio.run(run())


def test_unknown_table_is_refused(server: LiveServer) -> None:
    async def run() -> None:
        async with websockets.connect(f"{server.ws_url}/ws/nosuchtable") as ws:
            message = json.loads(await ws.recv())
            assert message["code"] == "no_table"

    asyncio.run(run())


def test_a_bot_plays_for_a_person_after_the_grace_time_and_gives_the_seat_back(server: LiveServer) -> None:
    async def run() -> None:
        created = server.post(
            "/api/tables",
            {
                "rules": "mendikot",
                "grace": 0.3,
                "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
            },
        )
        me = await SeatClient(server, created["id"], created["token"]).open()
        state = await me.wait(lambda s: s["observation"] and s["observation"]["to_act"] == 0)
        assert not state["table"]["seats"][0]["auto"]
        version = state["version"]
        await asyncio.sleep(0.4)
        assert me.state is not None and me.state["version"] == version  # connected: nobody plays for me
        await me.close()
        watcher = await SeatClient(server, created["id"]).open()
        # after the grace time a bot plays seat 0, and the match goes on
        later = await watcher.wait(lambda s: s["version"] > version + 8, timeout=20)
        assert later["table"]["seats"][0]["auto"]
        assert any(
            m["type"] == "state" and m["last"] and m["last"]["seat"] == 0 and m["last"]["by"] == "bot"
            for m in watcher.messages
        )
        back = await SeatClient(server, created["id"], created["token"]).open()
        state = await back.wait(lambda s: not s["table"]["seats"][0]["auto"])
        assert state["seat"] == 0
        await back.close()
        await watcher.close()

    asyncio.run(run())


def test_the_turn_timer_plays_a_legal_card(server: LiveServer) -> None:
    async def run() -> None:
        created = server.post(
            "/api/tables",
            {
                "rules": "taash",
                "timer": 1,
                "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
            },
        )
        me = await SeatClient(server, created["id"], created["token"]).open()
        state = await me.wait(lambda s: s["observation"] and s["observation"]["to_act"] == 0)
        assert state["deadline"] is not None and 0 < state["deadline"] <= 1
        legal = state["observation"]["legal_actions"]
        played = await me.wait(lambda s: s["last"] is not None and s["last"]["seat"] == 0, timeout=10)
        assert played["last"]["by"] == "timer" and played["last"]["action"] in legal
        await me.close()

    asyncio.run(run())


def test_rematch_and_joining_a_bot_seat_between_hands(tmp_path: Path) -> None:
    async def run(server: LiveServer) -> None:
        created = server.post(
            "/api/tables",
            {
                "rules": {"preset": "mendikot", "target": 1},
                "grace": 0,
                "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
            },
        )
        table = created["id"]
        me = await SeatClient(server, table, created["token"]).open()
        await me.wait(lambda s: s["observation"] and s["observation"]["phase"] == "play")
        with pytest.raises(Exception, match="409"):
            server.post(f"/api/tables/{table}/join", {"seat": 1, "name": "Dev"})
        await me.close()  # grace 0: the bots finish the match for me
        watcher = await SeatClient(server, table).open()
        await watcher.wait(lambda s: s["table"]["status"] == "over", timeout=30)
        joined = server.post(f"/api/tables/{table}/join", {"seat": 1, "name": "Dev"})
        dev = await SeatClient(server, table, joined["token"]).open()
        assert dev.state is not None and dev.state["seat"] == 1
        await dev.send({"type": "rematch"})
        again = await watcher.wait(lambda s: s["table"]["match_no"] == 2)
        assert again["table"]["status"] == "playing" and again["table"]["seats"][1]["name"] == "Dev"
        history = server.get("/api/history")["matches"]
        assert [(item["table"], item["match_no"]) for item in history] == [(table, 1)]
        await dev.close()
        await watcher.close()

    with LiveServer(str(tmp_path / "rematch.sqlite3"), bot_delay=0, hand_pause=0) as live:
        asyncio.run(run(live))


def test_flooding_is_rate_limited(tmp_path: Path) -> None:
    async def run(server: LiveServer) -> None:
        table, _ = _people(server, listed=True)
        client = await SeatClient(server, table).open()
        for _ in range(10):
            await client.send({"type": "ping"})
        error = await client.wait_error(1)
        assert error["code"] == "rate"
        await client.close()

    with LiveServer(str(tmp_path / "rate.sqlite3"), rate=1, burst=3) as live:
        asyncio.run(run(live))
