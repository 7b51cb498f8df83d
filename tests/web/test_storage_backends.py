"""SQLite and PostgreSQL give the same answers to the same calls (the tables written once for both, ``statements``).

PostgreSQL runs when a server is reachable (``DEHLA_TEST_POSTGRES``), each test in a schema of its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from tests.web.helpers import POSTGRES_URL, postgres_reachable

from dehla.web.storage import FinishedMatch, QueueKey, Storage, TableRow, open_storage
from dehla.web.storage.postgres import scratch_schema


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database's ``--db`` value: a SQLite file, or a PostgreSQL schema made for the test and dropped after."""
    if request.param == "sqlite":
        yield str(tmp_path / "twins.sqlite3")
        return
    if not postgres_reachable():
        pytest.skip(f"no PostgreSQL server at {POSTGRES_URL}")
    with scratch_schema(POSTGRES_URL, "twins") as url:
        yield url


def _run(database: str, steps: Callable[[Storage], Awaitable[None]]) -> None:
    async def run() -> None:
        storage = open_storage(database)
        await storage.open()
        try:
            await steps(storage)
        finally:
            await storage.close()

    asyncio.run(run())


def test_a_finished_match_saved_again_is_kept_once_with_its_players_seats(database: str) -> None:
    async def steps(storage: Storage) -> None:
        await storage.create_table(TableRow("t1", {"title": "x"}, 1.0))
        await storage.append("t1", 0, {"k": "match", "no": 1})
        await storage.append("t1", 1, {"k": "act", "a": "10H"})
        await storage.update_table("t1", {"title": "y"})
        assert [(row.table_id, row.meta, row.created) for row in await storage.load_tables()] == [
            ("t1", {"title": "y"}, 1.0)
        ]
        assert (await storage.load_table("t1")) == TableRow("t1", {"title": "y"}, 1.0)
        assert await storage.load_table("nope") is None
        assert await storage.load_log("t1", 1) == [{"k": "act", "a": "10H"}]
        for at, seats in ((5.0, (("p1", 0),)), (6.0, (("p1", 2), ("p2", 1)))):
            match = FinishedMatch("t1", 1, at, {"s": 1}, {"format": "dehla-record/1"}, False, ("p1", "p2"), (), seats)
            await storage.save_finished(match)
        assert await storage.finished_numbers("t1") == {1}
        assert await storage.list_finished() == []  # private: only its players see it
        assert [item.finished for item in await storage.list_finished("p2")] == [6.0]
        assert [(item.finished, seat) for item, seat in await storage.player_matches("p1")] == [(6.0, 2)]
        found = await storage.get_finished("t1", 1)
        assert found is not None and found.record == {"format": "dehla-record/1"} and found.players == ("p1", "p2")
        assert await storage.get_finished("t1", 2) is None

    _run(database, steps)


def test_a_player_is_named_rated_once_a_match_given_a_passkey_and_forgotten(database: str) -> None:
    async def steps(storage: Storage) -> None:
        key = await storage.secret("cookies")
        assert await storage.secret("cookies") == key != await storage.secret("other")
        await storage.set_player_name("p1", "Asha")
        await storage.set_player_name("p1", "Asha K")
        assert (await storage.player_name("p1"), await storage.player_name("p2")) == ("Asha K", None)
        updates = {"p1": ("Asha K", 27.0, 7.5, 1), "p2": ("Ravi", 23.0, 7.5, 1)}
        assert await storage.save_ratings("t1", 1, "classic", updates, 10.0)
        assert not await storage.save_ratings("t1", 1, "classic", updates, 11.0)  # a match is rated once
        assert await storage.ratings("classic", ["p1", "p3"]) == {"p1": (27.0, 7.5, 1)}
        assert [row[:2] for row in await storage.leaderboard("classic")] == [("p1", "Asha K"), ("p2", "Ravi")]
        assert await storage.rating_history("p1") == [("classic", 10.0, 27.0, 7.5)]
        await storage.add_passkey("cred", "p1", "key", 0)
        await storage.passkey_used("cred", 3)
        assert await storage.passkey("cred") == ("p1", "key", 3)
        assert await storage.passkeys_of("p1") == ["cred"]
        await storage.delete_player("p1")
        assert await storage.player_name("p1") is None
        assert await storage.passkey("cred") is None
        assert await storage.ratings("classic", ["p1", "p2"]) == {"p2": (23.0, 7.5, 1)}

    _run(database, steps)


def test_reports_bans_blocks_friends_and_notices_are_kept_per_player(database: str) -> None:
    async def steps(storage: Storage) -> None:
        await storage.report("t1", "p1", "p2", "Ravi", "rude")
        assert [row[2:] for row in await storage.reports()] == [("t1", "p1", "p2", "Ravi", "rude")]
        await storage.ban("p2", "spam")
        await storage.ban("p2", "rude")
        assert [(player, reason) for player, _, reason in await storage.bans()] == [("p2", "rude")]
        assert await storage.banned("p2") and not await storage.banned("p1")
        assert await storage.unban("p2") and not await storage.unban("p2")
        await storage.block("p1", "p2", "Ravi")
        await storage.block("p3", "p4", "Meera")
        assert await storage.blocked_by("p1") == {"p2": "Ravi"}
        assert await storage.blocks_among(["p1", "p2", "p4"]) == {("p1", "p2")}
        assert await storage.blocks_among([]) == set()
        await storage.unblock("p1", "p2")
        assert await storage.blocked_by("p1") == {}
        await storage.follow("p1", "p2", "Ravi")
        await storage.follow("p1", "p3", "Asha")
        await storage.saw("p2", 50.0)
        await storage.saw("p2", 60.0)
        assert await storage.friends("p1") == [("p3", "Asha", None), ("p2", "Ravi", 60.0)]
        await storage.unfollow("p1", "p3")
        assert [friend for friend, _, _ in await storage.friends("p1")] == ["p2"]
        await storage.notify_player("p2", "t1", 3, "Asha")
        (notice,) = await storage.notices("p2")
        assert notice[2:] == ("t1", 3, "Asha")
        await storage.dismiss("p2", notice[0])
        assert await storage.notices("p2") == []

    _run(database, steps)


def test_players_finding_a_game_are_claimed_once_seated_and_leave(database: str) -> None:
    async def steps(storage: Storage) -> None:
        key = QueueKey("classic", 5, False)
        for number, player in enumerate(("p1", "p2", "p3")):
            await storage.queue_join(player, player.upper(), key, float(number))
        await storage.queue_join("p3", "P3", key, 9.0)  # joining again waits from the new time
        assert await storage.queue_counts() == [(key, 3)]
        await storage.block("p1", "p2", "P2")
        assert await storage.queue_claim(key, 2, "t1") == [("p1", "P1"), ("p3", "P3")]
        assert await storage.queue_counts() == [(key, 1)]
        await storage.queue_seat("t1", {"p1": 0, "p3": None})
        entry = await storage.queue_entry("p1")
        assert entry is not None and (entry.key, entry.table_id, entry.seat) == (key, "t1", 0)
        entry = await storage.queue_entry("p3")
        assert entry is not None and (entry.since, entry.table_id) == (9.0, None)
        await storage.queue_leave("p1")
        assert await storage.queue_entry("p1") is None

    _run(database, steps)
