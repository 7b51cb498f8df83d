"""``dehla replay`` (transcript) and ``dehla replay --json`` (SPEC 4.3), good records and broken ones.

Broken records give, on their own line, ``{"error": ...}`` naming the hand,
the action and the reason; the other records are still replayed; the exit
status is 1; nothing ever prints a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.helpers import (
    BROKEN_RECORDS,
    act,
    base_record,
    begin,
    block_hand,
    early_ended_taash_record,
    finish_hand,
    play_scripted,
    random_record,
)
from tests.oracle.spec_oracle import HAND_FIELDS, replay_record

from dehla.cli.main import main
from dehla.record import dumps_record, replay, replay_json, to_record

SPEC_HAND_FIELDS = set(HAND_FIELDS)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write_jsonl(path: Path, records: list[Any]) -> Path:
    path.write_text("".join(dumps_record(record) + "\n" for record in records), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------
# --json


def test_4_3_replay_json_prints_one_object_per_record_in_input_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [random_record(rules, 7) for rules in ("pagat", "taash", "mendikot-6")]
    first = write_jsonl(tmp_path / "a.jsonl", records[:2])
    second = write_jsonl(tmp_path / "b.jsonl", records[2:])
    code, out, err = run(capsys, "replay", "--json", str(first), str(second))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 3
    for line, record in zip(lines, records):
        assert json.loads(line) == replay_json(replay(record))


def test_4_3_replay_json_has_every_spec_field_with_the_right_types(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_jsonl(tmp_path / "m.jsonl", [random_record("mendikot", 3)])
    code, out, _ = run(capsys, "replay", "--json", str(path))
    shown = json.loads(out)
    assert code == 0
    assert set(shown) >= {"hands", "match"}
    assert set(shown["match"]) >= {"over", "winner", "score"}
    for hand in shown["hands"]:
        assert set(hand) >= SPEC_HAND_FIELDS
        assert hand["trump"] in (None, "S", "H", "D", "C")
        assert isinstance(hand["dealer"], int)
        assert len(hand["tens"]) == 2 and len(hand["tricks_won"]) == 2 and len(hand["points"]) == 2
        assert sum(hand["tricks_won"]) == len(hand["tricks"])
        for trick in hand["tricks"]:
            assert set(trick) >= {"leader", "cards", "winner", "collected_by"}
            assert all(isinstance(card, str) for card in trick["cards"])
        assert isinstance(hand["sweep"], bool) and isinstance(hand["whitewash"], bool)


def test_4_3_replay_json_agrees_with_the_oracle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = [random_record(rules, 12) for rules in ("pagat", "taash-b2b", "mendikot-band", "mendikot-open")]
    path = write_jsonl(tmp_path / "m.jsonl", records)
    code, out, _ = run(capsys, "replay", "--json", str(path))
    assert code == 0
    for line, record in zip(out.splitlines(), records):
        ours, theirs = json.loads(line), replay_record(record)
        assert ours["match"] == theirs["match"]
        for mine, expected in zip(ours["hands"], theirs["hands"]):
            assert {key: mine[key] for key in SPEC_HAND_FIELDS} == {key: expected[key] for key in SPEC_HAND_FIELDS}


def test_4_3_spec_example_pagat_two_two_goes_to_team_0_and_dealer_3_deals_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A pagat hand dealt by seat 3, tens 2-2: the non-dealing team 0 wins and seat 3 deals again.
    winners = [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3]
    match, _ = play_scripted("pagat", 3, block_hand(0, winners), before="call D")
    path = write_jsonl(tmp_path / "p.jsonl", [to_record(match)])
    _, out, _ = run(capsys, "replay", "--json", str(path))
    hand = json.loads(out)["hands"][0]
    assert (hand["dealer"], hand["trump"], hand["tens"], hand["winner"]) == (3, "D", [2, 2], 0)
    assert (hand["points"], hand["next_dealer"]) == ([1, 0], 3)
    assert json.loads(out)["match"] == {"over": False, "winner": None, "score": [0, 0]}


def test_4_3_replay_json_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    record = random_record("taash", 1)
    monkeypatch.setattr("sys.stdin", io.StringIO(dumps_record(record) + "\n"))
    code, out, _ = run(capsys, "replay", "--json", "-")
    assert code == 0 and json.loads(out) == replay_json(replay(record))


def test_4_3_unfinished_last_hand_is_shown_as_incomplete(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = random_record("mendikot", 2)
    record["hands"][-1]["actions"] = record["hands"][-1]["actions"][:9]
    path = write_jsonl(tmp_path / "u.jsonl", [record])
    code, out, _ = run(capsys, "replay", "--json", str(path))
    shown = json.loads(out)
    assert code == 0
    assert shown["hands"][-1]["complete"] is False
    assert shown["hands"][-1]["current_trick"]["cards"] and len(shown["hands"][-1]["tricks"]) == 2
    assert shown["match"]["over"] is False


# ---------------------------------------------------------------------------------------------
# Broken records through the command


def test_4_3_every_broken_record_gives_an_error_line_and_the_good_ones_still_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = random_record("taash", 4)
    records: list[Any] = []
    for case in BROKEN_RECORDS:
        records += [good, case.build()]
    records.append(good)
    path = write_jsonl(tmp_path / "mixed.jsonl", records)
    code, out, err = run(capsys, "replay", "--json", str(path))
    assert code == 1
    assert err == "" and "Traceback" not in out
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == len(records)
    expected_good = replay_json(replay(good))
    for index, case in enumerate(BROKEN_RECORDS):
        assert lines[2 * index] == expected_good
        error = lines[2 * index + 1]
        assert list(error) == ["error"], case.name
        message = error["error"]
        assert message.startswith(f"{path}:{2 * index + 2}: "), message
        hand, action = case.where(records[2 * index + 1])
        if hand is not None and action is not None:
            assert f": hand {hand}, action {action}: " in message, (case.name, message)
        elif hand is not None:
            assert f": hand {hand}: " in message, (case.name, message)
        assert case.reason in message, (case.name, message)
    assert lines[-1] == expected_good


def test_4_3_broken_records_agree_with_the_oracle_that_they_are_broken() -> None:
    for case in BROKEN_RECORDS:
        assert "error" in replay_record(case.build()), case.name


def test_4_3_action_after_an_early_ended_taash_hand_through_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = early_ended_taash_record()
    record["hands"][0]["actions"].append("2S")
    path = write_jsonl(tmp_path / "t.jsonl", [record])
    code, out, err = run(capsys, "replay", "--json", str(path))
    assert code == 1 and err == ""
    message = json.loads(out)["error"]
    assert "hand 0, action 40:" in message and "ended early" in message


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ("", "no record in the file"),
        ("{not json", "not JSON"),
        ("[1, 2", "not JSON"),
        ('"just a string"', "must be a JSON object"),
        ('{"format": "dehla-record/1"}', '"rules" is missing'),
    ],
)
def test_4_3_files_that_hold_no_record_give_an_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, why: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    good = write_jsonl(tmp_path / "good.jsonl", [random_record("mendikot", 1)])
    code, out, err = run(capsys, "replay", "--json", str(bad), str(good))
    assert code == 1 and err == ""
    first, second = out.splitlines()
    assert why in json.loads(first)["error"]
    assert "hands" in json.loads(second)


def test_4_3_a_missing_file_and_a_directory_give_error_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "replay", "--json", str(tmp_path / "missing.jsonl"), str(tmp_path))
    assert code == 1 and err == ""
    first, second = (json.loads(line)["error"] for line in out.splitlines())
    assert "no such file" in first and "directory" in second


def test_4_3_a_file_that_is_not_text_gives_an_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "x.bin"
    binary.write_bytes(b"\xff\xfe\x00\x81garbage")
    code, out, err = run(capsys, "replay", "--json", str(binary))
    assert code == 1 and err == ""
    assert "error" in json.loads(out)


def test_4_3_a_deeply_nested_file_is_an_error_not_a_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000, encoding="utf-8")
    code, out, err = run(capsys, "replay", "--json", str(deep))
    assert code == 1 and "Traceback" not in err
    assert all("error" in json.loads(line) for line in out.splitlines())


# ---------------------------------------------------------------------------------------------
# The transcript


def _seed_example_record() -> dict[str, Any]:
    match = begin("pagat", {0: "AH AS 4S", 1: "10H QS", 2: "3H 2S KS", 3: "7H 10S"})
    act(match, "call D AH 10H 3H 7H AS QS 2S 10S")
    finish_hand(match)
    return to_record(match, ["Asha", "Bela", "Chand", "Dev"])


def test_4_3_transcript_shows_the_deal_each_trick_its_winner_collections_result_and_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _seed_example_record()
    path = write_jsonl(tmp_path / "seed.jsonl", [record])
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0 and err == ""
    assert "Hand 0: Dev (seat 3) deals" in out
    for seat, name in enumerate(record["players"]):
        assert f"  {name} (seat {seat}): ♠" in out  # each seat's cards, grouped by suit
    assert "Asha (seat 0) calls diamonds (♦) trump" in out
    assert (
        "trick 1: AH (Asha (seat 0)), 10H (Bela (seat 1)), 3H (Chand (seat 2)), 7H (Dev (seat 3))"
        " — won by Asha (seat 0), stays in the centre"
    ) in out
    assert "trick 2: AS (Asha (seat 0)), QS (Bela (seat 1)), 2S (Chand (seat 2)), 10S (Dev (seat 3))" in out
    assert "Asha (seat 0) collects the centre for team 0 (Asha & Chand): 8 cards, 2 tens" in out
    assert "trick 13:" in out
    assert "result: tens " in out
    assert "Match: kots " in out


def test_4_3_transcript_shows_trump_events_staged_deal_and_early_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_jsonl(tmp_path / "t.jsonl", [early_ended_taash_record()])
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert "the rest of the cards are dealt after trick 5 (no trump for the rest of the hand)" in out
    assert "the result is settled after trick 10: the hand ends early" in out
    assert "[ended early]" in out
    assert "(+30)" in out


def test_4_3_transcript_shows_a_reveal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = begin("mendikot-band", {0: "9S KH", 1: "AS", 2: "3S", 3: "AH"}, void={1: "H", 2: "H"})
    act(match, "hide 9S KH AS reveal 3S AH")
    path = write_jsonl(tmp_path / "r.jsonl", [to_record(match)])
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert "seat 0 lays 9S face down as the hidden trump" in out
    assert "the hidden card is turned up at seat 2's request: 9S, so spades (♠) are trump" in out
    assert "hand in progress" in out


def test_4_3_transcript_reports_broken_records_keeps_going_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = BROKEN_RECORDS[0].build()
    illegal = next(case for case in BROKEN_RECORDS if case.name.startswith("illegal play")).build()
    good = random_record("mendikot", 5)
    path = write_jsonl(tmp_path / "mixed.jsonl", [broken, illegal, good])
    code, out, err = run(capsys, "replay", str(path))
    assert code == 1 and err == ""
    assert "Traceback" not in out
    errors = [line for line in out.splitlines() if line.startswith("error: ")]
    assert len(errors) == 2
    assert '"format" must be' in errors[0]
    assert ": hand 0, action " in errors[1] and "must follow" in errors[1]
    assert f"Record {path}:3:" in out and "Match: points" in out


def test_4_3_transcript_reports_every_kind_of_broken_record_on_its_own_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = random_record("pagat", 2)
    records: list[Any] = [good]
    for case in BROKEN_RECORDS:
        records += [case.build(), good]
    path = write_jsonl(tmp_path / "mixed.jsonl", records)
    code, out, err = run(capsys, "replay", str(path))
    assert code == 1 and err == "" and "Traceback" not in out
    errors = [line for line in out.splitlines() if line.startswith("error: ")]
    assert len(errors) == len(BROKEN_RECORDS)
    for line, case, index in zip(errors, BROKEN_RECORDS, range(len(BROKEN_RECORDS))):
        record_line = 2 * index + 2
        assert line.startswith(f"error: {path}:{record_line}: "), (case.name, line)
        hand, action = case.where(records[record_line - 1])
        if hand is not None and action is not None:
            assert f": hand {hand}, action {action}: " in line, (case.name, line)
        assert case.reason in line, (case.name, line)
    assert out.count("Match: kots") >= len(BROKEN_RECORDS) + 1  # every good record was told in full


def test_replay_needs_a_file_argument(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["replay"])
    assert caught.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_base_records_used_by_the_broken_catalogue_are_good() -> None:
    for rules in {case.base for case in BROKEN_RECORDS}:
        assert "error" not in replay_record(base_record(rules))
