"""A table's finished matches kept: the summary, the record and who may see it, and the players' new ratings.

The process that wrote a match's last action keeps it; if that process died first, whoever runs the table keeps
it from the log (``keep_finished``): the same log gives the same record, and a match is rated once, whichever
process gets there first.
"""

from __future__ import annotations

import logging
import time
from typing import Protocol

from dehla.engine.state import Match
from dehla.record import replay, to_record
from dehla.rules import Rules
from dehla.web.log import LogEntry, match_seeds, replay_log, upgrade_entry
from dehla.web.ratings import Rating, rate_match
from dehla.web.schema import MatchSummary
from dehla.web.storage import FinishedMatch, Storage
from dehla.web.table.seats import SeatInfo
from dehla.web.visibility import match_audience
from dehla.web.yours import family_of

__all__ = ["ArchivedTable", "save_finished", "rate", "keep_finished", "log_entries"]

log = logging.getLogger("dehla.web")


class ArchivedTable(Protocol):
    """What keeping a table's finished matches reads (``TableSession``'s public interface)."""

    table_id: str
    title: str
    rules: Rules
    seats: list[SeatInfo]
    first_listed: bool
    watch_hash: str | None
    rated: bool
    match_no: int
    status: str
    #: The player of each seat when the match in play began (a rated match rates them).
    match_players: dict[int, str]

    @property
    def storage(self) -> Storage: ...


async def log_entries(table: ArchivedTable) -> list[LogEntry]:
    return [upgrade_entry(raw) for raw in await table.storage.load_log(table.table_id)]


async def save_finished(table: ArchivedTable, match_no: int, match: Match, entries: list[LogEntry]) -> None:
    """Keep a finished match with its summary, its record and who may see it (``visibility``)."""
    names = [info.name for info in table.seats]
    summary: MatchSummary = {
        "title": table.title,
        "preset": table.rules.preset,
        "rules": table.rules.to_json(),
        "players": names,
        "score": list(match.score),
        "winner": match.winner,
        "hands": len(match.results),
    }
    audience = match_audience(
        entries, match_no, table.first_listed, [info.to_meta() for info in table.seats], table.watch_hash
    )
    seats = tuple((info.player, seat) for seat, info in enumerate(table.seats) if info.player is not None)
    record = to_record(match, names, match_seeds(entries, match_no))  # every hand is over: its seed is revealed
    logged = replay_log(table.rules, entries).records.get(match_no)
    if logged is not None and len(logged["hands"]) == len(record["hands"]):
        # the hints, undos and claims of each hand, from the log (the match itself keeps only what stood)
        for hand, kept in zip(record["hands"], logged["hands"], strict=True):
            for key in ("hints", "undos", "claim"):
                if key in kept:
                    hand[key] = kept[key]
    await table.storage.save_finished(
        FinishedMatch(
            table.table_id,
            match_no,
            time.time(),
            summary,
            record,
            audience.listed,
            tuple(sorted(audience.players)),
            tuple(sorted(audience.hashes)),
            seats,
        )
    )


async def rate(table: ArchivedTable, match_no: int, match: Match) -> None:
    """Rate the players who began a rated match (once, whichever process gets there first)."""
    began = table.match_players
    if match.winner is None or len(began) != len(table.seats):
        return  # not every seat had a player when it began: nothing to rate
    leavers = {player for seat, player in began.items() if table.seats[seat].player != player}
    family = family_of(table.rules.preset)
    storage = table.storage
    current = {
        player: Rating(*values) for player, values in (await storage.ratings(family, list(began.values()))).items()
    }
    new = rate_match(began, match.winner, leavers, current)
    names = {player: table.seats[seat].name for seat, player in began.items()}
    await storage.save_ratings(
        table.table_id,
        match_no,
        family,
        {player: (names[player], value.mu, value.sigma, value.matches) for player, value in new.items()},
        time.time(),
    )


async def keep_finished(table: ArchivedTable) -> int:
    """Save every finished match of the log that storage lacks (its process died between the last action and
    the save); returns how many.  Any process may do it: the same log gives the same record."""
    kept = await table.storage.finished_numbers(table.table_id)
    if set(range(1, table.match_no + (1 if table.status == "over" else 0))) <= kept:
        return 0
    replayed = replay_log(table.rules, await table.storage.load_log(table.table_id))
    saved = 0
    for match_no, record in replayed.records.items():
        if match_no in kept:
            continue
        match = replay(record)
        if match.is_over:
            await save_finished(table, match_no, match, replayed.entries)
            if table.rated and match_no == table.match_no:
                await rate(table, match_no, match)  # rated once, whoever gets there first
            log.warning("table %s: match %d was finished but not kept; kept it from the log", table.table_id, match_no)
            saved += 1
    return saved
