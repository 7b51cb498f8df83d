"""Who may see a match: one rule for a finished match's history line, replay, record and analysis.

A match is visible to whoever could see its table while it was played: the
table's players (the player identities that held its seats), the holders of one
of its links (a seat link or the watch link, known by their tokens' hashes), and
everyone only if the table was listed in the lobby for the whole match.  The
rule is ``Audience.admits``; ``match_audience`` works out a match's audience
from the table's log, so that the process that finishes a match and one that
rebuilds a lost finished match from the log (after a crash) agree.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from dehla.web.log import LogEntry
from dehla.web.players import Viewer
from dehla.web.schema import SeatState

__all__ = ["Audience", "match_audience", "hash_token", "new_token", "token_matches"]


def hash_token(token: str) -> str:
    """Seat and watch tokens are stored only as hashes: a database leak gives no seat."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_matches(stored: str | None, token: str) -> bool:
    return stored is not None and secrets.compare_digest(stored, hash_token(token))


@dataclass(frozen=True)
class Audience:
    """Who may see a match: everyone (``listed``), or these players and the holders of links with these hashes."""

    listed: bool
    players: frozenset[str] = frozenset()
    hashes: frozenset[str] = frozenset()

    def admits(self, viewer: Viewer) -> bool:
        if self.listed:
            return True
        if viewer.player is not None and viewer.player in self.players:
            return True
        return any(hash_token(token) in self.hashes for token in viewer.tokens if token)


def match_audience(
    entries: Iterable[LogEntry], match_no: int, first_listed: bool, seats: Sequence[SeatState], watch_hash: str | None
) -> Audience:
    """The audience of match ``match_no`` of a table, from its log (``log.upgrade_entry``'d entries).

    ``first_listed``: whether the table was listed when it was made; ``seats`` and ``watch_hash``: the table's
    seats and watch link now.  Everyone who ever held a seat of the table, and every link it ever had, counts
    (a person who played an earlier match and left may still see this one: they were at the table); the match is
    public only if the table was listed from its first deal to its end.
    """
    players: set[str] = set()
    hashes: set[str] = set()
    listed = first_listed
    public = False
    current = 0
    for entry in entries:
        if entry["type"] == "match":
            if current == match_no:
                break  # the next match: ours is over
            current = entry["match_no"]
            public = listed if current == match_no else public
        elif entry["type"] == "seat":
            if entry.get("player"):
                players.add(str(entry.get("player")))
            if entry["token_hash"]:
                hashes.add(entry["token_hash"])
        elif entry["type"] == "settings":
            listed = entry["listed"]
            if entry["watch_hash"]:
                hashes.add(entry["watch_hash"])
            if current == match_no and not listed:
                public = False
    for seat in seats:
        if seat.get("player"):
            players.add(str(seat.get("player")))
        if seat["token_hash"]:
            hashes.add(seat["token_hash"])
    if watch_hash:
        hashes.add(watch_hash)
    return Audience(public, frozenset(players), frozenset(hashes))
