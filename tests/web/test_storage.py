"""SQLite storage: writes are group-committed off the event loop, each one durable before it returns."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from dehla.web.storage import SQLiteStorage, StaleLog, TableRow


def test_an_append_is_committed_before_it_returns(tmp_path: Path) -> None:
    async def run() -> None:
        storage = SQLiteStorage(tmp_path / "a.sqlite3")
        await storage.open()
        await storage.create_table(TableRow("t1", {"title": ""}))
        await storage.append("t1", 0, {"type": "match", "match_no": 1, "first_dealer": 2})
        other = sqlite3.connect(tmp_path / "a.sqlite3")  # another process's view of the file
        assert other.execute("SELECT seq, entry FROM log").fetchall() == [
            (0, '{"type":"match","match_no":1,"first_dealer":2}')
        ]
        other.close()
        await storage.close()

    asyncio.run(run())


def test_concurrent_writes_share_one_commit(tmp_path: Path) -> None:
    """Writes queued while a commit is on its way go together in the next one (one fsync for the lot)."""
    commits: list[int] = []

    class Counting(SQLiteStorage):
        def _commit(self, statements: list[tuple[str, tuple[object, ...]]]) -> list[sqlite3.Error | None]:
            commits.append(len(statements))
            return super()._commit(statements)

    async def run() -> None:
        storage = Counting(tmp_path / "b.sqlite3")
        await storage.open()
        await asyncio.gather(*(storage.create_table(TableRow(f"t{n}", {})) for n in range(50)))
        await asyncio.gather(*(storage.append(f"t{n}", 0, {"n": n}) for n in range(50)))
        assert len(await storage.load_tables()) == 50
        assert [await storage.load_log(f"t{n}") for n in (0, 49)] == [[{"n": 0}], [{"n": 49}]]
        await storage.close()

    asyncio.run(run())
    assert sum(commits) == 100 and len(commits) < 100


def test_a_refused_write_fails_alone(tmp_path: Path) -> None:
    """Log entry ``seq`` can be written once; the other writes of the same commit still land."""

    async def run() -> None:
        storage = SQLiteStorage(tmp_path / "c.sqlite3")
        await storage.open()
        await storage.create_table(TableRow("t", {}))
        results = await asyncio.gather(
            storage.append("t", 0, {"a": 1}),
            storage.append("t", 0, {"a": 2}),
            storage.append("t", 1, {"a": 3}),
            return_exceptions=True,
        )
        assert results[0] is None and isinstance(results[1], StaleLog) and results[2] is None
        assert await storage.load_log("t") == [{"a": 1}, {"a": 3}]
        await storage.close()

    asyncio.run(run())


def test_writing_to_a_closed_storage_is_refused(tmp_path: Path) -> None:
    from dehla.errors import DehlaError

    async def run() -> None:
        storage = SQLiteStorage(tmp_path / "d.sqlite3")
        with pytest.raises(DehlaError, match="not open"):
            await storage.append("t", 0, {})

    asyncio.run(run())
