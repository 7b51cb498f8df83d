"""A table's seats: who plays each (a person, with the hash of their link's token and the player it belongs to, or a
bot), as stored in the table's row and its log's ``seat`` entries."""

from __future__ import annotations

from dataclasses import dataclass

from dehla.bots import BOTS
from dehla.web.schema import SeatState
from dehla.web.settings import default_bot

__all__ = ["SeatInfo"]


@dataclass
class SeatInfo:
    """One seat: a person's seat (with a secret token once issued) or a bot's; ``bot`` stands in for a person."""

    kind: str
    bot: str
    name: str
    token_hash: str | None = None
    claimed: bool = False
    #: The player the seat belongs to: the first player with an identity who took it (its link seats nobody else).
    player: str | None = None

    def to_meta(self) -> SeatState:
        state: SeatState = {
            "kind": self.kind,
            "bot": self.bot,
            "name": self.name,
            "token_hash": self.token_hash,
            "claimed": self.claimed,
        }
        if self.player is not None:
            state["player"] = self.player
        return state

    @classmethod
    def from_meta(cls, data: SeatState) -> SeatInfo:
        """A seat as stored (read by ``schema.read_seat_state``); a bot not offered any more becomes the default."""
        bot = data["bot"] or default_bot()
        if bot not in BOTS or BOTS[bot].measurement_only:
            bot = default_bot()
        return cls(data["kind"], bot, data["name"], data["token_hash"], data["claimed"], data.get("player"))

    def admits(self, player: str | None) -> bool:
        """Whether ``player`` may take this seat with its link: a seat nobody with an identity took yet, or theirs."""
        return self.player is None or self.player == player

    @property
    def invited(self) -> bool:
        """An invite seat nobody has opened yet: it is kept for the person with the link."""
        return self.kind == "person" and not self.claimed
