"""The full-screen table's panels: help, a hand's result ("Next hand", "Save record"), where to save."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

__all__ = ["ResultScreen", "SaveScreen", "TextScreen"]


class TextScreen(ModalScreen[None]):
    """Help (the game's words, the keys, this preset's rules): scrolls, any of Escape, ?, q or Close ends it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("question_mark", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
    ]

    def __init__(self, title: str, body: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Static(Text(self.title_text, Style(bold=True)), id="box-title")
            with VerticalScroll(id="box-body"):
                yield Static(Text(self.body))
            yield Button("Close", id="close", compact=True)

    def on_mount(self) -> None:
        self.query_one("#box-body").focus()

    @on(Button.Pressed, "#close")
    def close(self) -> None:
        self.action_close()

    def action_close(self) -> None:
        self.dismiss(None)


class ResultScreen(ModalScreen[str]):
    """A hand's result (and the match's, when it is over): "Next hand" (or "Close"), and "Save record"."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "go", "Next", show=False),
        Binding("n", "go", "Next hand"),
        Binding("s", "app.save", "Save"),
    ]

    def __init__(self, title: str, lines: Sequence[str], over: bool) -> None:
        super().__init__()
        self.title_text = title
        self.lines = list(lines)
        self.over = over

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Static(Text(self.title_text, Style(bold=True)), id="box-title")
            with VerticalScroll(id="box-body"):
                yield Static(Text("\n".join(self.lines)))
            with Horizontal(id="box-buttons"):
                yield Button("Close" if self.over else "Next hand", id="go", variant="primary", compact=True)
                yield Button("Save record", id="save", compact=True)

    def on_mount(self) -> None:
        self.query_one("#go").focus()

    @on(Button.Pressed, "#save")
    async def save(self) -> None:
        await self.app.run_action("save")

    @on(Button.Pressed, "#go")
    def go(self) -> None:
        self.action_go()

    def action_go(self) -> None:
        self.dismiss("go")


class SaveScreen(ModalScreen[str | None]):
    """Ask where to write the record; Enter saves there, Escape does not."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Static(Text("Save the match record (dehla-record/1) to:", Style(bold=True)), id="box-title")
            yield Input(self.path, id="path")
            yield Static("Enter saves, Escape cancels; replay it with: dehla replay FILE")

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
