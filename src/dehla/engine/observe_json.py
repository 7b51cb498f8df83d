"""Reading the documented observation JSON (``dehla-observation/1``) back into an ``Observation``.

``Observation.to_json()`` (``engine/observe.py``) is the one wire form of what a
seat may know; the bot protocol sends it to outside programs and the web client
receives it too.  A bot served by ``dehla bot NAME`` gets that JSON and needs the
``Observation`` value again, so this module is the exact inverse of ``to_json``:
``observation_from_json(obs.to_json()) == obs`` for every observation.  It lives
beside the observation, in the engine, and reads only the engine and what is
below it.

Nothing is invented here: the only values not written in the JSON are each
finished hand's index (its position in ``match.hands``), each trick's number
(its position in the list) and the running match score and streak after each
hand, which the engine's own scorekeeper (``MatchScore.after_hand``) recomputes
from the hands' winners, points and sweeps.  What ``to_json`` derives from
other fields (``options``, ``tricks_per_hand``, each finished trick's ``seats``)
is not read back.  The fields added by issue 20 (the trump mark of each trick
card, ``trick_winner``, ``events``, ``cut_open``) may be missing, as in JSON from a host
written before them; they then read as no mark, ``None``, no events and false.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from dehla.cards import Card, Suit, parse_card, parse_suit
from dehla.engine.actions import Action, parse_action
from dehla.engine.events import HandResult, StagedDeal, Trick, TrumpRevealed, TrumpSet
from dehla.engine.observe import OBSERVATION_FORMAT, Observation, PublicEvent
from dehla.engine.scoring import MatchScore, Outcome
from dehla.errors import CardError, DehlaError, RulesError
from dehla.rules import Rules, parse_rules

__all__ = ["observation_from_json"]

T = TypeVar("T")


class _Reader:
    """Typed access to one JSON object, with errors that name the field's path."""

    def __init__(self, data: object, path: str) -> None:
        if not isinstance(data, dict):
            raise DehlaError(f"{path} must be a JSON object, not {_kind(data)}")
        self.data: Mapping[str, object] = data
        self.path = path

    def _get(self, key: str) -> object:
        if key not in self.data:
            raise DehlaError(f"{self.path}.{key} is missing")
        return self.data[key]

    def _where(self, key: str) -> str:
        return f"{self.path}.{key}"

    def integer(self, key: str) -> int:
        return _integer(self._get(key), self._where(key))

    def optional_integer(self, key: str) -> int | None:
        value = self._get(key)
        return None if value is None else _integer(value, self._where(key))

    def boolean(self, key: str) -> bool:
        value = self._get(key)
        if not isinstance(value, bool):
            raise DehlaError(f"{self._where(key)} must be true or false, not {_kind(value)}")
        return value

    def text(self, key: str) -> str:
        value = self._get(key)
        if not isinstance(value, str):
            raise DehlaError(f"{self._where(key)} must be text, not {_kind(value)}")
        return value

    def card(self, key: str) -> Card:
        return _card(self._get(key), self._where(key))

    def optional_card(self, key: str) -> Card | None:
        value = self._get(key)
        return None if value is None else _card(value, self._where(key))

    def optional_suit(self, key: str) -> Suit | None:
        value = self._get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise DehlaError(f"{self._where(key)} must be a suit letter or null, not {_kind(value)}")
        try:
            return parse_suit(value)
        except CardError as error:
            raise DehlaError(f"{self._where(key)}: {error}") from None

    def suit(self, key: str) -> Suit:
        value = self.optional_suit(key)
        if value is None:
            raise DehlaError(f"{self._where(key)} must be a suit letter, not null")
        return value

    def items(self, key: str, read: Callable[[object, str], T]) -> tuple[T, ...]:
        value = self._get(key)
        where = self._where(key)
        if not isinstance(value, list):
            raise DehlaError(f"{where} must be a list, not {_kind(value)}")
        return tuple(read(item, f"{where}[{index}]") for index, item in enumerate(value))

    def pair(self, key: str) -> tuple[int, int]:
        values = self.items(key, _integer)
        if len(values) != 2:
            raise DehlaError(f"{self._where(key)} must list two numbers, one per team")
        return (values[0], values[1])

    def cards(self, key: str) -> tuple[Card, ...]:
        return self.items(key, _card)

    def reader(self, key: str) -> _Reader:
        return _Reader(self._get(key), self._where(key))


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "text", list: "a list", dict: "an object"}.get(
        type(value), type(value).__name__
    )


def _integer(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise DehlaError(f"{where} must be a whole number, not {_kind(value)}")
    return value


def _card(value: object, where: str) -> Card:
    if not isinstance(value, str):
        raise DehlaError(f"{where} must be a card such as '10H', not {_kind(value)}")
    try:
        return parse_card(value)
    except CardError as error:
        raise DehlaError(f"{where}: {error}") from None


def _card_list(value: object, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise DehlaError(f"{where} must be a list of cards, not {_kind(value)}")
    return tuple(_card(item, f"{where}[{index}]") for index, item in enumerate(value))


def _action(value: object, where: str) -> Action:
    if not isinstance(value, str):
        raise DehlaError(f"{where} must be an action text such as '10H', not {_kind(value)}")
    try:
        return parse_action(value)
    except DehlaError as error:
        raise DehlaError(f"{where}: {error}") from None


def _history_item(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise DehlaError(f"{where} must be an action text, not {_kind(value)}")
    return value


def _trick(value: object, where: str, number: int) -> Trick:
    reader = _Reader(value, where)
    return Trick(
        number=number,
        leader=reader.integer("leader"),
        cards=reader.cards("cards"),
        winner=reader.integer("winner"),
        collected_by=reader.optional_integer("collected_by"),
    )


def _tricks(reader: _Reader, key: str) -> tuple[Trick, ...]:
    value = reader.data.get(key)
    where = f"{reader.path}.{key}"
    if not isinstance(value, list):
        raise DehlaError(f"{where} must be a list of tricks, not {_kind(value)}")
    return tuple(_trick(item, f"{where}[{index}]", index + 1) for index, item in enumerate(value))


def _trick_play(value: object, where: str) -> tuple[int, Card, bool | None]:
    """A card of the trick in progress: its seat, the card, and whether it counts as trump (``None``: no mark)."""
    reader = _Reader(value, where)
    trump = reader.boolean("trump") if "trump" in reader.data else None
    return (reader.integer("seat"), reader.card("card"), trump)


def _event(value: object, where: str) -> tuple[int, PublicEvent]:
    """A public event of the hand and the number of tricks finished before it."""
    reader = _Reader(value, where)
    after = reader.integer("after_tricks")
    kind = reader.text("type")
    if kind == "trump_set":
        return after, TrumpSet(
            suit=reader.suit("suit"),
            seat=reader.optional_integer("seat"),
            how=reader.text("how"),
            card=reader.optional_card("card"),
        )
    if kind == "trump_revealed":
        return after, TrumpRevealed(
            suit=reader.suit("suit"),
            card=reader.card("card"),
            chooser=reader.integer("chooser"),
            asked_by=reader.optional_integer("asked_by"),
        )
    if kind == "staged_deal":
        return after, StagedDeal(after_trick=after, trump=reader.optional_suit("trump"))
    raise DehlaError(f"{where}.type must be 'trump_set', 'trump_revealed' or 'staged_deal', not {kind!r}")


def _results(rules: Rules, reader: _Reader) -> tuple[HandResult, ...]:
    """The match's finished hands, with the running score recomputed by the engine's scorekeeper."""
    value = reader.data.get("hands")
    where = f"{reader.path}.hands"
    if not isinstance(value, list):
        raise DehlaError(f"{where} must be a list of hand results, not {_kind(value)}")
    score = MatchScore()
    results = []
    for index, item in enumerate(value):
        hand = _Reader(item, f"{where}[{index}]")
        winner = hand.optional_integer("winner")
        points = hand.pair("points")
        sweep = hand.boolean("sweep")
        score, _ = score.after_hand(rules, Outcome(winner, points), sweep)
        results.append(
            HandResult(
                hand=index,
                dealer=hand.integer("dealer"),
                trump=hand.optional_suit("trump"),
                tricks=_tricks(hand, "tricks"),
                tens=hand.pair("tens"),
                tricks_won=hand.pair("tricks_won"),
                winner=winner,
                sweep=sweep,
                whitewash=hand.boolean("whitewash"),
                points=points,
                ended_early=hand.boolean("ended_early"),
                kot=hand.boolean("kot"),
                next_dealer=hand.optional_integer("next_dealer"),
                score=score.score,
                streak=score.streaks(),
            )
        )
    return tuple(results)


def observation_from_json(data: object) -> Observation:
    """The ``Observation`` that ``Observation.to_json()`` wrote (``dehla-observation/1``).

    Raises ``DehlaError`` naming the field (``observation.hand[3]: ...``) when the JSON is not such an observation.
    """
    obs = _Reader(data, "observation")
    if obs.data.get("format") != OBSERVATION_FORMAT:
        raise DehlaError(f"observation.format must be {OBSERVATION_FORMAT!r}, not {obs.data.get('format')!r}")
    try:
        rules = parse_rules(obs._get("rules"))
    except RulesError as error:
        raise DehlaError(f"observation.rules: {error}") from None
    match = obs.reader("match")
    captured = obs.items("captured", _card_list)
    if len(captured) != 2:
        raise DehlaError("observation.captured must list two teams' captured cards")
    trick = obs.items("trick", _trick_play)
    marks = tuple(mark for _, _, mark in trick if mark is not None)
    events = obs.items("events", _event) if "events" in obs.data else ()
    return Observation(
        seat=obs.integer("seat"),
        players=obs.integer("players"),
        rules=rules,
        direction=obs.text("direction"),
        phase=obs.text("phase"),
        hand_number=obs.integer("hand_number"),
        dealer=obs.integer("dealer"),
        to_act=obs.optional_integer("to_act"),
        hand=obs.cards("hand"),
        hidden_card=obs.optional_card("hidden_card"),
        trump=obs.optional_suit("trump"),
        trump_hidden=obs.boolean("trump_hidden"),
        chooser=obs.optional_integer("chooser"),
        revealed_card=obs.optional_card("revealed_card"),
        open_draw=obs.optional_card("open_draw"),
        hand_sizes=obs.items("hand_sizes", _integer),
        undealt=obs.items("undealt", _integer),
        leader=obs.optional_integer("leader"),
        led=obs.optional_suit("led"),
        trick=tuple((seat, card) for seat, card, _ in trick),
        history=obs.items("history", _history_item),
        tricks=_tricks(obs, "tricks"),
        centre=obs.cards("centre"),
        next_collector=obs.optional_integer("next_collector"),
        captured=(captured[0], captured[1]),
        tens=obs.pair("tens"),
        tricks_won=obs.pair("tricks_won"),
        legal_actions=obs.items("legal_actions", _action),
        score=match.pair("score"),
        streak=match.pair("streak"),
        target=match.integer("target"),
        match_over=match.boolean("over"),
        match_winner=match.optional_integer("winner"),
        results=_results(rules, match),
        trick_trumps=marks if len(marks) == len(trick) else (),
        trick_winner=obs.optional_integer("trick_winner") if "trick_winner" in obs.data else None,
        events=events,
        cut_open=obs.boolean("cut_open") if "cut_open" in obs.data else False,
    )
