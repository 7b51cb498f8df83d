"""A behaviour trace of the engine: seeded random matches over every preset and option variant.

Each step of each match writes one or more lines: the state's public queries
(phase, seat to act, hand number, every seat's hand, the trick), the legal
actions, the action taken and the events it caused (their ``repr``), one
seat's observation as JSON (a different seat each step, the seat to act
too), and now and then the watcher's view, a clone played one step further
(the original must not move), and an illegal attempt with its error text
(the state must not move either).  ``digests()`` gives a SHA-256 of each
rules' trace; ``tests/test_engine_trace.py`` keeps the digests of the code
before the trick-core refactor (issue 17), so the engine's behaviour is shown
byte-identical after it.

Print the digests (to refresh ``EXPECTED`` after a deliberate change of
behaviour) or write one rules' trace to diff against another tree::

    python -m tests.engine_trace               # every digest, as a Python dict
    python -m tests.engine_trace pagat > a.txt # the trace of one rules (a preset name or a rules_id)
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from typing import Any

from tests.helpers import ALL_RULES, rules_id

from dehla import Match
from dehla.engine.actions import CALLS, HIDES, PLAYS, REVEAL, Action, Deal, Hide
from dehla.engine.observe import watcher_json
from dehla.errors import DehlaError

#: Matches per rules, and a cap on hands per match (a match stops there, over or not).
SEEDS = (1, 2)
MAX_HANDS = 4


def _state_line(match: Match) -> str:
    hands = " | ".join(" ".join(map(str, match.hand_of(seat))) for seat in range(match.players))
    trick = " ".join(f"{seat}:{card}" for seat, card in match.current_trick) if match.phase.value == "play" else ""
    return (
        f"state phase={match.phase.value} chance={match.is_chance} over={match.is_over} to_act={match.to_act} "
        f"hand={match.hand_number} dealer={match.dealer} trump={match.trump} score={match.score} "
        f"winner={match.winner} hands=[{hands}] trick=[{trick}] tricks={len(match.tricks)} {match!r}"
    )


def _obs_line(match: Match, seat: int) -> str:
    return f"obs {seat} " + json.dumps(match.observe(seat).to_json(), sort_keys=True, separators=(",", ":"))


def _illegal_candidates(match: Match, legal: tuple[Action, ...], rng: random.Random) -> list[Action | Deal]:
    """A few actions that are not legal now (of every kind), chosen at random."""
    pool: list[Action | Deal] = [a for a in (*PLAYS, *CALLS, *HIDES, REVEAL) if a not in legal]
    picks: list[Action | Deal] = rng.sample(pool, min(3, len(pool)))
    seat = match.to_act
    if seat is not None:
        # Cards the seat holds but may not play now (must follow, must trump), and the face-down card.
        held = [PLAYS[card] for card in match.hand_of(seat) if PLAYS[card] not in legal]
        picks.extend(held[:2])
        first = match.hand_actions(match.hand_number)[:1]
        if first and isinstance(first[0], Hide) and PLAYS[first[0].card] not in legal:
            picks.append(PLAYS[first[0].card])
    if not match.is_chance:
        picks.append(Deal([[0]] * match.players))
    return picks


def _fingerprint(match: Match) -> str:
    return _state_line(match) + repr(match.hand_events) + repr(match.results) + repr(match.legal_actions())


def trace(rules: Any, seed: int) -> Iterator[str]:
    """The trace lines of one seeded match."""
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    yield f"match {rules_id(rules)} seed={seed} first_dealer={match.first_dealer} rules={match.rules.to_json()}"
    step = 0
    while not match.is_over:
        yield _state_line(match)
        if match.is_chance:
            if match.hand_number >= MAX_HANDS:
                break
            if step % 7 == 0:  # a bad deal: its error text
                try:
                    match.apply(Deal([[0] * match.rules.hand_size] * match.players))
                except DehlaError as error:
                    yield f"bad deal: {error}"
            deal = match.random_deal(rng)
            yield f"deal {deal}"
            yield f"events {match.apply(deal)!r}"
            step += 1
            continue
        legal = match.legal_actions()
        yield "legal " + " ".join(map(str, legal))
        seat = step % match.players
        yield _obs_line(match, seat)
        if match.to_act is not None and match.to_act != seat:
            yield _obs_line(match, match.to_act)
        if step % 5 == 0:
            before = _fingerprint(match)
            for attempt in _illegal_candidates(match, legal, rng):
                try:
                    match.apply(attempt)
                    yield f"ACCEPTED illegal {attempt}"
                except DehlaError as error:
                    yield f"illegal {attempt}: {type(error).__name__}: {error}"
                yield f"is_legal {attempt} {match.is_legal(attempt) if not isinstance(attempt, Deal) else '-'}"
            assert _fingerprint(match) == before, "an illegal attempt changed the state"
        if step % 6 == 3:
            yield "watch " + json.dumps(watcher_json(match), sort_keys=True, separators=(",", ":"))
        if step % 4 == 1:
            before = _fingerprint(match)
            other = match.clone()
            choice = rng.choice(legal)
            yield f"clone {choice} -> {other.apply(choice)!r}"
            yield "clone " + _state_line(other)
            yield "clone legal " + " ".join(map(str, other.legal_actions()))
            assert _fingerprint(match) == before, "a clone's move changed the original"
        action = rng.choice(legal)
        events = match.apply(action)
        yield f"apply {action} -> {events!r}"
        step += 1
    yield _state_line(match)
    yield f"results {match.results!r}"
    yield f"deals {[str(deal) for deal in match.deals]}"
    yield f"actions {[list(map(str, match.hand_actions(hand))) for hand in range(len(match.deals))]}"


def rules_trace(rules: Any) -> Iterator[str]:
    for seed in SEEDS:
        yield from trace(rules, seed)


def digest(rules: Any) -> str:
    sha = hashlib.sha256()
    for line in rules_trace(rules):
        sha.update(line.encode())
        sha.update(b"\n")
    return sha.hexdigest()


def digests() -> dict[str, str]:
    return {rules_id(rules): digest(rules) for rules in ALL_RULES}


def main(argv: list[str]) -> int:
    if argv:
        wanted = {rules_id(rules): rules for rules in ALL_RULES}
        for name in argv:
            for line in rules_trace(wanted[name]):
                print(line)
        return 0
    print("EXPECTED = {")
    for name, value in digests().items():
        print(f"    {name!r}:\n        {value!r},")
    print("}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
