"""Search bots think in the server's worker pool; quick bots answer in the server's process."""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from tests.web.helpers import LiveServer, SeatClient

from dehla.cli.serve import serve_options
from dehla.engine.state import Match
from dehla.rules import parse_rules
from dehla.web.app import WebSettings, create_app
from dehla.web.botpool import BOT_NICENESS, BotPool, SolverPreparation
from dehla.web.serving import make_server
from dehla.web.storage import open_storage


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
            state = await watcher.wait(
                lambda s: s["observation"] is not None and len(s["observation"]["history"]) >= 6, timeout=90
            )
            assert all(state["table"]["seats"][seat]["bot"] == "hard" for seat in range(4))
            await watcher.close()

        asyncio.run(run())


def test_a_server_prepares_the_solver_aside_at_startup_and_the_lobby_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``dehla serve`` compiles the kernel aside when it starts (a fresh install has no cache): ``/api/meta``
    says ``solver_preparing`` while that process runs, and stops saying it when it ends."""
    # a stand-in for the compile (the real one takes a minute or two): a process that lives a second
    monkeypatch.setattr(SolverPreparation, "COMMAND", (sys.executable, "-c", "import time; time.sleep(1.0)"))
    settings = WebSettings(bot_delay=0, prepare_solver=True)
    with TestClient(create_app(open_storage(str(tmp_path / "prep.sqlite3")), settings)) as client:
        assert client.get("/api/meta").json()["solver_preparing"] is True
        deadline = time.monotonic() + 30
        while client.get("/api/meta").json()["solver_preparing"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert client.get("/api/meta").json()["solver_preparing"] is False
    # without the setting (the tests' servers, a library user's app) nothing is started
    with TestClient(create_app(open_storage(str(tmp_path / "none.sqlite3")), WebSettings(bot_delay=0))) as client:
        assert client.get("/api/meta").json()["solver_preparing"] is False


def test_the_serve_command_prepares_the_solver(tmp_path: Path) -> None:
    args = argparse.Namespace(
        db=str(tmp_path / "serve.sqlite3"),
        bot_delay=0.0,
        hand_pause=0.0,
        allow_origin=[],
        bot_workers=0,
        workers=1,
        lease_seconds=None,
        daily_deals=4,
        daily_preset="pagat",
    )
    server = make_server(serve_options(args))
    assert server.config.app.state.settings.prepare_solver is True


def test_the_solvers_preparation_leaves_no_zombie_when_nobody_asks() -> None:
    """The process that prepares the kernel is reaped when it ends, before anyone asks whether it still runs."""
    preparation = SolverPreparation((sys.executable, "-c", "pass"))
    preparation.start()
    stat = Path(f"/proc/{preparation.pid}/stat")
    deadline = time.monotonic() + 20
    while stat.exists() and time.monotonic() < deadline:
        time.sleep(0.05)  # a zombie's entry stays until it is reaped; nobody here asks ``preparing``
    assert not stat.exists()
