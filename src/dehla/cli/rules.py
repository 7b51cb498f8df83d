"""``dehla rules [PRESET]``: list the presets, or explain one in plain words."""

from __future__ import annotations

import argparse
import json
import shutil
import textwrap
from typing import Any

from dehla.cli.common import read_rules
from dehla.rules import PRESETS
from dehla.rules_text import explain


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "rules",
        help="list the rule presets, or explain one in plain words",
        description=(
            "Without an argument, list the presets. With a preset name (or a JSON rules object such as "
            '\'{"preset": "taash", "target": 200}\'), explain those rules and the rulings that apply.'
        ),
    )
    parser.add_argument("preset", nargs="?", help="a preset name or a JSON rules object")
    parser.add_argument("--json", action="store_true", help="print the rules' options as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.preset is None:
        width = max(len(name) for name in PRESETS)
        if args.json:
            print(json.dumps({name: rules.options() for name, rules in PRESETS.items()}, indent=2))
            return 0
        print("Presets (dehla rules NAME explains one):")
        for name, rules in PRESETS.items():
            print(f"  {name:<{width}}  {rules.description}")
        return 0
    rules = read_rules(args.preset)
    if args.json:
        print(json.dumps({"preset": rules.preset, **rules.options()}, indent=2))
        return 0
    width = min(100, shutil.get_terminal_size((100, 24)).columns)
    for paragraph in explain(rules):
        print(textwrap.fill(paragraph, width=width, subsequent_indent="  ") if paragraph else "")
    return 0
