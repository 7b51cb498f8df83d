#!/usr/bin/env python3
"""A complete dehla bot as an outside program, using only the Python standard library.

It speaks the bot protocol ``dehla-bot/1`` (docs/protocol.md): JSON Lines on
standard input and output, one message per line.

    host -> bot  {"type": "hello", "protocol": "dehla-bot/1", "seat": 1, "players": 4, "rules": "pagat", "seed": 7}
    bot -> host  {"type": "ready", "protocol": "dehla-bot/1", "name": "simple"}
    host -> bot  {"type": "act", "observation": {... the seat's dehla-observation/1 ...}}
    bot -> host  {"action": "10H"}
    host -> bot  {"type": "quit"}

Try it against the built-in bots::

    dehla play --partner "cmd:python examples/simple_bot.py" --opponents random
    dehla arena --rules pagat --bots "cmd:python examples/simple_bot.py,random" --deals 50

Its play is deliberately simple, and readable as a starting point:

* calling trump (``pagat``): the suit it holds most of, the stronger on a tie;
* hiding the trump (band hukum): the lowest card of its longest suit;
* asking for the hidden trump: only when the trick holds a ten;
* leading: an ace if it has one outside trump, otherwise its lowest card, never a ten while it has another card;
* following: if its partner is winning the trick, it gives a ten if it may, else its lowest card;
  if an opponent is winning, it takes the trick with its cheapest winning card when the trick holds a ten
  or it can win cheaply, otherwise it plays its lowest card, keeping its tens.

Everything it knows comes from the observation: its own hand, the cards on the
table, trump once known, who is winning the trick (``trick_winner``) and which of
its cards count as trump (each card's ``trump`` mark), and the legal actions.
``examples/simple_bot.js`` is the same kind of bot in JavaScript.  It must answer only with one
of ``legal_actions``; anything else loses the match for its team.
"""

from __future__ import annotations

import json
import random
import sys

PROTOCOL = "dehla-bot/1"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def rank(card: str) -> int:
    """0 for a two up to 12 for an ace (cards are written rank then suit letter: '10H', 'AS')."""
    return RANKS.index(card[:-1])


def suit(card: str) -> str:
    return card[-1]


def is_ten(card: str) -> bool:
    return card[:-1] == "10"


def beats(card: str, best: str, best_is_trump: bool, led: str, trump: str | None, cut_open: bool) -> bool:
    """Would ``card``, played now, beat ``best`` (the card of ``trick_winner``)?  docs/protocol.md, "Reading a trick".

    A card played now counts as trump if it is of the trump suit, or, while ``cut_open``, if it is off-suit (it
    sets trump); when the suit led is trump, rank decides.
    """
    if trump is not None and led == trump:
        return suit(card) == led and rank(card) > rank(best)
    mine_is_trump = (trump is not None and suit(card) == trump) or (cut_open and suit(card) != led)
    if best_is_trump:
        return mine_is_trump and rank(card) > rank(best)
    return mine_is_trump or (suit(card) == led and rank(card) > rank(best))


def lowest(cards: list[str], keep_tens: bool = True) -> str:
    """The cheapest card to give away: the lowest, passing over tens while there is anything else."""
    pool = [card for card in cards if not is_ten(card)] if keep_tens else cards
    return min(pool or cards, key=rank)


def choose(observation: dict[str, object], rng: random.Random) -> str:
    """Pick one of the observation's legal actions (their text form)."""
    legal = [str(action) for action in observation["legal_actions"]]  # type: ignore[attr-defined]
    hand = [str(card) for card in observation["hand"]]  # type: ignore[attr-defined]
    calls = [action for action in legal if action.startswith("call ")]
    if calls:

        def call_strength(action: str) -> tuple[int, int]:
            cards = [card for card in hand if suit(card) == action[-1]]
            return (len(cards), sum(rank(card) for card in cards))

        return max(calls, key=call_strength)
    hides = [action for action in legal if action.startswith("hide ")]
    if hides:
        longest = max("SHDC", key=lambda letter: sum(1 for card in hand if suit(card) == letter))
        in_suit = [action for action in hides if suit(action.split()[1]) == longest] or hides
        return min(in_suit, key=lambda action: rank(action.split()[1]))
    trick = list(observation["trick"])  # type: ignore[call-overload]
    if "reveal" in legal and any(is_ten(str(play["card"])) for play in trick):
        return "reveal"
    cards = [action for action in legal if action != "reveal"]
    trump = observation["trump"] if isinstance(observation["trump"], str) else None
    if not trick:
        aces = [card for card in cards if rank(card) == 12 and suit(card) != trump]
        if aces:
            return rng.choice(aces)
        return lowest(cards)
    # The observation says who is winning the trick and whether that card counts as trump.
    winner = next(play for play in trick if play["seat"] == observation["trick_winner"])
    my_team = int(str(observation["seat"])) % 2
    if int(str(winner["seat"])) % 2 == my_team:
        tens = [card for card in cards if is_ten(card)]
        return tens[0] if tens else lowest(cards)
    best, best_is_trump, led = str(winner["card"]), bool(winner["trump"]), str(observation["led"])
    cut_open = bool(observation["cut_open"])
    winning = sorted((card for card in cards if beats(card, best, best_is_trump, led, trump, cut_open)), key=rank)
    trick_has_ten = any(is_ten(str(play["card"])) for play in trick)
    if winning and (trick_has_ten or rank(winning[0]) >= 9 or suit(winning[0]) == trump):
        return winning[0]
    return lowest(cards)


def main() -> int:
    rng = random.Random()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            reply: dict[str, object] = {"error": "cannot read that line as JSON"}
        else:
            kind = message.get("type") if isinstance(message, dict) else None
            if kind == "quit":
                return 0
            if kind == "hello":
                rng = random.Random(message.get("seed"))
                reply = {"type": "ready", "protocol": PROTOCOL, "name": "simple"}
            elif kind == "act":
                try:
                    reply = {"action": choose(message["observation"], rng)}
                except (KeyError, TypeError, ValueError) as error:
                    reply = {"error": f"simple bot could not decide: {error!r}"}
            else:
                continue  # ignore messages this bot does not know
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
