"""No card leaks: whole random matches over real sockets against a real uvicorn, every message checked.

Every preset is played to the end by person seats (driven by this test with random legal actions), one
bot seat, and a watcher.  The table's stored log is then replayed to know, at each version, every card
each seat may legitimately have seen; no message to any seat or watcher may hold any other card.
"""

from __future__ import annotations

import asyncio
import random
import zlib
from pathlib import Path
from typing import Any

import pytest
from tests.web.helpers import LiveServer, SeatClient, cards_in
from tests.web.truth import legitimate_cards, load_log

from dehla.rules import PRESETS


async def _drive_seat(client: SeatClient, rng: random.Random) -> None:
    """Play this seat's turns with random legal actions until the match is over."""
    while True:
        state = await client.wait(
            lambda s: (
                s is not None
                and s["observation"] is not None
                and (
                    s["table"]["status"] == "over"
                    or (s["observation"]["to_act"] == s["seat"] and s["observation"]["legal_actions"])
                )
            ),
            timeout=60,
        )
        if state["table"]["status"] == "over":
            return
        version = state["version"]
        action = rng.choice(state["observation"]["legal_actions"])
        await client.send({"type": "act", "action": action, "version": version})
        await client.wait(lambda s, v=version: s["version"] > v or s["table"]["status"] == "over", timeout=60)


async def _play_match(server: LiveServer, preset: str, seed: int) -> tuple[str, list[SeatClient], SeatClient]:
    rules = PRESETS[preset]
    players = rules.players
    rng = random.Random(seed)
    bot_seat = rng.randrange(players)
    seats: list[dict[str, Any]] = [
        {"kind": "bot"} if seat == bot_seat else {"kind": "person", "name": f"P{seat}x"} for seat in range(players)
    ]
    target = {"pagat": 1, "taash": 100, "mendikot": 5}[rules.scoring]
    if rules.scoring == "mendikot":
        target = 3  # whole matches, kept short: three hands won
    created = server.post("/api/tables", {"rules": {"preset": preset, "target": target}, "seats": seats})
    table_id = created["id"]
    # identities on: every person and the watcher is a player of their own (a cookie), as browsers are
    watcher = await SeatClient(server, table_id, watch=created["watch_token"], cookie=server.new_player()).open()
    clients = [
        await SeatClient(server, table_id, invite["token"], cookie=server.new_player()).open()
        for invite in created["invites"]
    ]
    for client in clients:  # people chat: what they type reaches everyone, and nothing else with it
        await client.send({"type": "chat", "text": "good luck, everyone <b>!</b>"})
    await asyncio.wait_for(
        asyncio.gather(*(_drive_seat(client, random.Random(rng.random())) for client in clients)), timeout=120
    )
    await watcher.wait(lambda s: s["table"]["status"] == "over")
    return table_id, clients, watcher


def _check(preset: str, table_id: str, db: str, clients: list[SeatClient], watcher: SeatClient) -> int:
    truth = legitimate_cards({"preset": preset}, load_log(db, table_id))
    checked = 0
    finished_tricks = 0
    for client in [*clients, watcher]:
        assert client.messages, "every client hears from the server"
        chats = [message for message in client.messages if message["type"] == "chat"]
        assert len(chats) == len(clients) and all(chat["text"] == "good luck, everyone <b>!</b>" for chat in chats)
        for message in client.messages:
            if message["type"] != "state":
                assert not cards_in(message) or message["type"] == "error", message
                continue
            version = message["version"]
            seat = message["seat"]
            public, per_seat = truth[version]
            allowed = public if seat is None else per_seat[seat]
            leaked = cards_in(message) - allowed
            assert not leaked, f"{preset}: seat {seat} was sent {sorted(leaked)} at version {version}"
            if message["finished_trick"] is not None:
                # a finished trick holds only cards played face up: public to every seat and watcher
                assert cards_in(message["finished_trick"]) <= public, message["finished_trick"]
                finished_tricks += 1
            observation = message["observation"]
            if seat is None and observation is not None:
                assert observation["hand"] == [] and observation["hidden_card"] is None
                assert observation["legal_actions"] == []
            checked += 1
    assert finished_tricks > 0, "finished tricks were shown"
    return checked


@pytest.mark.parametrize("preset", list(PRESETS))
def test_no_message_holds_a_card_its_seat_has_not_seen(tmp_path: Path, preset: str) -> None:
    db = str(tmp_path / "web.sqlite3")
    with LiveServer(db) as server:
        table_id, clients, watcher = asyncio.run(_run(server, preset))
    checked = _check(preset, table_id, db, clients, watcher)
    assert checked > 50


async def _run(server: LiveServer, preset: str) -> tuple[str, list[SeatClient], SeatClient]:
    table_id, clients, watcher = await _play_match(server, preset, seed=zlib.crc32(preset.encode()))
    for client in [*clients, watcher]:
        await client.close()
    return table_id, clients, watcher
