"""Search bots think in the server's worker pool; quick bots answer in the server's process."""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

from tests.web.helpers import LiveServer, SeatClient

from dehla.engine.state import Match
from dehla.rules import parse_rules
from dehla.web.botpool import BOT_NICENESS, BotPool


def _position() -> Match:
    match = Match(parse_rules("mendikot"), 0)
    match.apply(match.random_deal(random.Random(1)))
    while match.to_act is None or len(match.legal_actions()) < 2:
        match.apply(match.legal_actions()[0])
    return match


def test_a_search_bot_moves_in_a_worker_and_quick_bots_do_not() -> None:
    pool = BotPool(1, bots_per_worker=2)
    assert pool.thinks("hard") and pool.thinks("expert")
    assert not pool.thinks("heuristic") and not pool.thinks("random")
    assert not BotPool(0).thinks("hard")  # no workers: every bot thinks in the server's threads

    async def run() -> None:
        match = _position()
        seat = match.to_act
        assert seat is not None
        try:
            for table in ("a", "b", "c"):  # more bots than a worker keeps: the oldest is dropped, not an error
                action = await pool.act(f"{table}:{seat}:hard:7", "hard", 7, match.observe(seat))
                assert match.is_legal(action)
        finally:
            pool.close()

    asyncio.run(run())


def _children() -> list[int]:
    """The pool workers this test process started (from /proc: their parent is us, spawned by multiprocessing)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                spawned = b"spawn_main" in (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(fields[1]) == os.getpid() and spawned:
                found.append(int(entry.name))
    return found


def test_bot_workers_yield_the_cpu_to_the_server() -> None:
    pool = BotPool(1)
    before = set(_children())

    async def run() -> None:
        match = _position()
        seat = match.to_act
        assert seat is not None
        await pool.act(f"t:{seat}:hard:3", "hard", 3, match.observe(seat))

    try:
        asyncio.run(run())
        workers = [pid for pid in _children() if pid not in before]
        assert workers, "the pool started no worker"
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        assert {os.getpriority(os.PRIO_PROCESS, pid) for pid in workers} == {min(19, mine + BOT_NICENESS)}
    finally:
        pool.close()


def test_a_table_of_search_bots_plays_through_the_pool(tmp_path: Path) -> None:
    with LiveServer(str(tmp_path / "pool.sqlite3"), bot_workers=1) as server:
        created = server.post("/api/tables", {"rules": "pagat", "seats": [{"kind": "bot", "bot": "hard"}] * 4})

        async def run() -> None:
            watcher = await SeatClient(server, created["id"]).open()
            state = await watcher.wait(lambda s: s["observation"] is not None
                                       and len(s["observation"]["history"]) >= 6, timeout=90)
            assert all(state["table"]["seats"][seat]["bot"] == "hard" for seat in range(4))
            await watcher.close()

        asyncio.run(run())
