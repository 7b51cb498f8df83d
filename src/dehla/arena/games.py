"""Duplicate play: the arena's units of work, each a pure function of the configuration and its coordinates.

A *deal* (single hand) or a *match* is played in two *legs* with the same
chance: in leg 0 bot A's team holds the even seats (0, 2, ...), in leg 1 the
odd seats, and every seat receives the same cards in both legs (the first
dealer and, under open-draw rules, the drawn card come from the same seed), so
the luck of the cards cancels between the legs.  For whole matches the chance
of every later hand is drawn from one per-match stream, so hand ``k`` of both
legs is dealt the same cards as long as both legs last that long.

Every bot is made by name (``make_player(name, seed)``, ``cmd:`` programs
included) for each leg, with a seed derived from (arena seed, item, leg,
seat).  A bot that fails (``BotFailure``: an illegal or unreadable answer, an
error, a timeout, a dead program, an exception) loses the hand, or the match,
for its team; the failure is reported with its position.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal, TypedDict

from dehla.arena.seeds import derive_seed
from dehla.bots.base import Bot, bind_bots
from dehla.engine.events import HandResult
from dehla.engine.state import Match
from dehla.play import BotFailure, FailureJSON, checked_act, close_bots, play_hand
from dehla.protocol.host import make_player, stop_idle_processes
from dehla.protocol.messages import DEFAULT_MOVE_TIMEOUT
from dehla.record import RecordJSON, to_record
from dehla.rules import Rules

__all__ = [
    "ArenaConfig",
    "Task",
    "plan_tasks",
    "play_task",
    "LegResult",
    "HandSummary",
    "LegFailure",
    "ArenaRecordJSON",
]

#: Which entrant of a pair: ``a`` (the first) or ``b``.
Side = Literal["a", "b"]


class HandSummary(TypedDict):
    """A hand from bot A's side: A's score (1 win, 0 loss, 0.5 drawn hand) and both teams' feats as [A, B]."""

    score: float
    tens: list[int]
    sweeps: list[int]
    kots: list[int]
    whitewashes: list[int]
    forfeit: Side | None  # the side whose bot failed, for an unfinished hand lost that way


class LegFailure(FailureJSON):
    """A bot's failure (``BotFailure.to_json()``) and the side it played for."""

    side: Side


class ArenaLegJSON(TypedDict):
    """Where a kept record was played: the kind and number of the item, the leg, and the two entrants."""

    kind: str
    index: int
    leg: int
    a: str
    b: str


class ArenaRecordJSON(RecordJSON):
    """A leg's ``dehla-record/1`` record, with the leg it was played in (``--records``)."""

    arena: ArenaLegJSON


class LegResult(TypedDict):
    """A leg's outcome as JSON-ready data (see ``play_leg``); ``match`` is A's result of a whole match."""

    kind: str
    pair: list[int]
    index: int
    leg: int
    hands: list[HandSummary]
    match: float | None
    failure: LegFailure | None
    record: ArenaRecordJSON | None


#: Deals per unit of work: small enough for a lively progress bar, big enough to keep overheads low.
DEALS_PER_TASK = 10


@dataclass(frozen=True)
class ArenaConfig:
    """What the arena plays.  ``labels`` name the entrants uniquely (a bot may be entered twice)."""

    rules: Rules
    bots: tuple[str, ...]
    seed: int
    deals: int = 0
    matches: int = 0
    move_timeout: float = DEFAULT_MOVE_TIMEOUT
    keep_records: bool = False
    labels: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.labels:
            object.__setattr__(self, "labels", entrant_labels(self.bots))

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """Every pair of entrants once (round robin), in entry order."""
        count = len(self.bots)
        return [(a, b) for a in range(count) for b in range(a + 1, count)]

    @property
    def total_legs(self) -> int:
        return len(self.pairs) * 2 * (self.deals + self.matches)


def entrant_labels(names: tuple[str, ...]) -> tuple[str, ...]:
    """Unique labels: the name, with ``#2``, ``#3`` for a bot entered more than once."""
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return tuple(labels)


@dataclass(frozen=True)
class Task:
    """A unit of work: items ``start..stop-1`` of one kind (``deal`` or ``match``) for one pair of entrants."""

    kind: str
    pair: tuple[int, int]
    start: int
    stop: int

    @property
    def legs(self) -> int:
        return 2 * (self.stop - self.start)


def plan_tasks(config: ArenaConfig) -> list[Task]:
    """All the work, in a fixed order that depends only on the configuration."""
    tasks = []
    for pair in config.pairs:
        for start in range(0, config.deals, DEALS_PER_TASK):
            tasks.append(Task("deal", pair, start, min(config.deals, start + DEALS_PER_TASK)))
        for index in range(config.matches):
            tasks.append(Task("match", pair, index, index + 1))
    return tasks


def play_task(config: ArenaConfig, task: Task) -> list[LegResult]:
    """Play both legs of every item of ``task``; the result depends on nothing else."""
    results = []
    try:
        for index in range(task.start, task.stop):
            for leg in (0, 1):
                results.append(play_leg(config, task.kind, task.pair, index, leg))
    finally:
        stop_idle_processes()  # no outside program outlives its task
    return results


def _make_bot(config: ArenaConfig, name: str, seed: int) -> Bot:
    # reuse: one program serves game after game of a task (hello starts a new game)
    return make_player(name, seed, move_timeout=config.move_timeout, reuse=True)


def play_leg(config: ArenaConfig, kind: str, pair: tuple[int, int], index: int, leg: int) -> LegResult:
    """One leg: a single hand (``deal``) or a whole match, bot A's team on team ``leg``.

    Returns ``{"kind", "pair", "index", "leg", "hands": [...], "match": 1/0 or None, "failure", "record"}``
    where each hand is summarised from A's side (see ``_hand_summary``).
    """
    rules = config.rules
    a_team = leg
    chance = random.Random(derive_seed(config.seed, kind, index))
    match = Match.new(rules, chance)
    entrants = [pair[0] if seat % 2 == a_team else pair[1] for seat in range(rules.players)]
    labels = [config.labels[entrant] for entrant in entrants]
    bots = [
        _make_bot(config, config.bots[entrant], derive_seed(config.seed, "bot", kind, index, leg, seat, labels[seat]))
        for seat, entrant in enumerate(entrants)
    ]
    bind_bots(bots, match)  # only the measurement-only ``cheat`` uses it
    hands: list[HandSummary] = []
    failure: LegFailure | None = None
    try:
        while not match.is_over:
            match.apply(match.random_deal(chance))
            try:
                play_hand(match, lambda seat, seen: checked_act(bots[seat], seen, labels[seat]))
            except BotFailure as error:
                failure = {**error.to_json(), "side": "a" if error.team == a_team else "b"}
                hands.append(_forfeit_summary(match, a_team, failed_team=error.team))
                break
            hands.append(_hand_summary(match.results[-1], a_team, rules))
            if kind == "deal":
                break
    finally:
        close_bots(bots)
    match_result: float | None = None
    if kind == "match":
        if failure is not None:
            match_result = 0.0 if failure["side"] == "a" else 1.0
        else:
            match_result = 1.0 if match.winner == a_team else 0.0
    record: ArenaRecordJSON | None = None
    if config.keep_records:
        leg_json: ArenaLegJSON = {
            "kind": kind,
            "index": index,
            "leg": leg,
            "a": config.labels[pair[0]],
            "b": config.labels[pair[1]],
        }
        record = {**to_record(match, labels), "arena": leg_json}
    return {
        "kind": kind,
        "pair": list(pair),
        "index": index,
        "leg": leg,
        "hands": hands,
        "match": match_result,
        "failure": failure,
        "record": record,
    }


def _hand_summary(result: HandResult, a_team: int, rules: Rules) -> HandSummary:
    """A finished hand from bot A's side: its score (1 win, 0 loss, 0.5 drawn hand) and both teams' feats."""
    b_team = 1 - a_team
    winner = result.winner
    score = 0.5 if winner is None else (1.0 if winner == a_team else 0.0)
    whitewash_team = None
    if result.whitewash:
        whitewash_team = 0 if result.tricks_won[1] == 0 else 1
    return {
        "score": score,
        "tens": [result.tens[a_team], result.tens[b_team]],
        "sweeps": [int(result.sweep and winner == a_team), int(result.sweep and winner == b_team)],
        "kots": [int(result.kot and winner == a_team), int(result.kot and winner == b_team)],
        "whitewashes": [int(whitewash_team == a_team), int(whitewash_team == b_team)],
        "forfeit": None,
    }


def _forfeit_summary(match: Match, a_team: int, failed_team: int) -> HandSummary:
    """An unfinished hand lost by the team whose bot failed; tens are those collected when it stopped."""
    public = match.observe(0)
    b_team = 1 - a_team
    return {
        "score": 0.0 if failed_team == a_team else 1.0,
        "tens": [public.tens[a_team], public.tens[b_team]],
        "sweeps": [0, 0],
        "kots": [0, 0],
        "whitewashes": [0, 0],
        "forfeit": "a" if failed_team == a_team else "b",
    }
