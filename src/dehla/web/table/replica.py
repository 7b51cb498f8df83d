"""A table's copy among several processes: following its log, and what travels between processes beside it.

Many processes may serve one table (PostgreSQL storage): each keeps a copy,
every step is appended to the log with the version checked (another process
that got there first makes the copy catch up and decide again), and copies are
brought up to date from the log when the cluster's channel says it grew
(``poke``): at once where someone here looks at the table or this process runs
it, else on first use (``behind``).  Entries the channel carried are applied as
they are; a gap is read from the log.  The table applies each with its one step.

What is not in the log travels on the channel as notes (``schema.SessionNote``):
which seats each process holds a window for (the runner's grace time counts a
seat connected anywhere), chat lines and reactions, "next hand", and a seat taken
by a window elsewhere (one seat, one window: every process sees the channel's
notes in one order, and the last window to take a seat keeps it).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from typing import Protocol

from dehla.engine.state import Match
from dehla.web.schema import ChatMessage, Heard, ReactionMessage, SessionNote
from dehla.web.storage import Storage
from dehla.web.table.chat import TableChat
from dehla.web.table.views import Listener

__all__ = ["Replica", "ReplicatedTable", "Bus", "TOOK_PATIENCE"]

log = logging.getLogger("dehla.web")

#: How long a window's "took" may take to come back from the channel before it is treated as lost, in seconds.
TOOK_PATIENCE = 5.0


class Bus(Protocol):
    """The other processes serving the same tables (``dehla.web.cluster.Cluster``): this one's id, and a way to
    tell them what is not in the log (presence, chat, reactions, "next hand", a seat taken by another window)."""

    node: str

    def publish(self, payload: Mapping[str, object]) -> None: ...


class ReplicatedTable(Protocol):
    """What the replica reads and calls of its table (``TableSession``'s public interface)."""

    table_id: str
    lock: asyncio.Lock
    changed: asyncio.Event
    seq: int
    clients: set[Listener]
    ready: set[int]
    chat: TableChat
    disconnected_at: dict[int, float]
    match: Match | None

    @property
    def seat_count(self) -> int: ...

    @property
    def driving(self) -> bool: ...

    @property
    def storage(self) -> Storage: ...

    def apply_committed(self, raw: object) -> None:
        """Apply one entry another process committed (checked when applied) and broadcast."""
        ...

    def broadcast(self) -> None: ...

    def connected(self, seat: int) -> bool:
        """Someone holds the seat's window here or on another process."""
        ...

    def send_all(self, message: ChatMessage | ReactionMessage) -> None: ...

    def move_windows_off(self, seat: int, keep: Listener | None) -> None: ...


class Replica:
    """One table's copy in a cluster: its place in the log, the other processes' windows, the notes between them."""

    def __init__(self, table: ReplicatedTable, bus: Bus | None) -> None:
        self.table = table
        self.bus = bus
        #: Other processes' connections to this table: node id -> (seats connected there, watchers there).
        self.remote: dict[str, tuple[frozenset[int], int]] = {}
        #: The log has grown past this copy and nobody here has needed it yet (caught up on first use).
        self.behind = False
        #: Entries heard on the channel, by position, not yet applied; the log's length as last announced.
        self._heard: dict[int, object] = {}
        self._announced = 0
        self._catching: asyncio.Task[None] | None = None
        self._catch_again = False
        self._published: tuple[frozenset[int], int] | None = None
        #: Seats a window here took whose "took" has not come back from the channel yet (how many, since when).
        self._took_pending: dict[int, tuple[int, float]] = {}

    # -- the other processes' windows -------------------------------------------------------------

    def connected_elsewhere(self, seat: int) -> bool:
        return any(seat in seats for seats, _ in self.remote.values())

    def watchers_elsewhere(self) -> int:
        return sum(watchers for _, watchers in self.remote.values())

    # -- telling the others -----------------------------------------------------------------------

    def publish(self, note: SessionNote) -> None:
        if self.bus is not None:
            self.bus.publish({**note, "t": self.table.table_id, "n": self.bus.node})

    def publish_presence(self, force: bool = False) -> None:
        """Tell the other processes which seats (and how many watchers) this one holds, when that changed."""
        if self.bus is None:
            return
        clients = self.table.clients
        presence = (
            frozenset(client.seat for client in clients if client.seat is not None),
            sum(1 for client in clients if client.seat is None),
        )
        if presence == self._published and not force:
            return
        if self._published is None and presence == (frozenset(), 0) and not force:
            self._published = presence  # nothing held here yet: nothing to tell (a table being restored)
            return
        self._published = presence
        self.publish({"k": "here", "seats": sorted(presence[0]), "w": presence[1]})

    def took(self, seat: int) -> None:
        """A window here took ``seat``: the others move theirs off it when they hear."""
        if self.bus is None:
            return
        count, _ = self._took_pending.get(seat, (0, 0.0))
        self._took_pending[seat] = (count + 1, time.monotonic())
        self.publish({"k": "took", "seat": seat})

    # -- following the log ------------------------------------------------------------------------

    @property
    def interested(self) -> bool:
        """This copy must follow the log at once: people here are looking at it, or this process runs it."""
        return bool(self.table.clients) or self.table.driving

    def poke(self, seq: int, entry: object = None) -> None:
        """The log has an entry at ``seq`` (committed; ``entry`` if the channel carried it): catch up now if
        anyone here looks at the table, else on first use."""
        if seq < self.table.seq:
            return
        if not self.interested:
            self.behind = True
            self._heard.clear()
            return
        self._announced = max(self._announced, seq + 1)
        if entry is not None:
            self._heard[seq] = entry
        if self._catching is not None and not self._catching.done():
            self._catch_again = True
            return
        self._catching = asyncio.get_running_loop().create_task(
            self._catch_up_task(), name=f"catch-{self.table.table_id}"
        )

    async def _catch_up_task(self) -> None:
        table = self.table
        try:
            while True:
                self._catch_again = False
                async with table.lock:
                    await self.catch_up_locked(read_log=False)
                table.changed.set()
                if not self._catch_again:
                    return
        except Exception:
            log.exception("table %s: cannot catch up with the log", table.table_id)

    async def catch_up(self) -> None:
        async with self.table.lock:
            await self.catch_up_locked()
        self.table.changed.set()

    async def catch_up_locked(self, read_log: bool = True) -> None:
        """Apply the entries other processes appended since this copy's version, each broadcast to our listeners.

        Entries the channel carried are applied as they are (they were committed
        before they were sent); the log is read when asked (``read_log``: another
        process got there first) or when an announced entry did not come with it.
        """
        table = self.table
        self.behind = False
        while table.seq in self._heard:
            table.apply_committed(self._heard.pop(table.seq))
        if read_log or table.seq < self._announced:
            for raw in await table.storage.load_log(table.table_id, table.seq):
                table.apply_committed(raw)
        for seq in [seq for seq in self._heard if seq < table.seq]:
            del self._heard[seq]

    # -- hearing the others -----------------------------------------------------------------------

    def hear(self, heard: Heard) -> None:
        """A note from another process serving this table (not in the log): presence, chat, "next", a seat."""
        table = self.table
        note, node = heard["note"], heard["n"]
        if note["k"] == "here":
            self._set_remote(node, (frozenset(note["seats"]), note["w"]))
        elif note["k"] == "ask":
            self.publish_presence(force=bool(table.clients))
        elif note["k"] == "took":
            # One seat, one window across processes: the channel delivers every "took" to every process in one
            # order, and the last one wins.  A "took" from elsewhere that arrives while ours is still on its way
            # was sent before ours: our window keeps the seat (the other process moves its window off on ours).
            seat = note["seat"]
            count, since = self._took_pending.get(seat, (0, 0.0))
            if count and time.monotonic() - since < TOOK_PATIENCE:
                return
            table.move_windows_off(seat, None)
            table.broadcast()
            self.publish_presence()
        elif note["k"] == "chat":
            table.chat.heard(note["m"])
            table.send_all(note["m"])
        elif note["k"] == "react":
            table.send_all(note["m"])
        elif note["k"] == "ready" and note["v"] == table.seq:
            table.ready.add(note["seat"])
            table.broadcast()
        table.changed.set()

    def heard_own(self, heard: Heard) -> None:
        """Our own note came back from the channel (all processes have it, in this order)."""
        note = heard["note"]
        if note["k"] == "took":
            seat = note["seat"]
            count, since = self._took_pending.pop(seat, (0, 0.0))
            if count > 1:
                self._took_pending[seat] = (count - 1, since)

    def _set_remote(self, node: str, presence: tuple[frozenset[int], int] | None) -> None:
        """Another process's connections to this table (``None``: that process is gone)."""
        table = self.table
        seats = range(table.seat_count)
        before = {seat for seat in seats if table.connected(seat)}
        if presence is None or (not presence[0] and not presence[1]):
            self.remote.pop(node, None)
        else:
            self.remote[node] = presence
        now = time.monotonic()
        for seat in seats:
            if seat in before and not table.connected(seat):
                table.disconnected_at[seat] = now
            elif seat not in before and table.connected(seat):
                table.disconnected_at.pop(seat, None)
        table.broadcast()
        table.changed.set()

    def forget_nodes(self, live: set[str]) -> None:
        """Processes that stopped sending heartbeats hold no windows any more."""
        for node in [node for node in self.remote if node not in live]:
            self._set_remote(node, None)
