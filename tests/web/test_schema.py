"""JSON from outside the process (stored rows and log entries, other processes' notes) is checked into typed values.

A field that is not what the server writes is refused with a ``DehlaError``
that names it; what the server writes reads back unchanged.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest

from dehla.errors import DehlaError
from dehla.web.log import upgrade_entry
from dehla.web.schema import read_meta, read_note
from dehla.web.settings import default_bot
from dehla.web.storage import SQLiteStorage, TableRow
from dehla.web.tables import TableService

SEAT = {"kind": "bot", "bot": "random", "name": "Bot 0", "token_hash": None, "claimed": False}


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"type": "action", "seat": "2", "action": "10H", "by": "bot"}, "log entry: 'seat' must be a whole number"),
        ({"type": "action", "seat": 2, "by": "bot"}, "log entry: 'action' (text) is missing"),
        ({"type": "deal", "cards": "10H 2S"}, "log entry: 'cards' must be a list of texts"),
        (
            {"type": "settings", "listed": 1, "watchers_allowed": True, "trick_pause": 1},
            "log entry: 'listed' must be true or false, not 1",
        ),
        ({"type": "seat", "seat": 1, "kind": "bot", "bot": "random"}, "log entry: 'name' (text) is missing"),
        ({"type": "shuffle"}, "unknown log entry 'shuffle'"),
        ({"k": "shuffle"}, "unknown log entry 'shuffle'"),
        (["type", "match"], "log entry must be a JSON object, not list"),
    ],
)
def test_a_wrong_log_entry_is_refused_naming_the_field(entry: object, message: str) -> None:
    with pytest.raises(DehlaError) as caught:
        upgrade_entry(entry)
    assert str(caught.value).startswith(message)


def test_old_entries_read_in_todays_form() -> None:
    assert upgrade_entry({"k": "act", "seat": 1, "a": "10H"}) == {
        "type": "action",
        "seat": 1,
        "action": "10H",
        "by": "person",
    }
    assert upgrade_entry({"k": "deal", "hands": ["10H", "2S"], "open_draw": None}) == {
        "type": "deal",
        "cards": ["10H", "2S"],
    }
    # a seat written without a bot or a token reads as the default bot's seat, not yet claimed
    assert upgrade_entry({"type": "seat", "seat": 0, "kind": "person", "name": "Ann"}) == {
        "type": "seat",
        "seat": 0,
        "kind": "person",
        "bot": "",
        "name": "Ann",
        "token_hash": None,
        "claimed": False,
    }


def test_a_table_row_is_read_with_its_defaults_and_refused_naming_a_wrong_field() -> None:
    assert read_meta({"rules": "pagat", "seats": [SEAT]}, "t1") == {"rules": "pagat", "seats": [SEAT]}
    with pytest.raises(DehlaError, match=r"table t1: 'seats' \(a list of seats\) is missing"):
        read_meta({"rules": "pagat"}, "t1")
    with pytest.raises(DehlaError, match="table t1: 'grace' must be a number, not 'soon'"):
        read_meta({"rules": "pagat", "seats": [SEAT], "grace": "soon"}, "t1")
    with pytest.raises(DehlaError, match="table t1: seat 0: 'kind' must be text, not 3"):
        read_meta({"rules": "pagat", "seats": [{**SEAT, "kind": 3}]}, "t1")


def test_a_table_whose_row_is_wrong_is_left_out_and_the_others_resume(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    seats = [{**SEAT, "name": f"Bot {seat}", "bot": default_bot()} for seat in range(4)]

    async def run() -> set[str]:
        storage = SQLiteStorage(tmp_path / "rows.sqlite3")
        await storage.open()
        await storage.create_table(TableRow("good", {"title": "", "rules": "pagat", "seats": seats}))
        await storage.create_table(TableRow("bad", {"title": "", "rules": "pagat", "seats": seats, "host": "me"}))
        await storage.close()
        service = TableService(SQLiteStorage(tmp_path / "rows.sqlite3"), bot_delay=3600)
        await service.start()
        try:
            return set(service.tables)
        finally:
            await service.stop()

    with caplog.at_level(logging.ERROR, logger="dehla.web"):
        assert asyncio.run(run()) == {"good"}
    assert "table bad cannot be restored: table bad: 'host' must be a whole number, not 'me'" in caplog.text


def test_a_note_reads_back_as_published_and_a_wrong_one_is_refused() -> None:
    chat = {"type": "chat", "id": 3, "seat": 1, "name": "Ann", "text": "hi", "at": 12.5}
    heard = read_note(json.loads(json.dumps({"k": "chat", "m": chat, "t": "table", "n": "node"})))
    assert heard == {"t": "table", "n": "node", "note": {"k": "chat", "m": chat}}
    assert json.dumps(heard["note"]["m"]) == json.dumps(chat)  # sent on to the browsers as the other process sent it
    assert read_note({"k": "here", "t": "table", "n": "node"})["note"] == {"k": "here", "seats": [], "w": 0}
    with pytest.raises(DehlaError, match="note: 'seat' must be a whole number"):
        read_note({"k": "took", "seat": None, "t": "table", "n": "node"})
    with pytest.raises(DehlaError, match="note: 'k' must be a kind of note"):
        read_note({"k": "gossip", "t": "table", "n": "node"})
    # a claim's notes between the processes serving its table carry no card: who claims what, answers, the outcome
    claim = {"k": "claim", "seat": 0, "what": "tens", "v": 7, "waiting": [1, 3]}
    assert read_note({**claim, "t": "table", "n": "node"})["note"] == claim
    answer = {"k": "answer", "seat": 1, "accept": False, "v": 7}
    assert read_note({**answer, "t": "table", "n": "node"})["note"] == answer
    settled = {"k": "settled", "seat": 0, "outcome": "accepted", "v": 7}
    assert read_note({**settled, "t": "table", "n": "node"})["note"] == settled
    with pytest.raises(DehlaError, match="note: 'outcome' must be 'refused' or 'accepted'"):
        read_note({**settled, "outcome": "maybe", "t": "table", "n": "node"})
    with pytest.raises(DehlaError, match="note: 'accept' must be"):
        read_note({**answer, "accept": "yes", "t": "table", "n": "node"})


def test_a_wrong_note_on_the_channel_is_logged_and_ignored(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    service = TableService(SQLiteStorage(tmp_path / "notes.sqlite3"))
    with caplog.at_level(logging.ERROR, logger="dehla.web"):
        service.hear({"k": "ready", "seat": 1, "t": "table", "n": "node"})
    assert "a note on the channel is not understood: note: 'v' (a whole number) is missing" in caplog.text
