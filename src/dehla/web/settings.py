"""Lobby and table settings: a create request from the lobby, validated into one frozen value.

Everything the lobby may ask for is checked here, once, before any table
exists: the rules, each seat (me, a person's invite, or a bot from the
registry), the timings and who may see the table.  The table session only ever
reads a ``TableSettings``; it never sees the raw request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from dehla.bots import BOTS, bot_names
from dehla.errors import DehlaError
from dehla.rules import Rules, parse_rules
from dehla.web.daily_deal import FixedDeal
from dehla.web.messages import WebError, register

__all__ = [
    "SeatSpec",
    "TableSettings",
    "parse_table_request",
    "default_bot",
    "clean_name",
    "check_bot",
    "check_trick_pause",
    "MAX_NAME",
    "MAX_TRICK_PAUSE",
    "DEFAULT_TRICK_PAUSE",
    "DEFAULT_BOT_DELAY",
]

MAX_NAME = 24
#: The longest pause a finished trick may be shown for, in seconds.
MAX_TRICK_PAUSE = 5.0
DEFAULT_TRICK_PAUSE = 1.2
#: The pause before each bot move: long enough to follow the play, short enough that a new player's first
#: card comes within 3 s of opening the page when bots call and play three cards before them.
DEFAULT_BOT_DELAY = 0.5
_FIELDS = (
    "rules",
    "seats",
    "grace",
    "timer",
    "title",
    "name",
    "listed",
    "watchers_allowed",
    "trick_pause",
    "rated",
    "assists",
)

register(
    {
        "table_not_object": 'A table is described by a JSON object with "rules" and "seats".',
        "unknown_field": "The request has a field this server does not know: {text}.",
        "bad_rules": "These rules cannot be used.",
        "seat_count": "Choose {n} seats for these rules.",
        "one_me": "Only one seat can be yours.",
        "seat_kind": "{seat} must be you, a person (invite link) or a bot.",
        "unknown_bot": "{seat}: there is no bot called {text}.",
        "bad_grace": "The grace time must be a number of seconds from {min} to {max}.",
        "bad_timer": "The turn timer must be a number of seconds from {min} to {max}.",
        "bad_trick_pause": "The pause after a trick must be a number of seconds from {min} to {max}.",
        "bad_listed": "Say with true or false whether the table is open to anyone.",
        "bad_watchers_allowed": "Say with true or false whether people may watch.",
        "bad_rated": "Say with true or false whether the table is rated.",
        "rated_needs_people": "A rated table has a person in every seat: no bots.",
        "bad_assists": "Say with true or false whether hints and undo are allowed.",
    }
)


def default_bot() -> str:
    """The bot used when none is chosen: the easiest bot above the random beginner, if there is one."""
    names = bot_names(for_people=True)
    above = [name for name in names if BOTS[name].level > 0]
    return above[0] if above else names[0]


def clean_name(value: object, fallback: str) -> str:
    """A name people typed, on one line and short; anything unprintable falls back (names are shown as text)."""
    if not isinstance(value, str):
        return fallback
    text = " ".join(value.split())[:MAX_NAME]
    return text if text and text.isprintable() else fallback


def check_bot(value: object, seat: int) -> str:
    """A bot name from the registry that people may choose (never a measurement-only or outside program)."""
    bot = value or default_bot()
    if not isinstance(bot, str) or bot not in BOTS or BOTS[bot].measurement_only:
        raise WebError("unknown_bot", seat=seat, text=str(bot)[:32])
    return bot


def _seconds(value: object, name: str, low: float, high: float) -> float:
    """A number of seconds for the setting ``name`` (its refusal code is ``bad_NAME``)."""
    if not isinstance(value, int | float) or isinstance(value, bool) or not low <= value <= high:
        raise WebError(f"bad_{name}", min=low, max=high)
    return float(value)


def check_trick_pause(value: object) -> float:
    """The pause a finished trick stays on the table: 0 (none) to ``MAX_TRICK_PAUSE`` seconds."""
    return _seconds(value, "trick_pause", 0, MAX_TRICK_PAUSE)


def _flag(value: object, name: str) -> bool:
    """A yes-or-no setting ``name`` (its refusal code is ``bad_NAME``)."""
    if not isinstance(value, bool):
        raise WebError(f"bad_{name}")
    return value


@dataclass(frozen=True)
class SeatSpec:
    """One seat as the lobby asked for it: the creator's, a person's invite, or a bot; ``player``: the player the
    seat is kept for (a table the queue made seats the players it matched)."""

    kind: Literal["me", "person", "bot"]
    bot: str
    name: str
    player: str | None = None


@dataclass(frozen=True)
class TableSettings:
    """A validated create request: everything a new table needs, and nothing from the raw request."""

    rules: Rules
    seats: tuple[SeatSpec, ...]
    title: str
    grace: float
    timer: float | None
    listed: bool
    watchers_allowed: bool
    trick_pause: float
    #: Matches here change the players' ratings (``dehla.web.ratings``): every seat is a person's.
    rated: bool = False
    #: The one deal the table plays, then ends (the daily duplicate's tables; never from a lobby's request).
    fixed: FixedDeal | None = None
    #: Hints and undo against bots allowed (the host may turn them off; a rated table never has them).
    assists: bool = True

    @property
    def me(self) -> int | None:
        """The creator's seat (the host), if the creator sits at the table."""
        return next((number for number, seat in enumerate(self.seats) if seat.kind == "me"), None)

    @property
    def has_invites(self) -> bool:
        return any(seat.kind == "person" for seat in self.seats)


def parse_table_request(spec: object, trick_pause: float = DEFAULT_TRICK_PAUSE) -> TableSettings:
    """Validate the lobby's request; ``trick_pause`` is the server's default for tables that do not say."""
    if not isinstance(spec, dict):
        raise WebError("table_not_object")
    unknown = sorted(str(key) for key in set(spec) - set(_FIELDS))
    if unknown:
        raise WebError("unknown_field", text=unknown[0][:32])
    try:
        rules = parse_rules(spec.get("rules", "pagat"))
    except DehlaError as error:
        raise WebError("bad_rules", detail=str(error)) from None
    players = rules.players
    seats_spec: object = spec.get("seats")
    if seats_spec is None:
        seats_spec = [{"kind": "me"}] + [{"kind": "bot"}] * (players - 1)
    if not isinstance(seats_spec, list) or len(seats_spec) != players:
        raise WebError("seat_count", n=players)
    grace = _seconds(spec.get("grace", 60), "grace", 0, 3600)
    timer_value = spec.get("timer")
    timer = None if timer_value in (None, 0) else _seconds(timer_value, "timer", 1, 600)
    creator = clean_name(spec.get("name"), "")
    seats: list[SeatSpec] = []
    for number, seat in enumerate(seats_spec):
        if not isinstance(seat, dict):
            raise WebError("seat_kind", seat=number)
        kind = seat.get("kind")
        bot = check_bot(seat.get("bot"), number)
        if kind == "bot":
            seats.append(SeatSpec("bot", bot, clean_name(seat.get("name"), f"Bot {number + 1}")))
        elif kind == "me":
            if any(item.kind == "me" for item in seats):
                raise WebError("one_me")
            seats.append(SeatSpec("me", bot, clean_name(seat.get("name"), creator or f"Player {number + 1}")))
        elif kind == "person":
            seats.append(SeatSpec("person", bot, clean_name(seat.get("name"), f"Player {number + 1}")))
        else:
            raise WebError("seat_kind", seat=number)
    has_invites = any(item.kind == "person" for item in seats)
    return TableSettings(
        rules=rules,
        seats=tuple(seats),
        title=clean_name(spec.get("title"), ""),
        grace=grace,
        timer=timer,
        listed=_flag(spec.get("listed", not has_invites), "listed"),
        watchers_allowed=_flag(spec.get("watchers_allowed", True), "watchers_allowed"),
        trick_pause=check_trick_pause(spec.get("trick_pause", trick_pause)),
        rated=_rated(spec.get("rated", False), seats),
        assists=_flag(spec.get("assists", True), "assists"),
    )


def _rated(value: object, seats: list[SeatSpec]) -> bool:
    """A table is rated only if asked and every seat is a person's (bots are never rated)."""
    rated = _flag(value, "rated")
    if rated and any(seat.kind == "bot" for seat in seats):
        raise WebError("rated_needs_people")
    return rated
