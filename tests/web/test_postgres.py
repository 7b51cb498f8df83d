"""PostgreSQL storage: run when a server is reachable (``DEHLA_TEST_POSTGRES``; .ci/run starts Debian's postgresql)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator

import pytest
from tests.web.helpers import POSTGRES_URL, LiveServer, SeatClient, postgres_reachable
from tests.web.test_no_leaks import _drive_seat

from dehla.errors import DehlaError
from dehla.web.storage import FinishedMatch, PostgresStorage, TableRow, open_storage
from dehla.web.storage.postgres import scratch_schema

URL = POSTGRES_URL
pytestmark = pytest.mark.skipif(not postgres_reachable(), reason=f"no PostgreSQL server at {URL}")


@pytest.fixture
def clean_database() -> Iterator[str]:
    import psycopg

    with psycopg.connect(URL, autocommit=True) as connection:
        for name in ("log", "finished", "finished_players", "secrets", "schema_version", "tables"):
            connection.execute(f"DROP TABLE IF EXISTS {name}")
    yield URL


def test_postgres_storage_round_trip(clean_database: str) -> None:
    async def run() -> None:
        storage = open_storage(clean_database)
        assert isinstance(storage, PostgresStorage)
        await storage.open()
        await storage.create_table(TableRow("t1", {"title": "x", "seats": []}, 1.0))
        await storage.append("t1", 0, {"k": "match", "no": 1, "first_dealer": 2})
        await storage.append("t1", 1, {"k": "act", "seat": 0, "a": "10H"})
        with pytest.raises(Exception):  # noqa: B017 - a taken position never overwrites the log
            await storage.append("t1", 1, {"k": "act", "seat": 0, "a": "AS"})
        await storage.update_table("t1", {"title": "y", "seats": []})
        assert [row.meta["title"] for row in await storage.load_tables()] == ["y"]
        assert [entry.get("a") for entry in await storage.load_log("t1")] == [None, "10H"]
        await storage.save_finished(
            FinishedMatch("t1", 1, 5.0, {"score": [1, 0]}, {"format": "dehla-record/1"}, listed=True)
        )
        await storage.save_finished(
            FinishedMatch("t1", 1, 6.0, {"score": [1, 0]}, {"format": "dehla-record/1"}, listed=True)
        )
        assert [item.finished for item in await storage.list_finished()] == [6.0]
        found = await storage.get_finished("t1", 1)
        assert found is not None and found.record["format"] == "dehla-record/1"
        assert await storage.get_finished("t1", 2) is None
        await storage.close()

    asyncio.run(run())


def test_a_table_on_postgres_survives_kill_9_and_finishes(clean_database: str) -> None:
    server = LiveServer(clean_database, hand_pause=0).start()
    try:
        created = server.post(
            "/api/tables",
            {"rules": {"preset": "mendikot", "target": 1}, "seats": [{"kind": "person"}, {"kind": "bot"}] * 2},
        )
        tokens = [invite["token"] for invite in created["invites"]]

        async def play(limit: int | None) -> int:
            seats = [await SeatClient(server, created["id"], token).open() for token in tokens]
            if limit is not None:
                await seats[0].wait(lambda s: s["version"] >= limit)
                version = seats[0].state["version"] if seats[0].state else 0
            else:
                await asyncio.wait_for(
                    asyncio.gather(*(_drive_seat(client, random.Random(n)) for n, client in enumerate(seats))),
                    timeout=60,
                )
                version = 0
            for client in seats:
                await client.close()
            return version

        async def first_moves() -> int:
            seats = [await SeatClient(server, created["id"], token).open() for token in tokens]
            driving = [asyncio.create_task(_drive_seat(client, random.Random(n))) for n, client in enumerate(seats)]
            reached = await seats[0].wait(lambda s: s["version"] >= 15)
            for task in driving:
                task.cancel()
            return int(reached["version"])

        reached = asyncio.run(first_moves())
        server.kill()
        server = LiveServer(clean_database, port=server.port, hand_pause=0).start()
        assert asyncio.run(play(reached)) >= reached
        asyncio.run(play(None))
        # a private table (invites): its players' links show the finished match
        assert server.get(f"/api/history/{created['id']}/1/record?token={tokens[0]}")["format"] == "dehla-record/1"
    finally:
        server.stop()


def test_nodes_say_where_they_serve_and_silent_ones_are_forgotten(clean_database: str) -> None:
    import psycopg

    from dehla.web.storage import FORGET_AFTER

    with psycopg.connect(clean_database, autocommit=True) as connection:
        connection.execute("DROP TABLE IF EXISTS nodes")

    here, gone = ("here", "host-b:8001 pid 2"), ("gone", "host-a:8000 pid 1")
    # A lease no load outlasts (a process that has just beaten is surely live), and one short enough that
    # FORGET_AFTER of them pass quickly.
    long_ttl, short_ttl = 60.0, 0.05

    async def run() -> None:
        storage = open_storage(clean_database)
        assert isinstance(storage, PostgresStorage)
        await storage.open()
        try:
            assert await storage.heartbeat(gone[0], long_ttl, gone[1]) == {"gone"}
            assert await storage.heartbeat(here[0], long_ttl, here[1]) == {"gone", "here"}
            assert await storage.nodes() == [(*gone, False), (*here, False)]

            async def gone_forgotten() -> bool:
                # "here" beats on with the short lease; its own row may go too when the machine is so slow that
                # its beat's statements lie a whole FORGET_AFTER apart: the next beat puts it back
                assert "gone" not in await storage.heartbeat(here[0], short_ttl, here[1])  # silent: not live
                return [node for node, _, _ in await storage.nodes()] == ["here"]

            await asyncio.sleep(short_ttl * FORGET_AFTER)
            deadline = time.monotonic() + 20
            while not await gone_forgotten():
                assert time.monotonic() < deadline, f"a process silent for {FORGET_AFTER} leases is still known"
                await asyncio.sleep(short_ttl)
            assert await storage.nodes() == [(*here, False)]
            assert await storage.heartbeat(here[0], long_ttl, here[1]) == {"here"}
        finally:
            await storage.close()

    asyncio.run(run())


def test_a_scratch_schema_is_what_its_url_uses_and_is_dropped_afterwards() -> None:
    import psycopg

    with scratch_schema(URL, "scratch") as url, psycopg.connect(url, autocommit=True) as connection:
        row = connection.execute("SELECT current_schema()").fetchone()
        assert row is not None and str(row[0]).startswith("scratch_")
        schema = str(row[0])
        connection.execute("CREATE TABLE kept (x INTEGER)")
        tables = connection.execute("SELECT table_schema FROM information_schema.tables WHERE table_name = 'kept'")
        assert tables.fetchall() == [(schema,)]
    with psycopg.connect(URL, autocommit=True) as connection:
        found = connection.execute("SELECT 1 FROM information_schema.schemata WHERE schema_name = %s", (schema,))
        assert found.fetchone() is None
    with pytest.raises(DehlaError, match="schema prefix"), scratch_schema(URL, "x; DROP SCHEMA public"):
        pass  # pragma: no cover - refused before
