"""The scorekeeper refuses every result no real hand can have, with a code and params the browser words.

One test per rule, named after it; and the other way round, every hand the engine
plays (Taash's early ends included) is accepted as it was.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from dehla.engine.state import Match
from dehla.rules import parse_rules
from dehla.web.messages import TEMPLATES, WebError, english
from dehla.web.scorekeeper import SCOREKEEPER_TEMPLATES, check_hand, score_hands


def _refusal(request: object) -> WebError:
    with pytest.raises(WebError) as caught:
        score_hands(request)
    return caught.value


def _hands(rules: Any, *hands: object, first_dealer: int = 0) -> dict[str, Any]:
    return {"rules": rules, "first_dealer": first_dealer, "hands": list(hands)}


def test_every_refusal_is_registered_with_an_english_template() -> None:
    for code, template in SCOREKEEPER_TEMPLATES.items():
        assert TEMPLATES[code] == template
    error = _refusal(_hands("pagat", {"tens": [3, 0]}))
    assert error.kind == "invalid" and error.status == 400
    assert str(error) == english(error.code, error.params)
    assert error.to_json()["code"] == "tens_sum" and error.to_json()["params"] == {"hand": 1, "n": 3}


def test_tens_must_add_up_to_four() -> None:
    for rules in ("pagat", "mendikot", "mendikot-6"):
        tricks = [parse_rules(rules).tricks_per_hand, 0]
        error = _refusal(_hands(rules, {"tens": [2, 1], "tricks": tricks}))
        assert (error.code, error.params) == ("tens_sum", {"hand": 1, "n": 3})
        assert "add up to 4" in str(error)


def test_tricks_must_add_up_to_the_number_of_tricks() -> None:
    error = _refusal(_hands("mendikot", {"tens": [2, 2], "tricks": [7, 7]}))
    assert (error.code, error.params) == ("tricks_sum", {"hand": 1, "max": 13, "n": 14})
    error = _refusal(_hands("mendikot-8", {"tens": [2, 2], "tricks": [3, 2]}))
    assert (error.code, error.params) == ("tricks_sum", {"hand": 1, "max": 6, "n": 5})


def test_taash_tens_and_tricks_short_of_the_whole_hand_need_a_settled_result() -> None:
    # the example: with tens 1-1 and tricks 6-3 the result could still go either way
    error = _refusal(_hands("taash", {"tens": [1, 1], "tricks": [6, 3]}))
    assert (error.code, error.params) == ("not_settled", {"hand": 1})
    # three tens and no way back for the other team: 30 points are settled, so the hand ended early
    data = score_hands(_hands("taash", {"tens": [3, 1], "tricks": [6, 3]}))
    assert data["hands"][0]["ended_early"] and data["hands"][0]["points"] == [30, 0]
    # 2-2 is settled once one team has more than half the tricks
    data = score_hands(_hands("taash", {"tens": [2, 2], "tricks": [7, 2]}))
    assert data["hands"][0]["points"] == [20, 0] and data["hands"][0]["ended_early"]
    assert _refusal(_hands("taash", {"tens": [2, 2], "tricks": [6, 2]})).code == "not_settled"


def test_taash_with_the_trick_minimum_can_settle_with_tens_still_out() -> None:
    rules = {"preset": "taash", "trick_minimum": True}
    # team 0 holds three tens but can no longer take 7 tricks: nobody scores, whoever takes the last ten
    data = score_hands(_hands(rules, {"tens": [3, 0], "tricks": [1, 7]}))
    assert data["hands"][0]["winner"] is None and data["hands"][0]["ended_early"]
    # the last ten still decides between 3-1 (nobody: too few tricks) and 2-2 (20 to team 1)
    assert _refusal(_hands(rules, {"tens": [2, 1], "tricks": [1, 7]})).code == "not_settled"


def test_taash_a_whole_hand_has_all_four_tens_taken() -> None:
    error = _refusal(_hands("taash", {"tens": [2, 1], "tricks": [7, 6]}))
    assert (error.code, error.params) == ("all_tricks_all_tens", {"hand": 1, "max": 13})


def test_taash_there_are_only_four_tens_and_thirteen_tricks() -> None:
    assert _refusal(_hands("taash", {"tens": [3, 2], "tricks": [7, 6]})).code == "tens_over"
    error = _refusal(_hands("taash-b2b", {"tens": [2, 2], "tricks": [8, 7]}))
    assert (error.code, error.params) == ("tricks_over", {"hand": 1, "max": 13, "n": 15})


def test_a_team_that_took_tens_took_at_least_one_trick() -> None:
    error = _refusal(_hands("mendikot", {"tens": [3, 1], "tricks": [13, 0]}))
    assert (error.code, error.params) == ("tens_without_tricks", {"hand": 1})
    assert _refusal(_hands("taash", {"tens": [4, 0], "tricks": [0, 5]})).code == "tens_without_tricks"
    # a whitewash with every ten is fine
    assert score_hands(_hands("mendikot", {"tens": [4, 0], "tricks": [13, 0]}))["hands"][0]["winner"] == 0


def test_numbers_are_in_range() -> None:
    error = _refusal(_hands("pagat", {"tens": [5, 0]}))
    assert (error.code, error.params) == ("tens_range", {"hand": 1, "max": 4})
    error = _refusal(_hands("mendikot-6", {"tens": [2, 2], "tricks": [9, 0]}))
    assert (error.code, error.params) == ("tricks_range", {"hand": 1, "max": 8})


def test_counts_are_two_whole_numbers() -> None:
    for tens in ([-1, 5], [2], [2, 2, 0], [2.0, 2], [True, 3], "2-2", None):
        error = _refusal(_hands("pagat", {"tens": tens}))
        assert (error.code, error.params) == ("tens_numbers", {"hand": 1}), tens
    error = _refusal(_hands("mendikot", {"tens": [2, 2]}))
    assert (error.code, error.params) == ("tricks_numbers", {"hand": 1})
    assert "tricks must be two" in str(error)


def test_a_hand_is_an_object() -> None:
    error = _refusal(_hands("pagat", {"tens": [3, 1]}, [4, 0]))
    assert (error.code, error.params) == ("hand_format", {"hand": 2})


def test_no_hand_after_the_match_is_over() -> None:
    error = _refusal(_hands("pagat", {"tens": [4, 0]}, {"tens": [3, 1]}))
    assert (error.code, error.params) == ("match_over_already", {"hand": 2})
    assert "already over" in str(error)


def test_the_first_dealer_is_a_seat() -> None:
    for dealer in (7, -1, "0", True):
        error = _refusal({"rules": "mendikot-6", "first_dealer": dealer, "hands": []})
        assert (error.code, error.params) == ("first_dealer", {"max": 5})


def test_the_request_is_an_object_with_a_list_of_hands() -> None:
    assert _refusal([]).code == "scorekeeper_request"
    assert _refusal({"rules": "pagat", "hands": {"tens": [4, 0]}}).code == "scorekeeper_request"
    error = _refusal({"rules": "pagat", "hands": [{"tens": [2, 2]}] * 501})
    assert (error.code, error.params) == ("too_many_hands", {"max": 500})


def test_rules_the_engine_refuses_are_refused() -> None:
    error = _refusal({"rules": "whist"})
    assert (error.code, error.params) == ("scorekeeper_rules", {"text": "whist"})
    error = _refusal({"rules": {"preset": "pagat", "target": -1}})
    assert (error.code, error.params) == ("scorekeeper_options", {})


@pytest.mark.parametrize(
    "rules",
    [
        "taash",
        "taash-b2b",
        {"preset": "taash", "trick_minimum": True},
        {"preset": "taash-b2b", "trick_minimum": True, "sweep_bonus": "double"},
        "mendikot",
        "mendikot-band",
        "mendikot-8",
        "pagat-cut",
    ],
)
def test_every_hand_the_engine_plays_is_accepted_as_it_ended(rules: Any) -> None:
    parsed = parse_rules(rules)
    early = 0
    for seed in range(40):
        rng = random.Random(seed)
        match = Match.new(parsed, rng)
        while not match.is_over:
            match.apply(match.random_deal(rng) if match.is_chance else rng.choice(match.legal_actions()))
        for index, result in enumerate(match.results):
            hand = {"tens": list(result.tens), "tricks": list(result.tricks_won)}
            check_hand(parsed, result.dealer, index, hand)
            early += sum(result.tricks_won) < parsed.tricks_per_hand
        data = score_hands(
            {
                "rules": rules,
                "first_dealer": match.first_dealer,
                "hands": [{"tens": list(r.tens), "tricks": list(r.tricks_won)} for r in match.results],
            }
        )
        assert data["score"] == list(match.score) and data["winner"] == match.winner
    assert early or not parsed.early_end  # the Taash presets did end hands early, and each was accepted
