"""``dehla-record/1`` game records (SPEC 4.2): read, write, replay.

A record holds the chance (each hand's cards, the open-draw card) and the
players' decisions; everything else is recomputed.  Replaying is a fold of
``Match.apply`` over the record, so a record the engine wrote replays to the
identical match.

Positions in error messages are 0-based indexes into the record's lists:
``hand 2, action 17`` is ``record["hands"][2]["actions"][17]``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NotRequired, TypedDict

from dehla.cards import cards_text, parse_card, parse_cards
from dehla.engine.actions import Action, Deal, parse_action
from dehla.engine.events import Event, HandResultJSON, result_json, trick_json
from dehla.engine.fairdeal import commitment_of, deal_differences, deal_from_seed, seed_from_hex
from dehla.engine.state import Match, Phase
from dehla.errors import CardError, DehlaError, RecordError, RulesError
from dehla.rules import Rules, RulesJSON, parse_rules

__all__ = [
    "FORMAT",
    "to_record",
    "replay",
    "replay_json",
    "parse_records",
    "read_records",
    "write_records",
    "dumps_record",
    "RecordEntry",
    "RecordJSON",
    "RecordHandJSON",
    "ReplayJSON",
    "DealCheck",
    "check_deals",
]

FORMAT = "dehla-record/1"

#: Called after each step of a replay: ``(match, hand, action_index or None for the deal, action, events)``.
StepCallback = Callable[[Match, int, "int | None", "Action | Deal", "tuple[Event, ...]"], None]


class HintNote(TypedDict):
    """A seat asked for a hint before the hand's action ``at`` (an index into its ``actions``)."""

    seat: int
    at: int


class UndoNote(TypedDict):
    """A seat took back its ``card``, which had been the hand's action ``at``, with the bots' actions after it."""

    seat: int
    at: int
    card: str


class ClaimNote(TypedDict):
    """A seat claimed the rest of the hand (``what``: "tricks" or "tens") before action ``at``; the actions from
    ``at`` on are a line of play the exact solver proved gets the claimed result."""

    seat: int
    what: str
    at: int


class RecordHandJSON(TypedDict):
    """A hand of a record (SPEC 4.2): each seat's cards, the actions in order, and the open-draw card if any.

    ``dealer`` is written by ``to_record`` and checked when present; a record may leave it out.  ``seed`` and
    ``commitment`` (hex) make the deal checkable (``dehla.engine.fairdeal``); readers accept and ignore them.
    """

    dealer: NotRequired[int]
    cards: list[str]
    actions: list[str]
    open_draw: NotRequired[str]
    seed: NotRequired[str]
    commitment: NotRequired[str]
    #: Optional annotations (docs/records.md), kept as they are and never replayed: the hints asked for, the
    #: cards taken back (``actions`` holds only the decisions that stood), the claim that ended the hand.
    hints: NotRequired[list[HintNote]]
    undos: NotRequired[list[UndoNote]]
    claim: NotRequired[ClaimNote]


class RecordJSON(TypedDict):
    """A ``dehla-record/1`` record as ``to_record`` writes it (``replay`` reads any JSON and checks it)."""

    format: str
    rules: RulesJSON
    first_dealer: int
    players: NotRequired[list[str]]
    hands: list[RecordHandJSON]


class MatchResultJSON(TypedDict):
    """The match's standing in ``dehla replay --json``: whether it is over, who won, the score per team."""

    over: bool
    winner: int | None
    score: list[int]


class ReplayJSON(TypedDict):
    """``dehla replay --json`` (SPEC 4.3): each hand's result (``result_json``), then the match's standing."""

    hands: list[HandResultJSON]
    match: MatchResultJSON


def to_record(match: Match, players: list[str] | None = None, seeds: Sequence[bytes | None] = ()) -> RecordJSON:
    """The record of everything played in ``match`` so far (an unfinished last hand included).

    ``seeds[i]``, when given and not ``None``, is the seed hand ``i`` was dealt from: the record reveals it with its
    commitment (pass only the seeds of finished hands: a seed gives away the whole deal).
    """
    hands: list[RecordHandJSON] = []
    for index, deal in enumerate(match.deals):
        dealer = match.results[index].dealer if index < len(match.results) else match.dealer
        hand: RecordHandJSON = {
            "dealer": dealer,
            "cards": [cards_text(cards) for cards in deal.hands],
            "actions": [str(action) for action in match.hand_actions(index)],
        }
        if deal.open_draw is not None:
            hand["open_draw"] = str(deal.open_draw)
        seed = seeds[index] if index < len(seeds) else None
        if seed is not None:
            hand["seed"] = seed.hex()
            hand["commitment"] = commitment_of(seed)
        hands.append(hand)
    # the keys in this order (players, when given, before hands): records are compared as text
    if players is None:
        return {"format": FORMAT, "rules": match.rules.to_json(), "first_dealer": match.first_dealer, "hands": hands}
    return {
        "format": FORMAT,
        "rules": match.rules.to_json(),
        "first_dealer": match.first_dealer,
        "players": list(players),
        "hands": hands,
    }


def dumps_record(record: Mapping[str, object]) -> str:
    """One record as one line of JSON (for JSON Lines files)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def _require(condition: bool, message: str, hand: int | None = None) -> None:
    if not condition:
        raise RecordError(message, hand=hand)


def replay(
    record: object,
    on_step: StepCallback | None = None,
) -> Match:
    """Play a record through the engine and return the resulting match.

    ``on_step(match, hand, action_index, action, events)`` is called after every
    step (``action_index`` is ``None`` for the deal), for transcripts and analysis.
    Raises ``RecordError`` naming the hand and action on any problem.
    """
    _require(isinstance(record, dict), f"a record must be a JSON object, not {type(record).__name__}")
    assert isinstance(record, dict)
    _require(record.get("format") == FORMAT, f'"format" must be {FORMAT!r}, not {record.get("format")!r}')
    if "rules" not in record:
        raise RecordError('"rules" is missing (a preset name or {"preset": NAME, ...})')
    try:
        rules = parse_rules(record["rules"])
    except RulesError as error:
        raise RecordError(f"rules: {error}") from None
    if "first_dealer" not in record:
        raise RecordError('"first_dealer" (a seat number) is missing')
    first = record["first_dealer"]
    _require(
        isinstance(first, int) and not isinstance(first, bool) and 0 <= first < rules.players,
        f'"first_dealer" must be a seat number 0..{rules.players - 1}, not {first!r}',
    )
    names = record.get("players")
    if names is not None:
        _require(
            isinstance(names, list) and len(names) == rules.players and all(isinstance(name, str) for name in names),
            f'"players" must list {rules.players} names, one per seat',
        )
    hands = record.get("hands")
    _require(isinstance(hands, list), '"hands" must be a list of hands')
    assert isinstance(hands, list)
    match = Match(rules, first)
    for index, hand in enumerate(hands):
        if match.is_over:
            raise RecordError(f"the match was already over (team {match.winner} won) before this hand", hand=index)
        if match.phase is not Phase.DEAL:
            raise RecordError(
                f"this hand is unfinished ({len(match.hand_actions(index - 1))} actions) but hand {index} follows it; "
                "only the last hand of a record may be unfinished",
                hand=index - 1,
            )
        _replay_hand(match, index, hand, on_step)
    return match


def _replay_hand(
    match: Match,
    index: int,
    hand: object,
    on_step: StepCallback | None,
) -> None:
    rules = match.rules
    _require(isinstance(hand, dict), 'a hand must be a JSON object with "cards" and "actions"', index)
    assert isinstance(hand, dict)
    if "dealer" in hand and hand["dealer"] != match.dealer:
        raise RecordError(f'"dealer" is {hand["dealer"]!r} but the rules make seat {match.dealer} the dealer', index)
    cards = hand.get("cards")
    _require(
        isinstance(cards, list) and len(cards) == rules.players and all(isinstance(item, str) for item in cards),
        f'"cards" must list {rules.players} hands of cards as text, one per seat',
        index,
    )
    assert isinstance(cards, list)
    try:
        dealt = [parse_cards(text) for text in cards]
    except CardError as error:
        raise RecordError(f"cards: {error}", index) from None
    open_draw = None
    if rules.trump == "open_draw":
        _require("open_draw" in hand, '"open_draw" (the card drawn for trump) is missing', index)
        try:
            open_draw = parse_card(hand["open_draw"])
        except CardError as error:
            raise RecordError(f"open_draw: {error}", index) from None
    elif "open_draw" in hand:
        raise RecordError(f'"open_draw" belongs only to open-draw trump, not {rules.trump!r}', index)
    actions = hand.get("actions", None)
    _require(
        isinstance(actions, list) and all(isinstance(item, str) for item in actions),
        '"actions" must be a list of action texts',
        index,
    )
    assert isinstance(actions, list)
    deal = Deal(dealt, open_draw)
    try:
        events = match.apply(deal)
    except DehlaError as error:
        raise RecordError(f"cards: {error}", index) from None
    if on_step is not None:
        on_step(match, index, None, deal, events)
    for position, text in enumerate(actions):
        if match.phase not in (Phase.CALL, Phase.HIDE, Phase.PLAY):
            ended = match.results[-1]
            how = "ended early, its result settled" if ended.ended_early else "is over, every trick played"
            raise RecordError(f"{text!r} comes after the hand {how}", index, position)
        try:
            action = parse_action(text)
            events = match.apply(action)
        except DehlaError as error:
            raise RecordError(str(error), index, position) from None
        if on_step is not None:
            on_step(match, index, position, action, events)


def replay_json(match: Match) -> ReplayJSON:
    """The ``dehla replay --json`` object of a replayed match (SPEC 4.3).

    An unfinished last hand (a match in progress) is shown with ``"complete":
    false``: its finished tricks, the trick in progress under ``current_trick``,
    the tens and tricks so far, trump as publicly known, and ``winner`` and
    ``next_dealer`` ``null`` with ``points`` ``[0, 0]``.
    """
    hands = [result_json(result) for result in match.results]
    if match.phase in (Phase.CALL, Phase.HIDE, Phase.PLAY):
        observation = match.observe(match.dealer)
        hands.append(
            {
                "dealer": match.dealer,
                "trump": None if match.trump is None else match.trump.name,
                "tricks": [trick_json(trick) for trick in match.tricks],
                "current_trick": {
                    "leader": observation.leader,
                    "cards": [str(card) for _, card in observation.trick],
                },
                "tens": list(observation.tens),
                "tricks_won": list(observation.tricks_won),
                "winner": None,
                "sweep": False,
                "whitewash": False,
                "points": [0, 0],
                "ended_early": False,
                "next_dealer": None,
                "kot": False,
                "complete": False,
            }
        )
    score = match.match_score
    return {
        "hands": hands,
        "match": {"over": score.over, "winner": score.winner, "score": list(score.score)},
    }


@dataclass(frozen=True)
class RecordEntry:
    """One record read from a file: its data, or the error that stopped it being read."""

    source: str
    line: int | None
    data: object = None
    error: str | None = None


def parse_records(text: str, source: str = "<text>") -> Iterator[RecordEntry]:
    """Records in ``text``: one JSON object (over any number of lines), or JSON Lines."""
    text = text.removeprefix("\ufeff")  # a byte-order mark (some editors write one) is not an error
    stripped = text.strip()
    if not stripped:
        yield RecordEntry(source, None, error=f"{source}: no record in the file")
        return
    try:
        whole = json.loads(stripped)
    except (json.JSONDecodeError, RecursionError):
        whole = None
    else:
        if isinstance(whole, list):
            for position, item in enumerate(whole):
                yield RecordEntry(source, position + 1, data=item)
        else:
            yield RecordEntry(source, None, data=whole)
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield RecordEntry(source, number, data=json.loads(line))
        except (json.JSONDecodeError, RecursionError) as error:
            message = error.msg if isinstance(error, json.JSONDecodeError) else "nested too deeply"
            yield RecordEntry(source, number, error=f"{source}:{number}: not JSON ({message})")


def read_records(path: str | Path) -> Iterator[RecordEntry]:
    """Records in a file (``-`` is standard input is left to the caller)."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        yield RecordEntry(name, None, error=f"{name}: no such file")
        return
    except IsADirectoryError:
        yield RecordEntry(name, None, error=f"{name}: is a directory, not a record file")
        return
    except (OSError, UnicodeDecodeError) as error:
        yield RecordEntry(name, None, error=f"{name}: cannot read ({error})")
        return
    yield from parse_records(text, name)


def write_records(path: str | Path, records: Iterable[Mapping[str, object]]) -> int:
    """Write records as JSON Lines; returns how many were written."""
    count = 0
    with Path(path).open("w", encoding="utf-8") as out:
        for record in records:
            out.write(dumps_record(record) + "\n")
            count += 1
    return count


@dataclass(frozen=True)
class DealCheck:
    """One hand's check against its revealed seed (``check_deals``): ``verdict`` is ``"ok"``, ``"mismatch"`` (or
    unreadable) or ``"unchecked"`` (no seed); ``hand`` is its 0-based place in the record, ``None`` for the record."""

    hand: int | None
    verdict: str
    message: str


def check_deals(record: object) -> list[DealCheck]:
    """Check every hand of ``record`` that carries a seed: SHA-256 of the seed is its commitment, and its cards
    (and drawn card) are those ``deal_from_seed`` gives (docs/records.md, "Checkable deals")."""
    if not isinstance(record, dict):
        return [DealCheck(None, "mismatch", f"a record must be a JSON object, not {type(record).__name__}")]
    if record.get("format") != FORMAT:
        return [DealCheck(None, "mismatch", f'"format" must be {FORMAT!r}, not {record.get("format")!r}')]
    try:
        rules = parse_rules(record.get("rules"))
    except RulesError as error:
        return [DealCheck(None, "mismatch", f"rules: {error}")]
    hands = record.get("hands")
    if not isinstance(hands, list):
        return [DealCheck(None, "mismatch", '"hands" must be a list of hands')]
    return [_check_hand(rules, index, hand) for index, hand in enumerate(hands)]


def _check_hand(rules: Rules, index: int, hand: object) -> DealCheck:
    if not isinstance(hand, dict):
        return DealCheck(index, "mismatch", 'a hand must be a JSON object with "cards" and "actions"')
    if "seed" not in hand:
        said = " (it has a commitment, but the seed was never revealed)" if "commitment" in hand else ""
        return DealCheck(index, "unchecked", f"no seed revealed; not checked{said}")
    try:
        seed = seed_from_hex(hand["seed"], '"seed"')
        committed = None if "commitment" not in hand else seed_from_hex(hand["commitment"], '"commitment"').hex()
        cards = hand.get("cards")
        if not (isinstance(cards, list) and len(cards) == rules.players and all(isinstance(c, str) for c in cards)):
            raise DehlaError(f'"cards" must list {rules.players} hands of cards as text, one per seat')
        dealt = [parse_cards(text) for text in cards]
        drawn = hand.get("open_draw")
        recorded = Deal(dealt, None if drawn is None else parse_card(drawn))
    except (DehlaError, CardError) as error:
        return DealCheck(index, "mismatch", f"cannot check: {error}")
    if committed is not None and commitment_of(seed) != committed:
        return DealCheck(
            index,
            "mismatch",
            f"the seed's SHA-256 is {commitment_of(seed)}, not the commitment {committed}: this is not the seed the "
            "table committed to",
        )
    problems = deal_differences(deal_from_seed(rules, seed, index), recorded)
    if problems:
        return DealCheck(index, "mismatch", "; ".join(problems))
    if committed is None:
        return DealCheck(index, "ok", "the deal follows from the revealed seed (no commitment recorded: seed only)")
    return DealCheck(index, "ok", f"the deal follows from the revealed seed (commitment {committed[:12]}…)")
