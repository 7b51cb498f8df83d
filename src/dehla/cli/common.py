"""Argument helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable

from dehla.errors import RulesError
from dehla.rules import Rules, parse_rules


def positive_int(text: str) -> int:
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def whole_number(text: str, what: str = "a whole number") -> int:
    """``text`` as an int, or an argument error that says it is not ``what``."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None


def whole_number_in(low: int, high: int) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        value = whole_number(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} must be {low}..{high}")
        return value

    return parse


def seed_value(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed {text!r} is not a whole number") from None


def seconds(text: str) -> float:
    """``text`` as a number of seconds, 'inf' included, or an argument error (never NaN)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if math.isnan(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds")
    return value


def positive_seconds(text: str) -> float:
    """A finite number of seconds above 0 (a time limit)."""
    value = seconds(text)
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"{text} must be a positive number of seconds")
    return value


def read_rules(text: str) -> Rules:
    """A preset name or a JSON rules object given on the command line."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            return parse_rules(json.loads(stripped))
        except json.JSONDecodeError as error:
            raise RulesError(f"the rules object is not valid JSON: {error.msg}") from None
    return parse_rules(stripped)
