"""Regenerate the golden records and their expected ``dehla replay --json`` output.

Run from the repository root:  .venv/bin/python tests/golden/regenerate.py

Each golden set is made by the installed command exactly as a user would:

    dehla simulate --rules RULES --seed SEED --matches 2 --out tests/golden/NAME.jsonl
    dehla replay --json tests/golden/NAME.jsonl > tests/golden/NAME.expected.jsonl

and every expected line is then checked against the independent SPEC oracle
(tests/oracle/spec_oracle.py) on every SPEC 4.3 field, so the goldens are not
self-fulfilling.  A few hand-made records (the seed-000 worked example, an
early-ended Taash hand, a band-hukum hand with a reveal, a match in progress)
are written by this script too.  ``manifest.json`` lists every set.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from tests.helpers import act, begin, block_hand, early_ended_taash_record, finish_hand, play_scripted  # noqa: E402
from tests.oracle.spec_oracle import HAND_FIELDS, replay_record  # noqa: E402

from dehla.record import dumps_record, to_record  # noqa: E402

DEHLA = Path(sys.executable).with_name("dehla")

#: name -> (rules as given on the command line, seed)
SIMULATED: dict[str, tuple[str, int]] = {
    "pagat": ("pagat", 101),
    "pagat-cut": ("pagat-cut", 102),
    "taash": ("taash", 103),
    "taash-b2b": ("taash-b2b", 104),
    "mendikot": ("mendikot", 105),
    "mendikot-band": ("mendikot-band", 106),
    "mendikot-band-auto": ("mendikot-band-auto", 107),
    "mendikot-open": ("mendikot-open", 108),
    "mendikot-6": ("mendikot-6", 109),
    "mendikot-8": ("mendikot-8", 110),
    "taash-trick-minimum": ('{"preset": "taash", "trick_minimum": true}', 111),
    "taash-sweep-double": ('{"preset": "taash", "sweep_bonus": "double", "target": 200}', 112),
    "pagat-no-reset-target-2": ('{"preset": "pagat", "streak_resets": false, "target": 2}', 113),
    "mendikot-whitewash-next-simple": ('{"preset": "mendikot", "after_whitewash": "next", "rotation": "simple"}', 114),
    "mendikot-band-centre": ('{"preset": "mendikot-band", "collection": "centre"}', 115),
    "mendikot-6-hidden": ('{"preset": "mendikot-6", "trump": "hidden"}', 116),
}


def hand_made() -> dict[str, list[dict[str, Any]]]:
    """Records built move by move: the seed examples and the corners of the rules."""
    seed_000 = begin("pagat", {0: "AH AS 4S", 1: "10H QS", 2: "3H 2S KS", 3: "7H 10S"})
    act(seed_000, "call D AH 10H 3H 7H AS QS 2S 10S")
    finish_hand(seed_000)
    band = begin("mendikot-band", {0: "9S KH", 1: "AS", 2: "3S", 3: "AH"}, void={1: "H", 2: "H"})
    act(band, "hide 9S KH AS reveal 3S AH")
    finish_hand(band)
    in_progress = begin("mendikot-band", {0: "9S KH", 1: "AS", 2: "3S", 3: "AH"}, void={1: "H", 2: "H"})
    act(in_progress, "hide 9S KH AS reveal 3S AH")
    mendikot6, _ = play_scripted("mendikot-6", 0, block_hand(1, [1, 1, 2, 3, 4, 5, 0, 0], (0, 0, 1, 1), players=6))
    return {
        "hand-made": [
            to_record(seed_000, ["A", "B", "C", "D"]),
            early_ended_taash_record(),
            to_record(band),
            to_record(in_progress),
            to_record(mendikot6),
        ]
    }


def check_against_oracle(records: list[dict[str, Any]], expected: list[dict[str, Any]]) -> None:
    for record, ours in zip(records, expected, strict=True):
        theirs = replay_record(record)
        assert "error" not in theirs, theirs
        assert ours["match"] == theirs["match"]
        for mine, other in zip(ours["hands"], theirs["hands"], strict=True):
            fields = HAND_FIELDS if mine.get("complete", True) else ("dealer", "tricks", "tens", "tricks_won")
            for field in fields:
                assert mine[field] == other[field], (field, mine[field], other[field])


def main() -> None:
    manifest: dict[str, Any] = {}
    for name, (rules, seed) in SIMULATED.items():
        records_path = HERE / f"{name}.jsonl"
        subprocess.run(
            [
                str(DEHLA),
                "simulate",
                "--rules",
                rules,
                "--seed",
                str(seed),
                "--matches",
                "2",
                "--out",
                str(records_path),
            ],
            check=True,
        )
        manifest[name] = {"rules": rules, "seed": seed, "matches": 2}
    for name, records in hand_made().items():
        (HERE / f"{name}.jsonl").write_text("".join(dumps_record(record) + "\n" for record in records))
        manifest[name] = {"hand_made": True, "records": len(records)}
    for name in manifest:
        records_path = HERE / f"{name}.jsonl"
        shown = subprocess.run(
            [str(DEHLA), "replay", "--json", str(records_path)], check=True, capture_output=True, text=True
        ).stdout
        records = [json.loads(line) for line in records_path.read_text().splitlines()]
        check_against_oracle(records, [json.loads(line) for line in shown.splitlines()])
        (HERE / f"{name}.expected.jsonl").write_text(shown)
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"wrote {len(manifest)} golden sets to {HERE}")


if __name__ == "__main__":
    main()
