"""The full-screen table of ``dehla play`` (Textual): one person against bots, drawn from that seat's observation.

The screen reads only the person's ``Observation`` and the events each step returns; whether an action
is allowed is ``observation.legal_actions``, and the reasons come from ``dehla.terminal.words``.  The match
is run by the one pacing loop every door shares (``dehla.play.driver.MatchDriver``, through
``pacing.TablePacing``) in a Textual worker: deals, bots (each decision in a thread worker, so the screen
stays alive while a search bot or an outside program thinks), and the person's turns, which wait for a
click, a key or a typed card.  A finished trick and a centre collection hold the table for a moment (any
key goes on at once; ``pause=None`` waits for a key, which the tests use), and a hand's result opens a
panel with "Next hand".  What the screen shows lives in reactive attributes; their watch methods repaint.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Button, Footer, RichLog, Static
from textual.worker import WorkerFailed

from dehla.bots.base import Bot, make_bot
from dehla.cards import Card, Suit
from dehla.engine.actions import Action, Call, Hide, Play, Reveal, parse_action
from dehla.engine.observe import Observation
from dehla.errors import DehlaError
from dehla.rules_text import explain
from dehla.terminal.felt import IN_HAND, Moment, draw_felt, side_text, suit_style, title_text
from dehla.terminal.game import TableGame
from dehla.terminal.pacing import TablePacing
from dehla.terminal.screens import ResultScreen, SaveScreen, TextScreen
from dehla.terminal.story import Outcome, Panel
from dehla.terminal.words import GLOSSARY, KEYS, card_text, hint_note, last_trick_text, why_not
from dehla.text import seat_label

__all__ = ["Felt", "HandView", "Outcome", "ResultScreen", "SaveScreen", "TableApp", "TextScreen"]

#: Keys that start typing an action (ranks, T for ten, 'call', 'reveal'); other letters are commands.
STARTERS = frozenset("0123456789tjqkacr")
QUIT_WORDS = ("quit", "exit", "q")


def _hard_hinter() -> Bot:
    return make_bot("hard", 0)


class HandView(Widget, can_focus=True):
    """The person's hand on one line, by suit, legal cards bright, the chosen card reversed; click or keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Card", show=False),
        Binding("right", "move(1)", "Card", show=False),
        Binding("enter", "choose", "Play", show=False),
        Binding("space", "choose", "Play", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.spans: list[tuple[int, int, int, Card]] = []  # (line, start, end, card)

    @property
    def table(self) -> TableApp:
        app = self.app
        assert isinstance(app, TableApp)
        return app

    def render(self) -> Text:
        table = self.table
        obs = table.view
        self.spans = []
        out = Text(no_wrap=False)
        out.append("Your hand  ", Style(bold=True))
        if obs is None or not obs.hand:
            out.append("—")
            return out
        legal = table.legal_cards()
        line, column = 0, len("Your hand  ")
        width = max(20, self.size.width)
        for suit in Suit:
            cards = [card for card in obs.hand if card.suit == suit]
            group = 2 + sum(len(card_text(card, False)) for card in cards) + len(cards)
            if column + group > width and column > 11:
                out.append("\n" + " " * 11)
                line, column = line + 1, 11
            label = suit.symbol if table.symbols else suit.letter
            out.append(f"{label} ", suit_style(suit))
            column += 2
            if not cards:
                out.append("—  ", Style(dim=True))
                column += 3
                continue
            for card in cards:
                rank = str(card)[:-1]
                style = suit_style(card.suit) + Style(underline=True) if card in legal else Style(dim=True)
                if card == table.selected and table.person_turn:
                    style = style + Style(reverse=True)
                self.spans.append((line, column, column + len(rank), card))
                out.append(rank, style)
                out.append(" ")
                column += len(rank) + 1
            out.append(" ")
            column += 1
        if obs.hidden_card is not None:
            out.append(f"  hidden: {card_text(obs.hidden_card, table.symbols)}", Style(italic=True))
        if obs.undealt[obs.seat]:
            out.append(f"  (+{obs.undealt[obs.seat]} to come)", Style(dim=True))
        return out

    def on_key(self, event: events.Key) -> None:
        """Typing goes to the action line; any key ends a finished trick's moment."""
        table = self.table
        if table.holding:
            table.skip_moment()
            event.stop()
            event.prevent_default()
            return
        if table.peek is not None and event.key not in ("l",):
            table.peek = None
        if event.key == "backspace" and table.typed:
            table.typed = table.typed[:-1]
        elif event.key == "escape" and table.typed:
            table.typed = ""
        elif event.key == "enter" and table.typed:
            table.submit_typed()
        elif (
            event.character is not None
            and event.character.isprintable()
            and event.key != "enter"
            and (table.typed or event.character.lower() in STARTERS)
        ):
            table.typed += event.character
        else:
            return
        event.stop()
        event.prevent_default()

    def on_click(self, event: events.Click) -> None:
        table = self.table
        if table.holding:
            table.skip_moment()
            return
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for line, start, end, card in self.spans:
            if line == offset.y and start <= offset.x < end:
                table.selected = card
                table.choose_card(card)
                return

    def action_move(self, step: int) -> None:
        self.table.move_selection(step)

    def action_choose(self) -> None:
        table = self.table
        if table.selected is not None:
            table.choose_card(table.selected)
        elif table.person_turn:
            table.say("choose with the buttons, or type it (e.g. 'call h')")


class EventLog(RichLog, can_focus=False):
    """What happened, one line an event, newest at the bottom (wrapped, scrolled to the end)."""


class Felt(Static):
    """The table: seats, markers, the trick (or the finished trick held for a moment)."""

    def on_resize(self, event: events.Resize) -> None:
        app = self.app
        if isinstance(app, TableApp):
            app.draw()

    def on_click(self, event: events.Click) -> None:
        app = self.app
        if isinstance(app, TableApp):
            if app.holding:
                app.skip_moment()
            elif app.peek is not None:
                app.peek = None


class TableApp(App[Outcome]):
    """``dehla play``'s full-screen table for one person at ``game.me``."""

    TITLE = "dehla"
    ENABLE_COMMAND_PALETTE = False
    CSS_PATH = "table.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "hint", "Hint"),
        Binding("l", "last", "Last trick"),
        Binding("question_mark", "help", "Help"),
        Binding("f1", "help", "Help", show=False),
        Binding("s", "save", "Save"),
        Binding("ctrl+q", "leave", "Quit", priority=True),
    ]

    #: The person's observation, renewed after every step: the only view of the match the screen draws.
    view: reactive[Observation | None] = reactive(None)
    #: A finished trick or a collection on show (``moment``), or the last trick the person asked for (``peek``).
    moment: reactive[Moment | None] = reactive(None)
    peek: reactive[Moment | None] = reactive(None)
    #: The bot whose turn it is, or ``None``.
    thinking: reactive[int | None] = reactive(None)
    #: The person is to act (and nothing holds the table).
    person_turn: reactive[bool] = reactive(False)
    typed: reactive[str] = reactive("")
    selected: reactive[Card | None] = reactive(None)
    message: reactive[str] = reactive("")

    def __init__(
        self,
        game: TableGame,
        *,
        symbols: bool = True,
        pause: float | None = 1.6,
        pace: float = 0.5,
        save_path: str | None = None,
        hinter: Callable[[], Bot] = _hard_hinter,
    ) -> None:
        super().__init__()
        self.game = game
        self.names = game.names
        self.symbols = symbols
        self.save_path = save_path
        self.make_hinter = hinter
        self.hinter: Bot | None = None
        self.log_lines: list[str] = []
        self._logged = 0  # how many of log_lines the log widget shows
        self._viewed = -1  # the step whose observation ``view`` holds
        self._asked = -1  # the step after which the person was last asked to act
        self.outcome = Outcome("abandoned", ("Match abandoned.",))
        self.ready = False  # set once the widgets exist
        self.pacing = TablePacing(game, self, pause, pace)

    @property
    def steps(self) -> int:
        """Decisions and deals applied, for tests that wait on the table."""
        return self.pacing.version

    # -- layout ------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            yield Felt(id="felt")
            yield Static(id="side")
        yield EventLog(id="log", wrap=True, min_width=20)
        with Horizontal(id="bar"):
            for suit in Suit:
                yield Button(f"Call {self._suit_words(suit)}", id=f"call-{suit.letter}", classes="call", compact=True)
            yield Button("Ask for trump", id="reveal", compact=True)
            yield Button("Hide card", id="hide", compact=True)
            yield Static(id="status")
        yield HandView(id="hand")
        yield Static(id="prompt")
        yield Footer()

    def _suit_words(self, suit: Suit) -> str:
        return suit.symbol if self.symbols else suit.letter

    def on_mount(self) -> None:
        self.ready = True
        self.query_one(HandView).focus()
        self.draw()
        self.log_lines.append(f"First dealer by lot: {seat_label(self.game.first_dealer, self.names)}")
        self.drive()

    @work(name="match", exclusive=True)
    async def drive(self) -> None:
        """Run the match to its end on the shared pacing loop."""
        await self.pacing.run()

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#log").styles.height = max(3, event.size.height // 6)
        self.draw()

    # -- what the pacing tells the screen (``pacing.TableScreen``) ---------------------------------

    def tell(self, lines: tuple[str, ...]) -> None:
        self.log_lines.extend(lines)
        if self.ready and self.view is not None:
            self._draw_log()

    def show(self, hold: Moment | Panel | None) -> None:
        self.moment = hold if isinstance(hold, Moment) else None
        if isinstance(hold, Panel):
            if hold.outcome is not None:
                self.outcome = hold.outcome
            self.push_screen(ResultScreen(hold.title, hold.lines, over=hold.outcome is not None), self._panel_closed)

    def _panel_closed(self, answer: str | None) -> None:
        self.pacing.closed()
        self.query_one(HandView).focus()

    def changed_turn(self) -> None:
        pacing = self.pacing
        if self._viewed != pacing.version:
            self._viewed = pacing.version
            self.view = self.game.view()
        self.thinking = pacing.thinking
        self.person_turn = pacing.person_turn
        if self.person_turn and self._asked != pacing.version:
            self._asked = pacing.version
            self._ask()

    def _ask(self) -> None:
        """The person's turn begins: the cursor on a card they may play, the status line theirs."""
        legal = self.legal_cards()
        if legal and self.selected not in legal and self.view is not None:
            order = [card for suit in Suit for card in self.view.hand if card.suit == suit]
            self.selected = next(card for card in order if card in legal)
        self.message = ""

    async def think(self, seat: int, player: Bot, observation: Observation) -> Action:
        worker = self.run_worker(
            partial(self.game.bot_decides, player, observation),
            name=f"seat {seat}",
            group="bots",
            thread=True,
            exit_on_error=False,
        )
        try:
            return await worker.wait()
        except WorkerFailed as failed:
            raise failed.error from None

    async def ended(self, panel: Panel | None) -> None:
        if panel is not None:
            if panel.outcome is not None:
                self.outcome = panel.outcome
            await self.push_screen(ResultScreen(panel.title, panel.lines, over=True), wait_for_dismiss=True)
        self.exit(self.outcome)

    # -- state the screen shows --------------------------------------------------------------------

    def watch_view(self) -> None:
        self.draw()

    def watch_moment(self) -> None:
        self.draw()

    def watch_peek(self) -> None:
        self.draw()

    def watch_thinking(self) -> None:
        self.draw()

    def watch_person_turn(self) -> None:
        self.draw()

    def watch_typed(self) -> None:
        self.draw()

    def watch_selected(self) -> None:
        self.draw()

    def watch_message(self) -> None:
        self.draw()

    @property
    def holding(self) -> bool:
        """A finished trick or a collection is on show, waiting for its moment (or a key)."""
        return isinstance(self.pacing.hold, Moment)

    def legal_cards(self) -> set[Card]:
        """Cards the person may play (or hide) now: read from the observation's legal actions."""
        if self.view is None or not self.person_turn:
            return set()
        return {action.card for action in self.view.legal_actions if isinstance(action, Play | Hide)}

    def say(self, text: str) -> None:
        self.message = text

    def draw(self) -> None:
        """Show the current state everywhere (cheap: each watch method calls it)."""
        if not self.ready:
            return
        obs = self.view
        felt = self.query_one(Felt)
        if obs is None:
            felt.update("Shuffling…")
            return
        shown = self.moment or self.peek
        size = felt.content_size
        felt.update(draw_felt(obs, self.names, size.width, size.height, shown, self.symbols, self.thinking))
        if shown is not None:
            felt.border_title = shown.title
        elif obs.match_over:
            felt.border_title = "Match over"
        elif obs.phase not in IN_HAND:
            felt.border_title = "Hand over"
        elif obs.phase == "call":
            felt.border_title = "Trump is called"
        elif obs.phase == "hide":
            felt.border_title = "A card is hidden as trump"
        else:
            felt.border_title = f"Trick {len(obs.tricks) + 1}"
        felt.border_subtitle = "any key goes on" if self.holding else ""
        self.query_one("#title", Static).update(title_text(obs, self.names))
        self.query_one("#side", Static).update(side_text(obs, self.names, self.symbols))
        self._draw_log()
        self._draw_bar(obs)
        self.query_one(HandView).refresh(layout=True)
        self.query_one("#prompt", Static).update(self._prompt())

    def _draw_log(self) -> None:
        log = self.query_one(EventLog)
        width = log.scrollable_content_region.width or None  # wrap at the log's own width once it has one
        for line in self.log_lines[self._logged :]:
            log.write(Text(line), width=width)
        self._logged = len(self.log_lines)

    def _draw_bar(self, obs: Observation) -> None:
        legal = obs.legal_actions if self.person_turn else ()
        for suit in Suit:
            self.query_one(f"#call-{suit.letter}", Button).display = Call(suit) in legal
        self.query_one("#reveal", Button).display = Reveal() in legal
        hide = self.query_one("#hide", Button)
        hide.display = any(isinstance(action, Hide) for action in legal)
        if hide.display and self.selected is not None:
            hide.label = f"Hide {card_text(self.selected, self.symbols)}"
        self.query_one("#status", Static).update(Text(self._status(obs), no_wrap=True, overflow="ellipsis"))

    def _status(self, obs: Observation) -> str:
        if self.message:
            return self.message
        if self.holding:
            return "any key or click goes on"
        if self.person_turn:
            if obs.phase == "call":
                return "Your turn: call trump"
            if obs.phase == "hide":
                return "Your turn: choose a card to hide as trump"
            if Reveal() in obs.legal_actions:
                return "Your turn: play a card, or ask for trump"
            return "Your turn: play a card"
        if self.thinking is not None:
            return f"{self.names[self.thinking]} is thinking…"
        return ""

    def _prompt(self) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis")
        if self.typed:
            out.append("> ", Style(bold=True))
            out.append(self.typed + "▏")
            out.append("   Enter plays, Esc clears", Style(dim=True))
        elif self.person_turn and self.view is not None:
            legal = "  ".join(self._action_words(action) for action in self.view.legal_actions)
            out.append("Legal: ", Style(bold=True))
            out.append(legal)
        else:
            out.append("← → choose · Enter plays · or type a card like 10h", Style(dim=True))
        return out

    def _action_words(self, action: Action) -> str:
        if isinstance(action, Play):
            return card_text(action.card, self.symbols)
        if isinstance(action, Hide):
            return f"hide {card_text(action.card, self.symbols)}"
        return str(action)

    # -- the person's choices ----------------------------------------------------------------------

    def move_selection(self, step: int) -> None:
        obs = self.view
        if obs is None or not obs.hand:
            return
        order = [card for suit in Suit for card in obs.hand if card.suit == suit]
        if self.selected not in order:
            self.selected = order[0]
        else:
            self.selected = order[(order.index(self.selected) + step) % len(order)]
        self.message = ""

    def choose_card(self, card: Card) -> None:
        """The card under the cursor or the mouse: play it, or hide it under band hukum, if that is legal."""
        obs = self.view
        if obs is None or not self.person_turn:
            self.say("wait for your turn")
            return
        for action in (Play(card), Hide(card)):
            if action in obs.legal_actions:
                self.submit(action)
                return
        if any(isinstance(action, Call) for action in obs.legal_actions):
            self.say("call trump first: a suit button, or type 'call h'")
            return
        self.say(f"{card} is not allowed now: {why_not(obs, Play(card))}")

    def submit_typed(self) -> None:
        """An action typed as in the line-by-line mode: ``10h``, ``call h``, ``hide 10h``, ``reveal``."""
        text, self.typed = self.typed.strip(), ""
        word = text.lower()
        if word in QUIT_WORDS:
            self.action_leave()
            return
        if word == "rules":
            self.action_help()
            return
        obs = self.view
        if obs is None or not self.person_turn:
            self.say("wait for your turn")
            return
        try:
            action = parse_action(text)
        except DehlaError as error:
            self.say(f"{error}. Press ? for help")
            return
        if isinstance(action, Play) and action not in obs.legal_actions and Hide(action.card) in obs.legal_actions:
            action = Hide(action.card)  # under band hukum, typing a card chooses it
        if action in obs.legal_actions:
            self.submit(action)
        else:
            self.say(f"{action} is not allowed now: {why_not(obs, action)}")

    def submit(self, action: Action) -> None:
        if self.person_turn:
            self.message = ""
            self.pacing.play(action)

    @on(Button.Pressed, "#bar .call")
    def call_pressed(self, event: Button.Pressed) -> None:
        self._press(Call(Suit[(event.button.id or "")[-1]]))

    @on(Button.Pressed, "#reveal")
    def reveal_pressed(self) -> None:
        self._press(Reveal())

    @on(Button.Pressed, "#hide")
    def hide_pressed(self) -> None:
        if self.selected is not None:
            self._press(Hide(self.selected))
        else:
            self.query_one(HandView).focus()

    def _press(self, action: Action) -> None:
        if self.view is not None and self.person_turn and action in self.view.legal_actions:
            self.submit(action)
        self.query_one(HandView).focus()

    def skip_moment(self) -> None:
        self.pacing.skip()

    # -- commands ----------------------------------------------------------------------------------

    def action_hint(self) -> None:
        obs = self.view
        if obs is None or not self.person_turn:
            self.say("hint: it is not your turn")
            return
        self.say("hint: thinking…")
        self._hint(obs)

    @work(name="hint", group="hint", exclusive=True)
    async def _hint(self, obs: Observation) -> None:
        def think() -> tuple[Action, tuple[str, str]]:
            if self.hinter is None:
                self.hinter = self.make_hinter()
            action = self.hinter.act(obs)
            return action, hint_note(self.hinter, obs, action)

        try:
            action, (note, full_note) = await asyncio.to_thread(think)
        except Exception as error:  # a hint that fails must not end the match
            self.say(f"hint: no hint ({type(error).__name__}: {error})")
            return
        if self.view is not obs:
            return  # the table moved on
        name = getattr(self.hinter, "name", "hard")
        extra = f" — {note}" if note else ""
        if full_note:
            self.tell((f"hint: {full_note}",))  # the status line is one line; the log keeps all of it
        if isinstance(action, Play):
            self.selected = action.card
            self.say(f"hint: the {name} bot would play {card_text(action.card, self.symbols)} (Enter plays it){extra}")
        elif isinstance(action, Hide):
            self.selected = action.card
            self.say(f"hint: the {name} bot would hide {card_text(action.card, self.symbols)} (Enter hides it){extra}")
        else:
            self.say(f"hint: the {name} bot would {'ask for trump' if isinstance(action, Reveal) else action}{extra}")

    def action_last(self) -> None:
        obs = self.view
        if obs is None or not obs.tricks:
            self.say("no trick finished yet this hand")
            return
        trick = obs.tricks[-1]
        self.peek = Moment(
            f"Last trick ({trick.number}) won by {self.names[trick.winner]}",
            trick,
            f"won by {self.names[trick.winner]}",
        )
        self.say(last_trick_text(obs, self.names).strip())

    def action_help(self) -> None:
        rules = self.game.rules
        body = "\n\n".join([GLOSSARY, "Keys\n" + KEYS, "These rules\n" + "\n".join(explain(rules))])
        self.push_screen(TextScreen("Help: the game's words, the keys and these rules", body))

    def action_save(self) -> None:
        default = self.save_path or time.strftime("dehla-%Y%m%d-%H%M%S.jsonl")
        self.push_screen(SaveScreen(default), self._saved)

    def _saved(self, path: str | None) -> None:
        if not path:
            self.say("not saved")
            return
        try:
            self.game.save(path)
        except OSError as error:
            self.say(f"could not save the record to {path}: {error.strerror or error}")
            return
        self.save_path = path
        self.say(f"Record saved to {path}")

    def action_leave(self) -> None:
        self.exit(self.outcome)
