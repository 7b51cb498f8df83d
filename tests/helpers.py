"""Builders shared by the dehla tests: hand-made deals, scripted hands, random matches and invariants.

Tests build positions the way a reader thinks about them: every seat's cards
written out (``start("pagat", 3, "AH AS ...", ...)``) and the actions in record
text (``act(match, "call D AH 10H 3H 7H")``).  ``block_hand`` scripts a whole
hand in which the test chooses who wins every trick and where the tens fall,
so results, collections, kots and dealer rotation can be checked exactly.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dehla import Deal, Match, parse_action, parse_cards
from dehla.cards import DECK_48, DECK_52, RANKS, Card, Suit, cards_text, parse_card
from dehla.engine.actions import Action
from dehla.engine.events import Event, HandResult
from dehla.engine.state import Phase
from dehla.record import to_record
from dehla.rules import PRESETS, Rules

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)

#: Option combinations that make sense, used beside the presets by random and differential tests.
VARIANTS: tuple[str | dict[str, Any], ...] = (
    {"preset": "pagat", "streak_resets": False, "target": 2},
    {"preset": "pagat", "rotation": "simple"},
    {"preset": "pagat-cut", "target": 2},
    {"preset": "taash", "trick_minimum": True},
    {"preset": "taash", "sweep_bonus": "double"},
    {"preset": "taash", "sweep_bonus": "match", "target": 200},
    {"preset": "taash-b2b", "streak_resets": False},
    {"preset": "taash-b2b", "trick_minimum": True, "target": 60},
    {"preset": "mendikot", "after_whitewash": "next"},
    {"preset": "mendikot", "rotation": "simple", "target": 3},
    {"preset": "mendikot-band", "collection": "centre"},
    {"preset": "mendikot-open", "direction": "anticlockwise"},
    {"preset": "mendikot-6", "trump": "hidden"},
    {"preset": "mendikot-8", "trump": "open_draw"},
    {"preset": "mendikot-6", "trump": "hidden_auto", "after_whitewash": "next"},
)
ALL_RULES: tuple[str | dict[str, Any], ...] = PRESET_NAMES + VARIANTS


def rules_id(rules: object) -> str:
    """A short pytest id for a preset name or a rules object."""
    return rules if isinstance(rules, str) else json.dumps(rules, separators=(",", ":"))


# ---------------------------------------------------------------------------------------------
# Hand-made positions


def deal(*hands: str, open_draw: str | None = None) -> Deal:
    """A ``Deal`` from each seat's cards as text, in dealing order (the first five are the opening packet)."""
    return Deal([parse_cards(hand) for hand in hands], None if open_draw is None else parse_card(open_draw))


def start(rules: Rules | str | dict[str, Any], dealer: int, *hands: str, open_draw: str | None = None) -> Match:
    """A new match whose first dealer is ``dealer``, with its first hand dealt exactly as given."""
    match = Match(rules, dealer)
    match.apply(deal(*hands, open_draw=open_draw))
    return match


def action_texts(text: str | Sequence[str]) -> list[str]:
    """Split ``"call D AH 10H reveal hide 2S"`` into action texts (``call X`` and ``hide X`` keep their word)."""
    if not isinstance(text, str):
        return list(text)
    words = text.split()
    out: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word.lower() in ("call", "hide") and index + 1 < len(words):
            out.append(f"{word} {words[index + 1]}")
            index += 2
        else:
            out.append(word)
            index += 1
    return out


def act(match: Match, text: str | Sequence[str]) -> list[Event]:
    """Apply actions given as record text; return every event they caused, in order."""
    events: list[Event] = []
    for item in action_texts(text):
        events.extend(match.apply(parse_action(item)))
    return events


def position(
    rules: Rules | str | dict[str, Any],
    dealer: int,
    hands: Sequence[str],
    actions: str = "",
    open_draw: str | None = None,
) -> Match:
    """A match whose first hand is dealt as written (dealing order) and played up to ``actions``."""
    match = start(rules, dealer, *hands, open_draw=open_draw)
    act(match, actions)
    return match


def snapshot(match: Match) -> object:
    """Everything a caller can see of a match, to check that an operation left it unchanged."""
    return (
        match.phase,
        match.to_act,
        match.legal_actions(),
        [match.observe(seat).to_json() for seat in range(match.players)],
        to_record(match),
        list(match.results),
    )


def of_type(events: Iterable[object], kind: type) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


def legal_texts(match: Match) -> list[str]:
    return [str(action) for action in match.legal_actions()]


def in_hand(match: Match) -> bool:
    """True while a hand is being played (a decision is due)."""
    return match.phase in (Phase.CALL, Phase.HIDE, Phase.PLAY)


def first_legal(match: Match) -> Action:
    return match.legal_actions()[0]


def finish_hand(match: Match, policy: Callable[[Match], Action] = first_legal) -> list[Event]:
    """Play the hand in progress to its end with ``policy`` choosing each action."""
    events: list[Event] = []
    while in_hand(match):
        events.extend(match.apply(policy(match)))
    return events


def last_result(match: Match) -> HandResult:
    assert match.results, "no hand has finished"
    return match.results[-1]


def make_deal(
    cards: dict[int, str],
    void: dict[int, str] | None = None,
    players: int = 4,
    open_draw: str | None = None,
) -> Deal:
    """A deal in which seat ``s`` holds ``cards[s]`` first (in that order) and is void in the suits ``void[s]``.

    The rest of each hand is filled from the pack, low cards first and suits in
    turn, never with a suit the seat must be void in.  Tests name every card
    that is played; the filler only makes the hands whole.
    """
    void = void or {}
    pack = [card for rank in range(13) for card in (DECK_52 if players == 4 else DECK_48) if card.rank == rank]
    size = len(pack) // players
    hands: dict[int, list[Card]] = {seat: parse_cards(cards.get(seat, "")) for seat in range(players)}
    taken = {card for hand in hands.values() for card in hand}
    if len(taken) != sum(len(hand) for hand in hands.values()):
        raise ValueError("a card is given to two seats")
    pool = [card for card in pack if card not in taken]
    for seat in sorted(range(players), key=lambda s: -len(void.get(s, ""))):
        banned = {Suit[letter] for letter in void.get(seat, "")}
        for card in list(pool):
            if len(hands[seat]) >= size:
                break
            if card.suit not in banned:
                hands[seat].append(card)
                pool.remove(card)
        if len(hands[seat]) != size:
            raise ValueError(f"cannot fill seat {seat}'s hand")
    return Deal([hands[seat] for seat in range(players)], None if open_draw is None else parse_card(open_draw))


def begin(
    rules: Rules | str | dict[str, Any],
    cards: dict[int, str],
    void: dict[int, str] | None = None,
    dealer: int = 3,
    open_draw: str | None = None,
) -> Match:
    """A match with its first hand dealt by ``make_deal``; dealer 3 by default, so seat 0 leads."""
    match = Match(rules, dealer)
    match.apply(make_deal(cards, void, match.players, open_draw))
    return match


# ---------------------------------------------------------------------------------------------
# Scripted hands: the test chooses every trick's winner


@dataclass(frozen=True)
class ScriptedHand:
    """A whole hand: each seat's cards in dealing order and the card plays that produce the chosen winners."""

    hands: tuple[str, ...]
    plays: tuple[str, ...]

    def deal(self, open_draw: str | None = None) -> Deal:
        return deal(*self.hands, open_draw=open_draw)

    def trick(self, number: int) -> list[str]:
        """The cards of trick ``number`` (1-based) in play order."""
        players = len(self.hands)
        return list(self.plays[(number - 1) * players : number * players])


def block_hand(
    leader: int,
    winners: Sequence[int],
    tens: Sequence[int] = (0, 0, 0, 0),
    players: int = 4,
    twos: str = "SHDC",
) -> ScriptedHand:
    """Script a hand in which ``winners[i]`` wins trick ``i + 1`` while every player follows suit.

    Suits are played in blocks, spades first, then hearts, diamonds and clubs:
    with four players three tricks a suit (tricks 1-3 spades, 4-6 hearts, ...),
    with six players two.  In each trick the chosen winner plays an honour (A,
    K or Q) and everybody else a lower card of the suit, so nobody is ever void
    and trump never matters.  ``tens[suit]`` says in which trick of its block
    (0-based) that suit's ten falls.

    With four players a thirteenth trick is left: every seat holds one two
    (``twos[s]`` is the suit of seat ``s``'s two) and the winner of trick 12
    leads it; everybody else is void in it, so trump decides that trick.
    """
    per_suit = 12 // players
    if players not in (4, 6) or len(winners) != 4 * per_suit:
        raise ValueError("block_hand needs 12 winners for 4 players or 8 for 6 players")
    seats_cards: list[list[str]] = [[] for _ in range(players)]
    plays: list[str] = []
    current = leader
    for suit in Suit:
        tops = [12 - j for j in range(per_suit)]  # A, K, Q
        lows = [rank for rank in range(12 - per_suit, 0, -1) if rank != 8]  # below the honours, without the ten
        for j in range(per_suit):
            winner = winners[suit * per_suit + j]
            trick_lows = [8] if tens[suit] == j else []
            while len(trick_lows) < players - 1:
                trick_lows.append(lows.pop(0))
            others = iter(trick_lows)
            for offset in range(players):
                seat = (current + offset) % players
                rank = tops[j] if seat == winner else next(others)
                text = RANKS[rank] + suit.name
                seats_cards[seat].append(text)
                plays.append(text)
            current = winner
    if players == 4:
        if sorted(twos) != sorted("SHDC"):
            raise ValueError("twos must give each seat the two of a different suit")
        for seat in range(4):
            seats_cards[seat].append("2" + twos[seat])
        for offset in range(4):
            plays.append("2" + twos[(current + offset) % 4])
    return ScriptedHand(tuple(" ".join(cards) for cards in seats_cards), tuple(plays))


def play_scripted(
    rules: Rules | str | dict[str, Any],
    dealer: int,
    script: ScriptedHand,
    before: str | Sequence[str] = (),
    open_draw: str | None = None,
    match: Match | None = None,
) -> tuple[Match, list[Event]]:
    """Deal ``script`` (in a new match, or the next hand of ``match``), apply ``before`` then its plays.

    Stops early if the hand ends early (Taash); returns the match and every event of the hand.
    """
    game = match if match is not None else Match(rules, dealer)
    assert game.is_chance and game.dealer == dealer, f"expected seat {dealer} to deal, not {game.dealer}"
    events = list(game.apply(script.deal(open_draw)))
    events += act(game, before)
    for text in script.plays:
        if not in_hand(game):
            break
        events.extend(game.apply(parse_action(text)))
    assert not in_hand(game), "the scripted hand did not finish"
    return game, events


def pagat_script(dealer: int, team: int, tens: int = 3) -> tuple[ScriptedHand, str]:
    """A ``pagat`` hand (and its call) that ``team`` wins with 3 or 4 tens; dealer ``dealer``.

    With ``a, b`` the team's seats and ``c, d`` the others, in play order from
    the leader: a takes tricks 1-2 and 7-8, c 3-4, b 5-6 and 11-12, d 9-10.  The
    tens fall in tricks 1 (S), 6 (H), 7 (D) and 10 (C) -- or 12 for the fourth ten.
    """
    leader = (dealer + 1) % 4
    order = [(leader + offset) % 4 for offset in range(4)]
    a, b = [seat for seat in order if seat % 2 == team]
    c, d = [seat for seat in order if seat % 2 != team]
    winners = [a, a, c, c, b, b, a, a, d, d, b, b]
    clubs = 2 if tens == 4 else 0
    twos = {a: "S", b: "D", c: "H", d: "C"}
    script = block_hand(leader, winners, tens=(0, 2, 0, clubs), twos="".join(twos[seat] for seat in range(4)))
    return script, "call H"


def play_pagat_hand(match: Match, team: int, tens: int = 3) -> HandResult:
    """Play the next hand of a Pagat-rules ``match`` so that ``team`` wins it with ``tens`` tens."""
    script, call = pagat_script(match.dealer, team, tens)
    before = call if match.rules.trump == "called" else ()
    play_scripted(match.rules, match.dealer, script, before=before, match=match)
    return last_result(match)


# ---------------------------------------------------------------------------------------------
# Random matches


def random_match(
    rules: Rules | str | dict[str, Any],
    seed: int,
    on_step: Callable[[Match, object, tuple[Event, ...]], None] | None = None,
    max_hands: int = 400,
) -> Match:
    """A whole match of uniformly random legal play, all chance from ``seed``."""
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    hands = 0
    while not match.is_over:
        if match.is_chance:
            hands += 1
            assert hands <= max_hands, "a random match did not end"
            action: object = match.random_deal(rng)
        else:
            action = rng.choice(match.legal_actions())
        events = match.apply(action)  # type: ignore[arg-type]
        if on_step is not None:
            on_step(match, action, events)
    return match


def random_record(rules: Rules | str | dict[str, Any], seed: int) -> dict[str, Any]:
    """The record of a random match, passed through JSON text as a file would."""
    result: dict[str, Any] = json.loads(json.dumps(to_record(random_match(rules, seed))))
    return result


def random_hand_record(preset: str, seed: int, names: Sequence[str] | None = None) -> dict[str, object]:
    """The record of one hand of random play (plenty of mistakes for an analysis to find)."""
    rng = random.Random(seed)
    match = Match.new(preset, rng)
    match.apply(match.random_deal(rng))
    while not match.is_chance and not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return to_record(match, list(names) if names is not None else [f"P{seat}" for seat in range(match.players)])


def record_of(rules: Rules | str | dict[str, Any], first_dealer: int, hands: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": "dehla-record/1", "rules": rules, "first_dealer": first_dealer, "hands": hands}


# ---------------------------------------------------------------------------------------------
# Invariants


def pack_of(rules: Rules) -> frozenset[Card]:
    return frozenset(DECK_52 if rules.players == 4 else DECK_48)


def card_locations(match: Match) -> dict[str, list[Card]]:
    """Where every card of the hand in play is, from public views (the whole truth, for a referee)."""
    players = match.players
    hidden: list[Card] = []
    for seat in range(players):
        card = match.observe(seat).hidden_card
        if card is not None:
            hidden.append(card)
    undealt: list[Card] = []
    dealt = match.deals[-1]
    for seat in range(players):
        waiting = match.observe(seat).undealt[seat]
        if waiting:
            undealt.extend(dealt.hands[seat][-waiting:])
    observation = match.observe(0)
    return {
        "hands": [card for seat in range(players) for card in match.hand_of(seat)],
        "hidden": hidden,
        "undealt": undealt,
        "trick": [card for _, card in match.current_trick] if in_hand(match) else [],
        "centre": list(observation.centre),
        "captured": list(observation.captured[0]) + list(observation.captured[1]),
    }


def assert_cards_conserved(match: Match) -> None:
    """Hands + hidden + undealt + trick + centre + captures hold every card of the pack exactly once."""
    places = card_locations(match)
    everything = [card for cards in places.values() for card in cards]
    pack = pack_of(match.rules)
    assert len(everything) == len(pack), {key: cards_text(value) for key, value in places.items()}
    assert set(everything) == pack
    played = [card for trick in match.tricks for card in trick.cards]
    assert sorted(played) == sorted(places["centre"] + places["captured"])


# ---------------------------------------------------------------------------------------------
# A catalogue of broken records, shared by the API tests and the ``dehla replay`` tests

_DELETE = object()
Change = Callable[[dict[str, Any]], None]


def base_record(rules: str, seed: int = 0) -> dict[str, Any]:
    """A random whole match of ``rules`` with at least three hands (seed 0 gives that for every base used)."""
    record = random_record(rules, seed)
    assert len(record["hands"]) >= 3, "the base record needs three hands"
    return record


def early_ended_taash_record() -> dict[str, Any]:
    """A Taash hand that ends after ten tricks (3-1 settled)."""
    match, _ = play_scripted("taash", 3, block_hand(0, [1, 3, 1, 0, 3, 1, 0, 1, 3, 0, 3, 1]))
    return to_record(match)


def first_position(record: dict[str, Any], test: Callable[[Match], str | None]) -> tuple[int, str]:
    """The first action index of hand 0 where ``test(match)`` gives a replacement action text."""
    match = Match(record["rules"], record["first_dealer"])
    hand = record["hands"][0]
    match.apply(deal(*hand["cards"], open_draw=hand.get("open_draw")))
    for index, text in enumerate(hand["actions"]):
        replacement = test(match)
        if replacement is not None:
            return index, replacement
        match.apply(parse_action(text))
    raise AssertionError("no such position")


def off_suit_card(match: Match) -> str | None:
    """A card the seat to act holds but may not play because it must follow suit, if any."""
    if match.phase is not Phase.PLAY or not match.current_trick:
        return None
    legal = {str(action) for action in match.legal_actions()}
    held = [str(card) for card in match.hand_of(match.to_act)]  # type: ignore[arg-type]
    others = [card for card in held if card not in legal]
    return others[0] if others else None


def card_not_held(match: Match) -> str | None:
    """A card held by the next seat, so not by the seat to act."""
    if match.phase is not Phase.PLAY:
        return None
    other = (match.to_act + 1) % match.players  # type: ignore[operator]
    return str(match.hand_of(other)[0])


def _set(path: list[Any], value: Any) -> Change:
    def change(record: dict[str, Any]) -> None:
        target: Any = record
        for key in path[:-1]:
            target = target[key]
        if value is _DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value

    return change


def _cards(seat: int, edit: Callable[[list[str]], list[str]], hand: int = 0) -> Change:
    def change(record: dict[str, Any]) -> None:
        cards = record["hands"][hand]["cards"]
        cards[seat] = " ".join(edit(cards[seat].split()))

    return change


def _actions(edit: Callable[[list[str]], object], hand: int = 0) -> Change:
    def change(record: dict[str, Any]) -> None:
        edit(record["hands"][hand]["actions"])

    return change


def _insert(index: int, text: str, hand: int = 0) -> Change:
    return _actions(lambda actions: actions.insert(index, text), hand)


def _replace_action(finder: Callable[[Match], str | None]) -> Change:
    def change(record: dict[str, Any]) -> None:
        index, text = first_position(record, finder)
        record["hands"][0]["actions"][index] = text

    return change


def _swap_in_other_seats_card(record: dict[str, Any]) -> None:
    cards = record["hands"][0]["cards"]
    mine, theirs = cards[0].split(), cards[1].split()
    mine[0] = theirs[0]
    cards[0] = " ".join(mine)


def _truncate_first_hand(record: dict[str, Any]) -> None:
    record["hands"][0]["actions"] = record["hands"][0]["actions"][:10]


def _hand_after_the_end(record: dict[str, Any]) -> None:
    record["hands"].append(copy.deepcopy(record["hands"][-1]))


def _wrong_dealer(record: dict[str, Any]) -> None:
    record["hands"][1]["dealer"] = (record["hands"][1]["dealer"] + 1) % 4


def _set_action(index: int, text: str) -> Change:
    def change(record: dict[str, Any]) -> None:
        record["hands"][0]["actions"][index] = text

    return change


@dataclass(frozen=True)
class BrokenRecord:
    """A way to break a good record, and the hand, action and reason the error must name.

    ``hand`` -1 means the last hand of the broken record; ``action`` ``None``
    means the error is not about one action (``"found"`` for the illegal plays,
    whose index depends on the deal).
    """

    name: str
    base: str
    change: Change
    hand: int | None
    action: int | str | None
    reason: str

    def build(self) -> dict[str, Any]:
        record = copy.deepcopy(base_record(self.base))
        self.change(record)
        return record

    def where(self, record: dict[str, Any]) -> tuple[int | None, int | None]:
        """The (hand, action) the error must name for this broken ``record``."""
        hand = len(record["hands"]) - 1 if self.hand == -1 else self.hand
        if self.action == "found":
            finder = off_suit_card if "follow" in self.reason else card_not_held
            return hand, first_position(base_record(self.base), finder)[0]
        assert self.action is None or isinstance(self.action, int)
        return hand, self.action


BROKEN_RECORDS: tuple[BrokenRecord, ...] = (
    BrokenRecord("wrong format tag", "mendikot", _set(["format"], "dehla-record/2"), None, None, '"format" must be'),
    BrokenRecord("missing format tag", "mendikot", _set(["format"], _DELETE), None, None, '"format" must be'),
    BrokenRecord(
        "missing first_dealer",
        "mendikot",
        _set(["first_dealer"], _DELETE),
        None,
        None,
        '"first_dealer" (a seat number) is missing',
    ),
    BrokenRecord("first_dealer out of range", "mendikot", _set(["first_dealer"], 4), None, None, "seat number 0..3"),
    BrokenRecord("first_dealer not a number", "mendikot", _set(["first_dealer"], "0"), None, None, "seat number 0..3"),
    BrokenRecord("missing rules", "mendikot", _set(["rules"], _DELETE), None, None, '"rules" is missing'),
    BrokenRecord("unknown preset", "mendikot", _set(["rules"], "mendicot"), None, None, "unknown preset 'mendicot'"),
    BrokenRecord(
        "unknown option",
        "mendikot",
        _set(["rules"], {"preset": "mendikot", "tarrget": 3}),
        None,
        None,
        "unknown rules option 'tarrget'",
    ),
    BrokenRecord(
        "option of the wrong type",
        "mendikot",
        _set(["rules"], {"preset": "mendikot", "target": "5"}),
        None,
        None,
        "positive whole number",
    ),
    BrokenRecord("hands not a list", "mendikot", _set(["hands"], {}), None, None, '"hands" must be a list'),
    BrokenRecord(
        "players of the wrong length",
        "mendikot",
        _set(["players"], ["A", "B"]),
        None,
        None,
        '"players" must list 4 names',
    ),
    BrokenRecord("hand not an object", "mendikot", _set(["hands", 1], ["AS"]), 1, None, "a hand must be a JSON object"),
    BrokenRecord(
        "seat dealt twelve cards",
        "mendikot",
        _cards(2, lambda cards: cards[:-1]),
        0,
        None,
        "seat 2 is dealt 12 cards; each seat gets 13",
    ),
    BrokenRecord(
        "seat dealt fourteen cards",
        "mendikot",
        _cards(2, lambda cards: [*cards, "AS"]),
        0,
        None,
        "seat 2 is dealt 14 cards",
    ),
    BrokenRecord("duplicate card", "mendikot", _swap_in_other_seats_card, 0, None, "is dealt twice"),
    BrokenRecord(
        "card text that is not a card",
        "mendikot",
        _cards(1, lambda cards: ["XX", *cards[1:]]),
        0,
        None,
        "'XX' is not a card",
    ),
    BrokenRecord(
        "cards for three seats",
        "mendikot",
        _set(["hands", 0, "cards", 3], _DELETE),
        0,
        None,
        '"cards" must list 4 hands',
    ),
    BrokenRecord(
        "missing actions", "mendikot", _set(["hands", 0, "actions"], _DELETE), 0, None, '"actions" must be a list'
    ),
    BrokenRecord(
        "a 2 in a 6-player deal",
        "mendikot-6",
        _cards(0, lambda cards: ["2S", *cards[1:]]),
        0,
        None,
        "2S is not in the 48-card pack",
    ),
    BrokenRecord(
        "missing open_draw",
        "mendikot-open",
        _set(["hands", 1, "open_draw"], _DELETE),
        1,
        None,
        '"open_draw" (the card drawn for trump) is missing',
    ),
    BrokenRecord(
        "open_draw that is not a card",
        "mendikot-open",
        _set(["hands", 0, "open_draw"], "11H"),
        0,
        None,
        "'11H' is not a card",
    ),
    BrokenRecord(
        "extra open_draw",
        "mendikot",
        _set(["hands", 0, "open_draw"], "AS"),
        0,
        None,
        '"open_draw" belongs only to open-draw trump',
    ),
    BrokenRecord("dealer that disagrees with the rules", "mendikot", _wrong_dealer, 1, None, "but the rules make seat"),
    BrokenRecord(
        "illegal play: not following suit", "mendikot", _replace_action(off_suit_card), 0, "found", "must follow"
    ),
    BrokenRecord("play of a card not held", "mendikot", _replace_action(card_not_held), 0, "found", "does not hold"),
    BrokenRecord(
        "action text that is not an action", "mendikot", _set_action(3, "ZZ"), 0, 3, "cannot read action 'ZZ'"
    ),
    BrokenRecord(
        "action after a finished hand",
        "mendikot",
        _actions(lambda actions: actions.append("AS")),
        0,
        52,
        "comes after the hand is over",
    ),
    BrokenRecord(
        "unfinished hand that is not the last",
        "mendikot",
        _truncate_first_hand,
        0,
        None,
        "only the last hand of a record may be unfinished",
    ),
    BrokenRecord(
        "hand after the match is over", "mendikot", _hand_after_the_end, -1, None, "the match was already over"
    ),
    BrokenRecord("reveal when not allowed", "mendikot-band", _insert(1, "reveal"), 0, 1, "may not ask for the trump"),
    BrokenRecord(
        "reveal under automatic reveal", "mendikot-band-auto", _insert(3, "reveal"), 0, 3, "turned up automatically"
    ),
    BrokenRecord("reveal under cut trump", "mendikot", _insert(2, "reveal"), 0, 2, "no hidden trump under these rules"),
    BrokenRecord("call under non-called rules", "mendikot", _insert(0, "call S"), 0, 0, "call S is not allowed now"),
    BrokenRecord("hide under non-hidden rules", "taash", _insert(0, "hide AS"), 0, 0, "is not allowed now"),
    BrokenRecord("a second call", "pagat", _insert(1, "call H"), 0, 1, "call H is not allowed now"),
    BrokenRecord(
        "a play before the call", "pagat", _actions(lambda actions: actions.pop(0)), 0, 0, "must call trump first"
    ),
    BrokenRecord(
        "a play before the hide",
        "mendikot-band",
        _actions(lambda actions: actions.pop(0)),
        0,
        0,
        "must hide a card first",
    ),
    BrokenRecord("call of a suit that is not a suit", "pagat", _set_action(0, "call X"), 0, 0, "'X' is not a suit"),
)
