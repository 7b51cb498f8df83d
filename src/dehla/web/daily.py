"""The daily duplicate: the same few deals for everyone each day (UTC), played against the bots and compared.

Each day has a secret seed (``daily_deal``), made and kept when the day is first asked for; its commitment is
shown at once, the seed once the day is over.  A player plays each of the day's deals once, in seat 1 (seat 0 of
the engine) with a bot partner against bot opponents, at a private table made for that game (no watchers, not in
the lobby) that plays the one deal and ends.  Their result is read off the table's finished match when someone
next looks at the day, and compared with everyone else's game of the deal and with the bots' own play of the
same seat (``daily_board``), which is played once per deal, in a thread off the event loop, and kept.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TypedDict

from dehla.bots import make_bot
from dehla.engine.state import Match
from dehla.errors import DehlaError
from dehla.play.matches import play_hand
from dehla.record import replay
from dehla.rules import Rules, parse_rules
from dehla.web.daily_board import BoardRow, HandFigures, hand_figures, read_figures, standings
from dehla.web.daily_deal import FixedDeal, commitment, deal_seed, new_day_seed
from dehla.web.messages import WebError, register
from dehla.web.settings import SeatSpec, TableSettings, check_bot, clean_name
from dehla.web.storage import DailyEntry, Storage
from dehla.web.tables import TableService

__all__ = ["DailySettings", "DailyService", "DayJSON", "play_reference", "day_of"]

log = logging.getLogger("dehla.web")

#: The player's seat at a daily table; their team is its team.
PLAYER_SEAT = 0
DAY_SECONDS = 86_400

register(
    {
        "daily_no_player": "Open the lobby once first: your daily games are kept for your player.",
        "daily_no_deal": "Choose one of the day's deals, 1 to {max}.",
        "daily_played": "You have played this deal of the day already: each deal is played once.",
        "daily_no_day": "There is no daily duplicate for that day.",
        "daily_no_game": "There is no such game of the daily duplicate.",
    }
)


@dataclass(frozen=True)
class DailySettings:
    """How many deals a day, of which preset, and which bot plays the three other seats and the reference."""

    deals: int = 4
    preset: str = "pagat"
    bot: str = "hard"

    def __post_init__(self) -> None:
        if not 1 <= self.deals <= 12:
            raise DehlaError(f"daily deals must be 1 to 12, not {self.deals}")
        parse_rules(self.preset)
        check_bot(self.bot, 1)


class YourGame(TypedDict):
    """One of the day's deals for the asker: not started, being played, or done (with its figures)."""

    deal: int
    state: str  # new | playing | done
    table: str | None
    figures: HandFigures | None


class DayJSON(TypedDict):
    """A day as the page shows it (``GET /api/daily`` and ``/api/daily/DAY``)."""

    day: str
    today: bool
    deals: int
    preset: str
    bot: str
    commitment: str
    seed: str | None
    ends_at: float
    yours: list[YourGame]
    references: list[HandFigures | None]
    board: list[BoardRow]


def day_of(at: float) -> str:
    """The UTC day of a moment, as an ISO date."""
    return datetime.datetime.fromtimestamp(at, datetime.UTC).date().isoformat()


def _day_start(day: str) -> float:
    return datetime.datetime.fromisoformat(day).replace(tzinfo=datetime.UTC).timestamp()


def play_reference(rules: Rules, seed: bytes, bot: str) -> HandFigures:
    """The bots' own play of a fixed deal (``bot`` in every seat), from the player's seat's side (CPU work: call it
    off the event loop).  The bots' seeds come from the deal's, so the same deal is always played the same way."""
    fixed = FixedDeal(seed)
    match = Match(rules, fixed.first_dealer(rules.players))
    match.apply(fixed.deal(match))
    bots = [
        make_bot(bot, int.from_bytes(hashlib.sha256(seed + b":bot:" + bytes([seat])).digest()[:8], "big"))
        for seat in range(rules.players)
    ]
    play_hand(match, lambda seat, seen: bots[seat].act(seen))
    return hand_figures(match.results[0], PLAYER_SEAT % 2)


class DailyService:
    """The days, the players' games and the bots' own results, kept in storage (any process of a cluster agrees)."""

    def __init__(
        self,
        storage: Storage,
        tables: TableService,
        settings: DailySettings | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.storage = storage
        self.tables = tables
        self.settings = settings or DailySettings()
        self.rules = parse_rules(self.settings.preset)
        self.clock = clock
        self._seeds: dict[str, tuple[bytes, str]] = {}
        self._references: dict[tuple[str, int], asyncio.Task[HandFigures | None]] = {}
        #: How many times the bots' own play of a deal was computed here (each deal's once).
        self.reference_runs = 0

    def today(self) -> str:
        return day_of(self.clock())

    async def seed(self, day: str) -> tuple[bytes, str]:
        """A day's seed and commitment: made now if the day has none yet (only today may get one)."""
        found = self._seeds.get(day)
        if found is None:
            fresh = new_day_seed()
            kept, commit = await self.storage.daily_day(day, fresh.hex(), commitment(fresh), self.clock())
            found = self._seeds[day] = (bytes.fromhex(kept), commit)
        return found

    def _check_day(self, day: str) -> str:
        """A day asked for: an ISO date, today or before (a later day is as missing as none)."""
        try:
            parsed = datetime.date.fromisoformat(day).isoformat()
        except ValueError:
            raise WebError("daily_no_day", "not_found") from None
        if parsed > self.today():
            raise WebError("daily_no_day", "not_found")
        return parsed

    async def play(self, player: str | None, name: object, deal: object) -> str:
        """The table of ``player``'s game of today's deal ``deal`` (0-based): made now, or theirs already if they
        started it; refused once they have finished it."""
        if player is None:
            raise WebError("daily_no_player", "forbidden")
        count = self.settings.deals
        if not isinstance(deal, int) or isinstance(deal, bool) or not 0 <= deal < count:
            raise WebError("daily_no_deal", max=count)
        await self.tables.refuse_banned(player)
        day = self.today()
        for entry in await self.storage.daily_entries(day):
            if entry.player == player and entry.deal == deal:
                if await self._settle(entry) is not None:
                    raise WebError("daily_played", "conflict")
                return entry.table_id
        day_seed, _ = await self.seed(day)
        seed = deal_seed(day_seed, deal)
        shown = clean_name(name, "") or await self.storage.player_name(player) or f"Player {PLAYER_SEAT}"
        bot = self.settings.bot
        players = self.rules.players
        seats = (SeatSpec("me", bot, shown), *(SeatSpec("bot", bot, f"Bot {seat}") for seat in range(1, players)))
        settings = TableSettings(
            rules=self.rules,
            seats=seats,
            title="",
            grace=60.0,
            timer=None,
            listed=False,
            watchers_allowed=False,
            trick_pause=self.tables.trick_pause,
            fixed=FixedDeal(seed),
            assists=False,  # a duplicate compares play: no hints, no undo
        )
        created = await self.tables.create(settings, player)
        table_id = created.session.table_id
        kept = await self.storage.daily_enter(DailyEntry(day, deal, player, shown, table_id, self.clock()))
        self._reference_task(day, deal)  # the bots play it meanwhile, so it is ready when the player is done
        return kept.table_id

    async def _settle(self, entry: DailyEntry) -> HandFigures | None:
        """An entry's result: kept, or read off its table's finished match (and kept) once the hand is over."""
        figures = read_figures(entry.result)
        if figures is not None:
            return figures
        finished = await self.storage.get_finished(entry.table_id, 1)
        if finished is None:
            return None
        try:
            match = replay(finished.record)
        except DehlaError:
            log.exception("daily game %s: its record cannot be replayed", entry.table_id)
            return None
        if not match.results:
            return None
        figures = hand_figures(match.results[0], PLAYER_SEAT % 2)
        await self.storage.daily_result(entry.day, entry.deal, entry.player, dict(figures))
        return figures

    def _reference_task(self, day: str, deal: int) -> asyncio.Task[HandFigures | None]:
        key = (day, deal)
        task = self._references.get(key)
        if task is None:
            task = self._references[key] = asyncio.get_running_loop().create_task(self._reference(day, deal))
        return task

    async def _reference(self, day: str, deal: int) -> HandFigures | None:
        """The bots' own result of a deal: kept, or played now in a thread and kept (first kept stays)."""
        kept = read_figures(await self.storage.daily_reference(day, deal))
        if kept is not None:
            return kept
        day_seed, _ = await self.seed(day)
        self.reference_runs += 1
        try:
            figures = await asyncio.to_thread(play_reference, self.rules, deal_seed(day_seed, deal), self.settings.bot)
        except Exception:
            log.exception("daily %s deal %d: the bots' own play failed", day, deal)
            self._references.pop((day, deal), None)
            return None
        await self.storage.save_daily_reference(day, deal, dict(figures))
        return read_figures(await self.storage.daily_reference(day, deal))

    async def day(self, day: str | None, player: str | None) -> DayJSON:
        """A day for ``player``: their games, the bots' results and the leaderboard (during the day, a deal's
        figures only once the asker has played it), the commitment, and the seed once the day is over."""
        today = self.today()
        day = today if day is None else self._check_day(day)
        if day != today and not [item for item in await self.storage.daily_days(today, 1000) if item[0] == day]:
            raise WebError("daily_no_day", "not_found")
        day_seed, commit = await self.seed(day)
        over = day < today
        entries = await self.storage.daily_entries(day)
        settled = [(entry, await self._settle(entry)) for entry in entries]
        entries = [replace(entry, result=None if figures is None else dict(figures)) for entry, figures in settled]
        mine = {entry.deal: entry for entry in entries if entry.player == player}
        done = {deal for deal, entry in mine.items() if entry.result is not None}
        played = {entry.deal for entry in entries if entry.result is not None}
        references: dict[int, HandFigures] = {}
        for deal in sorted(played if over else done):
            found = await self._reference_if_ready(day, deal)
            if found is not None:
                references[deal] = found
        count = self.settings.deals
        return {
            "day": day,
            "today": not over,
            "deals": count,
            "preset": self.settings.preset,
            "bot": self.settings.bot,
            "commitment": commit,
            "seed": day_seed.hex() if over else None,
            "ends_at": _day_start(day) + DAY_SECONDS,
            "yours": [_your_game(deal, mine.get(deal)) for deal in range(count)],
            "references": [references.get(deal) for deal in range(count)],
            "board": standings(entries, references, player, None if over else done),
        }

    async def _reference_if_ready(self, day: str, deal: int) -> HandFigures | None:
        """The bots' result if it is known; otherwise it is started (the page asks again) and ``None``."""
        kept = read_figures(await self.storage.daily_reference(day, deal))
        if kept is not None:
            return kept
        task = self._reference_task(day, deal)
        return task.result() if task.done() else None

    async def days(self) -> list[dict[str, str]]:
        """The days before today, newest first, each with its revealed seed and its commitment."""
        return [
            {"day": day, "seed": seed, "commitment": commit}
            for day, seed, commit in await self.storage.daily_days(self.today())
        ]

    async def game(self, day: str, table_id: str, player: str | None) -> Mapping[str, object]:
        """A finished game's record: anyone's once the day is over, else only its own player's."""
        day = self._check_day(day)
        for entry in await self.storage.daily_entries(day):
            if entry.table_id == table_id and (day < self.today() or entry.player == player):
                finished = await self.storage.get_finished(table_id, 1)
                if finished is not None:
                    return finished.record
        raise WebError("daily_no_game", "not_found")

    async def close(self) -> None:
        for task in self._references.values():
            task.cancel()


def _your_game(deal: int, entry: DailyEntry | None) -> YourGame:
    if entry is None:
        return {"deal": deal, "state": "new", "table": None, "figures": None}
    figures = read_figures(entry.result)
    state = "playing" if figures is None else "done"
    return {"deal": deal, "state": state, "table": entry.table_id, "figures": figures}
