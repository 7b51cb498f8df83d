"""Search bots: samples agree with what the seat saw, moves are legal, cheat needs the truth, hints work."""

from __future__ import annotations

import random

import pytest

from dehla.bots import BOTS, make_bot
from dehla.bots.heuristic import HeuristicBot
from dehla.bots.sampling import SampleRejected
from dehla.bots.search import (
    NODES_PER_SECOND,
    CheatBot,
    NodeRate,
    Samples,
    SearchBot,
    SearchSettings,
    determinize,
    settled,
    utility,
)
from dehla.bots.tracking import CardTracker
from dehla.cards import Card
from dehla.engine.actions import Play
from dehla.engine.state import Match, Phase
from dehla.errors import DehlaError
from dehla.rules import PRESETS
from dehla.solver import Solver, objective_for
from dehla.terminal.plain import TerminalPlayer


def _random_position(preset: str, rng: random.Random, stop: float) -> Match:
    """A random game stopped at some decision of the first hand (about ``stop`` of the way through)."""
    match = Match.new(preset, rng)
    match.apply(match.random_deal(rng))
    while match.phase in (Phase.CALL, Phase.HIDE, Phase.PLAY):
        if rng.random() < stop and match.phase is Phase.PLAY:
            return match
        match.apply(rng.choice(match.legal_actions()))
    match = Match.new(preset, rng)  # the hand ended first: take the start of a new one
    match.apply(match.random_deal(rng))
    return match


@pytest.mark.parametrize("preset", list(PRESETS))
def test_samples_rebuild_the_observed_position(preset: str) -> None:
    rng = random.Random(f"determinize-{preset}")
    checked = 0
    for _ in range(25):
        match = _random_position(preset, rng, rng.choice((0.02, 0.05, 0.1, 0.3)))
        if match.phase is not Phase.PLAY:
            continue
        seat = match.to_act
        assert seat is not None
        seen = match.observe(seat)
        tracker = CardTracker(seen)
        for _ in range(4):
            try:
                sample = determinize(seen, tracker.sample(rng))
            except SampleRejected:
                continue
            again = sample.observe(seat)
            # Everything the seat saw is the same in the sample...
            assert again.hand == seen.hand
            assert again.trick == seen.trick
            assert again.tricks == seen.tricks
            assert again.history == seen.history
            assert (again.trump, again.trump_hidden, again.undealt, again.hand_sizes) == (
                seen.trump,
                seen.trump_hidden,
                seen.undealt,
                seen.hand_sizes,
            )
            assert again.legal_actions == seen.legal_actions
            checked += 1
    assert checked >= 20


def test_samples_do_not_leak_the_hidden_card() -> None:
    rng = random.Random(1)
    for _ in range(20):
        match = Match.new("mendikot-band", rng)
        match.apply(match.random_deal(rng))
        match.apply(match.legal_actions()[0])  # the chooser hides a card
        seat = (match.hand_state().chooser + 1) % 4  # type: ignore[operator]
        while match.to_act != seat:
            match.apply(rng.choice([a for a in match.legal_actions() if str(a) != "reveal"]))
        if match.hand_state().hidden_card is None:
            continue
        seen = match.observe(seat)
        assert "hide ?" in seen.history
        tracker = CardTracker(seen)
        hidden = set()
        for _ in range(30):
            try:
                hidden.add(determinize(seen, tracker.sample(rng)).hand_state().hidden_card)
            except SampleRejected:
                continue
        assert len(hidden) > 3  # many different cards, not the true one every time
        return
    pytest.fail("no position with the trump still hidden")


@pytest.mark.parametrize("preset", ["pagat", "pagat-cut", "taash", "mendikot", "mendikot-band", "mendikot-6"])
def test_hard_bot_plays_legal_moves_to_the_end(preset: str) -> None:
    rng = random.Random(preset)
    match = Match.new(preset, rng)
    bots = [
        SearchBot(seed, budget=0.03, max_samples=6) if seat % 2 == 0 else make_bot("random", seed)
        for seat, seed in enumerate(range(match.players))
    ]
    match.apply(match.random_deal(rng))
    sampled = 0
    while not match.is_chance and not match.is_over:
        seat = match.to_act
        assert seat is not None
        seen = match.observe(seat)
        action = bots[seat].act(seen)
        assert action in seen.legal_actions
        if isinstance(bots[seat], SearchBot):
            sampled += bots[seat].last_samples  # type: ignore[attr-defined]
        match.apply(action)
    assert match.results
    assert sampled > 0  # the end of the hand is small enough to solve samples


def test_hard_bot_solves_its_samples_only_as_far_as_who_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    # The bot plays to win hands, as its playouts do: in Taash (20, 30 or 80 points) it never asks by how much.
    asked: list[bool] = []
    results = Solver.results

    def spy(solver: Solver, *args: object, winner_only: bool = False) -> object:
        asked.append(winner_only)
        return results(solver, *args, winner_only=winner_only)  # type: ignore[arg-type]

    monkeypatch.setattr(Solver, "results", spy)
    rng = random.Random("winner")
    match = Match.new("taash", rng)
    match.apply(match.random_deal(rng))
    bot = SearchBot(1, settings=SearchSettings(sample_nodes=50_000, playout_worlds=16))
    while not match.is_chance and not match.is_over and match.hand_number == 0:
        seat = match.to_act
        assert seat is not None
        seen = match.observe(seat)
        match.apply(bot.act(seen) if seat % 2 == 0 else HeuristicBot(seat).act(seen))
    assert asked and all(asked)


def test_cheat_needs_the_truth_and_plays_double_dummy_best() -> None:
    rng = random.Random(4)
    match = _random_position("mendikot", rng, 0.0)
    while len(match.tricks) < 9:
        match.apply(rng.choice(match.legal_actions()))
    cheat = CheatBot(1)
    seat = match.to_act
    assert seat is not None
    with pytest.raises(DehlaError, match="bind"):
        cheat.act(match.observe(seat))
    cheat.bind(match)
    action = cheat.act(match.observe(seat))
    solution = Solver(table_bits=16).solve(match)
    assert solution.actions[action].net == solution.value.net  # keeps the hand's result under best play
    for trial in range(10):
        other = _random_position("pagat", random.Random(trial), 0.0)
        while len(other.tricks) < 8:
            other.apply(rng.choice(other.legal_actions()))
        bound = CheatBot(trial)
        bound.bind(other)
        seat = other.to_act
        assert seat is not None
        solution = Solver(table_bits=16).solve(other)
        assert solution.actions[bound.act(other.observe(seat))].net == solution.value.net


def test_registry_levels_and_labels() -> None:
    assert (BOTS["hard"].level, BOTS["hard"].label) == (2, "advanced")
    assert (BOTS["expert"].level, BOTS["expert"].label) == (3, "expert")
    assert BOTS["cheat"].level > BOTS["expert"].level
    assert "sees all cards" in BOTS["cheat"].description and "measurement" in BOTS["cheat"].description
    assert isinstance(make_bot("hard", 1), SearchBot)
    expert = make_bot("expert", 1)
    assert isinstance(expert, SearchBot) and expert.budget > make_bot("hard", 1).budget  # type: ignore[attr-defined]


def test_the_registry_says_which_bots_think_with_the_solver() -> None:
    # hosts warm the kernel for these and a server moves them to its worker processes
    thinking = {name for name, info in BOTS.items() if info.uses_solver}
    assert thinking == {"hard", "expert", "cheat"}
    assert all(isinstance(make_bot(name, 1), SearchBot | CheatBot) for name in thinking)


def test_utility_puts_the_result_first() -> None:
    objective = objective_for(PRESETS["mendikot"], 0)
    values = objective.values
    assert [utility(value, 0) for value in values] == sorted(utility(value, 0) for value in values)
    assert [utility(value, 1) for value in values] == sorted((utility(value, 1) for value in values), reverse=True)


def test_hint_in_terminal_play() -> None:
    rng = random.Random(8)
    match = _random_position("mendikot", rng, 0.0)
    while len(match.tricks) < 10:
        match.apply(rng.choice(match.legal_actions()))
    seat = match.to_act
    assert seat is not None
    out: list[str] = []
    answers = iter(["hint", str(match.legal_actions()[0])])
    player = TerminalPlayer(["a", "b", "c", "d"], lambda: "", read=lambda _prompt: next(answers), write=out.append)
    player.act(match.observe(seat))
    hint = next(line for line in out if "hint" in line)
    played = hint.rsplit(" ", 1)[-1]
    assert played in {str(action) for action in match.legal_actions()}


def test_settled_needs_the_best_action_never_worse_or_clearly_better() -> None:
    low, high = Play(Card.parse("2H")), Play(Card.parse("AH"))
    samples = Samples({low: [1.0, 0.0, 1.0, 1.0], high: [0.0, 0.0, 1.0, 0.0]})
    assert settled(samples, low, 3.0)  # never worse in any sample
    samples = Samples({low: [1.0, 0.0, 1.0, 1.0], high: [0.0, 1.0, 1.0, 0.0]})
    assert not settled(samples, low, 3.0)  # worse once: the advantage is 2/4 with a large error, not settled
    many = Samples({low: [1.0] * 30 + [0.0], high: [0.0] * 30 + [1.0]})
    assert settled(many, low, 3.0)  # worse once in 31, far ahead on average
    assert not settled(Samples({low: [1.0], high: [0.0]}), low, 3.0)  # one sample is never enough


def test_settled_waits_longer_when_the_best_action_only_ties() -> None:
    """With results only, two actions that tied in every deal so far may still part: a tie settles only after
    ``ties_after`` samples, while an action never worse and sometimes better settles as before."""
    low, high = Play(Card.parse("2H")), Play(Card.parse("AH"))
    tied = Samples({low: [1.0] * 8, high: [1.0] * 8})
    assert settled(tied, low, 3.0)
    assert not settled(tied, low, 3.0, ties_after=16)
    assert settled(Samples({low: [1.0] * 16, high: [1.0] * 16}), low, 3.0, ties_after=16)
    ahead = Samples({low: [1.0] * 8, high: [1.0] * 7 + [-1.0]})
    assert settled(ahead, low, 3.0, ties_after=16)


def test_samples_mean_is_shared_by_every_action() -> None:
    low, high = Play(Card.parse("2H")), Play(Card.parse("AH"))
    samples = Samples.empty([low, high])
    assert samples.mean(low) == float("-inf")  # no sample yet
    samples.add({low: 1.0, high: 0.0})
    samples.add({low: 0.0, high: 1.0})
    assert len(samples) == 2
    assert samples.mean(low) == samples.mean(high) == 0.5
    samples.add({low: 1.0, high: 0.5})
    assert samples.mean(low) == 2 / 3 and samples.mean(high) == 0.5


def test_hard_bot_stops_early_on_clear_moves_with_the_same_choice() -> None:
    """Late in a hand moves are cheap and often clear: the bot then stops after ``settle_after`` samples,
    mostly with the choice it would have made after all of them (close calls may go either way)."""
    rng = random.Random(11)
    early = agreed = 0
    for _ in range(12):
        match = _random_position("mendikot", rng, 0.0)
        while len(match.tricks) < 8:
            match.apply(rng.choice(match.legal_actions()))
        seat = match.to_act
        assert seat is not None
        if len(match.legal_actions()) < 2:
            continue
        # Without inference: the random play that made these positions is what no sensible player does.
        eager = SearchBot(1, max_samples=40, settings=SearchSettings(sample_nodes=200_000, settle_after=8))
        patient = SearchBot(1, max_samples=40, settings=SearchSettings(sample_nodes=200_000, settle_after=0))
        eager_choice = eager.act(match.observe(seat))
        patient_choice = patient.act(match.observe(seat))
        assert patient.last_samples == 40
        assert 8 <= eager.last_samples <= 40
        if eager.last_samples < 40:
            early += 1
            agreed += eager_choice == patient_choice
    # Stopping early is a bet that more samples would not change the choice: it mostly holds.
    assert early >= 3
    assert agreed >= 2 * early / 3


def _first_lead(seed: int) -> tuple[Match, int]:
    """A full ``pagat`` deal just after the trump call, and the seat to lead: far too big to solve in a move."""
    rng = random.Random(seed)
    match = Match.new("pagat", rng)
    match.apply(match.random_deal(rng))
    match.apply(match.legal_actions()[0])  # the trump call
    seat = match.to_act
    assert seat is not None
    return match, seat


def test_hard_bot_stops_trying_where_first_samples_keep_failing() -> None:
    """At the first tricks of a full deal samples are too big to solve; once the bot has seen that, it mostly
    plays as the heuristic there without trying (one move in ten still tries, to keep its figures current)."""
    match, seat = _first_lead(5)
    seen = match.observe(seat)
    # A budget shorter than one sample's node limit tries one sample a move, and without playouts nothing else
    # draws from the bot's generator, so which samples it tries does not depend on the machine's speed.
    bot = SearchBot(3, budget=0.004, settings=SearchSettings(playouts=False))
    key = (seen.rules, 0)  # (rules, tricks played)
    odds = bot.solve_odds
    for _ in range(4):  # the first tries all fail: a full deal is far beyond 20,000 nodes
        assert bot.act(seen) in seen.legal_actions
        assert bot.last_samples == 0
    assert odds.counts[key] == [4, 0]
    for _ in range(40):
        assert bot.act(seen) in seen.legal_actions
    assert 4 < odds.counts[key][0] < 4 + 15  # a few more tries, far fewer than the moves
    assert SearchBot(3, budget=0.02).solve_odds.counts == {}  # what a bot learned dies with it


def test_the_first_sample_of_a_move_gets_a_quarter_of_the_budget() -> None:
    """Where the first sampled deal cannot be solved in a quarter of the budget the playouts get the rest (the
    whole budget for it won no more hands on held-out deals, docs/benchmarks.md)."""
    match, seat = _first_lead(5)
    bot = SearchBot(3, budget=0.1, settings=SearchSettings(playouts=False))
    quarter = bot.node_rate.limit(bot.budget / 4)
    assert bot.node_rate.limit(bot.budget) > 3 * quarter  # far above the floor, so the two differ
    bot.act(match.observe(seat))
    assert bot.last_samples == 0  # a full deal does not fit 50,000 nodes: the first sample was the only one
    assert bot.solver.node_limit == quarter


def test_a_samples_node_limit_follows_the_node_rate_the_bot_measured_on_its_own_solves() -> None:
    """On a host slower than ``NODES_PER_SECOND`` assumes, the bot gives its samples fewer nodes, so a move keeps
    to its budget."""
    rate = NodeRate()
    assert rate.limit(0.5) == int(0.5 * NODES_PER_SECOND)
    rate.record(nodes=300_000, seconds=1.5)  # a host three times slower than NODES_PER_SECOND says
    slower = (NODES_PER_SECOND * NodeRate.PRIOR_SECONDS + 300_000) / (NodeRate.PRIOR_SECONDS + 1.5)
    assert rate.limit(0.5) == int(0.5 * slower) < int(0.5 * NODES_PER_SECOND) / 2
    assert rate.limit(0.0001) == 20_000  # never less than a sample worth trying

    rng = random.Random(2)
    match = Match.new("mendikot", rng)
    match.apply(match.random_deal(rng))
    while match.hand_state().hands[0].bit_count() > 5:  # late in the hand (card masks), where samples are solved
        match.apply(match.legal_actions()[0])
    seat = match.to_act
    assert seat is not None
    bot = SearchBot(1, budget=0.2)
    bot.node_rate.record(nodes=0, seconds=1000.0)  # as if the solver had been very slow: every limit is the least
    bot.act(match.observe(seat))
    assert bot.last_samples >= 1
    assert bot.solver.node_limit == 20_000
    assert bot.node_rate.seconds > 1000.0  # and the bot went on measuring


def test_search_settings_are_checked() -> None:
    with pytest.raises(DehlaError, match="nodes"):
        SearchSettings(sample_nodes=0)


def test_after_the_band_hukum_reveal_every_seat_samples_deals() -> None:
    """Once the hidden card is turned up, a seat that did not choose it still sees ``hide ?`` in the history:
    the replay of a sampled deal hides the card now known to all, so the bot searches instead of giving up."""
    searched = 0
    for seed in range(4):
        rng = random.Random(seed)
        match = Match.new("mendikot-band", rng)
        match.apply(match.random_deal(rng))
        players = [HeuristicBot(seat) for seat in range(4)]
        while not match.is_chance and not match.is_over:
            seat = match.to_act
            assert seat is not None
            seen = match.observe(seat)
            if seen.revealed_card is not None and seat != seen.chooser and len(seen.legal_actions) > 1:
                assert "hide ?" in seen.history
                bot = SearchBot(seed, max_samples=3, settings=SearchSettings(sample_nodes=200_000))
                assert bot.act(seen) in seen.legal_actions
                # Sampled deals were solved, or (early in the hand, past the node limit) played out.
                assert bot.last_samples > 0 or bot.last_playouts > 0
                searched += 1
                if searched >= 3 * (seed + 1):
                    break
            match.apply(players[seat].act(seen))
    assert searched >= 6
