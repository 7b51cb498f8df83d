"""SPEC 4.2 ``dehla-record/1``: writing, reading, replaying; every kind of broken record; bad API calls.

A broken record raises ``RecordError`` whose message names the hand and the
action (0-based positions in the record's lists) and says what is wrong.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.helpers import (
    BROKEN_RECORDS,
    BrokenRecord,
    act,
    base_record,
    begin,
    block_hand,
    deal,
    early_ended_taash_record,
    finish_hand,
    first_position,
    in_hand,
    off_suit_card,
    play_scripted,
    random_match,
    random_record,
    record_of,
    snapshot,
)

from dehla import (
    Call,
    CardError,
    Deal,
    DehlaError,
    Hide,
    IllegalActionError,
    Match,
    RecordError,
    Reveal,
    RulesError,
    parse_action,
    parse_card,
)
from dehla.engine import COMPILED
from dehla.record import (
    FORMAT,
    dumps_record,
    parse_records,
    read_records,
    replay,
    replay_json,
    to_record,
    write_records,
)

# ---------------------------------------------------------------------------------------------
# Writing and reading


def test_4_2_record_holds_format_rules_first_dealer_and_each_hands_cards_and_actions() -> None:
    match = random_match("pagat", 11)
    record = to_record(match, ["Asha", "Bela", "Chand", "Dev"])
    assert record["format"] == FORMAT == "dehla-record/1"
    assert record["rules"] == "pagat"
    assert record["first_dealer"] == match.first_dealer
    assert record["players"] == ["Asha", "Bela", "Chand", "Dev"]
    assert len(record["hands"]) == len(match.results)
    for hand, result in zip(record["hands"], match.results):
        assert hand["dealer"] == result.dealer
        assert len(hand["cards"]) == 4 and all(len(cards.split()) == 13 for cards in hand["cards"])
        assert hand["actions"][0].startswith("call ")
        assert "open_draw" not in hand


def test_4_2_rules_with_options_are_written_as_an_object() -> None:
    record = random_record({"preset": "taash", "target": 60, "trick_minimum": True}, 2)
    assert record["rules"] == {"preset": "taash", "target": 60, "trick_minimum": True}
    assert replay(record).rules.target == 60


def test_4_2_open_draw_appears_in_every_hand_under_open_draw_rules() -> None:
    record = random_record("mendikot-open", 3)
    assert all("open_draw" in hand for hand in record["hands"])
    assert replay(record).results == replay(json.loads(json.dumps(record))).results


def test_4_2_staged_deal_records_list_the_opening_packet_first() -> None:
    script = block_hand(0, [0, 1, 2, 3] * 3)
    match, _ = play_scripted("pagat-cut", 3, script)
    record = to_record(match)
    assert record["hands"][0]["cards"][0].split()[:5] == script.hands[0].split()[:5]


@pytest.mark.parametrize("rules", ["pagat", "taash", "mendikot-band", "mendikot-open", "mendikot-8"])
def test_4_2_any_match_saved_replays_to_identical_results(rules: str) -> None:
    match = random_match(rules, 5)
    record = json.loads(dumps_record(to_record(match)))
    again = replay(record)
    assert again.results == match.results
    assert again.score == match.score and again.winner == match.winner
    assert replay_json(again) == replay_json(match)
    assert to_record(again) == to_record(match)


def test_4_2_actions_name_no_actor_and_no_automatic_event() -> None:
    record = random_record("mendikot-band", 4)
    for hand in record["hands"]:
        assert set(hand) == {"dealer", "cards", "actions"}
        for text in hand["actions"]:
            assert str(parse_action(text)) == text  # a card, 'hide CARD' or 'reveal': no seat, no event
        plays = [text for text in hand["actions"] if not text.startswith(("hide", "reveal"))]
        assert len(plays) == 52 and hand["actions"][0].startswith("hide ")


def test_4_2_players_and_dealer_are_optional() -> None:
    record = random_record("mendikot", 6)
    for hand in record["hands"]:
        del hand["dealer"]
    record.pop("players", None)
    assert replay(record).results == replay(random_record("mendikot", 6)).results


def test_4_2_card_and_call_text_may_use_t_lower_case_and_symbols() -> None:
    record = random_record("pagat", 8)
    hand = record["hands"][0]
    hand["cards"] = [cards.replace("10", "T").lower() for cards in hand["cards"]]
    suit = hand["actions"][0][-1]
    hand["actions"][0] = "call " + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit]
    hand["actions"][1:] = [text.replace("10", "t").replace("H", "♥") for text in hand["actions"][1:]]
    assert replay(record).results == replay(random_record("pagat", 8)).results


def test_4_2_a_record_file_may_hold_one_object_json_lines_or_a_list(tmp_path: Path) -> None:
    records = [random_record("mendikot", seed) for seed in range(3)]
    lines = tmp_path / "many.jsonl"
    assert write_records(lines, records) == 3
    assert [entry.data for entry in read_records(lines)] == records
    assert [entry.line for entry in read_records(lines)] == [1, 2, 3]
    pretty = tmp_path / "one.json"
    pretty.write_text(json.dumps(records[0], indent=2), encoding="utf-8")
    [entry] = list(read_records(pretty))
    assert entry.data == records[0] and entry.error is None
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps(records), encoding="utf-8")
    assert [entry.data for entry in read_records(listed)] == records


def test_4_2_a_line_that_is_not_json_is_reported_and_the_others_still_read() -> None:
    good = dumps_record(random_record("taash", 1))
    entries = list(parse_records(f"{good}\n{{not json\n\n{good}\n", "games.jsonl"))
    assert [entry.error is None for entry in entries] == [True, False, True]
    assert entries[1].error is not None and entries[1].error.startswith("games.jsonl:2: not JSON")


def test_4_2_missing_file_and_empty_file_are_reported(tmp_path: Path) -> None:
    [missing] = list(read_records(tmp_path / "nope.jsonl"))
    assert missing.error is not None and "no such file" in missing.error
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    [nothing] = list(read_records(empty))
    assert nothing.error is not None and "no record" in nothing.error
    [directory] = list(read_records(tmp_path))
    assert directory.error is not None and "directory" in directory.error


def test_4_2_an_unfinished_last_hand_is_a_match_in_progress() -> None:
    match = random_match("mendikot", 9)
    record = to_record(match)
    record["hands"][-1]["actions"] = record["hands"][-1]["actions"][:22]
    replayed = replay(record)
    assert in_hand(replayed) and not replayed.is_over
    shown = replay_json(replayed)
    last = shown["hands"][-1]
    assert last["complete"] is False
    assert len(last["tricks"]) == 5 and len(last["current_trick"]["cards"]) == 2
    assert last["winner"] is None and last["next_dealer"] is None
    assert shown["match"]["over"] is False
    assert all(hand["complete"] for hand in shown["hands"][:-1])


def test_4_2_a_saved_match_in_progress_can_be_continued_identically() -> None:
    rng = random.Random(4)
    match = Match.new("taash-b2b", rng)
    match.apply(match.random_deal(rng))
    for _ in range(17):
        match.apply(rng.choice(match.legal_actions()))
    again = replay(json.loads(json.dumps(to_record(match))))
    assert again.legal_actions() == match.legal_actions()
    assert again.observe(again.to_act).to_json() == match.observe(match.to_act).to_json()  # type: ignore[arg-type]


def test_4_2_a_hand_that_ended_early_has_no_actions_after_its_end() -> None:
    script = block_hand(0, [1, 3, 1, 0, 3, 1, 0, 1, 3, 0, 3, 1])
    match, _ = play_scripted("taash", 3, script)
    record = to_record(match)
    assert len(record["hands"][0]["actions"]) == 40  # ten tricks
    assert replay(record).results[0].ended_early


# ---------------------------------------------------------------------------------------------
# Broken records: RecordError naming the hand and action


@pytest.mark.parametrize("case", BROKEN_RECORDS, ids=[case.name for case in BROKEN_RECORDS])
def test_broken_record_raises_record_error_naming_hand_action_and_reason(case: BrokenRecord) -> None:
    broken = case.build()
    hand, action = case.where(broken)
    with pytest.raises(RecordError) as caught:
        replay(broken)
    error = caught.value
    message = str(error)
    assert case.reason in message
    assert (error.hand, error.action) == (hand, action)
    if hand is not None and action is not None:
        assert message.startswith(f"hand {hand}, action {action}: ")
    elif hand is not None:
        assert message.startswith(f"hand {hand}: ")
    else:
        assert not message.startswith("hand ")
    assert len(message.splitlines()) == 1


def test_broken_record_illegal_play_names_the_exact_action_index() -> None:
    record = base_record("mendikot")
    index, text = first_position(record, off_suit_card)
    record["hands"][0]["actions"][index] = text
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert (caught.value.hand, caught.value.action) == (0, index)
    assert str(caught.value).startswith(f"hand 0, action {index}: seat ")


def test_broken_record_action_after_an_early_ended_taash_hand() -> None:
    record = early_ended_taash_record()
    record["hands"][0]["actions"].append("2S")
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert (caught.value.hand, caught.value.action) == (0, 40)
    assert "ended early" in str(caught.value)


@pytest.mark.parametrize("value", [None, [], "text", 3])
def test_a_record_that_is_not_an_object_is_refused(value: object) -> None:
    with pytest.raises(RecordError) as caught:
        replay(value)
    assert "JSON object" in str(caught.value)


def test_record_error_is_a_dehla_error_and_nothing_is_silently_corrected() -> None:
    assert issubclass(RecordError, DehlaError)
    record = random_record("pagat", 3)
    record["hands"][0]["actions"][0] = "call X"
    with pytest.raises(DehlaError):
        replay(record)


# ---------------------------------------------------------------------------------------------
# Bad API calls


def _position(rules: str, seed: int, steps: int) -> Match:
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    match.apply(match.random_deal(rng))
    for _ in range(steps):
        match.apply(rng.choice(match.legal_actions()))
    return match


def test_apply_of_an_illegal_action_raises_and_leaves_the_state_unchanged() -> None:
    match = _position("mendikot", 1, 5)  # seat to act must follow the suit led
    before = snapshot(match)
    off_suit = off_suit_card(match)
    assert off_suit is not None
    bad_actions: list[object] = [
        parse_action(off_suit),
        parse_action(str(match.hand_of((match.to_act + 1) % 4)[0])),  # type: ignore[operator]
        Call(0),
        Hide(parse_card("AS")),
        Reveal(),
        deal(*[" ".join(str(card) for card in hand) for hand in match.deals[-1].hands]),
    ]
    for action in bad_actions:
        with pytest.raises(IllegalActionError):
            match.apply(action)  # type: ignore[arg-type]
        assert snapshot(match) == before
    finish_hand(match)
    replayed = replay(to_record(match))
    assert replayed.results == match.results


def test_illegal_action_error_messages_say_why() -> None:
    match = begin("mendikot", {0: "AH", 1: "10H 2C"})
    act(match, "AH")
    with pytest.raises(IllegalActionError, match=r"seat 1 must follow hearts with .*, not 2C"):
        act(match, "2C")
    with pytest.raises(IllegalActionError, match="seat 1 does not hold AS"):
        act(match, "AS")
    with pytest.raises(IllegalActionError, match="a hand is in play"):
        match.apply(match.deals[-1])


def test_actions_before_the_deal_and_after_the_match_are_refused() -> None:
    match = Match("mendikot", 0)
    with pytest.raises(IllegalActionError, match="must be dealt"):
        act(match, "AS")
    finished = random_match("taash", 2)
    assert finished.is_over and finished.legal_actions() == () and finished.to_act is None
    with pytest.raises(IllegalActionError, match="over"):
        act(finished, "AS")
    with pytest.raises(IllegalActionError, match="over"):
        finished.apply(finished.random_deal(random.Random(0)))


#: A value of the wrong Python type for an ``int`` parameter: the source engine refuses it with a ``DehlaError``;
#: the compiled engine (``dehla.engine.COMPILED``) with the ``TypeError`` its compiled signature raises, as any
#: compiled function does.  Values from records and the wire are checked before they reach the engine.
NOT_INTS: list[object] = ["0", 1.0, None]
WRONG_TYPE = TypeError if COMPILED else DehlaError


#: ``True`` is refused as a seat by the source engine; a compiled ``int`` parameter reads it as 1, as compiled code does
BOOL_SEATS: list[int] = [] if COMPILED else [True]


@pytest.mark.parametrize("seat", [4, -1, *BOOL_SEATS])
def test_observe_refuses_a_seat_that_does_not_exist(seat: int) -> None:
    match = _position("mendikot", 1, 0)
    with pytest.raises(DehlaError, match=r"seat must be 0\.\.3"):
        match.observe(seat)


@pytest.mark.parametrize("seat", NOT_INTS)
def test_observe_refuses_a_seat_that_is_not_a_number(seat: object) -> None:
    match = _position("mendikot", 1, 0)
    with pytest.raises(WRONG_TYPE, match=r"seat must be 0\.\.3|int object expected"):
        match.observe(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("first_dealer", [4, -1, *BOOL_SEATS])
def test_a_first_dealer_that_is_not_a_seat_is_refused(first_dealer: int) -> None:
    with pytest.raises(DehlaError, match=r"first_dealer must be a seat number 0\.\.3"):
        Match("mendikot", first_dealer)


@pytest.mark.parametrize("first_dealer", NOT_INTS)
def test_a_first_dealer_that_is_not_a_number_is_refused(first_dealer: object) -> None:
    with pytest.raises(WRONG_TYPE, match=r"first_dealer must be a seat number 0\.\.3|int object expected"):
        Match("mendikot", first_dealer)  # type: ignore[arg-type]


def test_first_dealer_for_six_players_may_be_seat_5_but_not_6() -> None:
    assert Match("mendikot-6", 5).dealer == 5
    with pytest.raises(DehlaError):
        Match("mendikot-6", 6)


@pytest.mark.parametrize("text", ["ZZ", "call", "call X", "hide", "hide 11S", "play", "reveal now", "", "10H 9H"])
def test_unreadable_action_text_is_refused(text: str) -> None:
    with pytest.raises(DehlaError, match="cannot read action"):
        parse_action(text)


@pytest.mark.parametrize(("text", "example"), [("call", "call S"), ("Hide", "hide QS"), ("play", "play 10H")])
def test_a_verb_typed_alone_is_told_what_it_lacks(text: str, example: str) -> None:
    with pytest.raises(DehlaError, match=f"say what to {text.lower()}, such as '{example}'"):
        parse_action(text)


def test_action_texts_are_read_in_every_form() -> None:
    assert parse_action("10h") == parse_action("TH") == parse_action("play 10H")
    assert parse_action("call ♦") == parse_action("CALL d") == Call(2)
    assert parse_action("hide q♠") == Hide(parse_card("QS"))
    assert parse_action("Reveal") == Reveal()
    for text in ("10H", "call D", "hide QS", "reveal"):
        assert str(parse_action(text)) == text


@pytest.mark.parametrize(
    ("hands", "open_draw", "why"),
    [
        (lambda d: d.hands[:3], None, "a deal needs 4 hands"),
        (lambda d: (d.hands[0][:12], *d.hands[1:]), None, "seat 0 is dealt 12 cards"),
        (lambda d: ((d.hands[1][0], *d.hands[0][1:]), *d.hands[1:]), None, "is dealt twice"),
    ],
)
def test_a_bad_deal_is_refused(hands: Callable[[Deal], Any], open_draw: str | None, why: str) -> None:
    match = Match("mendikot", 0)
    good = match.random_deal(random.Random(1))
    with pytest.raises(IllegalActionError, match=why):
        match.apply(Deal(hands(good), open_draw))
    assert match.is_chance


def test_a_deal_with_a_two_for_six_players_or_without_the_drawn_card_is_refused() -> None:
    six = Match("mendikot-6", 0)
    dealt = six.random_deal(random.Random(2))
    with_two = ((parse_card("2S"), *dealt.hands[0][1:]), *dealt.hands[1:])
    with pytest.raises(IllegalActionError, match="not in the 48-card pack"):
        six.apply(Deal(with_two))
    opened = Match("mendikot-open", 0)
    plain = opened.random_deal(random.Random(2))
    with pytest.raises(IllegalActionError, match="open_draw"):
        opened.apply(Deal(plain.hands))
    with pytest.raises(IllegalActionError, match="only for open-draw"):
        Match("mendikot", 0).apply(Deal(plain.hands, parse_card("AS")))


def test_a_deal_of_a_card_number_outside_the_pack_is_refused() -> None:
    with pytest.raises(CardError):
        Deal([[60] * 13] * 4)


def test_unknown_rules_in_the_api_raise_rules_error() -> None:
    with pytest.raises(RulesError):
        Match.new("nope", 1)
    with pytest.raises(RulesError):
        Match({"preset": "pagat", "target": 0})


def test_record_written_for_a_fresh_match_has_no_hands_and_replays() -> None:
    match = Match("taash", 2)
    record = to_record(match)
    assert record["hands"] == []
    assert replay(record).is_chance
    assert replay_json(replay(record)) == {"hands": [], "match": {"over": False, "winner": None, "score": [0, 0]}}


def test_record_of_hands_built_by_hand() -> None:
    script = block_hand(0, [0, 1, 2, 3] * 3)
    record = record_of("mendikot", 3, [{"cards": list(script.hands), "actions": list(script.plays)}])
    replayed = replay(record)
    assert [trick.winner for trick in replayed.results[0].tricks[:12]] == [0, 1, 2, 3] * 3
