"""A digest of the heuristic bot's decisions over seeded positions (see tests/test_heuristic_decisions.py).

At each position of seeded matches (the bot's own move most of the time, a random legal action otherwise)
it records what ``act`` chooses and the order ``ranked`` gives, so a refactor that changes any decision, a
tie-break or the endgame's sampling changes the digest.  ``python -m tests.heuristic_trace`` prints every
digest, to refresh ``EXPECTED`` after a deliberate change of play.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from tests.helpers import ALL_RULES, rules_id

from dehla import Match
from dehla.bots import HeuristicBot

DECISIONS = 300


def digest(rules: str | dict[str, Any], decisions: int = DECISIONS) -> str:
    trace = hashlib.sha256()
    rng = random.Random(f"heuristic-{rules_id(rules)}")
    bot = HeuristicBot(5)
    made = 0
    while made < decisions:
        match = Match.new(rules, rng)
        while not match.is_over and len(match.results) < 2 and made < decisions:
            if match.is_chance:
                match.apply(match.random_deal(rng))
                continue
            seat = match.to_act
            assert seat is not None
            observation = match.observe(seat)
            action = bot.act(observation)
            ranked = " ".join(map(str, bot.ranked(observation)))
            trace.update(f"{action}|{ranked}\n".encode())
            made += 1
            match.apply(action if rng.random() < 0.6 else rng.choice(match.legal_actions()))
    return trace.hexdigest()


if __name__ == "__main__":
    for rules in ALL_RULES:
        print(f"    {rules_id(rules)!r}:\n        {digest(rules)!r},")
