"""How a statement reaches the database: the three methods each backend gives, and the tables written once over them.

SQLite and PostgreSQL run the same statements (``sql``, ``?`` placeholders) and read the same rows back for most
tables; they differ in how a statement reaches the database.  So each backend says that here, in ``read``,
``write`` and ``write_all``, and the storage of those tables is written once over them (``daily``, ``matches``,
``players``, ``social``, ``queue``).  What genuinely differs stays in the backends: the log's append, row locks,
leases, ``LISTEN``/``NOTIFY``, migrations.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from dehla.web.storage.model import SQLParam

__all__ = ["Statement", "Statements"]

#: One statement with its parameters (``?`` placeholders).
Statement = tuple[str, tuple[SQLParam, ...]]


class Statements(ABC):
    """A backend's way of running statements, which the shared tables' methods use."""

    @abstractmethod
    async def read(self, sql: str, params: tuple[SQLParam, ...]) -> list[Sequence[Any]]:
        """The rows of one query (``sql`` with ``?`` placeholders), seeing every write that has returned."""

    @abstractmethod
    async def write(self, sql: str, params: tuple[SQLParam, ...]) -> None:
        """Run one statement (``?`` placeholders); it is committed when this returns."""

    @abstractmethod
    async def write_all(self, statements: Sequence[Statement]) -> None:
        """Run several statements in one transaction (``?`` placeholders); committed when this returns."""
