"""Find a game: a queue per preset, target and kind (rated or casual) that seats people together.

A player joins a queue; when enough people wait in it (the preset's number of
players), the longest waiting are seated at a new private table made for them,
each seat kept for its player (their identity opens it, no link needed), rated if
the queue is.  Anyone may see how many wait in each queue.  A player tired of
waiting may fill the empty seats with bots instead: the people waiting with
them in that queue and bots, casual (bots are never rated).  The queue lives in
the database, so every process of a cluster sees the same one; two processes
never seat one player twice (``Storage.queue_claim`` locks the rows it takes).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TypedDict

from dehla.errors import DehlaError
from dehla.rules import PRESETS, parse_rules
from dehla.web.messages import WebError, register
from dehla.web.settings import SeatSpec, TableSettings, default_bot, parse_table_request
from dehla.web.storage import QueueKey, Storage
from dehla.web.table.session import new_table_id
from dehla.web.tables import TableService

__all__ = ["Matchmaker", "QueueStatus", "QueueCount", "queue_key"]

register(
    {
        "not_queued": "You are not waiting for a game.",
        "bad_queue": "Choose a game to wait for: its rules, a target from 1 to 1000, rated or not.",
    }
)


class QueueCount(TypedDict):
    preset: str
    target: int
    rated: bool
    waiting: int


class QueueStatus(TypedDict):
    """The queues' counts and where the asking player is: waiting (since when) or seated at a table."""

    counts: list[QueueCount]
    waiting: bool
    preset: str | None
    target: int | None
    rated: bool | None
    since: float | None
    table: str | None
    seat: int | None


def queue_key(spec: object) -> QueueKey:
    """The queue a request asks for: ``{"preset", "target"?, "rated"?}`` (the preset's own target by default)."""
    if not isinstance(spec, dict):
        raise WebError("bad_queue")
    preset = spec.get("preset")
    target = spec.get("target")
    rated = spec.get("rated", False)
    if not isinstance(preset, str) or preset not in PRESETS or not isinstance(rated, bool):
        raise WebError("bad_queue")
    if target is None:
        target = PRESETS[preset].target
    if not isinstance(target, int) or isinstance(target, bool) or not 1 <= target <= 1000:
        raise WebError("bad_queue")
    return QueueKey(preset, target, rated)


class Matchmaker:
    """The queues of one server (kept in ``storage``), seating people at tables made by ``service``."""

    def __init__(self, storage: Storage, service: TableService) -> None:
        self.storage = storage
        self.service = service

    async def status(self, player: str | None) -> QueueStatus:
        counts: list[QueueCount] = [
            {"preset": key.preset, "target": key.target, "rated": key.rated, "waiting": n}
            for key, n in await self.storage.queue_counts()
        ]
        entry = None if player is None else await self.storage.queue_entry(player)
        if entry is None:
            return {
                "counts": counts,
                "waiting": False,
                "preset": None,
                "target": None,
                "rated": None,
                "since": None,
                "table": None,
                "seat": None,
            }
        seated = entry.table_id is not None and entry.seat is not None
        return {
            "counts": counts,
            "waiting": not seated,
            "preset": entry.key.preset,
            "target": entry.key.target,
            "rated": entry.key.rated,
            "since": entry.since,
            "table": entry.table_id if seated else None,
            "seat": entry.seat if seated else None,
        }

    async def join(self, player: str, name: str, spec: object) -> QueueStatus:
        """Wait in a queue; seated at once if enough people wait in it now."""
        key = queue_key(spec)
        await self.service.refuse_banned(player)
        await self.storage.queue_join(player, name, key, time.time())
        await self._seat(key, PRESETS[key.preset].players, None)
        return await self.status(player)

    async def leave(self, player: str) -> None:
        await self.storage.queue_leave(player)

    async def with_bots(self, player: str) -> QueueStatus:
        """Seat the player now, with the people waiting in the same queue and bots in the other seats (casual)."""
        entry = await self.storage.queue_entry(player)
        if entry is None or entry.table_id is not None:
            raise WebError("not_queued", "conflict")
        await self._seat(entry.key, PRESETS[entry.key.preset].players, player)
        return await self.status(player)

    async def _seat(self, key: QueueKey, players: int, only: str | None) -> None:
        """Claim waiting players of ``key`` for a new table and make it (``only``: with bots, for that player)."""
        table_id = new_table_id()
        claimed = await self.storage.queue_claim(key, players, table_id, only)
        if not claimed:
            return
        try:
            settings = self._settings(key, claimed, players)
            await self.service.create(settings, table_id=table_id)
        except (DehlaError, ValueError):
            await self.storage.queue_seat(table_id, {player: None for player, _ in claimed})  # they wait again
            raise
        await self.storage.queue_seat(table_id, {player: seat for seat, (player, _) in enumerate(claimed)})

    @staticmethod
    def _settings(key: QueueKey, claimed: list[tuple[str, str]], players: int) -> TableSettings:
        """A private table for the claimed players (seated in the order they came), bots in the seats left."""
        rules = parse_rules({"preset": key.preset, "target": key.target})
        base = parse_table_request({"rules": rules.to_json(), "listed": False, "seats": [{"kind": "bot"}] * players})
        seats = [
            SeatSpec("person", default_bot(), name or f"Player {seat + 1}", player)
            for seat, (player, name) in enumerate(claimed)
        ]
        seats += [base.seats[seat] for seat in range(len(claimed), players)]
        return replace(base, seats=tuple(seats), rated=key.rated and len(claimed) == players)
