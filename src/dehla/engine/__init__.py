"""The rules engine: the trick core, actions, events, the match state, observations and scoring. No I/O."""

from dehla.engine import state as _state_module
from dehla.engine.actions import CALLS, HIDES, PLAYS, REVEAL, Action, Call, Deal, Hide, Play, Reveal, parse_action
from dehla.engine.events import (
    CentreCollected,
    Event,
    HandEnded,
    HandResult,
    HandStarted,
    KotAwarded,
    MatchOver,
    StagedDeal,
    Trick,
    TrumpRevealed,
    TrumpSet,
)
from dehla.engine.observe import Observation, observe
from dehla.engine.state import Match, Phase, draw_first_dealer
from dehla.engine.tricks import HandState

#: True when the match state runs as a compiled extension (mypyc, from a wheel build: see setup.py), False when
#: it runs as Python source (an editable install, or a build without a C compiler).
COMPILED: bool = not _state_module.__file__.endswith(".py") if _state_module.__file__ else False

__all__ = [
    "Action",
    "Call",
    "CALLS",
    "COMPILED",
    "CentreCollected",
    "Deal",
    "draw_first_dealer",
    "Event",
    "HandEnded",
    "HandResult",
    "HandStarted",
    "HandState",
    "Hide",
    "HIDES",
    "KotAwarded",
    "Match",
    "MatchOver",
    "Observation",
    "observe",
    "parse_action",
    "Phase",
    "Play",
    "PLAYS",
    "Reveal",
    "REVEAL",
    "StagedDeal",
    "Trick",
    "TrumpRevealed",
    "TrumpSet",
]
