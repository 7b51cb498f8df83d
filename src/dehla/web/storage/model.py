"""What the web tables keep: a table's row, a finished match, a queue's key and entry, and the ``Storage`` interface.

The backends (``sqlite``, ``postgres``) implement ``Storage``; ``open_storage`` in this package picks one.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from dehla.errors import DehlaError


class StaleLog(DehlaError):
    """The log has moved on: another process appended at this position first (catch up, then decide again)."""


class LeaseLost(DehlaError):
    """A bot's or timer's step from a process that no longer holds the table's lease (another runs it now)."""


#: A value bound to a statement's placeholder.
SQLParam = str | int | float | None


@dataclass
class TableRow:
    """A table's metadata as stored: everything but the log.

    ``meta`` is JSON written by ``TableSession.meta`` and read back as it is in the database (``schema.read_meta``
    checks it), so here it is any JSON value.
    """

    table_id: str
    meta: object
    created: float = field(default_factory=time.time)


@dataclass(frozen=True)
class FinishedMatch:
    """A finished match kept for history, replay and download: its summary and its ``dehla-record/1`` record.

    Both are JSON objects written by the table session (``schema.MatchSummary``, ``record.RecordJSON``); read back,
    they are objects as stored (``replay`` checks a record).
    """

    table_id: str
    match_no: int
    finished: float
    summary: Mapping[str, object]
    record: Mapping[str, object]
    #: Who may see it (``dehla.web.visibility``): everyone if its table was listed throughout the match, else the
    #: table's players and the holders of one of its links (the links' token hashes).
    listed: bool = False
    players: tuple[str, ...] = ()
    hashes: tuple[str, ...] = ()
    #: The seat each player held when the match ended (a player who had left by then has none).
    seats: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class DailyEntry:
    """A player's game of one of a day's daily deals (``dehla.web.daily``): the table made for it, and once the
    hand is over its result (a JSON object: the player's team's tens and tricks, whether it won)."""

    day: str
    deal: int
    player: str
    name: str
    table_id: str
    started: float
    result: Mapping[str, object] | None = None


@dataclass(frozen=True)
class QueueKey:
    """One queue of "Find a game": a preset, the match's target, rated or casual."""

    preset: str
    target: int
    rated: bool


@dataclass(frozen=True)
class QueueEntry:
    key: QueueKey
    since: float
    table_id: str | None
    seat: int | None


class Storage(Protocol):
    """The storage interface the table service needs; every write is committed when it returns."""

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def create_table(self, row: TableRow, lease: str | None = None) -> None:
        """A new table's row; ``lease``: the node that runs it (shared storage only)."""
        ...

    async def update_table(self, table_id: str, meta: Mapping[str, object]) -> None: ...

    async def append(self, table_id: str, seq: int, entry: Mapping[str, object], *, lease: str | None = None) -> None:
        """Add log entry ``seq`` (0, 1, 2, ...) of a table; ``StaleLog`` if ``seq`` is not the next position.

        With ``lease`` (a process's node id) the entry is refused with ``LeaseLost``
        unless that process holds the table's lease (shared storage only).
        """
        ...

    async def load_tables(self) -> list[TableRow]: ...

    async def load_table(self, table_id: str) -> TableRow | None: ...

    async def load_log(self, table_id: str, since: int = 0) -> list[object]:
        """The entries from position ``since`` on, as stored (``log.upgrade_entry`` checks each)."""
        ...

    async def save_finished(self, finished: FinishedMatch) -> None:
        """Keep a finished match (again: the same match saved twice is kept once, as last saved)."""
        ...

    async def list_finished(self, player: str | None = None, limit: int = 100) -> list[FinishedMatch]:
        """The newest finished matches ``player`` may see: those of listed tables and those ``player`` played
        (without their records)."""
        ...

    async def get_finished(self, table_id: str, match_no: int) -> FinishedMatch | None: ...

    async def finished_numbers(self, table_id: str) -> set[int]:
        """The numbers of a table's matches kept as finished."""
        ...

    async def player_matches(self, player: str, limit: int = 500) -> list[tuple[FinishedMatch, int | None]]:
        """The newest finished matches ``player`` played, with their records and the seat they held."""
        ...

    async def secret(self, name: str) -> str:
        """A random secret of this database, made on first use and the same for every process (cookie signing)."""
        ...

    async def player_name(self, player: str) -> str | None:
        """The display name a player chose, if any."""
        ...

    async def set_player_name(self, player: str, name: str) -> None: ...

    async def delete_player(self, player: str) -> None:
        """Forget a player: their name, ratings and which finished matches were theirs (the records keep the names
        people played under, as every record of a card game does)."""
        ...

    async def ratings(self, family: str, players: Sequence[str]) -> dict[str, tuple[float, float, int]]:
        """The players' ratings in a family: mu, sigma and rated matches (a player never rated is missing)."""
        ...

    async def save_ratings(
        self, table_id: str, match_no: int, family: str, updates: Mapping[str, tuple[str, float, float, int]], at: float
    ) -> bool:
        """Keep the new ratings a match gave (player -> name, mu, sigma, matches) and their history; False (and
        nothing kept) if that match was rated already."""
        ...

    async def leaderboard(self, family: str, limit: int = 50) -> list[tuple[str, str, float, float, int]]:
        """A family's rated players, best first by mu - 3 sigma: player, name, mu, sigma, matches."""
        ...

    async def rating_history(self, player: str) -> list[tuple[str, float, float, float]]:
        """A player's ratings over time: family, when, mu, sigma, oldest first."""
        ...

    async def report(self, table_id: str, reporter: str, player: str | None, name: str, text: str) -> None:
        """Someone reported a chat line (the line, who said it and who reported it are kept for the admins)."""
        ...

    async def reports(self, limit: int = 100) -> list[tuple[str, float, str, str, str | None, str, str]]:
        """The newest reports: id, when, table, reporter, reported player, name, text."""
        ...

    async def ban(self, player: str, reason: str) -> None: ...

    async def unban(self, player: str) -> bool: ...

    async def bans(self) -> list[tuple[str, float, str]]: ...

    async def banned(self, player: str) -> bool: ...

    async def block(self, player: str, blocked: str, name: str) -> None: ...

    async def unblock(self, player: str, blocked: str) -> None: ...

    async def blocked_by(self, player: str) -> dict[str, str]:
        """The players ``player`` blocked, with the names they were blocked under."""
        ...

    async def blocks_among(self, players: Sequence[str]) -> set[tuple[str, str]]:
        """The blocks between these players, as (blocker, blocked)."""
        ...

    async def follow(self, player: str, friend: str, name: str) -> None: ...

    async def unfollow(self, player: str, friend: str) -> None: ...

    async def friends(self, player: str) -> list[tuple[str, str, float | None]]:
        """The players ``player`` follows: id, the name they were followed under, when last seen (if ever)."""
        ...

    async def saw(self, player: str, at: float) -> None:
        """``player`` was here (a socket at a table, the lobby) at ``at``."""
        ...

    async def notify_player(self, player: str, table_id: str, seat: int, sender: str) -> None:
        """A notice for ``player``'s lobby: ``sender`` invites them to ``seat`` of ``table_id``."""
        ...

    async def notices(self, player: str) -> list[tuple[str, float, str, int, str]]:
        """A player's notices, newest first: id, when, table, seat, who sent it."""
        ...

    async def dismiss(self, player: str, notice: str) -> None: ...

    async def add_passkey(self, credential: str, player: str, public_key: str, sign_count: int) -> None:
        """A passkey (its credential id and public key, base64url) that signs in as ``player``."""
        ...

    async def passkey(self, credential: str) -> tuple[str, str, int] | None:
        """A passkey's player, public key and sign count."""
        ...

    async def passkey_used(self, credential: str, sign_count: int) -> None: ...

    async def passkeys_of(self, player: str) -> list[str]:
        """The credential ids of a player's passkeys."""
        ...

    async def queue_join(self, player: str, name: str, key: QueueKey, since: float) -> None:
        """The player waits in the queue ``key`` (leaving any other); a new wait starts now."""
        ...

    async def queue_leave(self, player: str) -> None: ...

    async def queue_entry(self, player: str) -> QueueEntry | None:
        """Where the player is in the queue: waiting (no table yet), or seated at a table the queue made."""
        ...

    async def queue_counts(self) -> list[tuple[QueueKey, int]]:
        """How many wait in each queue (not yet seated)."""
        ...

    async def queue_claim(
        self, key: QueueKey, count: int, table_id: str, only: str | None = None
    ) -> list[tuple[str, str]]:
        """Take the ``count`` longest waiting players of ``key`` (all of them up to ``count`` if ``only`` names one
        of them) for the table ``table_id``: their (player, name), in the order they came; none if fewer wait (or
        ``only`` does not).  Claimed players wait for no other table."""
        ...

    async def queue_seat(self, table_id: str, seats: Mapping[str, int | None]) -> None:
        """The table the players were claimed for exists: each one's seat (``None``: it could not be made, they wait
        again)."""
        ...

    async def daily_day(self, day: str, seed: str, commitment: str, at: float) -> tuple[str, str]:
        """The day's seed and commitment: those given if the day has none yet, else those kept (every process of a
        cluster gets the same)."""
        ...

    async def daily_days(self, before: str, limit: int = 60) -> list[tuple[str, str, str]]:
        """The days before ``before`` (ISO dates), newest first: day, seed, commitment."""
        ...

    async def daily_enter(self, entry: DailyEntry) -> DailyEntry:
        """Keep a player's entry for a deal, unless they have one: returns the entry kept (theirs or this one)."""
        ...

    async def daily_entries(self, day: str) -> list[DailyEntry]:
        """Every entry of a day, by deal, oldest first."""
        ...

    async def daily_result(self, day: str, deal: int, player: str, result: Mapping[str, object]) -> None: ...

    async def daily_reference(self, day: str, deal: int) -> Mapping[str, object] | None:
        """The bots' own result of a deal, if it was played."""
        ...

    async def save_daily_reference(self, day: str, deal: int, result: Mapping[str, object]) -> None:
        """Keep the bots' own result of a deal (the first kept stays)."""
        ...
