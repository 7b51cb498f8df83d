"""The game as an OpenSpiel Python game: ``pyspiel.load_game("python_dehla", {"rules": "pagat"})``.

Importing this module registers ``python_dehla`` with ``pyspiel``.  One game is one hand; the players are
the seats.  Chance deals it the way OpenSpiel deals its own card games: first the dealer (one outcome
per seat, as the draw by lot), then for open draw the card shown, then the pack one card at a time
(outcome = card number; the k-th card goes to seat k // hand size, so each seat's first five are its
opening packet).  Player actions are the indices of ``dehla.features.observation.ACTIONS``.  Returns: +1 to
the seats of the team that won the hand, -1 to the others, 0 to all for a drawn hand (zero sum).

What each seat is told comes from ``Match.observe(seat)``: the observation tensor is
``encoding.encode`` of it (the information-state tensor is the same vector), the observation string
its words, and the information-state string the seat's hand and hidden card with the hand's actions
as that seat saw them (the hidden card shown as ``hide ?`` to all but its chooser).
``resample_from_infostate`` deals the cards that seat cannot see at random, consistent with
everything it saw (the card tracker of the search bots), and replays the hand's actions on that deal.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pyspiel

from dehla.bots.search import determinize
from dehla.bots.tracking import CardTracker
from dehla.engine.actions import Deal, parse_action
from dehla.engine.observe import Observation, action_text_for
from dehla.engine.state import Match
from dehla.envs.common import hand_reward
from dehla.errors import DehlaError
from dehla.features.observation import (
    ACTIONS,
    HIDE_OFFSET,
    NUM_ACTIONS,
    action_index,
    action_mask,
    encode,
    observation_size,
)
from dehla.rules import Rules, parse_rules, preset
from dehla.text import hand_text

__all__ = ["GAME_NAME", "DehlaGame", "DehlaState", "game_type", "load"]

GAME_NAME = "python_dehla"
_DEFAULT_RULES = "pagat"
#: Most decisions in a hand: a call or a hide, every card, and (band hukum) a reveal in each trick.
_MAX_DECISIONS = 1 + 52 + 13


def game_type() -> Any:
    """The ``pyspiel.GameType`` registered as ``python_dehla`` (parameter ``rules``: a preset name or JSON)."""
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Python Dehla Pakad / Mendikot",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=8,
        min_num_players=4,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"rules": _DEFAULT_RULES},
    )


def _rules_param(value: object) -> Rules:
    """The ``rules`` parameter: a preset name, or rules JSON as text (``{"preset": "taash", "target": 200}``)."""
    if isinstance(value, str) and value.lstrip().startswith("{"):
        import json

        return parse_rules(json.loads(value))
    if isinstance(value, str):
        return preset(value)
    return parse_rules(value)


class DehlaGame(pyspiel.Game):
    """One hand of the rules given; players are the seats."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.rules = _rules_param(params.get("rules", _DEFAULT_RULES))
        players = self.rules.players
        pack = self.rules.deck_size
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=1 + 1 + pack + _MAX_DECISIONS,
        )
        super().__init__(game_type(), info, {"rules": params.get("rules", _DEFAULT_RULES)})

    def new_initial_state(self) -> DehlaState:
        return DehlaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> DehlaObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return DehlaObserver(self.rules, perfect_recall)


class _Hand:
    """The Python side of a state: the match, the deal so far, and the hand's decisions.

    Cloning a pyspiel Python state deep-copies its attributes; this one copies through ``Match.clone``.
    """

    __slots__ = ("rules", "match", "dealt", "dealer", "open_draw", "actions")

    def __init__(self, match: Match) -> None:
        self.rules: Rules = match.rules
        self.match = match
        self.dealt: list[int] = []
        self.dealer: int | None = None
        self.open_draw: int | None = None
        self.actions: list[int] = []  # the hand's decisions, as action indices

    def __deepcopy__(self, memo: dict[int, Any]) -> _Hand:
        other = _Hand.__new__(_Hand)
        other.rules = self.rules
        other.match = self.match.clone()
        other.dealt = list(self.dealt)
        other.dealer = self.dealer
        other.open_draw = self.open_draw
        other.actions = list(self.actions)
        return other


class DehlaState(pyspiel.State):
    """A hand in progress: chance deals it, then the seats act until it is scored."""

    def __init__(self, game: DehlaGame) -> None:
        super().__init__(game)
        self.hand = _Hand(Match(game.rules))

    @property
    def rules(self) -> Rules:
        return self.hand.rules

    # -- chance --------------------------------------------------------------------------------

    def _pack(self) -> list[int]:
        return [card for card in range(52) if self.rules.players == 4 or card % 13 != 0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        hand = self.hand
        if hand.dealer is None:
            players = self.rules.players
            return [(seat, 1.0 / players) for seat in range(players)]
        if self.rules.trump == "open_draw" and hand.open_draw is None:
            pack = self._pack()
            return [(card, 1.0 / len(pack)) for card in pack]
        dealt = set(hand.dealt)
        left = [card for card in self._pack() if card not in dealt]
        return [(card, 1.0 / len(left)) for card in left]

    def _deal_complete(self) -> None:
        hand = self.hand
        size = self.rules.hand_size
        hands = [hand.dealt[seat * size : (seat + 1) * size] for seat in range(self.rules.players)]
        hand.match.apply(Deal(hands, hand.open_draw))

    # -- pyspiel API ---------------------------------------------------------------------------

    def current_player(self) -> int:
        match = self.hand.match
        if match.is_over or (match.is_chance and match.results):  # one hand is the game
            return int(pyspiel.PlayerId.TERMINAL)
        if match.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        to_act = match.to_act
        assert to_act is not None
        return to_act

    def _legal_actions(self, player: int) -> list[int]:
        match = self.hand.match
        if match.to_act != player:
            return []
        return sorted(action_index(action) for action in match.legal_actions())

    def _apply_action(self, action: int) -> None:
        hand = self.hand
        match = hand.match
        if match.is_chance:
            if hand.dealer is None:
                hand.match = Match(self.rules, int(action))
                hand.dealer = int(action)
            elif self.rules.trump == "open_draw" and hand.open_draw is None:
                hand.open_draw = int(action)
            else:
                hand.dealt.append(int(action))
                if len(hand.dealt) == self.rules.deck_size:
                    self._deal_complete()
            return
        match.apply(ACTIONS[action])
        hand.actions.append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            hand = self.hand
            if hand.dealer is None:
                return f"dealer {action}"
            if self.rules.trump == "open_draw" and hand.open_draw is None:
                return f"open draw {ACTIONS[action]}"
            return f"deal {ACTIONS[action]}"
        return str(ACTIONS[action])

    def is_terminal(self) -> bool:
        match = self.hand.match
        return bool(match.results) and (match.is_chance or match.is_over)

    def returns(self) -> list[float]:
        match = self.hand.match
        players = self.rules.players
        if not self.is_terminal():
            return [0.0] * players
        result = match.results[-1]
        return [hand_reward(result, seat) for seat in range(players)]

    def __str__(self) -> str:
        match = self.hand.match
        if match.is_chance and not match.results:
            return f"dealing: {len(self.hand.dealt)} cards dealt, dealer {self.hand.dealer}"
        lines = [f"rules {self.rules.name}, dealer {match.dealer}, phase {match.phase.value}"]
        lines.extend(
            f"seat {seat}: {hand_text(match.observe(seat).hand, symbols=False)}" for seat in range(self.rules.players)
        )
        lines.append("actions: " + " ".join(str(ACTIONS[index]) for index in self.hand.actions))
        return "\n".join(lines)

    # -- what a seat sees ----------------------------------------------------------------------

    def observation_of(self, player: int) -> Observation:
        """``player``'s ``Observation`` (the only view anything here is built from)."""
        return self.hand.match.observe(player)

    def information_state_text(self, player: int) -> str:
        """Perfect recall: the seat, the dealer, its cards, and every action of the hand as it saw them."""
        observation = self.observation_of(player)
        hand = self.hand
        private: list[int] = list(observation.hand)
        if hand.match.is_chance and not hand.match.results:  # still dealing: the cards this seat has been dealt
            private = [card for index, card in enumerate(hand.dealt) if index // self.rules.hand_size == player]
        parts = [
            f"seat {player}",
            f"dealer {hand.dealer if hand.dealer is not None else '-'}",
            "hand " + " ".join(str(ACTIONS[card]) for card in private),
        ]
        if observation.hidden_card is not None:
            parts.append(f"hidden {observation.hidden_card}")
        if hand.open_draw is not None:
            parts.append(f"open draw {ACTIONS[hand.open_draw]}")
        if observation.trump is not None:  # as it became known: called, cut, drawn or turned up
            parts.append(f"trump {observation.trump.name}")
        if observation.revealed_card is not None:
            parts.append(f"revealed {observation.revealed_card}")
        parts.append("actions " + " ".join(self._history(player, observation.chooser)))
        return "; ".join(parts)

    def _history(self, player: int, chooser: int | None) -> list[str]:
        """The hand's actions as ``player`` saw them: ``Observation.history``, kept after the hand too."""
        return [action_text_for(str(ACTIONS[index]), chooser, player) for index in self.hand.actions]

    def observation_text(self, player: int) -> str:
        """The seat's view now, in short words (no history)."""
        o = self.observation_of(player)
        trick = " ".join(f"{seat}:{card}" for seat, card in o.trick)
        trump = "hidden" if o.trump_hidden else ("-" if o.trump is None else o.trump.name)
        return (
            f"seat {player}; phase {o.phase}; dealer {o.dealer}; to act {o.to_act}; trump {trump}; "
            f"hand {' '.join(map(str, o.hand))}; trick {trick}; centre {' '.join(map(str, o.centre))}; "
            f"tens {o.tens[0]}-{o.tens[1]}; tricks {o.tricks_won[0]}-{o.tricks_won[1]}"
        )

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> DehlaState:
        """A state the seat cannot tell from this one: its own cards and everything it saw kept, the rest
        dealt at random consistent with it (only at the seat's own decision, where OpenSpiel's search asks)."""
        match = self.hand.match
        if match.to_act != player_id:
            raise DehlaError(f"resample_from_infostate: only for the seat to act ({match.to_act}), not {player_id}")
        observation = self.observation_of(player_id)
        try:
            seed = int(float(probability_sampler()) * 2**53)
        except Exception:  # a sampler that is not callable from Python: any seed will do
            seed = random.getrandbits(53)
        world = sample_world(observation, random.Random(seed))
        state: DehlaState = self.clone()  # made by pyspiel, so that it owns the copy it hands to C++ search
        state.hand.match = world
        state.hand.actions = _actions_in(world, observation)
        state.hand.dealt = []  # the real deal is not the sample's: nothing may read it
        return state


def sample_world(observation: Observation, rng: random.Random) -> Match:
    """A match of the hand in play that ``observation``'s seat cannot tell from the real one: its own cards
    and all it saw kept, the unseen cards dealt at random consistent with them (the search bots' tracker)."""
    if observation.revealed_card is not None and "hide ?" in observation.history:
        # Once turned up the hidden card is public; determinize reads it from the history, not the sample.
        shown = f"hide {observation.revealed_card}"
        observation = dataclasses.replace(
            observation, history=tuple(shown if text == "hide ?" else text for text in observation.history)
        )
    tracker = CardTracker(observation)
    for attempt in range(200):
        try:
            return determinize(observation, tracker.sample(rng, exact=attempt < 100))
        except Exception:  # a sample the history rules out: draw another
            continue
    raise DehlaError("no deal consistent with the observation was found")


def _actions_in(world: Match, observation: Observation) -> list[int]:
    """The hand's decisions in ``world`` as action indices: the observed history, the hidden card as sampled."""
    hidden = None
    if observation.chooser is not None:
        view = world.observe(observation.chooser)  # the sampled world's chooser, not the real one
        hidden = view.hidden_card if view.hidden_card is not None else view.revealed_card
    actions = []
    for text in observation.history:
        if text == "hide ?":
            if hidden is None:
                raise DehlaError("the sampled world has no hidden card")
            actions.append(HIDE_OFFSET + hidden)
        else:
            actions.append(action_index(parse_action(text)))
    return actions


def state_from_observation(game: DehlaGame, observation: Observation, rng: random.Random) -> DehlaState:
    """A state of ``game`` at ``observation``'s decision, in a world sampled from it (``sample_world``).

    This is how a bot that sees only an ``Observation`` hands OpenSpiel's search a state: the search
    resamples the unseen cards itself from the information state, which the sample does not change.
    """
    world = sample_world(observation, rng)
    state: DehlaState = game.new_initial_state()
    hand = state.hand
    hand.match = world
    hand.dealer = observation.dealer
    hand.open_draw = observation.open_draw
    hand.actions = _actions_in(world, observation)
    return state


class DehlaObserver:
    """OpenSpiel's Python observer: ``tensor`` (and ``dict``) from ``encode``, strings from the observation."""

    def __init__(self, rules: Rules, perfect_recall: bool) -> None:
        self.rules = rules
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(observation_size(rules.players), np.float32)
        self.dict = {"observation": self.tensor, "legal_actions": np.zeros(NUM_ACTIONS, np.float32)}

    def set_from(self, state: DehlaState, player: int) -> None:
        observation = state.observation_of(player)
        self.tensor[:] = encode(observation)
        self.dict["legal_actions"][:] = action_mask(observation)

    def string_from(self, state: DehlaState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_text(player)
        return state.observation_text(player)


def load(rules: Rules | str = _DEFAULT_RULES) -> Any:
    """``pyspiel.load_game("python_dehla", {"rules": ...})`` for a preset name or ``Rules`` value."""
    value = rules if isinstance(rules, str) else _rules_json_text(rules)
    return pyspiel.load_game(GAME_NAME, {"rules": value})


def _rules_json_text(rules: Rules) -> str:
    import json

    value = rules.to_json()
    return value if isinstance(value, str) else json.dumps(value)


pyspiel.register_game(game_type(), DehlaGame)
