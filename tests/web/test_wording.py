"""The server's own English for a refusal that names a seat: seats counted from 1, "Seat" said once."""

from __future__ import annotations

from dehla.web import app as _app  # noqa: F401  (registers every module's templates)
from dehla.web.messages import TEMPLATES, english


def test_a_refusal_naming_a_seat_counts_seats_from_1_and_says_seat_once() -> None:
    codes = [code for code, text in TEMPLATES.items() if "{seat}" in text]
    assert "seat_bot_until_hand_end" in codes and "seat_kind" in codes
    for code in codes:
        text = english(code, {"seat": 0, "text": "x", "n": 1})
        assert "Seat 1" in text and "Seat Seat" not in text and "seat Seat" not in text, text
    assert english("seat_bot_until_hand_end", {"seat": 1}).startswith("That seat (Seat 2) is played by a bot")
