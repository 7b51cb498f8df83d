"""A claim of the rest of the hand waiting at a table: who claims what, who must still answer, and the proof.

Only the claimer's seat, what it claims and the seats still to answer are ever shown (``view``); the proof (a
line of play over the true cards) stays on the server, and a refusal says only that the claim was refused.
With several processes serving the table, the one where the claim was made (``owner``) proves and settles it;
the others keep a copy to show and to take answers, and pass the answers on (``web.table.assist``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dehla.engine.actions import Action
from dehla.web.schema import ClaimView

__all__ = ["PendingClaim"]


@dataclass
class PendingClaim:
    """A claim made at log version ``version``: it stands only while the table is still there."""

    seat: int
    what: str
    version: int
    #: The people of the other team who have not answered yet (bots answer by the proof).
    waiting: set[int] = field(default_factory=set)
    #: A bot plays for someone of the other team: it answers at once by the proof.
    bots: bool = False
    #: Whether the exact solver has answered; ``line`` is its proving line of play, ``None`` when the claim fails.
    proved: bool = False
    line: list[Action] | None = None
    #: This process proves and settles the claim (it was made here); a copy heard from another process does not.
    owner: bool = True

    def view(self) -> ClaimView:
        return {"seat": self.seat, "what": self.what, "waiting": sorted(self.waiting)}
