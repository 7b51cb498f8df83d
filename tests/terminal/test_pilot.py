"""The full-screen table played by key presses through Textual's pilot: every step checked against the observation.

At each of the person's turns the screen must show what ``match.observe(seat)`` says (the hand by suit, the
legal actions, the trick's cards on the felt, trump, tricks per team, the score), and nothing else decides:
the keys only choose among ``legal_actions``.  Each hand is played to its result panel.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from pathlib import Path

import pytest
from tests.terminal.helpers import make_table, region_text, screen_text, settle
from textual.pilot import Pilot

from dehla.cards import Suit
from dehla.engine.actions import Call, Hide, Play, Reveal
from dehla.engine.observe import Observation
from dehla.record import read_records, replay
from dehla.terminal.app import Felt, HandView, ResultScreen, SaveScreen, TableApp, TextScreen
from dehla.terminal.words import card_text, trump_text
from dehla.text import score_text

SIZE = (100, 30)


def hand_on_screen(text: str) -> dict[str, list[str]]:
    """The ranks shown after each suit symbol on the ``Your hand`` line(s)."""
    shown: dict[str, list[str]] = {}
    words = text.replace("Your hand", "").split()
    suit = ""
    for word in words:
        if word in "♠♥♦♣" and word:
            suit = word
            shown[suit] = []
        elif suit and (word[0].isdigit() or word[0] in "JQKA"):
            shown[suit].append(word)
    return shown


def check_screen(app: TableApp, obs: Observation) -> None:
    """The screen says what the person's observation says."""
    hand = region_text(app, app.query_one(HandView))
    shown = hand_on_screen(hand.split("hidden:")[0].split("(+")[0])
    for suit in Suit:
        expected = [str(card)[:-1] for card in obs.hand if card.suit == suit]
        assert shown.get(suit.symbol, []) == expected, (suit, hand)
    prompt = region_text(app, app.query_one("#prompt"))
    assert prompt.strip().startswith("Legal:")
    for action in obs.legal_actions:
        if isinstance(action, Play):
            assert card_text(action.card) in prompt
    felt = region_text(app, app.query_one(Felt))
    for _, card in obs.trick:
        assert card_text(card) in felt
    assert "▶ You" in felt  # the turn marker is on the person
    side = region_text(app, app.query_one("#side"))
    assert " ".join(trump_text(obs).split())[:20] in " ".join(side.split())
    for team in (0, 1):
        assert f"tricks {obs.tricks_won[team]}" in side
    assert score_text(obs.score, obs.rules) in screen_text(app).splitlines()[0]


async def type_text(pilot: Pilot[object], text: str) -> None:
    await pilot.press(*["space" if char == " " else char for char in text])


async def play_one_hand(app: TableApp, pilot: Pilot[object], rng: random.Random) -> dict[str, int]:
    """Play the person's decisions by keys until the hand's result panel opens; count what was seen."""
    seen = {"turns": 0, "tricks": 0, "collections": 0, "typed": 0, "arrows": 0, "calls": 0, "hides": 0, "reveals": 0}
    while True:
        await settle(pilot, app)
        if isinstance(app.screen, ResultScreen):
            return seen
        if app.holding:
            moment = app.moment
            assert moment is not None
            felt = app.query_one(Felt)
            title = str(felt.border_title)
            if moment.trick is not None:
                seen["tricks"] += 1
                assert f"Trick {moment.trick.number} won by {app.names[moment.trick.winner]}" in title
                shown = region_text(app, felt)
                for card in moment.trick.cards:
                    assert card_text(card) in shown
            else:
                seen["collections"] += 1
                assert "collects the centre" in title
            await pilot.press("space")
            continue
        obs = app.view
        assert obs is not None and app.person_turn
        check_screen(app, obs)
        seen["turns"] += 1
        before = app.steps
        legal = obs.legal_actions
        calls = [action for action in legal if isinstance(action, Call)]
        if calls:
            call = rng.choice(calls)
            await type_text(pilot, f"call {call.suit.letter.lower()}")
            await pilot.press("enter")
            seen["calls"] += 1
        elif Reveal() in legal and rng.random() < 0.5:
            await type_text(pilot, "reveal")
            await pilot.press("enter")
            seen["reveals"] += 1
        else:
            cards = [action.card for action in legal if isinstance(action, Play | Hide)]
            target = rng.choice(cards)
            if isinstance(legal[0], Hide):
                seen["hides"] += 1
            if rng.random() < 0.5:
                await type_text(pilot, str(target).lower())  # "10h", as in the line-by-line mode
                await pilot.press("enter")
                seen["typed"] += 1
            else:
                order = [card for suit in Suit for card in obs.hand if card.suit == suit]  # as the hand is shown
                steps = (order.index(target) - order.index(app.selected)) % len(order) if app.selected else 0
                arrows = ["right"] * steps if steps <= len(order) // 2 else ["left"] * (len(order) - steps)
                if arrows:
                    await pilot.press(*arrows)  # arrows to the card, then Enter
                assert app.selected == target
                await pilot.press("enter")
                seen["arrows"] += 1
        await pilot.pause()
        await settle(pilot, app)
        assert app.steps > before, app.message  # the action was taken


def _a_card_that_makes_trump_is_logged_once(lines: list[str]) -> None:
    """A Taash cut is told by its own line ("NAME (seat N) cannot follow and plays ...: ... are trump") alone."""
    for before, line in itertools.pairwise(lines):
        if "cannot follow and plays" in line:
            name = line.split(" (seat ")[0]
            assert not before.startswith((f"{name} plays ", "You play ")), (before, line)


@pytest.mark.parametrize(("preset", "seat", "seed"), [("pagat", 0, 1), ("mendikot-band", 2, 1), ("taash", 1, 2)])
def test_a_whole_hand_by_key_presses(preset: str, seat: int, seed: int) -> None:
    app = make_table(preset, seed, me=seat)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            seen = await play_one_hand(app, pilot, random.Random(seed))
            assert seen["turns"] >= 5 and seen["tricks"] >= 5
            assert seen["typed"] and seen["arrows"]
            assert seen["calls"] == (preset == "pagat")  # seat 0 calls trump when seat 3 deals (seed 1)
            panel = screen_text(app)
            assert "Hand 1:" in panel and "tens" in panel and "tricks" in panel
            assert "result:" in panel
            results = app.view.results if app.view is not None else ()
            assert len(results) == 1
            _a_card_that_makes_trump_is_logged_once(app.log_lines)
            over = app.view is not None and app.view.match_over
            assert ("Next hand" in panel) != over
            if not over:
                await pilot.press("n")  # "Next hand": the next hand is dealt
                await settle(pilot, app)
                assert app.view is not None and app.view.hand_number == 1 and app.view.hand
            await pilot.press("ctrl+q")
        assert app.return_value is not None

    asyncio.run(run())


def test_band_hukum_the_chooser_hides_by_key_and_sees_the_hidden_card_others_do_not() -> None:
    # seat 0 chooses when seat 3 deals: find a seed where the lot makes seat 3 the dealer
    seed = next(seed for seed in range(50) if make_table("mendikot-band", seed).game.first_dealer == 3)
    app = make_table("mendikot-band", seed)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            obs = app.view
            assert obs is not None and obs.phase == "hide"
            assert "Hide" in str(app.query_one("#hide").label) and app.query_one("#hide").display
            assert "choose a card to hide" in screen_text(app)
            await pilot.press("right", "enter")  # the second card of the hand is hidden
            await settle(pilot, app)
            obs = app.view
            assert obs is not None and obs.hidden_card is not None
            assert f"hidden: {card_text(obs.hidden_card)}" in region_text(app, app.query_one(HandView))
            assert f"you hid {card_text(obs.hidden_card)}" in region_text(app, app.query_one("#side"))
            await pilot.press("ctrl+q")

    asyncio.run(run())

    # a seat that did not choose sees "hidden" and no card
    seed = next(seed for seed in range(50) if make_table("mendikot-band", seed).game.first_dealer == 0)
    other = make_table("mendikot-band", seed)

    async def watch() -> None:
        async with other.run_test(size=SIZE) as pilot:
            await settle(pilot, other)
            obs = other.view
            assert obs is not None and obs.trump_hidden and obs.hidden_card is None
            side = region_text(other, other.query_one("#side"))
            assert "hidden (band hukum)" in side and "you hid" not in side
            await pilot.press("ctrl+q")

    asyncio.run(watch())


def test_bad_input_gets_a_reason_not_a_traceback() -> None:
    app = make_table("mendikot", 4)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            while not (app.person_turn and app.view is not None and app.view.trick):
                if app.holding:
                    await pilot.press("space")
                elif app.person_turn:
                    await pilot.press("enter")
                await settle(pilot, app)
            obs = app.view
            await type_text(pilot, "1x")
            await pilot.press("enter")
            assert "cannot read action '1x'" in app.message and "Press ? for help" in app.message
            assert "cannot read action" in screen_text(app)
            missing = next(card for card in range(52) if card not in obs.hand)
            from dehla.cards import Card

            await type_text(pilot, str(Card(missing)).lower())
            await pilot.press("enter")
            assert f"you do not hold {Card(missing)}" in app.message
            off_suit = [card for card in obs.hand if Play(card) not in obs.legal_actions]
            if off_suit and obs.led is not None:
                await type_text(pilot, str(off_suit[0]))
                await pilot.press("enter")
                assert f"you must follow {obs.led.word}" in app.message
                app.selected = off_suit[0]
                await pilot.press("enter")
                assert f"you must follow {obs.led.word}" in app.message
            assert app.person_turn and app.view is obs  # nothing was played
            await type_text(pilot, "ab")
            await pilot.press("escape")  # clears the typing
            assert app.typed == ""
            await pilot.press("ctrl+q")

    asyncio.run(run())


def test_hint_last_trick_help_and_save(tmp_path: Path) -> None:
    saved = tmp_path / "table.jsonl"
    app = make_table("mendikot", 4, save_path=str(saved))

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("l")
            assert "no trick finished yet" in app.message
            # play until a trick has finished and it is the person's turn again
            while not (app.person_turn and app.view is not None and app.view.tricks):
                await pilot.press("space" if app.holding else "enter")
                await settle(pilot, app)
            obs = app.view
            assert obs is not None
            await pilot.press("h")
            for _ in range(500):
                if not app.message.endswith("thinking…"):
                    break
                await pilot.pause(0.01)
            assert app.message.startswith("hint: the heuristic bot would play ")
            assert app.selected is not None and Play(app.selected) in obs.legal_actions
            await pilot.press("l")
            last = obs.tricks[-1]
            title = str(app.query_one(Felt).border_title)
            assert f"Last trick ({last.number}) won by {app.names[last.winner]}" in title
            assert "last trick:" in app.message
            await pilot.press("question_mark")
            assert isinstance(app.screen, TextScreen)
            help_text = screen_text(app)
            assert "Band hukum" in help_text and "Trick" in help_text
            await pilot.press("escape")
            assert not isinstance(app.screen, TextScreen)
            await pilot.press("s")
            assert isinstance(app.screen, SaveScreen)
            await pilot.press("enter")
            await pilot.pause()
            assert f"Record saved to {saved}" in app.message
            [entry] = list(read_records(saved))
            match = replay(entry.data)
            assert len(match.hand_actions(0)) == app.steps - 1  # every decision so far, none more
            await pilot.press("ctrl+q")
        assert app.return_value is not None and app.return_value.status == "abandoned"

    asyncio.run(run())


def test_clicks_play_cards_and_press_buttons() -> None:
    seed = next(seed for seed in range(50) if make_table("pagat", seed).game.first_dealer == 3)
    app = make_table("pagat", seed)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            obs = app.view
            assert obs is not None and obs.phase == "call"
            await pilot.click("#call-D")
            await settle(pilot, app)
            obs = app.view
            assert obs is not None and obs.trump == Suit.D
            hand = app.query_one(HandView)
            line, start, _, card = next(span for span in hand.spans if Play(span[3]) in obs.legal_actions)
            await pilot.click(HandView, offset=(start + hand.styles.padding.left, line))
            await pilot.pause()
            await settle(pilot, app)
            assert card not in (app.view.hand if app.view else ())
            await pilot.press("ctrl+q")

    asyncio.run(run())


def test_a_finished_trick_stays_on_show_for_the_pause_then_play_goes_on_by_itself() -> None:
    app = make_table("pagat", 1, pause=1.0)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 60
            while not app.holding:  # the person takes their first legal action until a trick is on show
                assert loop.time() < deadline, "no trick was shown"
                if app.person_turn and app.view is not None:
                    await type_text(pilot, str(app.view.legal_actions[0]).lower())  # as the action's text reads
                    await pilot.press("enter")
                await pilot.pause(0.01)
            # Timed from when the table began the hold (the pacing's monotonic clock), not from when this loop,
            # busy typing on a loaded machine, first saw it.
            shown = app.pacing.hold_started
            while app.holding:  # no key: the pause ends the moment
                assert time.monotonic() < shown + 10, "the trick stayed on show"
                await pilot.pause(0.01)
            assert time.monotonic() - shown >= 0.9  # the pause is 1.0 s
            await settle(pilot, app)
            await pilot.press("ctrl+q")

    asyncio.run(run())
