"""The bot side of the protocol: serve a registered bot on standard input and output (``dehla bot NAME``).

Reads one JSON message per line and answers ``hello`` with ``ready`` and
``act`` with the bot's action; ``quit`` (or the end of input) stops it.  A line
it cannot read, or a bot that fails, is answered with ``{"error": ...}`` and the
server goes on, so the host can report it; details go to standard error.
"""

from __future__ import annotations

import json
import traceback
from typing import IO

from dehla.bots.base import BOTS, Bot, make_bot
from dehla.engine.observe_json import observation_from_json
from dehla.errors import DehlaError
from dehla.protocol.messages import BotMessage, action_message, encode, error_message, ready_message

__all__ = ["serve"]


class _Server:
    def __init__(self, name: str, seed: int | None, output: IO[str], errors: IO[str]) -> None:
        self.name = name
        self.seed = seed
        self.output = output
        self.errors = errors
        self.bot: Bot | None = None

    def answer(self, message: BotMessage) -> None:
        self.output.write(encode(message))
        self.output.flush()

    def new_bot(self, seed: object) -> Bot:
        """A fresh bot for a new game: ``--seed`` if given, else the seed the host sent."""
        chosen = self.seed
        if chosen is None and isinstance(seed, int) and not isinstance(seed, bool):
            chosen = seed
        return make_bot(self.name, chosen)

    def handle(self, line: str) -> bool:
        """Answer one line; ``False`` once the host said ``quit``."""
        try:
            message = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            self.answer(error_message(f"cannot read the line as JSON: {line[:80]!r}"))
            return True
        if not isinstance(message, dict):
            self.answer(error_message('each message must be a JSON object with a "type"'))
            return True
        kind = message.get("type")
        if kind == "quit":
            return False
        if kind == "hello":
            self.bot = self.new_bot(message.get("seed"))
            self.answer(ready_message(self.name))
        elif kind == "act":
            self.act(message)
        # Unknown message types are ignored, so that hosts may add notices later.
        return True

    def act(self, message: dict[str, object]) -> None:
        try:
            observation = observation_from_json(message.get("observation"))
        except DehlaError as error:
            self.answer(error_message(str(error)))
            return
        if self.bot is None:
            self.bot = self.new_bot(None)
        try:
            action = self.bot.act(observation)
        except Exception as error:  # report the bot's bug to the host and keep serving
            traceback.print_exc(file=self.errors)
            self.errors.flush()
            self.answer(error_message(f"bot {self.name!r} failed: {type(error).__name__}: {error}"))
            return
        self.answer(action_message(action))


def serve(name: str, seed: int | None, input: IO[str], output: IO[str], errors: IO[str]) -> int:
    """Serve bot ``name`` until ``quit`` or the end of ``input``; returns the exit status.

    An unknown bot name raises ``DehlaError`` before anything is read.
    """
    make_bot(name, seed)  # fails early, with the list of names, on an unknown bot
    if BOTS[name].measurement_only:
        raise DehlaError(f"{name!r} must see the whole match, which the bot protocol never sends; it cannot be served")
    server = _Server(name, seed, output, errors)
    for line in input:
        if not line.strip():
            continue
        try:
            if not server.handle(line):
                break
        except BrokenPipeError:
            return 0
    return 0
