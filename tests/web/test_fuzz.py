"""Fuzz: thousands of malformed and out-of-turn messages; each gets an error and changes nothing; play goes on."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from tests.web.helpers import LiveServer, SeatClient
from tests.web.test_no_leaks import _drive_seat

from dehla.cards import ALL_CARDS

ROUNDS = 10
PER_ROUND = 300


def _garbage(rng: random.Random, client_state: dict[str, Any], seat: int | None) -> str | bytes:
    """One message that the server must refuse, whoever sends it and whenever."""
    observation = client_state["observation"]
    choice = rng.randrange(14)
    if choice == 0:
        return bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 64)))
    if choice == 1:
        return "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(1, 80)))
    if choice == 2:
        return json.dumps(rng.choice([None, 1, "act", [], [1, 2], True, 3.5]))
    if choice == 3:
        return json.dumps({"type": rng.choice(["acts", "", "ACT", "hello!", "x" * 30, 7, None])})
    if choice == 4:
        return json.dumps({"type": "act", "action": rng.choice([1, None, [], {}, True, "A" * 40])})
    if choice == 5:
        return json.dumps({"type": "act", "action": rng.choice(["11Z", "call X", "hide", "reveal now", "", "♠♠"])})
    if choice == 6:
        return "x" * rng.randrange(2049, 6000)
    if choice == 7:
        depth = rng.randrange(500, 900)
        return "[" * depth + "]" * depth
    if choice == 8:
        return json.dumps({"type": "act", "action": "AS", rng.choice(["seat", "token", "cards"]): 1})
    if choice == 9:
        return json.dumps({"type": "act", "action": "AS", "version": rng.choice([-1, 2**40, "3", 1.5])})
    if choice == 10:
        return json.dumps({"type": rng.choice(["start", "rematch", "next"])})
    if choice == 11:
        # a card the seat may or may not hold, out of turn or not legal now (a call or hide that happens to be
        # legal for the seat to act is not garbage, so it is never sent)
        legal = set(observation["legal_actions"]) if observation else set()
        while True:
            card = str(rng.choice(ALL_CARDS))
            action = rng.choice([card, f"call {card[-1]}", f"hide {card}"])
            if action not in legal:
                return json.dumps({"type": "act", "action": action})
    if choice == 12:
        return (
            json.dumps({"type": "act", "action": "reveal"})
            if not (observation and "reveal" in observation["legal_actions"])
            else "{]"
        )
    return json.dumps(
        {
            "type": "act",
            "action": (observation or {"legal_actions": ["AS"]})["legal_actions"][0]
            if observation and observation["legal_actions"]
            else "AS",
            "version": 10**6,
        }
    )


def test_thousands_of_bad_messages_change_nothing(tmp_path: Path) -> None:
    async def run(server: LiveServer) -> int:
        created = server.post("/api/tables", {"rules": "mendikot-band", "seats": [{"kind": "person"}] * 4})
        table = created["id"]
        seats = [await SeatClient(server, table, invite["token"]).open() for invite in created["invites"]]
        watcher = await SeatClient(server, table, watch=created["watch_token"]).open()
        rng = random.Random(5)
        sent = 0
        for _ in range(ROUNDS):
            state = await watcher.wait(lambda s: s["observation"] is not None and s["observation"]["phase"] != "deal")
            version = state["version"]
            for _ in range(PER_ROUND):
                client = rng.choice([*seats, watcher])
                assert client.state is not None
                before = len(client.errors)
                await client.send(_garbage(rng, client.state, client.state["seat"]))
                await client.wait_error(before + 1)
                sent += 1
            await asyncio.sleep(0.05)
            assert watcher.state is not None
            assert watcher.state["version"] == version, "a refused message changed the table"
            # now the seat to act plays three legal actions, so refusals are tried in many positions
            for _ in range(3):
                current = await watcher.wait(lambda s: s["observation"]["to_act"] is not None)
                actor = seats[current["observation"]["to_act"]]
                assert actor.state is not None
                mine = await actor.wait(lambda s, v=current["version"]: s["version"] >= v)
                await actor.send({"type": "act", "action": rng.choice(mine["observation"]["legal_actions"])})
                await watcher.wait(lambda s, v=current["version"]: s["version"] > v)
        # the table never hung: play the match to its end
        await asyncio.wait_for(
            asyncio.gather(*(_drive_seat(client, random.Random(n)) for n, client in enumerate(seats))), timeout=120
        )
        assert watcher.state is not None
        await watcher.wait(lambda s: s["table"]["status"] == "over")
        for client in [*seats, watcher]:
            await client.close()
        return sent

    with LiveServer(str(tmp_path / "fuzz.sqlite3"), hand_pause=0) as server:
        sent = asyncio.run(run(server))
        assert server.process is not None and server.process.poll() is None
    assert sent == ROUNDS * PER_ROUND
