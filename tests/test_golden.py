"""Golden records: stored records replay to exactly the stored ``dehla replay --json`` output.

The expected output was made once by the command (see tests/golden/README.md)
and is checked here, again, against the independent SPEC oracle, so a golden
file cannot simply bless whatever the engine did when it was written.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.helpers import GOLDEN
from tests.oracle.spec_oracle import HAND_FIELDS, replay_record

from dehla.cli.main import main
from dehla.record import replay, replay_json

MANIFEST: dict[str, Any] = json.loads((GOLDEN / "manifest.json").read_text(encoding="utf-8"))
NAMES = sorted(MANIFEST)


def _records(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (GOLDEN / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]


def _expected_text(name: str) -> str:
    return (GOLDEN / f"{name}.expected.jsonl").read_text(encoding="utf-8")


def test_golden_set_covers_every_preset() -> None:
    presets = set()
    for name in NAMES:
        for record in _records(name):
            rules = record["rules"]
            presets.add(rules if isinstance(rules, str) else rules["preset"])
    assert presets == {
        "pagat",
        "pagat-cut",
        "taash",
        "taash-b2b",
        "mendikot",
        "mendikot-band",
        "mendikot-band-auto",
        "mendikot-open",
        "mendikot-6",
        "mendikot-8",
    }
    for name in NAMES:
        assert (GOLDEN / f"{name}.jsonl").exists() and (GOLDEN / f"{name}.expected.jsonl").exists()


@pytest.mark.parametrize("name", NAMES)
def test_golden_records_replay_to_exactly_the_stored_output(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["replay", "--json", str(GOLDEN / f"{name}.jsonl")])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert out == _expected_text(name)


@pytest.mark.parametrize("name", NAMES)
def test_golden_output_agrees_with_the_oracle(name: str) -> None:
    expected = [json.loads(line) for line in _expected_text(name).splitlines()]
    records = _records(name)
    assert len(expected) == len(records)
    for record, ours in zip(records, expected):
        theirs = replay_record(record)
        assert "error" not in theirs, theirs
        assert ours["match"] == theirs["match"]
        assert len(ours["hands"]) == len(theirs["hands"])
        for mine, other in zip(ours["hands"], theirs["hands"]):
            fields = HAND_FIELDS if mine["complete"] else ("dealer", "tricks", "tens", "tricks_won")
            for field in fields:
                assert mine[field] == other[field], (name, field)


@pytest.mark.parametrize("name", NAMES)
def test_golden_records_replay_through_the_api_too(name: str) -> None:
    expected = [json.loads(line) for line in _expected_text(name).splitlines()]
    for record, shown in zip(_records(name), expected):
        assert replay_json(replay(record)) == shown
