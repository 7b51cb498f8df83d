"""The SQL both storage backends run, and how its rows are read back.

Statements are written with ``?`` placeholders (SQLite's); the PostgreSQL backend turns them into ``%s``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from dehla.errors import DehlaError
from dehla.web.storage.model import DailyEntry, FinishedMatch, QueueEntry, QueueKey, SQLParam


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def json_object(text: str, what: str) -> dict[str, object]:
    """A stored JSON object (a finished match's summary or record)."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise DehlaError(f"the stored {what} is not a JSON object")
    return value


def access_json(finished: FinishedMatch) -> str:
    return dumps({"players": list(finished.players), "hashes": list(finished.hashes)})


#: The columns of ``finished`` a ``FinishedMatch`` is read from (``finished_match``); ``LISTING_COLUMNS`` leaves out the
#: record.
FINISHED_COLUMNS = "table_id, match_no, finished, summary, record, listed, access"
LISTING_COLUMNS = "table_id, match_no, finished, summary, '{}', listed, access"
#: The finished matches a player may see in the history: listed ones and their own (``?``: player, player, limit).
VISIBLE = (
    "SELECT " + LISTING_COLUMNS + " FROM finished WHERE listed OR EXISTS (SELECT 1 FROM finished_players p "
    "WHERE p.table_id = finished.table_id AND p.match_no = finished.match_no AND p.player = ?) "
    "ORDER BY finished DESC LIMIT ?"
)
#: Where a player's rows are, for forgetting them.
PLAYER_ROWS = (
    ("players", "id"),
    ("finished_players", "player"),
    ("ratings", "player"),
    ("rating_history", "player"),
    ("queue", "player"),
    ("passkeys", "player"),
    ("blocks", "player"),
    ("friends", "player"),
    ("seen", "player"),
    ("notices", "player"),
    ("daily_entries", "player"),
)
FOLLOW = "INSERT INTO friends (player, friend, name) VALUES (?, ?, ?) ON CONFLICT (player, friend) DO NOTHING"
FRIENDS = (
    "SELECT f.friend, f.name, s.at FROM friends f LEFT JOIN seen s ON s.player = f.friend "
    "WHERE f.player = ? ORDER BY f.name"
)
SAW = "INSERT INTO seen (player, at) VALUES (?, ?) ON CONFLICT (player) DO UPDATE SET at = EXCLUDED.at"
NOTICE = "INSERT INTO notices (id, player, at, table_id, seat, sender) VALUES (?, ?, ?, ?, ?, ?)"
NOTICES = "SELECT id, at, table_id, seat, sender FROM notices WHERE player = ? ORDER BY at DESC LIMIT 20"


def friend_row(row: Sequence[Any]) -> tuple[str, str, float | None]:
    return str(row[0]), str(row[1]), None if row[2] is None else float(row[2])


def notice_row(row: Sequence[Any]) -> tuple[str, float, str, int, str]:
    return str(row[0]), float(row[1]), str(row[2]), int(row[3]), str(row[4])


REPORT = "INSERT INTO reports (id, at, table_id, reporter, player, name, text) VALUES (?, ?, ?, ?, ?, ?, ?)"
REPORTS = "SELECT id, at, table_id, reporter, player, name, text FROM reports ORDER BY at DESC LIMIT ?"
BAN = (
    "INSERT INTO bans (player, at, reason) VALUES (?, ?, ?) ON CONFLICT (player) DO UPDATE SET reason = EXCLUDED.reason"
)
BANS = "SELECT player, at, reason FROM bans ORDER BY at"
BLOCK = "INSERT INTO blocks (player, blocked, name) VALUES (?, ?, ?) ON CONFLICT (player, blocked) DO NOTHING"


def report_row(row: Sequence[Any]) -> tuple[str, float, str, str, str | None, str, str]:
    number, at, table_id, reporter, player, name, text = row
    return (
        str(number),
        float(at),
        str(table_id),
        str(reporter),
        None if player is None else str(player),
        str(name),
        str(text),
    )


ADD_PASSKEY = "INSERT INTO passkeys (id, player, public_key, sign_count, created) VALUES (?, ?, ?, ?, ?)"
PASSKEY = "SELECT player, public_key, sign_count FROM passkeys WHERE id = ?"
QUEUE_JOIN = "INSERT INTO queue (player, name, preset, target, rated, since) VALUES (?, ?, ?, ?, ?, ?)"
QUEUE_ENTRY = "SELECT preset, target, rated, since, table_id, seat FROM queue WHERE player = ?"
QUEUE_COUNTS = "SELECT preset, target, rated, count(*) FROM queue WHERE table_id IS NULL GROUP BY preset, target, rated"
QUEUE_WAITING = (
    "SELECT player, name FROM queue WHERE preset = ? AND target = ? AND rated = ? AND table_id IS NULL "
    "ORDER BY since LIMIT ?"
)


#: How many of the longest waiting a queue looks at to find a group without blocks (per seat to fill).
CANDIDATES = 4


def pick_group(
    waiting: Sequence[tuple[str, str]], blocks: set[tuple[str, str]], count: int, only: str | None
) -> list[tuple[str, str]]:
    """The first ``count`` of ``waiting`` (in order) with no block between any two of them; with ``only``: a group
    around that player of at most ``count`` (bots fill the rest).  Empty if there is none."""
    apart = {frozenset(pair) for pair in blocks}
    group: list[tuple[str, str]] = []
    if only is not None:
        group = [item for item in waiting if item[0] == only]
        if not group:
            return []
    for item in waiting:
        if len(group) == count:
            break
        if item in group or any(frozenset((item[0], other)) in apart for other, _ in group):
            continue
        group.append(item)
    if only is None and len(group) < count:
        return []
    return sorted(group, key=waiting.index)


def read_queue_entry(row: Sequence[Any]) -> QueueEntry:
    preset, target, rated, since, table_id, seat = row
    return QueueEntry(
        QueueKey(str(preset), int(target), bool(rated)),
        float(since),
        None if table_id is None else str(table_id),
        None if seat is None else int(seat),
    )


def queue_seat_statement(table_id: str, player: str, seat: int | None) -> tuple[str, tuple[SQLParam, ...]]:
    if seat is None:
        return "UPDATE queue SET table_id = NULL WHERE player = ? AND table_id = ?", (player, table_id)
    return "UPDATE queue SET seat = ? WHERE player = ? AND table_id = ?", (seat, player, table_id)


RATING = "SELECT player, mu, sigma, matches FROM ratings WHERE player = ? AND family = ?"
SET_RATING = (
    "INSERT INTO ratings (player, family, name, mu, sigma, matches) VALUES (?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (player, family) DO UPDATE SET name = EXCLUDED.name, mu = EXCLUDED.mu, "
    "sigma = EXCLUDED.sigma, matches = EXCLUDED.matches"
)
RATING_HISTORY = "INSERT INTO rating_history (player, family, at, mu, sigma) VALUES (?, ?, ?, ?, ?)"
LEADERBOARD = (
    "SELECT player, name, mu, sigma, matches FROM ratings WHERE family = ? ORDER BY mu - 3 * sigma DESC LIMIT ?"
)
HISTORY_OF = "SELECT family, at, mu, sigma FROM rating_history WHERE player = ? ORDER BY at"
#: A player's display name, made or changed (``?``: id, name, now).
SET_NAME = (
    "INSERT INTO players (id, name, created) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name"
)
#: The matches a player played, with their records and the seat they held (``?``: player, limit).
PLAYERS_MATCHES = (
    "SELECT f.table_id, f.match_no, f.finished, f.summary, f.record, f.listed, f.access, p.seat "
    "FROM finished f JOIN finished_players p ON p.table_id = f.table_id AND p.match_no = f.match_no "
    "WHERE p.player = ? ORDER BY f.finished DESC LIMIT ?"
)


def finished_match(row: Sequence[object]) -> FinishedMatch:
    """A finished match from its row (``FINISHED_COLUMNS`` or ``LISTING_COLUMNS``)."""
    table_id, match_no, finished, summary, record, listed, access = row
    if not (
        isinstance(table_id, str)
        and isinstance(match_no, int)
        and isinstance(finished, int | float)
        and isinstance(summary, str)
        and isinstance(record, str)
        and isinstance(access, str)
    ):
        raise DehlaError(f"a row of finished matches is not what the server writes: {str(row)[:80]}")
    who = json_object(access, "access")
    players, hashes = who.get("players", []), who.get("hashes", [])
    return FinishedMatch(
        table_id,
        match_no,
        float(finished),
        json_object(summary, "summary"),
        json_object(record, "record"),
        bool(listed),
        tuple(str(item) for item in players) if isinstance(players, list) else (),
        tuple(str(item) for item in hashes) if isinstance(hashes, list) else (),
    )


#: The daily duplicate (``dehla.web.daily``): each day's seed, the players' entries, the bots' own results.
DAILY_DAY_ADD = (
    "INSERT INTO daily_days (day, seed, commitment, created) VALUES (?, ?, ?, ?) ON CONFLICT (day) DO NOTHING"
)
DAILY_DAY = "SELECT seed, commitment FROM daily_days WHERE day = ?"
DAILY_DAYS = "SELECT day, seed, commitment FROM daily_days WHERE day < ? ORDER BY day DESC LIMIT ?"
DAILY_ENTER = (
    "INSERT INTO daily_entries (day, deal, player, name, table_id, started) VALUES (?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (day, deal, player) DO NOTHING"
)
DAILY_ENTRY = (
    "SELECT day, deal, player, name, table_id, started, result FROM daily_entries "
    "WHERE day = ? AND deal = ? AND player = ?"
)
DAILY_ENTRIES = (
    "SELECT day, deal, player, name, table_id, started, result FROM daily_entries WHERE day = ? ORDER BY deal, started"
)
DAILY_RESULT = "UPDATE daily_entries SET result = ? WHERE day = ? AND deal = ? AND player = ?"
DAILY_REFERENCE = "SELECT result FROM daily_reference WHERE day = ? AND deal = ?"
DAILY_REFERENCE_ADD = (
    "INSERT INTO daily_reference (day, deal, result) VALUES (?, ?, ?) ON CONFLICT (day, deal) DO NOTHING"
)


def daily_entry_row(row: Sequence[Any]) -> DailyEntry:
    result = None if row[6] is None else json_object(str(row[6]), "daily result")
    return DailyEntry(str(row[0]), int(row[1]), str(row[2]), str(row[3]), str(row[4]), float(row[5]), result)
