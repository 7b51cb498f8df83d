"""The rules of a match: one frozen value with named options, and the presets.

Every rule set the seeds describe is a preset, a ``Rules`` value; every variant
is an option that any preset can switch on where it makes sense.  The engine
reads only this value, never a preset name, so variants never copy code.

JSON form (records carry it): a preset name such as ``"pagat"``, or an object
``{"preset": "taash", "target": 200}`` naming a preset and the options changed.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Literal, TypedDict, Unpack, cast

from dehla.errors import RulesError

__all__ = ["Rules", "PRESETS", "OPTIONS", "RuleOptions", "OptionChanges", "RulesJSON", "preset", "parse_rules"]

TrumpMethod = Literal["called", "cut", "hidden", "hidden_auto", "open_draw"]
Collection = Literal["centre", "immediate"]
Scoring = Literal["pagat", "taash", "mendikot"]
Rotation = Literal["rules", "simple"]
AfterWhitewash = Literal["partner", "next"]
Direction = Literal["anticlockwise", "clockwise"]
SweepBonus = Literal["none", "double", "match"]

#: The JSON form of rules (``Rules.to_json``): a preset name, or ``{"preset": NAME, OPTION: VALUE, ...}`` with only
#: the options that differ from the preset (so its keys vary, and it is read back by ``parse_rules``).
RulesJSON = str | dict[str, object]


class RuleOptions(TypedDict):
    """Every option of a ``Rules`` value by name (``Rules.options``), in the order documented."""

    players: int
    trump: TrumpMethod
    staged_deal: bool
    collection: Collection
    scoring: Scoring
    target: int
    streak_kot: int
    streak_resets: bool
    rotation: Rotation
    after_whitewash: AfterWhitewash
    direction: Direction
    trick_minimum: bool
    sweep_bonus: SweepBonus


class OptionChanges(TypedDict, total=False):
    """Some options, each with its type: what a preset sets and what ``Rules.replace`` changes."""

    players: int
    trump: TrumpMethod
    staged_deal: bool
    collection: Collection
    scoring: Scoring
    target: int
    streak_kot: int
    streak_resets: bool
    rotation: Rotation
    after_whitewash: AfterWhitewash
    direction: Direction
    trick_minimum: bool
    sweep_bonus: SweepBonus


@dataclass(frozen=True)
class Rules:
    """Everything that decides how a match is played and scored.

    Field names are the option names of SPEC section 2 (plus ``players``,
    ``scoring`` and ``streak_kot``); ``preset`` names the preset the value
    started from, so it prints as a short JSON form.
    """

    preset: str = "pagat"
    players: int = 4
    trump: TrumpMethod = "called"
    staged_deal: bool = False
    collection: Collection = "centre"
    scoring: Scoring = "pagat"
    target: int = 1
    streak_kot: int = 7
    streak_resets: bool = True
    rotation: Rotation = "rules"
    after_whitewash: AfterWhitewash = "partner"
    direction: Direction = "anticlockwise"
    trick_minimum: bool = False
    sweep_bonus: SweepBonus = "none"
    description: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        _validate(self)

    # Derived facts the engine asks for often -------------------------------------------------

    @property
    def deck_size(self) -> int:
        return 52 if self.players == 4 else 48

    @property
    def hand_size(self) -> int:
        return self.deck_size // self.players

    @property
    def tricks_per_hand(self) -> int:
        return self.hand_size

    @property
    def early_end(self) -> bool:
        """Taash scoring stops a hand once its result can no longer change (SPEC 3.7)."""
        return self.scoring == "taash"

    # JSON ----------------------------------------------------------------------------------

    def options(self) -> RuleOptions:
        """All option values by name (a new dict: the caller may change it)."""
        return cast(RuleOptions, dict(_options(self)))

    def to_json(self) -> RulesJSON:
        """The shortest JSON form: the preset name, or the preset and the options changed."""
        found = _rules_json(self)
        return found if isinstance(found, str) else cast(RulesJSON, dict(found))

    @classmethod
    def from_json(cls, value: object) -> Rules:
        return parse_rules(value)

    def replace(self, **options: Unpack[OptionChanges]) -> Rules:
        """A copy with some options changed (validated like ``from_json``)."""
        return parse_rules({"preset": self.preset, **self.options(), **options})

    @property
    def name(self) -> str:
        """A short label: the preset name, with a ``+`` when options differ from it."""
        return self.preset if isinstance(self.to_json(), str) else f"{self.preset}+"


# Option metadata: allowed values (a tuple) or a type, for validation and messages.
_CHOICES: dict[str, tuple[str | int, ...]] = {
    "players": (4, 6, 8),
    "trump": ("called", "cut", "hidden", "hidden_auto", "open_draw"),
    "collection": ("centre", "immediate"),
    "scoring": ("pagat", "taash", "mendikot"),
    "rotation": ("rules", "simple"),
    "after_whitewash": ("partner", "next"),
    "direction": ("anticlockwise", "clockwise"),
    "sweep_bonus": ("none", "double", "match"),
}
_BOOLS = ("staged_deal", "streak_resets", "trick_minimum")
_POSITIVE_INTS = ("target",)
_NON_NEGATIVE_INTS = ("streak_kot",)

#: Every option name, in the order documented: the keys of ``RuleOptions``.
OPTIONS: tuple[str, ...] = tuple(RuleOptions.__annotations__)


def _describe_allowed(name: str) -> str:
    if name in _CHOICES:
        return "one of " + ", ".join(repr(value) if isinstance(value, str) else str(value) for value in _CHOICES[name])
    if name in _BOOLS:
        return "true or false"
    if name in _POSITIVE_INTS:
        return "a positive whole number"
    return "a whole number, 0 or more"


def _check_value(name: str, value: object) -> None:
    if name in _CHOICES:
        ok = value in _CHOICES[name] and type(value) in (str, int) and not isinstance(value, bool)
    elif name in _BOOLS:
        ok = isinstance(value, bool)
    elif name in _POSITIVE_INTS:
        ok = isinstance(value, int) and not isinstance(value, bool) and value > 0
    else:
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if not ok:
        raise RulesError(f"option {name!r} must be {_describe_allowed(name)}, not {value!r}")


def _validate(rules: Rules) -> None:
    for name in OPTIONS:
        _check_value(name, getattr(rules, name))
    if rules.staged_deal and rules.trump != "cut":
        raise RulesError(
            f'staged_deal needs trump "cut" (trump is {rules.trump!r}): the rest of the cards are dealt '
            "when the first off-suit card sets trump; with other trump methods set staged_deal to false"
        )
    if rules.trick_minimum and rules.scoring != "taash":
        raise RulesError('trick_minimum is a Taash rule: it needs scoring "taash"')
    if rules.sweep_bonus != "none" and rules.scoring != "taash":
        raise RulesError('sweep_bonus is a Taash rule: it needs scoring "taash"')
    if rules.after_whitewash != "partner" and rules.scoring != "mendikot":
        raise RulesError('after_whitewash is a Mendikot rule: it needs scoring "mendikot"')
    if rules.streak_kot and rules.scoring != "pagat":
        raise RulesError('streak_kot (a kot for hand wins in a row) is a Pagat rule: it needs scoring "pagat"')
    if rules.preset not in _PRESET_SPECS:
        raise RulesError(f"unknown preset {rules.preset!r}; presets are: {', '.join(_PRESET_SPECS)}")


# name -> (options, one-line description)
_PRESET_SPECS: dict[str, tuple[OptionChanges, str]] = {
    "pagat": (
        OptionChanges(
            trump="called", collection="centre", scoring="pagat", target=1, streak_kot=7, direction="anticlockwise"
        ),
        "Dehla Pakad as on Pagat (seeds 000, 004): trump called from five cards, two in a row collect the centre, "
        "first to one kot.",
    ),
    "pagat-cut": (
        OptionChanges(
            trump="cut",
            staged_deal=True,
            collection="centre",
            scoring="pagat",
            target=1,
            streak_kot=7,
            direction="anticlockwise",
        ),
        "Dehla Pakad with cut trump (seed 001, Pagat's method 1): five cards each, the first off-suit card sets "
        "trump, then the rest are dealt.",
    ),
    "taash": (
        OptionChanges(
            trump="cut",
            staged_deal=True,
            collection="immediate",
            scoring="taash",
            target=100,
            streak_kot=0,
            direction="clockwise",
        ),
        "Taash's Dehla Pakad (seed 003): staged deal, cut trump, each trick to its winner, 20/30/80 points to 100.",
    ),
    "taash-b2b": (
        OptionChanges(
            trump="cut",
            staged_deal=True,
            collection="centre",
            scoring="taash",
            target=100,
            streak_kot=0,
            direction="clockwise",
        ),
        "Taash's back-to-back variant (seed 003): as taash, but the tens wait in the centre for two in a row.",
    ),
    "mendikot": (
        OptionChanges(
            trump="cut", collection="immediate", scoring="mendikot", target=5, streak_kot=0, direction="clockwise"
        ),
        "Mendikot with katte (seed 002): all 13 dealt, the first off-suit card sets trump, a point a hand to 5.",
    ),
    "mendikot-band": (
        OptionChanges(
            trump="hidden", collection="immediate", scoring="mendikot", target=5, streak_kot=0, direction="clockwise"
        ),
        "Mendikot with band hukum (seed 002): a hidden trump card, turned up when a void player asks.",
    ),
    "mendikot-band-auto": (
        OptionChanges(
            trump="hidden_auto",
            collection="immediate",
            scoring="mendikot",
            target=5,
            streak_kot=0,
            direction="clockwise",
        ),
        "Mendikot with band hukum, turned up automatically the first time a player cannot follow suit.",
    ),
    "mendikot-open": (
        OptionChanges(
            trump="open_draw", collection="immediate", scoring="mendikot", target=5, streak_kot=0, direction="clockwise"
        ),
        "Mendikot with open draw (seed 002): a card drawn and shown before the deal sets trump.",
    ),
    "mendikot-6": (
        OptionChanges(
            players=6,
            trump="cut",
            collection="immediate",
            scoring="mendikot",
            target=5,
            streak_kot=0,
            direction="clockwise",
        ),
        "Mendikot for six players (seed 002): 48 cards without the twos, 8 each, katte.",
    ),
    "mendikot-8": (
        OptionChanges(
            players=8,
            trump="cut",
            collection="immediate",
            scoring="mendikot",
            target=5,
            streak_kot=0,
            direction="clockwise",
        ),
        "Mendikot for eight players (seed 002): 48 cards without the twos, 6 each, katte.",
    ),
}

#: The named presets of SPEC section 2.
PRESETS: dict[str, Rules] = {
    name: Rules(preset=name, description=text, **options) for name, (options, text) in _PRESET_SPECS.items()
}


def preset(name: str) -> Rules:
    """The preset called ``name``; a clear error lists the presets otherwise."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise RulesError(f"unknown preset {name!r}; presets are: {', '.join(PRESETS)}") from None


# A server writes the rules into every seat's state on every action: the forms are worked out once per rules value.
@functools.lru_cache(maxsize=256)
def _options(rules: Rules) -> RuleOptions:
    # OPTIONS are RuleOptions' keys and the fields of Rules (tests/test_rules.py checks both lists agree)
    return cast(RuleOptions, {name: getattr(rules, name) for name in OPTIONS})


@functools.lru_cache(maxsize=256)
def _rules_json(rules: Rules) -> RulesJSON:
    base = PRESETS.get(rules.preset)
    if base is None:  # pragma: no cover - preset is validated
        raise RulesError(f"unknown preset {rules.preset!r}")
    changed: dict[str, object] = {
        name: value for name, value in _options(rules).items() if getattr(base, name) != value
    }
    if not changed:
        return rules.preset
    return cast(RulesJSON, {"preset": rules.preset, **changed})


def parse_rules(value: object) -> Rules:
    """Read the JSON form of rules: a preset name or ``{"preset": NAME, OPTION: VALUE, ...}``."""
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        return preset(value)
    if not isinstance(value, dict):
        raise RulesError(f'rules must be a preset name or an object {{"preset": NAME, option: value}}, not {value!r}')
    if "preset" not in value:
        raise RulesError(f'rules object needs a "preset" (one of: {", ".join(PRESETS)})')
    base = preset(value["preset"])
    options = {key: item for key, item in value.items() if key != "preset"}
    unknown = [key for key in options if key not in OPTIONS]
    if unknown:
        raise RulesError(f"unknown rules option {unknown[0]!r}; options are: {', '.join(OPTIONS)}")
    for key, item in options.items():
        _check_value(key, item)
    scoring = options.get("scoring", base.scoring)
    if scoring != base.scoring:
        # A different scoring system brings its own defaults for what it counts.
        options.setdefault("target", _SCORING_DEFAULTS[scoring]["target"])
        options.setdefault("streak_kot", _SCORING_DEFAULTS[scoring]["streak_kot"])
    return dataclasses.replace(base, **options)


#: Defaults that follow the scoring system when a rules object changes ``scoring`` without setting them.
_SCORING_DEFAULTS: dict[str, dict[str, int]] = {
    "pagat": {"target": 1, "streak_kot": 7},
    "taash": {"target": 100, "streak_kot": 0},
    "mendikot": {"target": 5, "streak_kot": 0},
}
