"""The ``heuristic`` bot: always legal, decides from the observation only, and plays sensibly in named positions."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from tests.helpers import position

from dehla import Deal, Match, parse_cards
from dehla.bots import HeuristicBot, make_bot
from dehla.bots.base import BOTS, RandomBot
from dehla.bots.endgame import HIGH, LOW, Endgame
from dehla.bots.heuristic import (
    Weights,
    _Decision,
    _stakes_of,
    choose_hidden_card,
    choose_trump_call,
)
from dehla.cards import TENS_MASK, Suit, parse_card
from dehla.engine.actions import REVEAL, Call, Hide, Play
from dehla.engine.observe import Observation
from dehla.engine.state import Phase
from dehla.engine.tricks import NOT_YET, tens_of
from dehla.errors import DehlaError
from dehla.rules import PRESETS

BOTS_DIR = Path(__file__).resolve().parent.parent / "src" / "dehla" / "bots"
VARIANTS = (
    {"preset": "mendikot-band", "collection": "centre"},
    {"preset": "taash", "trick_minimum": True},
    {"preset": "pagat", "streak_resets": False},
    {"preset": "mendikot-6", "trump": "hidden"},
    {"preset": "mendikot-8", "trump": "hidden_auto"},
)


def decide(match: Match) -> str:
    seat = match.to_act
    assert seat is not None
    return str(HeuristicBot(0).act(match.observe(seat)))


# ---------------------------------------------------------------------------------------------
# Registration and the observation-only contract


def test_registered_with_level_and_label() -> None:
    info = BOTS["heuristic"]
    assert (info.level, info.label) == (1, "intermediate")
    assert isinstance(make_bot("heuristic", 3), HeuristicBot)


def test_modules_never_import_the_match() -> None:
    """The bot and its tracker read only the Observation: no import of the engine state or of Match."""
    for name in ("heuristic.py", "heuristic_weights.py", "endgame.py", "tracking.py"):
        tree = ast.parse((BOTS_DIR / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "dehla.engine.state", name
                assert "Match" not in [alias.name for alias in node.names], name
            if isinstance(node, ast.Import):
                assert all(alias.name != "dehla.engine.state" for alias in node.names), name
            if isinstance(node, ast.Name):
                assert node.id != "Match", name


def test_acts_on_an_observation_alone() -> None:
    """Given only ``match.observe(seat)`` (a frozen value, detached from the match) it still chooses legally."""
    rng = random.Random(5)
    match = Match.new("pagat", rng)
    match.apply(match.random_deal(rng))
    observation = match.observe(match.to_act or 0)
    assert isinstance(observation, Observation)
    before = observation.to_json()
    bot = HeuristicBot(1)
    action = bot.act(observation)
    assert action in observation.legal_actions
    assert observation.to_json() == before


def test_no_decision_is_a_clear_error() -> None:
    rng = random.Random(2)
    match = Match.new("mendikot", rng)
    match.apply(match.random_deal(rng))
    other = (match.to_act + 1) % 4  # type: ignore[operator]
    with pytest.raises(DehlaError, match="no decision"):
        HeuristicBot().act(match.observe(other))


@pytest.mark.parametrize("rules", [*PRESETS, *VARIANTS], ids=str)
def test_always_legal_on_random_positions(rules: str | dict[str, object]) -> None:
    """Thousands of positions of random play: at each, the bot (for the seat to act) returns a legal action."""
    rng = random.Random(str(rules))
    bot = HeuristicBot(7)
    positions = 0
    while positions < 1200:
        match = Match.new(rules, rng)
        while not match.is_over and len(match.results) < 3:
            if match.is_chance:
                match.apply(match.random_deal(rng))
                continue
            seat = match.to_act
            assert seat is not None
            observation = match.observe(seat)
            action = bot.act(observation)
            assert action in observation.legal_actions
            positions += 1
            match.apply(rng.choice(match.legal_actions()))


@pytest.mark.parametrize("rules", [*PRESETS, *VARIANTS], ids=str)
def test_whole_matches_between_heuristic_bots(rules: str | dict[str, object]) -> None:
    rng = random.Random(11)
    match = Match.new(rules, rng)
    bots = [HeuristicBot(seat) for seat in range(match.players)]
    hands = 0
    while not match.is_over and hands < 4:
        if match.is_chance:
            match.apply(match.random_deal(rng))
            hands += 1
            continue
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].act(match.observe(seat)))


def test_blunder_setting_stays_legal() -> None:
    bot = HeuristicBot(3, Weights(blunder=1.0))
    rng = random.Random(4)
    match = Match.new("mendikot", rng)
    match.apply(match.random_deal(rng))
    for _ in range(30):
        observation = match.observe(match.to_act)  # type: ignore[arg-type]
        action = bot.act(observation)
        assert action in observation.legal_actions
        match.apply(action)


# ---------------------------------------------------------------------------------------------
# Named behaviour

# Seat 3 plays last to trick 1; its partner is seat 1.
DUMP_HANDS = [
    "2S 5S 6S QS 2H 3H 4H 2D 3D 4D 2C 3C 4C",
    "AS 7S 9S KS 5H 6H 7H 5D 6D 7D 5C 6C 7C",
    "3S 8S JS 8H 9H 10H JH 8D 9D 10D 8C 9C 10C",
    "10S 4S QH KH AH JD QD KD AD JC QC KC AC",
]


def test_dumps_a_ten_on_partners_sure_winner() -> None:
    match = position("mendikot", 3, DUMP_HANDS, "2S AS 3S")
    assert decide(match) == "10S"


def test_keeps_its_ten_when_an_opponent_wins_the_trick() -> None:
    match = position("mendikot", 3, DUMP_HANDS, "2S 7S JS")
    assert decide(match) == "4S"


def test_does_not_lead_an_unguarded_ten() -> None:
    """Seat 0 leads with the ten of hearts alone while every higher heart is out."""
    hands = [
        "10H 2S 3S 4S 5S 2D 3D 4D 5D 2C 3C 4C 5C",
        "AH KH 2H 6S 7S 8S 6D 7D 8D 6C 7C 8C 9C",
        "QH JH 3H 4H 9S 10S JS 9D 10D JD 10C JC QC",
        "5H 6H 7H 8H 9H QS KS AS QD KD AD KC AC",
    ]
    match = position("mendikot", 3, hands)
    assert decide(match) != "10H"


OPEN_HANDS = [
    "KH 9H 8H 2S 5S 2D 3D 4D 5D 2C 3C 4C 5C",
    "10H 3H 4H 5H 6S 7S 8S 6D 7D 8D 7C 8C 9C",
    "2H 6H 7H AH QH JH 9S 10S 9D 10D JD 10C JC",
    "3S 4S JS QS KS AS QD KD AD QC KC AC 6C",
]


def test_trumps_in_when_an_opponent_is_winning_a_trick_with_a_ten() -> None:
    """Open draw made spades trump; partner had to drop the ten of hearts under the king; seat 3 is void."""
    match = position("mendikot-open", 3, OPEN_HANDS, "KH 10H 2H", open_draw="7S")
    assert decide(match) == "3S"


def test_calls_its_longest_strong_suit() -> None:
    assert choose_trump_call(parse_cards("AH KH 5H 2S 3D")) is Suit.H
    assert choose_trump_call(parse_cards("AS 2H 3H 4D 5C")) is Suit.H
    match = Match("pagat", 3)
    rest = [card for card in range(52) if card not in parse_cards("QD JD 4D AS 7C")]
    hands = [parse_cards("QD JD 4D AS 7C") + rest[:8], rest[8:21], rest[21:34], rest[34:47]]
    match.apply(Deal(hands))
    action = HeuristicBot().act(match.observe(0))
    assert isinstance(action, Call) and action.suit is Suit.D


def test_hides_a_card_of_its_longest_suit() -> None:
    hands = [
        "2H 3H 4H 5H 6H 7H 2C 3C 4C 2S 3S 4S 5S",
        "AC KC QC 10D 4D 5D 6D 8H 9H 6S 7S 8S 9S",
        "5C 6C 7C 8C 2D 7D 8D 9D 10H JH 10S JS QS",
        "9C 10C JC 3D JD QD KD AD QH KH AH KS AS",
    ]
    match = position("mendikot-band", 3, hands)
    action = HeuristicBot().act(match.observe(0))
    assert isinstance(action, Hide) and action.card.suit is Suit.H
    assert choose_hidden_card(parse_cards("AD KD 3D 2D QS 4H")) == parse_card("2D")


BAND_HANDS = [
    "2H 3H 4H 5H 6H 7H 2C 3C 4C 2S 3S 4S 5S",
    "AC KC QC 10D 4D 5D 6D 8H 9H 6S 7S 8S 9S",
    "5C 6C 7C 8C 2D 7D 8D 9D 10H JH 10S JS QS",
    "9C 10C JC 3D JD QD KD AD QH KH AH KS AS",
]


def test_asks_for_the_reveal_when_holding_the_trump_and_an_opponent_wins_a_ten() -> None:
    """Seat 0 hid a heart and holds five more; it cannot follow the ten of diamonds that seat 1 is winning."""
    match = position("mendikot-band", 3, BAND_HANDS, "hide 2H 2C AC 5C 9C 10D 2D 3D")
    assert REVEAL in match.legal_actions()
    assert decide(match) == "reveal"
    match.apply(REVEAL)
    action = decide(match)
    assert parse_card(action).suit is Suit.H  # then it trumps, as it must


def test_does_not_ask_for_the_reveal_when_partner_wins() -> None:
    match = position("mendikot-band", 3, BAND_HANDS, "hide 2H 2C AC 5C 9C 4D 9D 3D")
    assert REVEAL in match.legal_actions()
    assert decide(match) != "reveal"


def test_collects_the_centre_with_a_winner_when_next_collector() -> None:
    """Pagat: seat 3 took trick 1 (the ten of clubs in it); winning trick 2 collects, so it leads a top card."""
    hands = [
        "KS 2S 3S 3H 4H 5H 6H 7H 2C 3C 4C 5C 6C",
        "4S 5S 6S 8H 9H 10H 2D 3D 4D 5D 7C 8C 9C",
        "7S 8S 9S JH QH KH 6D 7D 8D 9D 10C JC QC",
        "AS 10S JS QS AH 2H 10D JD QD KD AD KC AC",
    ]
    match = position("pagat", 3, hands, "call S 2C 7C 10C AC")
    observation = match.observe(3)
    assert observation.next_collector == 3 and observation.centre_tens == 1
    # Its sure winners: the ace of trumps, the top diamonds (it holds A K Q J 10), the ace of hearts, the king of clubs.
    assert decide(match) in ("AS", "AD", "KD", "QD", "JD", "10D", "AH", "KC")


def test_does_not_overtake_a_partner_who_is_about_to_collect() -> None:
    """Pagat: partner (seat 0) won trick 1 with the ten of clubs in it and leads the king of hearts; seat 2 holds
    the ace: overtaking would break partner's two in a row, so it plays low and lets partner collect."""
    hands = [
        "AS KS QS AC KH 2S 3S 5C 6C 7C 8C 9C JC",
        "3C 2H 4H 5H 6H 4S 5S 6S 2D 3D 4D 5D 6D",
        "4C AH 3H 7S 8S 9S 7D 8D 9D 10D JD QD KD",
        "10C QC KC 2C 7H 8H 9H 10H JH QH 10S JS AD",
    ]
    match = position("pagat", 3, hands, "call S AC 3C 4C 10C KH 2H")
    assert match.observe(2).next_collector == 0
    assert decide(match) == "3H"


def test_breaks_the_opponents_run() -> None:
    """Pagat: seat 0 won trick 1 (the ten of clubs waits in the centre) and leads the king of hearts to collect;
    seat 1 takes it with the ace."""
    hands = [
        "AS KS QS AC KH 2S 3S 5C 6C 7C 8C 9C JC",
        "3C AH 4H 5H 6H 4S 5S 6S 2D 3D 4D 5D 6D",
        "4C 2H 3H 7S 8S 9S 7D 8D 9D 10D JD QD KD",
        "10C QC KC 2C 7H 8H 9H 10H JH QH 10S JS AD",
    ]
    match = position("pagat", 3, hands, "call S AC 3C 4C 10C KH")
    assert match.observe(1).next_collector == 0
    assert decide(match) == "AH"


# Pagat, spades trump: seat 0 calls and leads the two of clubs; seat 3 takes trick 1 with the ace (the ten of
# clubs waits in the centre). ONE_TOP: seat 3's only trump that nothing out can beat is the ace; THREE_TOP: it
# holds the ace, king and queen; SMALL: seat 3 holds nothing but small cards besides the ace of clubs.
ONE_TOP = [
    "KS 2S 3S 3H 4H 5H 6H 7H 2C 3C 4C 5C 6C",
    "4S 5S 6S 8H 9H 10H 2D 3D 4D 5D 7C 8C 9C",
    "7S 8S 9S JH QH KH 6D 7D 8D 9D 10C JC QC",
    "AS 10S JS QS AH 2H 10D JD QD KD AD KC AC",
]
THREE_TOP = [
    "JS 2S 3S 3H 4H 5H 6H 7H 2C 3C 4C 5C 6C",
    ONE_TOP[1],
    ONE_TOP[2],
    "AS 10S KS QS AH 2H 10D JD QD KD AD KC AC",
]
SMALL = [
    "AS KS QS AH KH QH AD KD QD 2C 3C 4C 5C",
    "JS 10S 9S JH 10H 9H JD 10D 9D 6C 7C 8C JC",
    "8S 7S 6S 8H 7H 6H 8D 7D 6D 10C QC KC 9C",
    "5S 4S 3S 2S 5H 4H 3H 2H 5D 4D 3D 2D AC",
]


def test_only_one_top_trump_is_kept_for_the_last_trick() -> None:
    """The top trump is worth keeping for the last trick, which takes what is left in the centre; one such
    trump is enough, so with three of them none carries that reserve and any may be spent now."""
    ace = parse_card("AS")
    no_reserve = Weights(last_reserve=0.0)
    one = position("pagat", 3, ONE_TOP, "call S 2C 7C 10C AC").observe(3)
    single = _Decision(one, Weights())
    assert single._sure_trumps() == 1
    assert single._keep_value(ace) > _Decision(one, no_reserve)._keep_value(ace)
    three = position("pagat", 3, THREE_TOP, "call S 2C 7C 10C AC").observe(3)
    several = _Decision(three, Weights())
    assert several._sure_trumps() == 3
    assert several._keep_value(ace) == _Decision(three, no_reserve)._keep_value(ace)


def test_winning_the_centre_run_is_worth_more_with_a_winner_to_lead_next() -> None:
    """Taking trick 1 makes seat 3 the next collector, worth the chance that its best lead then wins too:
    with the ace of trumps to lead that is the whole centre, with small cards only much less."""
    strong = _Decision(position("pagat", 3, ONE_TOP, "call S 2C 7C 10C").observe(3), Weights())
    weak = _Decision(position("pagat", 3, SMALL, "call S 2C 7C 10C").observe(3), Weights())
    ace = parse_card("AC")
    assert strong.ten_value == weak.ten_value > 0.0
    assert strong._won_by(3, 1.0, ace) == pytest.approx(strong.ten_value)
    assert 0.0 < weak._won_by(3, 1.0, ace) < 0.6 * strong.ten_value


class _FullSearch(Endgame):
    """The exact endgame without its last-trick shortcut: the last trick searched like any other."""

    def _final_trick(
        self,
        hands: list[int],
        leader: int,
        trump: int | None,
        cut_open: bool,
        pile: int,
        tens: tuple[int, int],
        won: tuple[int, int],
    ) -> float:
        trump_from = 0 if trump is not None else NOT_YET
        played = self.total - 1
        return self._turn(
            hands=hands,
            trick=[],
            leader=leader,
            trump=trump,
            trump_from=trump_from,
            cut_open=cut_open,
            pile=pile,
            collector=None,
            tens=tens,
            won=won,
            played=played,
            alpha=LOW,
            beta=HIGH,
        )


@pytest.mark.parametrize("rules", ["pagat", "pagat-cut", "taash", "mendikot", "mendikot-6"])
def test_last_trick_shortcut_agrees_with_the_full_search(rules: str) -> None:
    """With one card each there is nothing to choose, so playing the last trick out directly must give the
    very decisions the full search gives, whatever the trump, cut or centre rules."""
    rng = random.Random(f"shortcut:{rules}")
    compared = 0
    while compared < 40:
        match = Match.new(rules, rng)
        match.apply(match.random_deal(rng))
        while not match.results:
            seat = match.to_act
            assert seat is not None
            observation = match.observe(seat)
            if len(observation.hand) <= 3 and len(observation.legal_actions) > 1 and observation.phase == "play":
                decision = _Decision(observation, Weights())
                quick = Endgame(decision, random.Random(compared)).choose()
                full = _FullSearch(decision, random.Random(compared)).choose()
                assert quick == full
                compared += 1
            match.apply(rng.choice(match.legal_actions()))


class _Ending(Endgame):
    """The endgame with its scoring replaced by a record of the tens and tricks each line ends with."""

    def _result(self, tens: tuple[int, int], won: tuple[int, int]) -> float:
        self.ended = (tens, won)
        return 0.0


@pytest.mark.parametrize("rules", ["pagat", "pagat-cut", "taash-b2b", "mendikot", "mendikot-band", "mendikot-8"])
def test_the_endgames_last_trick_ends_as_the_engine_does(rules: str) -> None:
    """The endgame plays tricks with the trick core (winner, collection): from the last trick's lead, the tens
    and tricks it reaches are the engine's, whatever the trump, cut, centre or band-hukum rules."""
    rng = random.Random(f"ending:{rules}")
    compared = 0
    while compared < 25:
        match = Match.new(rules, rng)
        match.apply(match.random_deal(rng))
        while match.phase is not Phase.DEAL and not match.is_over:
            if match.phase is Phase.PLAY and len(match.tricks) == match.rules.tricks_per_hand - 1:
                break
            match.apply(rng.choice(match.legal_actions()))
        state = match.hand_state()
        if match.phase is not Phase.PLAY or state.hidden_card is not None:
            continue  # a Taash hand that ended early, or a band-hukum card still face down (no endgame then)
        seat = state.to_act
        assert seat is not None and not state.trick
        ending = _Ending(_Decision(match.observe(seat), Weights()), random.Random(0))
        pile = state.centre & TENS_MASK
        ending._final_trick(
            list(state.hands), seat, state.trump, state.cut_open, pile, tens_of(state.captured), state.tricks_won
        )
        while not match.is_chance and not match.is_over:
            match.apply(match.legal_actions()[0])
        result = match.results[-1]
        assert ending.ended == (result.tens, result.tricks_won)
        compared += 1


def test_values_nothing_once_the_result_is_settled() -> None:
    assert _stakes_of((PRESETS["mendikot"], True, (3, 0), (5, 2), 6, 0.0, 0.5)) == (0.0, 0.0)
    ten, trick = _stakes_of((PRESETS["mendikot"], True, (2, 2), (5, 4), 4, 0.0, 0.5))
    assert ten == 0.0 and trick > 0.5  # at two tens each, tricks decide
    assert _stakes_of((PRESETS["pagat"], False, (2, 0), (3, 3), 7, 0.0, 0.5)) == (0.0, 0.0)  # non-dealers already won
    assert _stakes_of((PRESETS["pagat"], True, (2, 0), (3, 3), 7, 0.0, 0.5))[0] > 1.0  # dealers still need a third


# ---------------------------------------------------------------------------------------------
# Strength (a quick sanity check; the real figures come from benchmarks/bench_heuristic.py)


def test_beats_random_in_duplicate_pagat() -> None:
    wins = 0
    deals = 60
    for index in range(deals):
        rng = random.Random(f"sanity:{index}")
        dealer = index % 4
        deal = Match("pagat", dealer).random_deal(rng)
        for team in (0, 1):
            match = Match("pagat", dealer)
            match.apply(deal)
            players = [HeuristicBot(seat) if seat % 2 == team else RandomBot(seat) for seat in range(4)]
            while not match.results:
                seat = match.to_act
                assert seat is not None
                match.apply(players[seat].act(match.observe(seat)))
            wins += match.results[0].winner == team
    assert wins >= 0.7 * 2 * deals


def test_plays_are_interned_actions() -> None:
    match = position("mendikot", 3, DUMP_HANDS, "2S AS 3S")
    action = HeuristicBot().act(match.observe(3))
    assert isinstance(action, Play)


def test_does_not_trump_a_trick_its_partner_is_winning() -> None:
    """Pagat, clubs trump: partner (seat 1) is winning trick 4 with the ace of diamonds; seat 3, void in diamonds,
    keeps its trump (4C) and throws a small heart: whichever of the two takes the trick, the team has it."""
    hands = [
        "9H 2C 8H 5S AC KS JD 9S QS 7H QD 6C QH",
        "JS AD 10C 8C 10D 8D KC 4D KD 9C 3C 6D 7C",
        "10H 3S 9D KH 6S 6H 5D JC 3D 5H 2D 2S 5C",
        "4H AH 2H 7D 7S AS JH 8S QC 3H 4S 4C 10S",
    ]
    match = position("pagat", 3, hands, "call C 9S JS 2S 10S KD 2D 7D JD 10C JC QC AC QD AD 3D")
    assert decide(match) == "2H"
    seat = match.to_act
    assert seat is not None
    without_the_rule = HeuristicBot(0, Weights(trump_partner=0.0)).act(match.observe(seat))
    assert str(without_the_rule) == "4C"  # the card the rule keeps it from playing


@pytest.mark.parametrize("preset", ["pagat", "taash", "mendikot-band"])
def test_ranked_puts_the_card_it_would_play_first(preset: str) -> None:
    """``ranked`` orders every legal action by the same values ``act`` chooses by (before the exact endgame)."""
    rng = random.Random(f"ranked-{preset}")
    bot = HeuristicBot(1)
    checked = 0
    for _ in range(4):
        match = Match.new(preset, rng)
        match.apply(match.random_deal(rng))
        while not match.is_chance and not match.is_over:
            seat = match.to_act
            assert seat is not None
            seen = match.observe(seat)
            action = bot.act(seen)
            if match.phase.value == "play" and len(seen.hand) > bot.weights.endgame and len(seen.legal_actions) > 1:
                ranked = bot.ranked(seen)
                assert sorted(map(str, ranked)) == sorted(map(str, seen.legal_actions))
                assert ranked[0] == action
                checked += 1
            match.apply(action)
    assert checked > 20
