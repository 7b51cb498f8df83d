"""``dehla verify``: a verdict per hand with a seed, exit status 1 on any mismatch or bad input, never a traceback."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from dehla.cli.main import main
from dehla.engine.fairdeal import deal_from_seed
from dehla.engine.state import Match
from dehla.record import to_record


def _record(preset: str, seed: int) -> dict[str, Any]:
    """A match of random play whose every hand is dealt from a seed, with the seeds revealed."""
    rng = random.Random(seed)
    match = Match({"preset": preset, "target": 2}, 1)
    seeds: list[bytes | None] = []
    while not match.is_over:
        if match.is_chance:
            seeds.append(rng.randbytes(32))
            match.apply(deal_from_seed(match.rules, seeds[-1], match.hand_number))
        else:
            match.apply(rng.choice(match.legal_actions()))
    return dict(to_record(match, None, seeds))


def _verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: object, raw: str | None = None
) -> tuple[int, str]:
    path = tmp_path / "game.json"
    path.write_text(raw if raw is not None else json.dumps(data))
    status = main(["verify", str(path)])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return status, captured.out + captured.err


@pytest.mark.parametrize("preset", ["pagat", "taash", "mendikot-open", "mendikot-band", "mendikot-8"])
def test_a_record_dealt_from_its_seeds_passes(preset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _record(preset, 3)
    status, out = _verify(tmp_path, capsys, record)
    assert status == 0
    assert out.count("the deal follows from the revealed seed") == len(record["hands"])


def test_a_changed_drawn_card_is_a_mismatch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _record("mendikot-open", 4)
    drawn = record["hands"][0]["open_draw"]
    record["hands"][0]["open_draw"] = "AS" if drawn != "AS" else "KS"
    status, out = _verify(tmp_path, capsys, record)
    assert (
        status == 1
        and f"hand 0: MISMATCH: the drawn card is {record['hands'][0]['open_draw']}; the seed draws {drawn}" in out
    )


def test_a_seed_that_is_not_the_committed_one_is_a_mismatch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _record("pagat", 5)
    record["hands"][0]["commitment"] = "ab" * 32
    status, out = _verify(tmp_path, capsys, record)
    assert status == 1 and "hand 0: MISMATCH: the seed's SHA-256 is" in out and "not the commitment abab" in out


def test_cards_in_another_order_are_a_mismatch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _record("pagat", 6)
    record["hands"][0]["cards"][3] = " ".join(reversed(record["hands"][0]["cards"][3].split()))
    status, out = _verify(tmp_path, capsys, record)
    assert status == 1 and "seat 3 holds the right cards in another order" in out


def test_a_hand_without_a_seed_is_not_checked_and_a_record_without_any_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _record("pagat", 7)
    del record["hands"][0]["seed"]
    status, out = _verify(tmp_path, capsys, record)
    assert "hand 0: no seed revealed; not checked (it has a commitment, but the seed was never revealed)" in out
    assert status == (0 if len(record["hands"]) > 1 else 1)
    for hand in record["hands"]:
        hand.pop("seed", None)
        hand.pop("commitment", None)
    status, out = _verify(tmp_path, capsys, record)
    assert status == 1 and "nothing was checked" in out


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: r["hands"][0].update(seed="not hex"), 'hand 0: MISMATCH: cannot check: "seed" must be hexadecimal'),
        (lambda r: r["hands"][0].update(seed=12), 'cannot check: "seed" must be text'),
        (lambda r: r["hands"][0].update(cards="AS"), 'cannot check: "cards" must list 4 hands'),
        (lambda r: r["hands"][0]["cards"].__setitem__(0, "ZZ KS"), "cannot check: "),
        (lambda r: r.update(rules="pagot"), "MISMATCH: rules: unknown preset 'pagot'"),
        (lambda r: r.update(format="other"), "MISMATCH: \"format\" must be 'dehla-record/1'"),
        (lambda r: r.update(hands=3), 'MISMATCH: "hands" must be a list of hands'),
        (lambda r: r["hands"].__setitem__(0, []), "hand 0: MISMATCH: a hand must be a JSON object"),
    ],
)
def test_a_record_that_cannot_be_checked_says_why(
    change: Any, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _record("pagat", 8)
    change(record)
    status, out = _verify(tmp_path, capsys, record)
    assert status == 1 and words in out


def test_files_that_are_not_records_say_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = _verify(tmp_path, capsys, None, raw="{not json")
    assert status == 1 and "not JSON" in out
    status, out = _verify(tmp_path, capsys, None, raw="[1, 2]")
    assert status == 1 and "a record must be a JSON object" in out
    assert main(["verify", str(tmp_path / "missing.json")]) == 1
    assert "missing.json: no such file" in capsys.readouterr().out
