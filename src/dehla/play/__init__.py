"""Running matches between players that decide from observations (bots, people, outside programs).

* ``driver.MatchDriver`` is the one pacing loop: deals, bots thinking off the event loop, a person's turn,
  the pause a finished trick holds.  The web's tables and the terminal's table drive their matches with it.
* ``matches``: ``play_match`` plays a whole match, ``play_hand`` the decisions of one hand after its deal
  (the loop the arena and the benchmarks share), on the same driver with no clock.
* ``checks``: ``checked_act`` holds any player to the rules, and ``BotFailure`` reports one that broke them.
"""

from __future__ import annotations

from dehla.play.checks import (
    FAILURE_KINDS,
    BotFailure,
    FailureJSON,
    Position,
    checked_act,
    close_bots,
    describe_position,
    legal_text,
    position_of,
)
from dehla.play.driver import UNTIL_LET_GO, DrivenTable, MatchDriver
from dehla.play.matches import Chooser, OnStep, play_hand, play_match, play_steps, run_in_place

__all__ = [
    "BotFailure",
    "Chooser",
    "DrivenTable",
    "FAILURE_KINDS",
    "FailureJSON",
    "MatchDriver",
    "OnStep",
    "Position",
    "UNTIL_LET_GO",
    "checked_act",
    "close_bots",
    "describe_position",
    "legal_text",
    "play_hand",
    "play_match",
    "play_steps",
    "position_of",
    "run_in_place",
]
