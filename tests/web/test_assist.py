"""Hints, undo and claims at a table (issue 38), decided by the server: each rule, each refusal, what every seat
is sent, and the record's annotations.

In process (``TableService`` on SQLite, bots without delay, deals from a seeded random source), so the tests can
look at the true cards to pick a position where a claim holds or fails.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from dehla.cards import ALL_CARDS
from dehla.engine.actions import parse_action
from dehla.engine.state import Phase
from dehla.play.claims import Claim, claim_holds
from dehla.play.reasons import reasons_for
from dehla.record import parse_records, replay, replay_json
from dehla.web.log import replay_log
from dehla.web.messages import WebError
from dehla.web.storage import SQLiteStorage
from dehla.web.table.session import TableSession
from dehla.web.tables import TableService

CARD_TEXTS = {str(card) for card in ALL_CARDS}


class Window:
    """A seat's window: every message it is sent, parsed."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.player: str | None = None
        self.hands_sent: tuple[int, int] = (-1, -1)
        self.messages: list[dict[str, Any]] = []

    def push(self, text: str, kind: str = "other") -> None:
        self.messages.append(json.loads(text))

    def close_after_sending(self) -> None:
        pass

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [message for message in self.messages if message["type"] == kind]

    def notices(self) -> list[str]:
        return [message["code"] for message in self.of_type("notice")]


Scenario = Callable[[TableSession, dict[int, Window]], Awaitable[None]]


def _run(tmp_path: Path, seats: list[str], scenario: Scenario, seed: int = 5, **extra: Any) -> None:
    """A mendikot table with ``seats`` ("person" or "bot"), every person's window opened, then ``scenario``."""

    async def run() -> None:
        service = TableService(
            SQLiteStorage(tmp_path / "t.sqlite3", synchronous="OFF"),
            bot_delay=0,
            hand_pause=0,
            trick_pause=0,
            rng=random.Random(seed),
        )
        await service.start()
        try:
            spec = {"rules": "mendikot", "seats": [{"kind": kind} for kind in seats], "grace": 3600, **extra}
            created = await service.create_table(spec)
            session = created.session
            windows: dict[int, Window] = {}
            for invite in created.to_json()["invites"]:
                window = Window()
                await session.handle(window, {"type": "hello", "token": invite["token"]})
                windows[invite["seat"]] = window
            await scenario(session, windows)
        finally:
            await service.stop()

    asyncio.run(run())


async def _turn_of(session: TableSession, seat: int, tricks: int = 0) -> None:
    """Wait until ``seat`` is to play a card with at least ``tricks`` tricks of the hand finished."""
    for _ in range(4000):
        match = session.match
        if match is not None and match.phase is Phase.PLAY and match.to_act == seat and len(match.tricks) >= tricks:
            return
        await asyncio.sleep(0.002)
    raise TimeoutError(f"seat {seat} never got the turn")


async def _play(session: TableSession, window: Window, seat: int) -> str:
    match = session.match
    assert match is not None
    card = str(match.legal_actions()[0])
    await session.handle(window, {"type": "act", "action": card, "version": session.seq})
    return card


async def _refused(request: Awaitable[None]) -> WebError:
    with pytest.raises(WebError) as caught:
        await request
    return caught.value


async def _record(session: TableSession) -> dict[str, Any]:
    """The match in play as the log's record (with its annotations)."""
    replayed = replay_log(session.rules, await session.storage.load_log(session.table_id))
    return dict(replayed.records[session.match_no])


# -- undo -------------------------------------------------------------------------------------------


def test_a_player_takes_back_a_card_and_the_bots_moves_after_it(tmp_path: Path) -> None:
    async def scenario(session: TableSession, windows: dict[int, Window]) -> None:
        me = windows[0]
        await _turn_of(session, 0)
        match = session.match
        assert match is not None
        before = [str(action) for action in match.actions]
        card = await _play(session, me, 0)
        await _turn_of(session, 0)  # the three bots have played after it
        assert len(session.match.actions) > len(before) + 1 if session.match else False
        await session.handle(me, {"type": "undo"})
        after = session.match
        assert after is not None and after.to_act == 0
        assert [str(action) for action in after.actions] == before
        assert card in [str(c) for c in after.hand_of(0)]
        assert "undone" in me.notices()
        record = await _record(session)
        hand = record["hands"][-1]
        assert hand["actions"] == before
        assert hand["undos"] == [{"seat": 0, "at": len(before), "card": card}]
        assert replay_json(replay(record)) == replay_json(
            replay({**record, "hands": [_plain(h) for h in record["hands"]]})
        )

    _run(tmp_path, ["person", "bot", "bot", "bot"], scenario)


def _plain(hand: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in hand.items() if key not in ("hints", "undos", "claim")}


def test_undo_is_refused_once_a_person_has_played_after_the_card(tmp_path: Path) -> None:
    async def scenario(session: TableSession, windows: dict[int, Window]) -> None:
        await _turn_of(session, 0)
        await _play(session, windows[0], 0)
        await _turn_of(session, 1)
        await _play(session, windows[1], 1)
        version = session.seq
        refusal = await _refused(session.handle(windows[0], {"type": "undo"}))
        assert refusal.code == "undo_after_person" and refusal.params == {"seat": 1}
        assert session.seq == version  # nothing changed

    _run(tmp_path, ["person", "person", "bot", "bot"], scenario)


def test_undo_with_nothing_to_take_back_is_refused_clearly(tmp_path: Path) -> None:
    async def scenario(session: TableSession, windows: dict[int, Window]) -> None:
        await _turn_of(session, 0)
        match = session.match
        assert match is not None
        if any(seat == 0 for seat, _ in match.current_trick) or match.tricks:
            pytest.skip("seat 0 has already played this hand")  # pragma: no cover - the seed makes it lead first
        refusal = await _refused(session.handle(windows[0], {"type": "undo"}))
        assert refusal.code == "nothing_to_undo"
        assert str(refusal) == "You have no card of this hand to take back."

    _run(tmp_path, ["person", "bot", "bot", "bot"], scenario)


# -- hints ------------------------------------------------------------------------------------------


def test_a_hint_goes_to_the_asking_window_only_and_is_logged(tmp_path: Path) -> None:
    async def scenario(session: TableSession, windows: dict[int, Window]) -> None:
        me = windows[0]
        await _turn_of(session, 0)
        match = session.match
        assert match is not None
        legal = [str(action) for action in match.legal_actions()]
        at = len(match.actions)
        await session.handle(me, {"type": "hint", "version": session.seq})
        for _ in range(9000):
            if me.of_type("hint"):
                break
            await asyncio.sleep(0.01)
        assert me.of_type("hint"), [m for m in me.messages if m["type"] != "state"]
        hint = me.of_type("hint")[0]
        assert hint["action"] in legal
        assert hint["words"][0]["code"] == "hint_play" and hint["words"][0]["params"] == {"card": hint["action"]}
        assert all(word["message"] for word in hint["words"])
        # the move's reasons follow it, as play.reasons gives them for the seat's own view
        reasons = reasons_for(match.observe(0), parse_action(hint["action"]))
        sent = [(word["code"], word["params"]) for word in hint["words"][1 : 1 + len(reasons)]]
        assert sent == [(reason.code, reason.params) for reason in reasons]
        record = await _record(session)
        assert record["hands"][-1]["hints"] == [{"seat": 0, "at": at}]
        await session.handle(me, {"type": "act", "action": hint["action"], "version": session.seq})

    _run(tmp_path, ["person", "bot", "bot", "bot"], scenario)


def test_hints_and_undo_are_refused_at_a_rated_table(tmp_path: Path) -> None:
    async def scenario(session: TableSession, windows: dict[int, Window]) -> None:
        for _ in range(2000):
            if session.match is not None and session.match.to_act is not None:
                break
            await asyncio.sleep(0.002)
        match = session.match
        assert match is not None and match.to_act is not None
        seat = match.to_act
        refusal = await _refused(session.handle(windows[seat], {"type": "hint", "version": session.seq}))
        assert refusal.code == "assists_rated"
        refusal = await _refused(session.handle(windows[seat], {"type": "undo"}))
        assert refusal.code == "assists_rated"
        assert session.public_info(0.0)["assists"] is False

    _run(tmp_path, ["person"] * 4, scenario, rated=True)


def test_the_host_can_turn_hints_and_undo_off(tmp_path: Path) -> None:
    async def scenario(session: TableSession, windows: dict[int, Window]) -> None:
        await _turn_of(session, 0)
        refusal = await _refused(session.handle(windows[0], {"type": "hint", "version": session.seq}))
        assert refusal.code == "assists_off"

    _run(tmp_path, ["person", "bot", "bot", "bot"], scenario, assists=False)


# -- claims -----------------------------------------------------------------------------------------


async def _claim_position(session: TableSession, seat: int, what: str, holds: bool, tricks: int = 0) -> None:
    """People play their first legal card until seat ``seat``'s turn comes where its claim of ``what`` holds (or
    fails), with at least ``tricks`` tricks of the hand finished."""
    people = {client.seat: client for client in session.clients if client.seat is not None}
    for _ in range(400):
        for _ in range(4000):
            match = session.match
            if match is not None and match.phase is Phase.PLAY and match.to_act in people:
                break
            await asyncio.sleep(0.002)
        match = session.match
        assert match is not None and match.to_act is not None
        if match.to_act == seat and len(match.tricks) >= tricks and claim_holds(match, Claim(seat, what)) == holds:
            return
        action = str(match.legal_actions()[0])
        await session.handle(people[match.to_act], {"type": "act", "action": action, "version": session.seq})
    raise AssertionError("no such position")  # pragma: no cover


async def _settled(session: TableSession) -> None:
    for _ in range(3000):
        if session.claim is None:
            return
        await asyncio.sleep(0.01)
    raise TimeoutError("the claim was never settled")  # pragma: no cover


def test_a_claim_that_does_not_hold_is_refused_and_reveals_nothing(tmp_path: Path) -> None:
    async def scenario(session: TableSession, windows: dict[int, Window]) -> None:
        await _claim_position(session, 0, "tricks", holds=False)
        match = session.match
        assert match is not None
        version = session.game_seq
        marks = {seat: len(window.messages) for seat, window in windows.items()}
        await session.handle(windows[0], {"type": "claim", "what": "tricks"})
        await _settled(session)
        assert session.game_seq == version and session.match is match  # play goes on from the same position
        for seat, window in windows.items():
            sent = window.messages[marks[seat] :]
            notices = [message for message in sent if message["type"] == "notice"]
            assert [message["code"] for message in notices] == ["claim_tricks", "claim_refused"]
            assert notices[-1]["params"] == {} and notices[-1]["message"] == "The claim was refused."
            for message in sent:
                if message["type"] == "state":
                    # nothing beyond the seat's own view: its observation is what the engine shows it
                    view = json.loads(json.dumps(match.observe(seat).to_json()))
                    view["match"].pop("hands")  # sent once per hand, not with every state
                    message["observation"]["match"].pop("hands", None)
                    assert message["observation"] == view
                else:
                    assert not CARD_TEXTS & set(json.dumps(message).replace('"', " ").split())

    _run(tmp_path, ["person", "bot", "person", "bot"], scenario)


def test_a_claim_that_holds_is_accepted_by_the_bots_and_ends_the_hand(tmp_path: Path) -> None:
    async def scenario(session: TableSession, windows: dict[int, Window]) -> None:
        await _claim_position(session, 0, "tens", holds=True, tricks=6)
        match = session.match
        assert match is not None
        hand_number = match.hand_number
        tens_before = match.hand_state().captured[1]
        at = len(match.actions)
        await session.handle(windows[0], {"type": "claim", "what": "tens"})
        for _ in range(3000):
            if "claim_accepted" in windows[0].notices() and session.match and len(session.match.results) > hand_number:
                break
            await asyncio.sleep(0.01)
        after = session.match
        assert after is not None and after.results and len(after.results) == hand_number + 1
        result = after.results[hand_number]
        assert result.tens[1] == bin(tens_before & 0x800400200100).count("1")
        assert "claim_accepted" in windows[0].notices()
        record = await _record(session)
        hand = record["hands"][hand_number]
        assert hand["claim"] == {"seat": 0, "what": "tens", "at": at}
        replayed = replay(record)
        assert replay_json(replayed)["hands"][hand_number]["complete"] is True
        assert replay_json(replayed) == replay_json(replay({**record, "hands": [_plain(h) for h in record["hands"]]}))
        # the annotations survive writing and reading the record as text
        (again,) = [entry.data for entry in parse_records(json.dumps(record))]
        assert isinstance(again, dict) and again["hands"][hand_number]["claim"] == hand["claim"]

    _run(tmp_path, ["person", "bot", "bot", "bot"], scenario)


def test_people_of_the_other_team_are_asked_and_one_refusal_ends_the_claim(tmp_path: Path) -> None:
    async def scenario(session: TableSession, windows: dict[int, Window]) -> None:
        await _claim_position(session, 0, "tens", holds=True, tricks=6)
        await session.handle(windows[0], {"type": "claim", "what": "tens"})
        assert session.claim is not None and session.claim.waiting == {1}
        assert session.public_info(0.0)["claim"] == {"seat": 0, "what": "tens", "waiting": [1]}
        refusal = await _refused(session.handle(windows[0], {"type": "claim_answer", "accept": True}))
        assert refusal.code == "no_claim"  # only the asked seats answer
        await session.handle(windows[1], {"type": "claim_answer", "accept": False})
        assert session.claim is None and "claim_refused" in windows[0].notices()

    _run(tmp_path, ["person", "person", "bot", "bot"], scenario)


def test_a_claim_at_the_wrong_time_or_of_the_wrong_thing_is_refused(tmp_path: Path) -> None:
    async def scenario(session: TableSession, windows: dict[int, Window]) -> None:
        for _ in range(4000):
            match = session.match
            if match is not None and match.phase is Phase.PLAY and match.to_act in windows:
                break
            await asyncio.sleep(0.002)
        assert session.match is not None and session.match.to_act is not None
        actor = session.match.to_act
        other = 1 - actor
        refusal = await _refused(session.handle(windows[other], {"type": "claim", "what": "tricks"}))
        assert refusal.code == "claim_not_now"
        refusal = await _refused(session.handle(windows[actor], {"type": "claim", "what": "kots"}))
        assert refusal.code == "bad_claim"
        refusal = await _refused(session.handle(windows[other], {"type": "claim_answer", "accept": True}))
        assert refusal.code == "no_claim"

    _run(tmp_path, ["person", "person", "bot", "bot"], scenario)


def test_a_finished_match_keeps_its_hints_and_undos_and_replays_the_same(tmp_path: Path) -> None:
    async def scenario(session: TableSession, windows: dict[int, Window]) -> None:
        me = windows[0]
        await _turn_of(session, 0)
        await session.handle(me, {"type": "hint", "version": session.seq})
        card = await _play(session, me, 0)
        await _turn_of(session, 0)
        await session.handle(me, {"type": "undo"})
        for _ in range(400):
            if session.status == "over":
                break
            match = session.match
            if match is not None and match.to_act == 0:
                await _play(session, me, 0)
            else:
                await asyncio.sleep(0.002)
        assert session.status == "over"
        finished = None
        for _ in range(2000):  # the status says "over" before the finished match is written: wait for the write
            finished = await session.storage.get_finished(session.table_id, session.match_no)
            if finished is not None and session.background == set() and not session.hinting:
                break
            await asyncio.sleep(0.01)
        assert finished is not None
        record = finished.record
        first = record["hands"][0]
        assert first["undos"] == [{"seat": 0, "at": first["undos"][0]["at"], "card": card}]
        assert first["hints"][0]["seat"] == 0
        plain = {**record, "hands": [_plain(hand) for hand in record["hands"]]}
        assert replay_json(replay(record)) == replay_json(replay(plain))

    _run(tmp_path, ["person", "bot", "bot", "bot"], scenario, rules={"preset": "mendikot", "target": 1})


def test_a_claim_that_holds_ends_the_hand_once_the_other_teams_person_accepts(tmp_path: Path) -> None:
    async def scenario(session: TableSession, windows: dict[int, Window]) -> None:
        await _claim_position(session, 0, "tricks", holds=True, tricks=6)
        match = session.match
        assert match is not None
        hand_number = match.hand_number
        await session.handle(windows[0], {"type": "claim", "what": "tricks"})
        for _ in range(3000):
            if session.claim is not None and session.claim.proved:
                break
            await asyncio.sleep(0.01)
        assert session.match is match and len(match.results) == hand_number  # nothing before the answer
        await session.handle(windows[1], {"type": "claim_answer", "accept": True})
        after = session.match
        assert after is not None and len(after.results) == hand_number + 1
        assert after.results[hand_number].tricks_won[1] == match.hand_state().tricks_won[1]
        assert "claim_accepted" in windows[1].notices()

    _run(tmp_path, ["person", "person", "bot", "bot"], scenario)
