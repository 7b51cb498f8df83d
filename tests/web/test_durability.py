"""kill -9 mid-hand loses no accepted action, and a restarted server resumes every unfinished table."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from tests.web.helpers import LiveServer, SeatClient
from tests.web.test_no_leaks import _drive_seat
from tests.web.truth import load_log, replay_entries


async def _play_until_killed(
    server: LiveServer, table: str, tokens: list[str], actions: int, rng: random.Random
) -> list[tuple[int, int, str]]:
    """Play random legal actions; returns (version, seat, action) of each action whose broadcast arrived."""
    seats = [await SeatClient(server, table, token).open() for token in tokens]
    accepted: list[tuple[int, int, str]] = []
    latest = 0
    while len(accepted) < actions:
        state = await seats[0].wait(
            lambda s, v=latest: (
                s["version"] >= v and s["observation"] is not None and s["observation"]["to_act"] is not None
            )
        )
        actor = seats[state["observation"]["to_act"]]
        mine = await actor.wait(lambda s, v=state["version"]: s["version"] >= v)
        action = rng.choice(mine["observation"]["legal_actions"])
        await actor.send({"type": "act", "action": action, "version": mine["version"]})
        done = await actor.wait(lambda s, v=mine["version"]: s["version"] > v)
        assert done["last"]["action"] == action
        accepted.append((done["version"], actor.state["seat"] if actor.state else -1, action))
        latest = done["version"]
    # one more action is sent, and the server is killed before its broadcast can arrive
    state = await seats[0].wait(lambda s, v=latest: s["version"] >= v and s["observation"]["to_act"] is not None)
    actor = seats[state["observation"]["to_act"]]
    # the actor's own copy of that state (its socket may be a message behind the first seat's)
    mine = await actor.wait(lambda s, v=state["version"]: s["version"] >= v and bool(s["observation"]["legal_actions"]))
    await actor.send({"type": "act", "action": mine["observation"]["legal_actions"][0]})
    return accepted


def test_kill_9_mid_hand_loses_no_accepted_action(tmp_path: Path) -> None:
    db = str(tmp_path / "durable.sqlite3")
    server = LiveServer(db, hand_pause=0).start()
    try:
        created = server.post("/api/tables", {"rules": "pagat", "seats": [{"kind": "person"}] * 4})
        table = created["id"]
        tokens = [invite["token"] for invite in created["invites"]]
        waiting = server.post(
            "/api/tables",
            {"rules": "taash", "seats": [{"kind": "person"}, {"kind": "bot"}, {"kind": "person"}, {"kind": "bot"}]},
        )
        accepted = asyncio.run(_play_until_killed(server, table, tokens, 23, random.Random(9)))
        server.kill()  # SIGKILL, mid-hand (23 actions: trump called and five and a half tricks played)
        log = load_log(db, table)
        for version, seat, action in accepted:
            entry = log[version - 1]
            assert entry == {"type": "action", "seat": seat, "action": action, "by": "person"}
        server = LiveServer(db, port=server.port, hand_pause=0).start()
        # both tables are private (made with invites): their hosts' watch links still show them
        assert server.get(f"/api/tables/{table}?watch={created['watch_token']}")["status"] == "playing"
        assert server.get(f"/api/tables/{waiting['id']}?watch={waiting['watch_token']}")["status"] == "waiting"

        async def resume() -> None:
            seats = [await SeatClient(server, table, token).open() for token in tokens]
            state = seats[0].state
            assert state is not None and state["version"] == len(log) >= accepted[-1][0]
            history = state["observation"]["history"]
            hand_start = len(log) - len(history)  # log entries before this hand's first action
            in_hand = [(version, action) for version, _, action in accepted if version > hand_start]
            assert in_hand and all(history[version - hand_start - 1] == action for version, action in in_hand)
            match = replay_entries("pagat", log)
            assert match is not None and state["observation"]["hand"] == [str(c) for c in match.hand_of(0)]
            await asyncio.wait_for(
                asyncio.gather(*(_drive_seat(client, random.Random(n)) for n, client in enumerate(seats))), timeout=120
            )
            for client in seats:
                await client.close()

        asyncio.run(resume())
        # the table is private: its finished match is not in the public history, but its watch link shows it
        assert table not in {item["table"] for item in server.get("/api/history")["matches"]}
        record = server.get(f"/api/history/{table}/1/record?watch={created['watch_token']}")
        assert record["format"] == "dehla-record/1" and replay_entries("pagat", log) is not None
    finally:
        server.stop()
