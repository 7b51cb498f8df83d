"""Deals anyone can check at a web table: each hand comes from a secret seed the table commits to at the deal and
reveals when the hand is over; the finished record carries both, and ``dehla verify`` checks it."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from dehla.cli.main import main
from dehla.engine.fairdeal import deal_from_seed
from dehla.record import replay, replay_json
from dehla.rules import parse_rules
from dehla.web.log import replay_log
from dehla.web.storage import SQLiteStorage
from dehla.web.tables import TableService


class Listener:
    """A window on the table: keeps the state messages it is sent."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.player: str | None = None
        self.hands_sent: tuple[int, int] = (-1, -1)
        self.states: list[dict[str, Any]] = []
        self.texts: list[str] = []

    def push(self, text: str, kind: str = "other") -> None:
        self.texts.append(text)
        message = json.loads(text)
        if message["type"] == "state":
            self.states.append(message)

    def close_after_sending(self) -> None:
        pass


async def _play_table(tmp_path: Path, preset: str, seed: int) -> tuple[list[Listener], dict[str, Any], list[Any]]:
    """A match of four people choosing at random, to its end: their windows, the kept record and the log."""
    storage = SQLiteStorage(tmp_path / "t.sqlite3", synchronous="OFF")
    service = TableService(storage, bot_delay=0, hand_pause=0, trick_pause=0, rng=random.Random(seed))
    await service.start()
    try:
        created = await service.create_table(
            {"rules": {"preset": preset, "target": 2}, "seats": [{"kind": "person"}] * 4, "grace": 3600}
        )
        session = created.session
        seats = []
        for invite in created.to_json()["invites"]:
            window = Listener()
            await session.handle(window, {"type": "hello", "token": invite["token"]})
            seats.append(window)
        watcher = Listener()
        await session.handle(watcher, {"type": "hello", "watch": created.watch_token})
        rng = random.Random(seed)
        for _ in range(3000):
            match = session.match
            if session.status == "over":
                break
            if match is None or match.to_act is None:
                await asyncio.sleep(0.001)
                continue
            actions = [str(action) for action in match.legal_actions()]
            await session.handle(
                seats[match.to_act], {"type": "act", "version": session.seq, "action": rng.choice(actions)}
            )
        assert session.status == "over"
        finished = await storage.get_finished(session.table_id, 1)
        assert finished is not None
        log = await storage.load_log(session.table_id)
        return [*seats, watcher], dict(finished.record), log
    finally:
        await service.stop()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Listener], dict[str, Any], list[Any]]:
    return asyncio.run(_play_table(tmp_path_factory.mktemp("seeds"), "mendikot", 5))


def test_every_hand_at_a_table_is_dealt_from_its_logged_seed(played: Any) -> None:
    _, record, log = played
    rules = parse_rules(record["rules"])
    deals = [entry for entry in log if entry.get("type") == "deal"]
    assert len(deals) == len(record["hands"]) >= 2
    for number, entry in enumerate(deals):
        deal = deal_from_seed(rules, bytes.fromhex(entry["seed"]), number)
        assert entry["cards"] == record["hands"][number]["cards"] == [" ".join(map(str, h)) for h in deal.hands]
    assert len({entry["seed"] for entry in deals}) == len(deals)
    assert replay_log(rules, log).match is not None


def test_the_commitment_is_shown_from_the_deal_and_the_seed_only_once_the_hand_is_over(played: Any) -> None:
    windows, record, _ = played
    seeds = [hand["seed"] for hand in record["hands"]]
    for window in windows:
        committed: set[int] = set()
        revealed: set[int] = set()
        for text in window.texts:
            state = json.loads(text)
            seal = state["table"]["deal"] if state["type"] == "state" else None
            if seal is None:
                continue
            hand = seal["hand"]
            assert seal["commitment"] == hashlib.sha256(bytes.fromhex(seeds[hand])).hexdigest()
            if state["observation"]["phase"] in ("call", "hide", "play"):
                assert seal["seed"] is None and seeds[hand] not in text  # in play: the seed stays secret
                committed.add(hand)
            elif seal["seed"] is not None:
                assert seal["seed"] == seeds[hand]
                revealed.add(hand)
        assert committed == set(range(len(seeds)))
        assert len(seeds) - 1 in revealed  # at least the last hand's result shows its seed


def test_the_finished_record_carries_each_hands_seed_and_commitment_and_replays_the_same(played: Any) -> None:
    _, record, _ = played
    for hand in record["hands"]:
        assert hashlib.sha256(bytes.fromhex(hand["seed"])).hexdigest() == hand["commitment"]
    bare = json.loads(json.dumps(record))
    for hand in bare["hands"]:
        del hand["seed"], hand["commitment"]
    assert replay_json(replay(record)) == replay_json(replay(bare))


def test_dehla_verify_passes_a_web_tables_record(
    played: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, record, _ = played
    path = tmp_path / "table.json"
    path.write_text(json.dumps(record))
    assert main(["verify", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(record["hands"])
    assert all("the deal follows from the revealed seed" in line for line in lines)


def test_dehla_verify_refuses_a_web_tables_record_with_two_cards_swapped(
    played: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, record, _ = played
    altered = json.loads(json.dumps(record))
    first, second = (altered["hands"][1]["cards"][seat].split() for seat in (0, 2))
    first[4], second[7] = second[7], first[4]
    altered["hands"][1]["cards"][0], altered["hands"][1]["cards"][2] = " ".join(first), " ".join(second)
    path = tmp_path / "altered.json"
    path.write_text(json.dumps(altered))
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"altered.json: hand 1: MISMATCH: seat 0 holds {first[4]}, which the seed does not deal it" in out
    assert f"seat 2 holds {second[7]}, which the seed does not deal it" in out
    assert "hand 0: the deal follows from the revealed seed" in out
    assert "Traceback" not in out


def test_a_restarted_server_shows_the_same_commitment_and_keeps_the_seed_secret(tmp_path: Path) -> None:
    async def run() -> tuple[Any, Any, bytes | None, bytes | None]:
        path = tmp_path / "restart.sqlite3"
        service = TableService(SQLiteStorage(path, synchronous="OFF"), bot_delay=3600, hand_pause=0, trick_pause=0)
        await service.start()
        created = await service.create_table({"rules": "pagat", "seats": [{"kind": "bot"}] * 4})
        table = created.session.table_id
        for _ in range(2000):
            if created.session.seeds:
                break
            await asyncio.sleep(0.001)
        before = created.session.public_info(0.0)["deal"]
        seed = created.session.seeds[-1]
        await service.stop()
        again = TableService(SQLiteStorage(path, synchronous="OFF"), bot_delay=3600, hand_pause=0, trick_pause=0)
        await again.start()
        try:
            session = again.tables[table]
            return before, session.public_info(0.0)["deal"], seed, session.seeds[-1]
        finally:
            await again.stop()

    before, after, seed, restored = asyncio.run(run())
    assert seed is not None and restored == seed  # the production source: 32 bytes from secrets
    assert len(seed) == 32
    assert before == after == {"hand": 0, "commitment": hashlib.sha256(seed).hexdigest(), "seed": None}


def test_the_next_hands_commitment_is_shown_between_hands_before_its_deal_and_is_the_records(played: Any) -> None:
    windows, record, log = played
    seeds = [hand["seed"] for hand in record["hands"]]
    # the log seals each later hand's seed as soon as the hand before it ends, and its deal uses that seed
    sealed = {entry["hand"]: entry["seed"] for entry in log if entry.get("type") == "seal"}
    assert sealed == {hand: seeds[hand] for hand in range(1, len(seeds))}
    for window in windows:
        shown: dict[int, str] = {}
        over = 0  # hands finished when a message was sent (the scored hands are sent only when they change)
        for text in window.texts:
            state = json.loads(text)
            if state["type"] != "state" or state["observation"] is None:
                continue
            over = len(state["observation"]["match"].get("hands", [None] * over))
            for hand in range(over, len(seeds)):
                assert seeds[hand] not in text  # no seed is sent before its hand is over
            upcoming = state["table"]["next_deal"]
            if upcoming is not None:
                assert state["observation"]["phase"] == "deal" and upcoming["hand"] == over
                shown[upcoming["hand"]] = upcoming["commitment"]
        # every later hand's commitment was on the between-hands screen, and it is the one the record carries
        assert shown == {hand: record["hands"][hand]["commitment"] for hand in range(1, len(seeds))}


def test_a_seal_entry_with_a_bad_seed_is_refused_with_a_clear_message() -> None:
    from dehla.errors import DehlaError
    from dehla.web.log import upgrade_entry

    assert upgrade_entry({"type": "seal", "hand": 1, "seed": "00ff"}) == {"type": "seal", "hand": 1, "seed": "00ff"}
    with pytest.raises(DehlaError, match="hexadecimal"):
        upgrade_entry({"type": "seal", "hand": 1, "seed": "xyz"})
    with pytest.raises(DehlaError, match="hand"):
        upgrade_entry({"type": "seal", "seed": "00ff"})
