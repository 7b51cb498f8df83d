"""What a broadcast sends each listener: its own seat's whole view, the scored hands once per new hand.

A broadcast builds and encodes each distinct state once (per seat, and whether the listener still needs
the scored hands); every listener must still get exactly the view of its own seat.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from dehla.engine.state import Match
from dehla.web.protocol import watcher_view
from dehla.web.storage import SQLiteStorage
from dehla.web.table.session import TableSession
from dehla.web.tables import TableService


class Recorder:
    """A listener that keeps every text it is sent, with the full view of its seat at that moment."""

    def __init__(self, session: TableSession | None = None) -> None:
        self.seat: int | None = None
        self.player: str | None = None
        self.hands_sent: tuple[int, int] = (-1, -1)
        self.session = session
        self.got: list[tuple[dict[str, Any], dict[str, Any] | None]] = []

    def push(self, text: str, kind: str = "other") -> None:
        message = json.loads(text)
        if message["type"] != "state":
            return
        assert kind == (
            "state_full" if message["observation"] and "hands" in message["observation"]["match"] else "state"
        )
        match: Match | None = None if self.session is None else self.session.match
        full: dict[str, Any] | None = None
        if match is not None:
            view = match.observe(self.seat).to_json() if self.seat is not None else watcher_view(match)
            full = json.loads(json.dumps(view))
        self.got.append((message, full))

    def close_after_sending(self) -> None:
        pass


async def _play(tmp_path: Path, seed: int) -> tuple[list[Recorder], list[Recorder]]:
    service = TableService(
        SQLiteStorage(tmp_path / "t.sqlite3", synchronous="OFF"),
        bot_delay=0,
        hand_pause=0,
        trick_pause=0,
        rng=random.Random(seed),
    )
    await service.start()
    try:
        created = await service.create_table(
            {"rules": {"preset": "mendikot", "target": 2}, "seats": [{"kind": "person"}] * 4, "grace": 3600}
        )
        session = created.session
        seats = []
        for invite in created.to_json()["invites"]:
            seat = Recorder(session)
            await session.handle(seat, {"type": "hello", "token": invite["token"]})
            seats.append(seat)
        watch = created.watch_token
        early, late = Recorder(session), Recorder(session)
        await session.handle(early, {"type": "hello", "watch": watch})
        rng = random.Random(seed)
        for _ in range(2000):
            match = session.match
            if session.status == "over":
                break
            if match is None or match.to_act is None:
                await asyncio.sleep(0.001)
                continue
            if match.results and not late.got:
                await session.handle(late, {"type": "hello", "watch": watch})
            actions = [str(action) for action in match.legal_actions()]
            await session.handle(
                seats[match.to_act], {"type": "act", "version": session.seq, "action": rng.choice(actions)}
            )
        assert session.status == "over" and late.got
        return seats, [early, late]
    finally:
        await service.stop()


def test_every_listener_gets_its_own_seats_view_and_the_scored_hands_once_per_hand(tmp_path: Path) -> None:
    seats, watchers = asyncio.run(_play(tmp_path, 7))
    for listener in [*seats, *watchers]:
        hands: list[Any] | None = None
        for message, full in listener.got:
            assert message["seat"] == listener.seat
            observation = message["observation"]
            if full is None:
                assert observation is None
                continue
            if "hands" in observation["match"]:
                assert hands is None or len(observation["match"]["hands"]) != len(hands)
                hands = observation["match"]["hands"]
            else:
                assert hands is not None and len(hands) == len(full["match"]["hands"])
                observation = {**observation, "match": {**observation["match"], "hands": hands}}
            assert observation == full
    early, late = watchers
    assert any(
        "hands" in message["observation"]["match"] and message["observation"]["match"]["hands"]
        for message, _ in late.got[:1]
    ), "a watcher arriving after a hand gets the scored hands first"
    assert len({json.dumps(message) for message, _ in early.got[-1:] + late.got[-1:]}) == 1
