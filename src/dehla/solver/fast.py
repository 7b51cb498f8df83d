"""The fast double-dummy solver: the exact value of a position with every card known.

``Solver`` turns a position (the trick core's ``HandState``, the full truth:
every hand, the cards a staged deal has still to hand out, the band-hukum card;
or a ``Match``) into a row of ``dehla.kernel`` with its codec and asks the compiled kernel bound queries ("can
team 0 reach at least this level?").  A value is found by a few such queries
(a binary search over the handful of levels; each query is fail-soft, so its
answer bounds the value and may settle more than the level it asked about, and
the transposition table carries what one query learned into the next); the
value of every legal action costs one more query each, plus a short search for
the actions that fall short.

Staged deals and hidden trump are solved as fully dealt positions: the solver
sees the undealt cards and the hidden card, as the engine does.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import cache
from typing import cast

import numpy as np
import numpy.typing as npt

from dehla.cards import TENS_MASK, cards_of
from dehla.engine import tricks
from dehla.engine.actions import REVEAL, Action, Play
from dehla.engine.scoring import Outcome
from dehla.engine.state import Match, Phase
from dehla.engine.tricks import HandState
from dehla.errors import DehlaError
from dehla.kernel import codec, layout
from dehla.rules import Rules
from dehla.solver.compiled import kernels
from dehla.solver.layout import MAXPLY, REVEAL_MOVE, ROW, ST_CAPPED, ST_LIMIT_REACHED, ST_NODES, STATS
from dehla.solver.objective import Objective, Value, objective_for

__all__ = ["Solver", "Solution", "Results", "SolveLimitReached", "default_solver", "solve", "kernel_load_seconds"]

Array = npt.NDArray[np.int64]
#: What the solver solves: a hand in play (``Match.hand_state()``), or a match, whose call and hide decisions it
#: solves through the positions after each choice.
Position = Match | HandState
_IN_HAND = (Phase.CALL, Phase.HIDE, Phase.PLAY)


@dataclass(frozen=True)
class Solution:
    """A solved position: its value, the value after each legal action, and who is to act."""

    value: Value
    actions: dict[Action, Value]
    seat: int
    objective: Objective = field(repr=False)
    nodes: int = 0

    @property
    def team(self) -> int:
        return self.seat % 2

    @property
    def best(self) -> list[Action]:
        """The actions that keep the position's value."""
        return [action for action, value in self.actions.items() if value.level == self.value.level]

    def loss(self, action: Action) -> int:
        """How many levels ``action`` gives away compared with the best action (0 for a best action)."""
        level = self.actions[action].level
        return self.value.level - level if self.team == 0 else level - self.value.level


@dataclass(frozen=True)
class Results:
    """A position solved only as far as the hand's result: who wins and by how many points, not the tens.

    ``margin`` and ``actions`` hold team 0's points margin (points minus the other
    team's; its sign alone, asked with ``winner_only``) under best play, for the
    position and after each legal action.  Much
    cheaper than a full ``Solution`` early in a hand (on Pagat and Mendikot one
    bound query an action), and all a player needs where the tens only decide the result.
    """

    margin: int
    actions: dict[Action, int]  # every legal action, or those asked for (``Solver.results(match, actions)``)
    seat: int
    nodes: int = 0

    @property
    def team(self) -> int:
        return self.seat % 2

    def for_team(self, action: Action, team: int) -> int:
        """The points margin after ``action`` from ``team``'s side."""
        return self.actions[action] if team == 0 else -self.actions[action]


@dataclass
class _Position:
    """A match encoded for the kernel, with the fixed parameters of its solve."""

    X: Array
    params: Array
    final: Array
    thresholds: Array
    objective: Objective
    context: tuple[object, ...]


@dataclass(frozen=True)
class _ResultGroups:
    """The levels of one objective grouped by the hand's result (levels are sorted by result first).

    ``thresholds[g]``: the kernel target of "result at least group g's"; ``nets[g]``: that result as
    team 0's points margin; ``group_of_level[level]``: the group of a level.  A search over these
    thresholds alone settles the result and nothing finer.
    """

    thresholds: Array
    nets: tuple[int, ...]
    group_of_level: tuple[int, ...]


@dataclass(frozen=True)
class _Tables:
    """What the kernel reads of one objective, made once per rules value and dealing team (``_tables_for``).

    ``final``: ``_final_table_from`` of its levels; ``thresholds[k]``: the kernel target of the query
    "level at least k"; ``groups``: its levels grouped by result; ``winners``: grouped by who wins alone
    (nets -1: team 1 wins, 0: nobody, 1: team 0).
    """

    objective: Objective
    final: Array
    thresholds: Array
    groups: _ResultGroups
    winners: _ResultGroups


def _grouped(thresholds: Array, nets: list[int]) -> _ResultGroups:
    """The levels grouped into runs of the same ``nets[level]`` (levels are sorted by result first)."""
    starts = [0] + [level for level in range(1, len(nets)) if nets[level] != nets[level - 1]]
    group_of_level = tuple(sum(1 for first in starts if first <= level) - 1 for level in range(len(nets)))
    return _ResultGroups(thresholds[starts].copy(), tuple(nets[first] for first in starts), group_of_level)


@cache
def _tables_for_team(rules: Rules, dealing_team: int) -> _Tables:
    objective = objective_for(rules, dealing_team)
    final = _final_table_from(np.array(objective.final_level, dtype=np.int64), objective.tricks, objective.levels)
    if objective.relative:
        values = [objective.s_threshold(level) for level in range(objective.levels)]
    else:
        values = list(range(objective.levels))
    values[0] = -(1 << 20)
    thresholds = np.array(values, dtype=np.int64)
    nets = [value.net for value in objective.values]
    winners = [(net > 0) - (net < 0) for net in nets]
    return _Tables(objective, final, thresholds, _grouped(thresholds, nets), _grouped(thresholds, winners))


def _tables_for(rules: Rules, dealer: int) -> _Tables:
    """The kernel's tables for a hand under ``rules`` dealt by ``dealer`` (cached by rules and dealing team)."""
    return _tables_for_team(rules, dealer % 2)


class SolveLimitReached(DehlaError):
    """A solve stopped at its node limit before it had an answer (the position is too big for the budget)."""


class Solver:
    """A double-dummy solver with its own transposition table.

    Every question takes a position: a hand in play as the trick core's ``HandState`` (``Match.hand_state()``:
    the full truth, every hand and the cards still to be dealt), or a ``Match``, whose call and hide decisions
    are answered through the positions after each choice (a thin adapter: in play it solves
    ``match.hand_state()``).

    ``table_bits`` sets the table size (a pool of ``2**bits`` entries of 64 bytes, and a quarter as many
    shapes).  Each public call starts a new table generation (a new deal shares few positions with the
    last); ``keep_table`` keeps the entries from call to call instead, for solves of one deal's positions in
    turn (entries are exact facts about positions, so they stay true while the rules are the same).
    ``node_limit`` (0 for none) stops any one call after that many search
    nodes with ``SolveLimitReached``; the bots use it to keep within a time budget.
    """

    def __init__(self, table_bits: int = 20, node_limit: int = 0, keep_table: bool = False) -> None:
        if not 10 <= table_bits <= 26:
            raise DehlaError(f"table_bits must be 10..26, not {table_bits}")
        self._table = kernels().new_table(table_bits)
        self.partition = True
        self.centre_out = True  # False keeps the centre's tens in the table key (to measure what that saves)
        self.caps = True  # False leaves out the bounds on what a team can still collect (to measure them)
        self.etc = False  # True looks up the children of a trick's last card first (ETC): fewer nodes, dearer ones
        self.keep_table = keep_table
        self._fresh = True
        self._generation = 0
        self._context: tuple[object, ...] | None = None
        self._stats = np.zeros(STATS, dtype=np.int64)
        self._X = np.zeros((MAXPLY, ROW), dtype=np.int64)
        self._row = np.zeros(layout.ROW, dtype=np.int64)  # the codec's whole row, of which the search takes its part
        self._work = kernels().new_work()
        self._out = np.zeros(54, dtype=np.int64)
        self._total = 0
        self._capped = 0
        self._call_start = 0
        self.node_limit = node_limit

    @property
    def nodes(self) -> int:
        """Search nodes visited so far (all calls)."""
        return self._total + int(self._stats[ST_NODES])

    @property
    def capped(self) -> int:
        """Nodes answered so far by the caps on what a team can still collect (all calls)."""
        return self._capped + int(self._stats[ST_CAPPED])

    # Encoding ------------------------------------------------------------------------------------

    def _encode(self, state: HandState) -> _Position:
        rules = state.rules
        tables = _tables_for(rules, state.dealer)
        objective = tables.objective
        codec.encode(state, self._row)
        self._X[0, :] = self._row[:ROW]
        params = np.zeros(layout.NPARAMS, dtype=np.int64)
        codec.rules_params(rules, params)
        params[layout.P_CHOOSER] = state.chooser if state.chooser is not None else 0
        params[layout.P_ABS] = int(not objective.relative)
        params[layout.P_W] = objective.weight
        params[layout.P_USES_TRICKS] = int(objective.uses_tricks)
        params[layout.P_HB] = 3 if state.players == 4 else 4
        params[layout.P_CENTRE_OUT] = int(self.centre_out)
        params[layout.P_PARTITION] = int(self.partition)
        params[layout.P_CAPS] = int(self.caps)
        params[layout.P_ETC] = int(self.etc)
        params[layout.P_LB] = 4 if 2 * state.players <= 12 else 3
        context = (rules, state.dealer % 2, tricks.STAGED_TRICKS)
        return _Position(self._X, params, tables.final, tables.thresholds, objective, context)

    def clear(self) -> None:
        """Forget every table entry (a new generation: nothing is erased, the old entries just stop counting)."""
        self._generation += 1
        self._context = None

    def _begin_call(self) -> None:
        """A public call starts: its node limit counts from here, and it gets a fresh table generation."""
        self._call_start = self.nodes
        self._fresh = not self.keep_table

    def _use(self, position: _Position, context: tuple[object, ...] | None = None) -> None:
        """Start a new table generation for each public call (or, with ``keep_table``, only when the rules and
        so the meaning of stored bounds change): dropping the old entries then costs nothing."""
        wanted = position.context if context is None else context
        if wanted != self._context or self._generation == 0 or self._fresh:
            self._generation += 1
            self._context = wanted
            self._fresh = False
        position.params[layout.P_GEN] = self._generation
        self._total += int(self._stats[ST_NODES])
        self._capped += int(self._stats[ST_CAPPED])
        self._stats[:] = 0
        limit = 0
        if self.node_limit:
            # The limit covers a whole public call (a call or hide position solves several positions).
            used = self._total - self._call_start
            limit = self.node_limit - used
            if limit <= 0:
                raise SolveLimitReached(f"the solve passed its limit of {self.node_limit} nodes")
        position.params[layout.P_NODE_LIMIT] = limit

    def _check_limit(self) -> None:
        if self._stats[ST_LIMIT_REACHED]:
            raise SolveLimitReached(f"the solve passed its limit of {self.node_limit} nodes")

    # Queries -------------------------------------------------------------------------------------

    def _query(self, position: _Position, target: int) -> bool:
        found = bool(
            kernels().query(position.X, position.params, position.final, self._table, self._stats, self._work, target)
        )
        self._check_limit()
        return found

    def _level_args(self, position: _Position) -> tuple[Array, Array, Array, Array, Array, Array, Array]:
        """The arguments the kernel's level searches share: the position, its tables and this solver's state."""
        return (position.X, position.params, position.final, position.thresholds, self._table, self._stats, self._work)

    def _play_level(self, state: HandState) -> int:
        position = self._encode(state)
        self._use(position)
        found = int(kernels().level(*self._level_args(position)))
        self._check_limit()
        return found

    def level(self, position: Position) -> int:
        """The level of ``position`` (a hand in play) under best play by both teams."""
        _check(position)
        self._begin_call()
        return self._solve_level(position)

    def _solve_level(self, position: Position) -> int:
        state = _play_state(position)
        if state is not None:
            return self._play_level(state)
        match = cast(Match, position)
        done = _finished_level(match)
        if done is not None:
            return done
        # Call or hide: the best of the positions after each choice.
        seat = match.to_act
        assert seat is not None
        levels = []
        for action in match.legal_actions():
            child = match.clone()
            child.apply(action)
            levels.append(self._solve_level(child))
        return max(levels) if seat % 2 == 0 else min(levels)

    def value(self, position: Position) -> Value:
        """The value of ``position`` under best play by both teams."""
        _check(position)
        self._begin_call()
        return objective_for(position.rules, position.dealer).values[self._solve_level(position)]

    def solve(self, position: Position) -> Solution:
        """The value of the position and of every legal action."""
        start = self.nodes
        objective = objective_for(position.rules, position.dealer)
        seat, root, levels = self._solve_actions(position, None)
        values = {action: objective.values[level] for action, level in levels.items()}
        return Solution(objective.values[root], values, seat, objective, self.nodes - start)

    def results(
        self, position: Position, actions: Collection[Action] | None = None, winner_only: bool = False
    ) -> Results:
        """The hand's result (team 0's points margin) for the position and after every legal action.

        The same search as ``solve`` with only the results' levels to tell apart, so
        it stops as soon as an action's result is known, not its tens.  With
        ``winner_only``, only who wins: each margin is its sign (1 team 0 wins, -1 team 1, 0 nobody), one
        bound query an action where Taash's 20, 30 or 80 points ask three.  With
        ``actions``, only those actions are searched (the position's margin is still
        exact): most of a solve early in a hand goes to proving what each action
        keeps, so a player that weighs only a few candidates saves most of it.
        """
        start = self.nodes
        tables = _tables_for(position.rules, position.dealer)
        groups = tables.winners if winner_only else tables.groups
        seat, root, found = self._solve_actions(position, groups, actions)
        margins = {action: groups.nets[group] for action, group in found.items()}
        return Results(groups.nets[root], margins, seat, self.nodes - start)

    def _solve_actions(
        self, position: Position, groups: _ResultGroups | None, wanted: Collection[Action] | None = None
    ) -> tuple[int, int, dict[Action, int]]:
        """The seat to act, and the level of the position and after each legal action (or each ``wanted`` one;
        with ``groups``: the result group instead)."""
        _check(position)
        self._begin_call()
        seat = position.to_act
        assert seat is not None
        levels: dict[Action, int] = {}
        state = _play_state(position)
        legal = position.legal_actions() if isinstance(position, Match) else _state_actions(position)
        if wanted is not None:
            unknown = [str(action) for action in wanted if action not in legal]
            if unknown:
                raise DehlaError(f"not legal in this position: {', '.join(unknown)}")
            legal = tuple(action for action in legal if action in wanted)
        if state is not None:
            encoded = self._encode(state)
            if groups is not None:
                encoded.thresholds = groups.thresholds
            self._use(encoded)
            out = self._out
            only = 0 if wanted is None else sum(1 << _move_of(action) for action in legal)
            kernels().solve_position(*self._level_args(encoded), -1, only, out)
            self._check_limit()
            root = int(out[0])
            for action in legal:
                move = _move_of(action)
                level = int(out[1 + move])
                if level < 0:  # pragma: no cover - the kernel and the engine disagree on legality
                    raise DehlaError(f"internal error: the solver found no value for {action}")
                levels[action] = level
            return seat, root, levels
        # Call or hide: the best of the positions after each choice (every choice, for the root's value).
        match = cast(Match, position)
        for action in match.legal_actions():
            child = match.clone()
            child.apply(action)
            level = self._solve_level(child)
            levels[action] = level if groups is None else groups.group_of_level[level]
        root = max(levels.values()) if seat % 2 == 0 else min(levels.values())
        return seat, root, {action: levels[action] for action in legal}

    def improves(self, position: Position, team: int, margin: int) -> bool:
        """Can ``team`` make sure of a better result for itself than ``margin`` (team 0's points margin, as in
        ``Results``)?  One bound query; none when no result is better for ``team``.

        The question an analysis asks once it knows what the played action leads to: the action kept the
        result unless the position offers better."""
        _check(position)
        self._begin_call()
        if team not in (0, 1):
            raise DehlaError(f"team must be 0 or 1, not {team!r}")
        groups = _tables_for(position.rules, position.dealer).groups
        # Team 0 asks for a group above ``margin``'s; team 1 for one below, which is team 0 failing to reach
        # the lowest group at or above ``margin``.
        if team == 0:
            group = next((group for group, net in enumerate(groups.nets) if net > margin), len(groups.nets))
            if group == len(groups.nets):
                return False  # no result is above ``margin``
        else:
            group = next((group for group, net in enumerate(groups.nets) if net >= margin), len(groups.nets))
            if group == 0:
                return False
            if group == len(groups.nets):
                return True  # every result is below ``margin``
        return self._reaches_group(position, groups, group) == (team == 0)

    def _reaches_group(self, position: Position, groups: _ResultGroups, group: int) -> bool:
        """Does team 0 reach at least result group ``group``?"""
        state = _play_state(position)
        if state is None:

            def answer(child: Match) -> bool:
                done = _finished_level(child)
                if done is not None:  # pragma: no cover - a call or hide never ends a hand
                    return groups.group_of_level[done] >= group
                return self._reaches_group(child, groups, group)

            return _over_choices(cast(Match, position), 0, answer)
        encoded = self._encode(state)
        self._use(encoded)
        return self._query(encoded, int(groups.thresholds[group]))

    def reaches(self, position: Position, team: int, tens: int) -> bool:
        """Can ``team`` make sure of ending the hand with at least ``tens`` tens?  (One bound query.)"""
        _check(position)
        self._begin_call()
        if team not in (0, 1):
            raise DehlaError(f"team must be 0 or 1, not {team!r}")
        if not 0 <= tens <= 4:
            raise DehlaError(f"tens must be 0..4, not {tens!r}")
        if tens == 0:
            return True
        state = _play_state(position)
        if state is None:

            def answer(child: Match) -> bool:
                done = _finished_level(child)
                if done is not None:  # pragma: no cover - a call or hide never ends a hand
                    return objective_for(child.rules, child.dealer).values[done].tens[team] >= tens
                return self.reaches(child, team, tens)

            return _over_choices(cast(Match, position), team, answer)
        encoded = self._encode(state)
        objective = encoded.objective
        if objective.relative:
            # Every ten is collected by the end: team 1 reaching t tens is team 0 failing to reach 5 - t.
            self._use(encoded)
            target = objective.tens_threshold(tens if team == 0 else 5 - tens)
        else:
            # Absolute mode: search against endings scored 1 when they are good for team 0 in this question.
            ending = encoded.final[..., 2]
            hit = np.full_like(ending, -1)
            for t0 in range(5):
                for t1 in range(5 - t0):
                    good = t0 >= tens if team == 0 else t1 < tens
                    hit[t0, t1] = np.where(ending[t0, t1] >= 0, int(good), -1)
            encoded.final = _final_table_from(hit, objective.tricks, 1)
            self._use(encoded, (*encoded.context, "tens", team, tens))
            target = 1
        found = self._query(encoded, target)
        return found if team == 0 else not found

    def concedes_nothing(self, state: HandState, team: int, what: str) -> bool:
        """Can ``team`` make sure the other team takes no more tricks (``what`` "tricks") or collects no more tens
        (``what`` "tens") in the hand in play, whatever it plays?  (One bound query, for a player's claim.)

        Asked in absolute mode against endings scored 1 when they are good for team 0 in this question: a hand
        that ends early (Taash) counts from its captures then, as the engine scores it."""
        _check(state)
        self._begin_call()
        if team not in (0, 1):
            raise DehlaError(f"team must be 0 or 1, not {team!r}")
        if what not in ("tricks", "tens"):
            raise DehlaError(f'a claim is of "tricks" or "tens", not {what!r}')
        encoded = self._encode(state)
        ending = encoded.final[..., 2]
        other = 1 - team
        held = state.tricks_won[other] if what == "tricks" else (state.captured[other] & TENS_MASK).bit_count()
        k_index = np.indices((ending.shape[2], ending.shape[3]))
        hit = np.full_like(ending, -1)
        for t0 in range(5):
            for t1 in range(5 - t0):
                if what == "tens":
                    good = np.full(ending.shape[2:], int((t1, t0)[team] == held))
                else:
                    good = (k_index[other] == held).astype(ending.dtype)
                # the kernel asks whether team 0 reaches 1: for team 1's claim, 1 is the claim failing
                hit[t0, t1] = np.where(ending[t0, t1] >= 0, good if team == 0 else 1 - good, -1)
        encoded.final = _final_table_from(hit, encoded.objective.tricks, 1)
        encoded.params[layout.P_ABS] = 1
        encoded.params[layout.P_USES_TRICKS] = 1
        self._use(encoded, (*encoded.context, "claim", team, what, held))
        found = self._query(encoded, 1)
        return found if team == 0 else not found


def _over_choices(match: Match, team: int, answer: Callable[[Match], bool]) -> bool:
    """A yes-or-no question at a call or a hide, from ``answer`` after each choice: ``team``, which wants a yes,
    needs one choice that gives it; the other team gives it only if every choice does."""
    seat = match.to_act
    assert seat is not None
    answers = []
    for action in match.legal_actions():
        child = match.clone()
        child.apply(action)
        answers.append(answer(child))
    return any(answers) if seat % 2 == team else all(answers)


def _final_table_from(ending: Array, tricks: int, top: int) -> Array:
    """``[t0, t1, k0, k1, 0|1|2]``: least and greatest ending value reachable from those captures, and the value
    of ending there (``-1`` where a hand cannot end)."""
    big = 1 << 20
    low = np.where(ending >= 0, ending, big)
    high = np.where(ending >= 0, ending, -1)
    for axis in range(4):
        low = np.flip(np.minimum.accumulate(np.flip(low, axis), axis=axis), axis)
        high = np.flip(np.maximum.accumulate(np.flip(high, axis), axis=axis), axis)
    table = np.zeros((5, 5, tricks + 1, tricks + 1, 3), dtype=np.int64)
    table[..., 0] = np.where(low >= big, 0, low)
    table[..., 1] = np.where(high < 0, top, high)
    table[..., 2] = ending
    return table


def _move_of(action: Action) -> int:
    """The kernel's number for a move: the card, or ``REVEAL_MOVE``."""
    return action.card if isinstance(action, Play) else REVEAL_MOVE


def _check(position: Position) -> None:
    if isinstance(position, HandState):
        if position.to_act is None:
            raise DehlaError("there is no hand in play to solve (nobody is to act)")
    elif position.phase not in _IN_HAND:
        raise DehlaError(f"there is no hand in play to solve (the match is at {position.phase.value})")


def _play_state(position: Position) -> HandState | None:
    """The hand in play of ``position``, or ``None`` for a match at a call or a hide (solved through its choices)."""
    if isinstance(position, HandState):
        return position
    if position.phase is Phase.PLAY:
        return position.hand_state()
    return None


def _state_actions(state: HandState) -> tuple[Action, ...]:
    """The legal actions of the seat to act in a hand in play: its legal cards, and the reveal if it may ask."""
    plays: tuple[Action, ...] = tuple(Play(card) for card in cards_of(tricks.legal_cards(state)))
    return (*plays, REVEAL) if tricks.can_ask_reveal(state) else plays


def _finished_level(match: Match) -> int | None:
    """The level of a hand the engine has just finished (after an action), else ``None``."""
    if match.phase in _IN_HAND:
        return None
    result = match.results[-1]
    objective = objective_for(match.rules, result.dealer)
    return objective.level(Outcome(result.winner, result.points), result.tens)


_DEFAULT: Solver | None = None
_LOAD_SECONDS: float | None = None


def default_solver() -> Solver:
    """A process-wide solver (one table), made on first use."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Solver()
    return _DEFAULT


def solve(position: Position) -> Solution:
    """The value of ``position`` and of each legal action, with the process-wide solver."""
    return default_solver().solve(position)


def kernel_load_seconds() -> float:
    """Time to compile (first run) or load from the on-disk cache (later runs) every kernel entry point the
    solver calls, and run each once."""
    global _LOAD_SECONDS
    if _LOAD_SECONDS is None:
        start = time.perf_counter()
        warm = Match("mendikot", 0)
        import random

        rng = random.Random(0)
        warm.apply(warm.random_deal(rng))
        while len(warm.tricks) < 11:
            warm.apply(rng.choice(warm.legal_actions()))
        solver = Solver(table_bits=10)
        solver.solve(warm)  # every entry point a solver calls: solve_position, level, query
        solver.value(warm)
        solver.reaches(warm, 0, 1)
        _LOAD_SECONDS = time.perf_counter() - start
    return _LOAD_SECONDS
