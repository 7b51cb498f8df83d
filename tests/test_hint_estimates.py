"""The hard bot's hint says where its move was played out rather than solved (nothing solvable yet) and adds the
playout estimate.

The hinter here gives each sample a fixed, tiny node budget (``SearchSettings(sample_nodes=...)``) so that the
first trick of a full deal is never solved, whatever the machine's speed, and the last tricks always are.
"""

from __future__ import annotations

import random
import re

from dehla.bots.search import SearchBot, SearchSettings, estimate_action, move_source
from dehla.engine.actions import Deal
from dehla.engine.observe import Observation
from dehla.engine.phase import Phase
from dehla.engine.state import Match
from dehla.terminal.plain import TerminalPlayer

ESTIMATE = re.compile(
    r"~ estimate for it: ([+-]\d\.\d\d) for your team \(the hand's points margin, -1 lost to \+1 won; "
    r"(\d+) sampled deals; not exact\)"
)


def _hinter() -> SearchBot:
    return SearchBot(0, settings=SearchSettings(sample_nodes=2_000))


def _first_lead(seed: int) -> Match:
    """A full ``pagat`` deal at its first lead (trump called)."""
    rng = random.Random(seed)
    match = Match.new("pagat", rng)
    match.apply(match.random_deal(rng))
    while match.phase is not Phase.PLAY:
        match.apply(match.legal_actions()[0])
    return match


def _hint_lines(observation: Observation) -> list[str]:
    """What ``hint`` prints in plain ``dehla play`` (then the person plays the first legal action)."""
    out: list[str] = []
    answers = iter(["hint", str(observation.legal_actions[0])])
    player = TerminalPlayer(["a", "b", "c", "d"], lambda: "", read=lambda _prompt: next(answers), write=out.append)
    player._hinter = _hinter()  # type: ignore[attr-defined]
    player.act(observation)
    start = next(index for index, line in enumerate(out) if "hint:" in line)
    return out[start : start + 2]


def test_plain_hint_says_the_move_was_played_out_and_gives_the_playout_estimate() -> None:
    match = _first_lead(11)
    seat = match.to_act
    assert seat is not None
    observation = match.observe(seat)
    first, second = _hint_lines(observation)
    played = first.rsplit(" ", 1)[-1]
    assert first.startswith("  hint: the hard bot would play ")
    assert played in {str(action) for action in observation.legal_actions}
    assert "sampled deals with a fast policy, none solved exactly" in second
    found = ESTIMATE.search(second)
    assert found, second
    assert -1.0 <= float(found.group(1)) <= 1.0 and 1 <= int(found.group(2)) <= 64


def test_plain_hint_late_in_the_hand_is_solved_and_adds_no_estimate() -> None:
    rng = random.Random(5)
    match = _first_lead(5)
    while len(match.tricks) < 10:
        match.apply(rng.choice(match.legal_actions()))
    seat = match.to_act
    assert seat is not None
    observation = match.observe(seat)
    if len(observation.legal_actions) < 2:
        match.apply(observation.legal_actions[0])
        seat = match.to_act
        assert seat is not None
        observation = match.observe(seat)
    lines = _hint_lines(observation)
    assert lines[0].startswith("  hint: the hard bot would play ")
    assert not any("estimate" in line or "heuristic" in line for line in lines)


def test_the_estimate_sees_only_the_observation_and_names_where_the_move_came_from() -> None:
    first_view, second_view = _two_deals_one_view(11)
    bot = _hinter()
    action = bot.act(first_view)
    assert move_source(bot, first_view) == "playout"
    # Two deals that differ only in cards this seat cannot see give the same estimate: nothing hidden goes in.
    first = estimate_action(first_view, action, seed=3, max_samples=4, seconds=60.0)
    again = estimate_action(second_view, action, seed=3, max_samples=4, seconds=60.0)
    assert first is not None and first == again and first.samples == 4
    assert -1.0 <= first.margin <= 1.0 and first.scale == 1


def _two_deals_one_view(seed: int) -> tuple[Observation, Observation]:
    """The first lead's seat in two ``pagat`` deals that differ only in the other seats' cards."""
    rng = random.Random(seed)
    match = Match.new("pagat", rng)
    deal = match.random_deal(rng)
    match.apply(deal)
    public = []
    while match.phase is not Phase.PLAY:
        public.append(match.legal_actions()[0])
        match.apply(public[-1])
    seat = match.to_act
    assert seat is not None
    unseen = [card for other, hand in enumerate(deal.hands) if other != seat for card in hand]
    rng.shuffle(unseen)
    hands = [list(hand) if other == seat else [unseen.pop() for _ in hand] for other, hand in enumerate(deal.hands)]
    twin = Match(match.rules, match.dealer)
    twin.apply(Deal(hands, deal.open_draw))
    for action in public:
        twin.apply(action)
    assert twin.hand_state().hands != match.hand_state().hands
    view, twin_view = match.observe(seat), twin.observe(seat)
    assert view == twin_view
    return view, twin_view


def test_the_band_hukum_hide_gets_an_estimate_from_the_choosers_view_alone() -> None:
    rng = random.Random(4)
    match = Match.new("mendikot-band", rng)
    deal = match.random_deal(rng)
    match.apply(deal)
    chooser = match.to_act
    assert chooser is not None and match.phase is Phase.HIDE
    unseen = [card for seat, hand in enumerate(deal.hands) if seat != chooser for card in hand]
    rng.shuffle(unseen)
    hands = [list(hand) if seat == chooser else [unseen.pop() for _ in hand] for seat, hand in enumerate(deal.hands)]
    twin = Match(match.rules, match.dealer)
    twin.apply(Deal(hands, deal.open_draw))
    view, twin_view = match.observe(chooser), twin.observe(chooser)
    assert view == twin_view and view.phase == "hide"
    action = view.legal_actions[0]
    first = estimate_action(view, action, seed=2, max_samples=4, seconds=60.0)
    again = estimate_action(twin_view, action, seed=2, max_samples=4, seconds=60.0)
    assert first is not None and first == again and first.samples == 4
    assert -1.0 <= first.margin <= 1.0


def test_plain_hint_at_the_trump_call_says_it_was_played_out_and_estimates_the_call() -> None:
    rng = random.Random(8)
    match = Match.new("pagat", rng)
    match.apply(match.random_deal(rng))
    seat = match.to_act
    assert seat is not None and match.phase is Phase.CALL
    first, second = _hint_lines(match.observe(seat))
    assert first.startswith("  hint: the hard bot would play call ")
    assert "sampled deals with a fast policy, none solved exactly" in second
    found = ESTIMATE.search(second)
    assert found, second
    assert -1.0 <= float(found.group(1)) <= 1.0 and int(found.group(2)) >= 1
