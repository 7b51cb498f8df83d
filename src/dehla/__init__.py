"""dehla: Dehla Pakad, Mendikot and Taash's Dehla Pakad — one rules engine, many front ends."""

from dehla.cards import Card, Suit, parse_card, parse_cards
from dehla.engine import (
    Action,
    Call,
    Deal,
    Event,
    HandResult,
    Hide,
    Match,
    Observation,
    Phase,
    Play,
    Reveal,
    Trick,
    parse_action,
)
from dehla.errors import CardError, DehlaError, IllegalActionError, RecordError, RulesError
from dehla.rules import PRESETS, Rules, parse_rules, preset

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Call",
    "Card",
    "CardError",
    "Deal",
    "DehlaError",
    "Event",
    "HandResult",
    "Hide",
    "IllegalActionError",
    "Match",
    "Observation",
    "Phase",
    "Play",
    "PRESETS",
    "RecordError",
    "Reveal",
    "Rules",
    "RulesError",
    "Suit",
    "Trick",
    "parse_action",
    "parse_card",
    "parse_cards",
    "parse_rules",
    "preset",
]
