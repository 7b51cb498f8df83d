"""The one exception family of the public API.

Every problem with input the library is given (a card text, a rules value, an
action, a record) raises a ``DehlaError`` whose message says what is wrong and
where.  Catch ``DehlaError`` to handle them all.
"""

from __future__ import annotations


class DehlaError(ValueError):
    """Base class: bad input to the dehla library, with a message for people."""


class CardError(DehlaError):
    """A card or suit text that cannot be read."""


class RulesError(DehlaError):
    """An unknown preset or option, a value of the wrong type, or a combination that makes no sense."""


class IllegalActionError(DehlaError):
    """An action that the rules do not allow in the current position."""


class RecordError(DehlaError):
    """A ``dehla-record/1`` record that breaks the format or the rules.

    ``hand`` and ``action`` are 0-based positions in the record's lists, where known.
    """

    def __init__(self, message: str, hand: int | None = None, action: int | None = None) -> None:
        where = []
        if hand is not None:
            where.append(f"hand {hand}")
        if action is not None:
            where.append(f"action {action}")
        full = f"{', '.join(where)}: {message}" if where else message
        super().__init__(full)
        self.hand = hand
        self.action = action
        self.reason = message
