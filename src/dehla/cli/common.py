"""Argument helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import json

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


def seed_value(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed {text!r} is not a whole number") from None


def read_rules(text: str) -> Rules:
    """A preset name or a JSON rules object given on the command line."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            return parse_rules(json.loads(stripped))
        except json.JSONDecodeError as error:
            raise RulesError(f"the rules object is not valid JSON: {error.msg}") from None
    return parse_rules(stripped)
