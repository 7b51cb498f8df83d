"""Many ``dehla serve`` processes on one PostgreSQL: one lobby, one truth per table, one runner per table.

Run against a real server named by ``DEHLA_TEST_POSTGRES`` (``./test.sh`` starts Debian's postgresql and sets
it); skipped without it.  Each test works in a schema of its own (and so on a NOTIFY channel of its own).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import multiprocessing
import os
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.helpers import LiveServer, SeatClient
from tests.web.test_no_leaks import _check, _drive_seat
from tests.web.truth import apply_entry, load_log

from dehla.engine.events import Trick
from dehla.rules import parse_rules
from dehla.web.log import replay_log, upgrade_entry
from dehla.web.storage import PostgresStorage, StaleLog, TableRow
from dehla.web.storage.migrations import CURRENT
from dehla.web.storage.postgres import scratch_schema

BASE = os.environ.get("DEHLA_TEST_POSTGRES", "")


def _reachable() -> str | None:
    if not BASE:
        return "DEHLA_TEST_POSTGRES is not set (./test.sh sets it after starting Debian's postgresql)"
    try:
        import psycopg

        with psycopg.connect(BASE, connect_timeout=2):
            return None
    except Exception as error:
        return f"no PostgreSQL server at DEHLA_TEST_POSTGRES: {str(error).strip().splitlines()[0]}"


_WHY = _reachable()
pytestmark = pytest.mark.skipif(_WHY is not None, reason=_WHY or "")


@pytest.fixture
def cluster_db() -> Iterator[str]:
    """A fresh schema of the test database, as a URL whose connections use it."""
    with scratch_schema(BASE, "cluster") as url:
        yield url


def _servers(url: str, count: int, **options: float | str) -> list[LiveServer]:
    return [
        LiveServer(url, hand_pause=0, lease_seconds=2, node=f"n{index}", **options).start() for index in range(count)
    ]


def _stop(servers: list[LiveServer]) -> None:
    for server in servers:
        server.stop()


def _lease_owner(url: str, table: str) -> str | None:
    import psycopg

    with psycopg.connect(url) as connection:
        row = connection.execute("SELECT lease_owner FROM tables WHERE id = %s", (table,)).fetchone()
        return None if row is None else row[0]


def _tricks_of_log(preset: object, entries: list[dict[str, Any]]) -> list[frozenset[str]]:
    """Every trick of every hand in the log, as the set of its cards."""
    rules = parse_rules(preset)
    match = None
    tricks: list[frozenset[str]] = []
    for entry in entries:
        before = len(match.tricks) if match is not None else 0
        match = apply_entry(rules, match, entry)
        if match is not None and upgrade_entry(entry)["type"] == "action" and len(match.tricks) > before:
            trick: Trick = match.tricks[-1]
            tricks.append(frozenset(str(card) for card in trick.cards))
    return tricks


def _tricks_seen(client: SeatClient) -> set[frozenset[str]]:
    seen: set[frozenset[str]] = set()
    for message in client.messages:
        if message["type"] != "state":
            continue
        if message["finished_trick"] is not None:
            seen.add(frozenset(item["card"] for item in message["finished_trick"]["cards"]))
        if message["observation"] is not None:
            seen.update(frozenset(trick["cards"]) for trick in message["observation"]["tricks"])
    return seen


def _check_versions(entries: list[dict[str, Any]], clients: list[SeatClient]) -> None:
    """Every action any client was shown with version V is the log's newest action up to V: nothing shown that the
    log lacks, on any process."""
    checked = 0
    for client in clients:
        for message in client.messages:
            last = message["last"] if message["type"] == "state" else None
            if last is None:
                continue
            # the last action is the newest action entry up to this version (a seat event may have followed it)
            entry = next(
                item
                for item in reversed(entries[: message["version"]])
                if item["type"] not in ("seat", "settings", "seal")
            )
            shown = last["action"]  # a hidden trump card is "hide ?" to all but its chooser
            assert entry["type"] == "action" and entry["seat"] == last["seat"], (message, entry)
            assert shown == entry["action"] or (shown == "hide ?" and entry["action"].startswith("hide ")), entry
            checked += 1
    assert checked


def test_people_on_two_processes_and_a_watcher_on_a_third_play_a_match(cluster_db: str) -> None:
    """Two people on different processes and two bots play a whole match; a watcher on a third sees every trick,
    and no message on any process holds a card its seat has not seen."""
    servers = _servers(cluster_db, 3, bot_delay=0.02)
    preset = "mendikot"
    try:
        created = servers[0].post(
            "/api/tables",
            {
                "rules": {"preset": preset, "target": 1},
                "seats": [
                    {"kind": "person", "name": "P0x"},
                    {"kind": "bot"},
                    {"kind": "person", "name": "P2x"},
                    {"kind": "bot"},
                ],
            },
        )
        table = created["id"]
        tokens = [invite["token"] for invite in created["invites"]]

        async def run() -> tuple[list[SeatClient], SeatClient]:
            watcher = await SeatClient(servers[2], table, watch=created["watch_token"]).open()
            people = [
                await SeatClient(servers[0], table, tokens[0]).open(),
                await SeatClient(servers[1], table, tokens[1]).open(),
            ]
            for client in people:  # chat crosses processes too
                await client.send({"type": "chat", "text": "good luck, everyone <b>!</b>"})
            await asyncio.wait_for(
                asyncio.gather(*(_drive_seat(client, random.Random(n)) for n, client in enumerate(people))), timeout=120
            )
            await watcher.wait(lambda s: s["table"]["status"] == "over", timeout=30)
            await watcher.wait_for(lambda: sum(m["type"] == "chat" for m in watcher.messages) == 2)
            for client in [*people, watcher]:
                await client.close()
            return people, watcher

        people, watcher = asyncio.run(run())
        entries = load_log(cluster_db, table)
        replayed = replay_log(parse_rules({"preset": preset, "target": 1}), entries)
        assert replayed.match is not None and replayed.match.is_over
        tricks = _tricks_of_log({"preset": preset, "target": 1}, entries)
        assert tricks and set(tricks) <= _tricks_seen(watcher), "the watcher on the third process saw every trick"
        _check_versions(entries, [*people, watcher])
        assert _check(preset, table, cluster_db, people, watcher) > 50  # the leak test, across processes
        # every process keeps the finished match, private as its table: a link shows it, the public history does not
        for server in servers:
            assert table not in {item["table"] for item in server.get("/api/history")["matches"]}
            assert server.get(f"/api/history/{table}/1/record?watch={created['watch_token']}")["hands"]
    finally:
        _stop(servers)


def test_lease_holder_killed_mid_hand_another_process_takes_over(cluster_db: str) -> None:
    """kill -9 of the process running a table while a bot is to play: another takes the lease within a few
    seconds, the hand and the match finish, and the log has every action exactly once."""
    servers = _servers(cluster_db, 3, bot_delay=0.3)
    preset = {"preset": "mendikot", "target": 1}
    try:
        created = servers[0].post(
            "/api/tables",
            {"rules": preset, "seats": [{"kind": "person"}, {"kind": "bot"}, {"kind": "person"}, {"kind": "bot"}]},
        )
        table = created["id"]
        tokens = [invite["token"] for invite in created["invites"]]
        assert _lease_owner(cluster_db, table) == "n0"  # the process that made the table runs it

        async def run() -> tuple[list[SeatClient], SeatClient, int, float]:
            watcher = await SeatClient(servers[2], table, watch=created["watch_token"]).open()
            people = [
                await SeatClient(servers[1], table, tokens[0]).open(),
                await SeatClient(servers[2], table, tokens[1]).open(),
            ]
            driving = [asyncio.create_task(_drive_seat(client, random.Random(n))) for n, client in enumerate(people)]
            state = await watcher.wait(
                lambda s: (
                    s["version"] >= 12
                    and s["observation"] is not None
                    and s["observation"]["phase"] == "play"
                    and s["observation"]["to_act"] in (1, 3)
                ),
                timeout=60,
            )
            servers[0].kill()  # SIGKILL while a bot of the table is to play
            killed_at = time.monotonic()
            version = state["version"]
            await watcher.wait(lambda s: s["version"] > version, timeout=20)
            took = time.monotonic() - killed_at
            await asyncio.wait_for(asyncio.gather(*driving), timeout=120)
            await watcher.wait(lambda s: s["table"]["status"] == "over", timeout=30)
            for client in [*people, watcher]:
                await client.close()
            return people, watcher, version, took

        people, watcher, version, took = asyncio.run(run())
        assert took < 2 + 4, f"the table waited {took:.1f} s after its process was killed"
        assert _lease_owner(cluster_db, table) in ("n1", "n2")
        entries = load_log(cluster_db, table)
        replayed = replay_log(parse_rules(preset), entries)  # every action legal in order: none made twice
        assert replayed.match is not None and replayed.match.is_over
        assert entries[version]["type"] == "action" and entries[version]["by"] == "bot"
        _check_versions(entries, [*people, watcher])
        record = servers[1].get(f"/api/history/{table}/1/record?token={tokens[0]}")
        logged = [entry["action"] for entry in entries if entry["type"] == "action"]
        assert logged == [action for hand in record["hands"] for action in hand["actions"]]
    finally:
        _stop(servers)


def test_a_match_whose_finisher_died_before_keeping_it_is_kept_by_the_next_runner(cluster_db: str) -> None:
    """The process that wrote a match's last action dies before it keeps the finished match (here: the kept row is
    deleted, then that process is killed): the process that takes the table over keeps it from the log."""
    import psycopg

    servers = _servers(cluster_db, 2, bot_delay=0)
    try:
        created = servers[0].post(
            "/api/tables",
            {"rules": {"preset": "mendikot", "target": 1}, "seats": [{"kind": "bot", "bot": "random"}] * 4},
        )
        table = created["id"]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not servers[0].get("/api/history")["matches"]:
            time.sleep(0.1)
        record = servers[1].get(f"/api/history/{table}/1/record")
        with psycopg.connect(cluster_db, autocommit=True) as connection:
            connection.execute("DELETE FROM finished WHERE table_id = %s", (table,))
        assert not servers[1].get("/api/history")["matches"]
        servers[0].kill()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not servers[1].get("/api/history")["matches"]:
            time.sleep(0.2)
        assert servers[1].get(f"/api/history/{table}/1/record") == record
    finally:
        _stop(servers)


def test_conflicting_actions_on_two_processes_one_is_accepted(cluster_db: str) -> None:
    """The seat to act has a window on one process; a second window opens on another process and at once sends a
    different card for the same turn while the first sends its own, many times: exactly one is accepted each
    time (the other is refused as stale, or as a window whose seat moved to the newer one)."""
    servers = _servers(cluster_db, 2)
    try:
        created = servers[0].post("/api/tables", {"rules": "pagat", "seats": [{"kind": "person"}] * 4, "grace": 3600})
        table = created["id"]
        tokens = [invite["token"] for invite in created["invites"]]

        async def run() -> int:
            rounds = 0
            watcher = await SeatClient(servers[1], table, watch=created["watch_token"]).open()
            # every seat is opened once so that the match starts
            opened = [await SeatClient(servers[index % 2], table, token).open() for index, token in enumerate(tokens)]
            while rounds < 16:
                state = await watcher.wait(
                    lambda s: s["observation"] is not None and s["observation"]["to_act"] is not None
                )
                version, seat = state["version"], state["observation"]["to_act"]
                here = await SeatClient(servers[0], table, tokens[seat]).open()
                mine = await here.wait(lambda s, v=version: s["version"] >= v)
                await asyncio.sleep(0.05)  # its "took" has gone round: the next window is the newer one
                if mine["version"] != version or mine["seat"] != seat:
                    await here.close()
                    continue
                legal = mine["observation"]["legal_actions"]
                there = SeatClient(servers[1], table, tokens[seat])
                await asyncio.gather(
                    here.send({"type": "act", "action": legal[0], "version": version}),
                    there.open({"type": "act", "action": legal[-1], "version": version}),
                )
                await watcher.wait(lambda s, v=version: s["version"] > v)
                pair = (here, there)
                await here.wait_for(lambda pair=pair: len(pair[0].errors) + len(pair[1].errors) >= 1)
                await asyncio.sleep(0.3)
                assert len(here.errors) + len(there.errors) == 1, (here.errors, there.errors)
                rounds += 1
                await here.close()
                await there.close()
            for client in [watcher, *opened]:
                await client.close()
            return rounds

        assert asyncio.run(run()) == 16
        entries = load_log(cluster_db, table)
        replay_log(parse_rules("pagat"), entries)  # one action per turn, each legal where it stands
    finally:
        _stop(servers)


def _racer(url: str, table: str, rounds: int, barrier: Any, results: Any, name: str) -> None:
    """One process of the race: at each round, append its own entry at the same position as the other."""

    async def race() -> list[bool]:
        storage = PostgresStorage(url, pool_size=1)
        await storage.open()
        won = []
        try:
            for seq in range(rounds):
                await asyncio.to_thread(barrier.wait)
                try:
                    await storage.append(table, seq, {"type": "action", "seat": 0, "action": name, "by": "person"})
                    won.append(True)
                except StaleLog:
                    won.append(False)
        finally:
            await storage.close()
        return won

    results.put((name, asyncio.run(race())))


def test_two_processes_appending_at_one_position_exactly_one_wins(cluster_db: str) -> None:
    """The storage's check on its own: two OS processes append at the same position at the same moment."""
    rounds = 150

    async def make() -> None:
        storage = PostgresStorage(cluster_db, pool_size=1)
        await storage.open()
        await storage.create_table(TableRow("race", {"title": "race"}, 1.0))
        await storage.close()

    asyncio.run(make())
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    results = context.Queue()
    racers = [
        context.Process(target=_racer, args=(cluster_db, "race", rounds, barrier, results, name))
        for name in ("AS", "KS")
    ]
    for racer in racers:
        racer.start()
    outcome = dict(results.get(timeout=120) for _ in racers)
    for racer in racers:
        racer.join(10)
    assert all(a != k for a, k in zip(outcome["AS"], outcome["KS"], strict=True)), "exactly one wins each round"
    entries = load_log(cluster_db, "race")
    assert len(entries) == rounds
    assert [entry["action"] for entry in entries] == ["AS" if won else "KS" for won in outcome["AS"]]
    assert 0 < sum(outcome["AS"]) < rounds or rounds < 20  # both won some rounds: they really raced


def test_a_message_sent_before_an_append_is_heard_before_it(cluster_db: str) -> None:
    """Messages and log entries reach every process in the order they were made, even when the messages' own
    connection is busy: a claim settled and then played out must not be heard as a card first, then the claim."""
    rounds = 6

    async def run() -> list[str]:
        storage = PostgresStorage(cluster_db)
        await storage.open()
        listener = await storage.connect_listener()
        heard: list[str] = []
        try:
            await storage.create_table(TableRow("order", {"title": "order"}, 1.0))
            for seq in range(rounds):
                for filler in range(150):  # keeps the messages' connection busy while the append commits
                    storage.notify({"k": "filler", "n": filler, "pad": "x" * 4000})
                storage.notify({"k": "note", "n": seq})
                await storage.append("order", seq, {"type": "action", "seat": 0, "action": "AS", "by": "person"})
            async with asyncio.timeout(60):
                async for notice in listener.notifies():
                    payload = json.loads(notice.payload)
                    if payload["k"] != "filler":
                        heard.append(f"{payload['k']} {payload.get('n', payload.get('s'))}")
                    if len(heard) == 2 * rounds:
                        break
        finally:
            await listener.close()
            await storage.close()
        return heard

    heard = asyncio.run(run())
    assert heard == [f"{kind} {seq}" for seq in range(rounds) for kind in ("note", "log")]


def test_serve_workers_share_one_port(cluster_db: str) -> None:
    """``dehla serve --workers 2``: two processes on one port serve one lobby; SIGTERM stops both."""
    import signal
    import subprocess
    import sys
    import urllib.request

    from tests.web.helpers import free_port

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    serve = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "dehla",
            "serve",
            "--workers",
            "2",
            "--port",
            str(port),
            "--db",
            cluster_db,
            "--bot-workers",
            "0",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/api/meta", timeout=1).read()
                break
            except OSError:
                assert serve.poll() is None and time.monotonic() < deadline, "dehla serve --workers 2 did not start"
                time.sleep(0.2)
        request = urllib.request.Request(
            base + "/api/tables",
            method="POST",
            headers={"Content-Type": "application/json"},
            data=json.dumps({"rules": "pagat"}).encode(),
        )
        table = json.loads(urllib.request.urlopen(request, timeout=10).read())["id"]
        # each request may reach either process: every answer lists the table (the other process loads it)
        for _ in range(10):
            listed = json.loads(urllib.request.urlopen(base + "/api/tables", timeout=10).read())["tables"]
            assert table in {item["id"] for item in listed}
        import psycopg

        deadline = time.monotonic() + 60  # the second process may still be starting
        while True:
            with psycopg.connect(cluster_db) as connection:
                nodes = connection.execute("SELECT count(*) FROM nodes").fetchone()
            if (nodes is not None and nodes[0] == 2) or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert nodes is not None and nodes[0] == 2, "both processes beat"
    finally:
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(30) == 0


def test_find_a_game_and_ratings_across_two_processes(cluster_db: str) -> None:
    """Four players wait for a rated game on two processes (two on each): one table seats all four, each opens
    their own seat on their own process, the stand-ins play it out, and both processes show the same ratings,
    each match rated once."""
    servers = _servers(cluster_db, 2, bot_delay=0.01)
    try:
        players = [servers[number % 2].new_player() for number in range(4)]
        for number, cookie in enumerate(players):
            status = servers[number % 2].post(
                "/api/queue", {"preset": "taash", "target": 30, "rated": True, "name": f"P{number}"}, cookie
            )
        assert status["table"] is not None
        table = status["table"]
        for number, cookie in enumerate(players):
            assert servers[(number + 1) % 2].get("/api/queue", cookie)["table"] == table  # the other process too

        async def sit() -> None:
            for number, cookie in enumerate(players):  # each opens their seat, then leaves: the stand-ins play
                client = await SeatClient(servers[number % 2], table, cookie=cookie, mine=True).open()
                assert client.state is not None and client.state["seat"] is not None
                await client.close()

        asyncio.run(sit())
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not servers[0].get("/api/ratings/taash")["players"]:
            time.sleep(0.5)
        boards = [server.get("/api/ratings/taash")["players"] for server in servers]
        assert boards[0] == boards[1] and {row["name"] for row in boards[0]} == {"P0", "P1", "P2", "P3"}
        assert all(row["matches"] == 1 for row in boards[0])  # rated once, whichever process finished it
    finally:
        _stop(servers)


#: The schema the release before player identities (4be3870) made on PostgreSQL, as it wrote it.
OLD_RELEASE_SCHEMA = (
    "CREATE TABLE tables (id TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL, meta TEXT NOT NULL, "
    "seq INTEGER NOT NULL DEFAULT 0, lease_owner TEXT)",
    "CREATE TABLE log (table_id TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (table_id, seq))",
    "CREATE TABLE finished (table_id TEXT NOT NULL, match_no INTEGER NOT NULL, finished DOUBLE PRECISION NOT NULL, "
    "summary TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (table_id, match_no))",
    "CREATE TABLE nodes (id TEXT PRIMARY KEY, started TIMESTAMPTZ NOT NULL DEFAULT now(), "
    "seen TIMESTAMPTZ NOT NULL DEFAULT now())",
)


def test_a_postgresql_database_of_the_release_before_upgrades_with_private_matches_private(cluster_db: str) -> None:
    import psycopg

    from dehla.web.storage import open_storage
    from dehla.web.visibility import hash_token

    with psycopg.connect(cluster_db, autocommit=True) as connection:
        for statement in OLD_RELEASE_SCHEMA:
            connection.execute(statement)
        for table_id, listed in (("private1", False), ("public1", True)):
            meta = {
                "rules": "pagat",
                "listed": listed,
                "watch_hash": hash_token(f"watch-{table_id}"),
                "seats": [
                    {
                        "kind": "person",
                        "bot": "",
                        "name": "A",
                        "token_hash": hash_token(f"seat-{table_id}"),
                        "claimed": True,
                    }
                ],
            }
            connection.execute(
                "INSERT INTO tables (id, created, meta) VALUES (%s, 1.0, %s)", (table_id, json.dumps(meta))
            )
            connection.execute(
                "INSERT INTO log (table_id, seq, entry) VALUES (%s, 0, %s)",
                (table_id, json.dumps({"type": "match", "match_no": 1, "first_dealer": 0})),
            )
            connection.execute(
                "INSERT INTO finished VALUES (%s, 1, 2.0, %s, %s)",
                (table_id, json.dumps({"score": [1, 0]}), json.dumps({"format": "dehla-record/1"})),
            )

    async def run() -> None:
        storage = open_storage(cluster_db)
        await storage.open()
        try:
            assert [item.table_id for item in await storage.list_finished()] == ["public1"]
            private = await storage.get_finished("private1", 1)
            assert private is not None and not private.listed and private.record == {"format": "dehla-record/1"}
            assert {hash_token("seat-private1"), hash_token("watch-private1")} <= set(private.hashes)
            assert sorted(row.table_id for row in await storage.load_tables()) == ["private1", "public1"]
            assert len(await storage.load_log("private1")) == 1
        finally:
            await storage.close()

    asyncio.run(run())
    with psycopg.connect(cluster_db, autocommit=True) as connection:
        assert connection.execute("SELECT version FROM schema_version").fetchall() == [(CURRENT,)]


def test_a_claim_made_on_one_process_is_answered_by_people_on_another(cluster_db: str) -> None:
    """The claimer on one process, the other team's two people on another: they are asked there, one refusal ends
    the claim on both processes, and a claim that holds, accepted by both, ends the hand for everyone."""
    from dehla.play.claims import Claim, claim_holds

    servers = _servers(cluster_db, 2, bot_delay=0.02)
    rules = {"preset": "mendikot", "target": 5}
    person = {"kind": "person"}
    try:
        created = servers[0].post(
            "/api/tables", {"rules": rules, "seats": [{**person, "name": "Claimer"}, person, {"kind": "bot"}, person]}
        )
        table = created["id"]
        tokens = {invite["seat"]: invite["token"] for invite in created["invites"]}
        tokens[created["seat"]] = created["token"]

        async def run() -> list[dict[str, Any]]:
            claimer = await SeatClient(servers[0], table, tokens[0]).open()
            asked = {seat: await SeatClient(servers[1], table, tokens[seat]).open() for seat in (1, 3)}
            people = {0: claimer, **asked}

            def notices(client: SeatClient, code: str) -> int:
                return sum(m["type"] == "notice" and m["code"] == code for m in client.messages)

            async def play_to(holds: bool | None) -> None:
                """People play their first legal action until the claimer's turn in play where its claim of the
                remaining tens holds (``holds``), or any such turn (``None``)."""
                deadline = time.monotonic() + 90
                while time.monotonic() < deadline:
                    for seat, client in people.items():
                        state = client.state
                        if not (state and state["observation"] and state["table"]["status"] == "playing"):
                            continue
                        seen = state["observation"]
                        if seen["to_act"] != seat or not seen["legal_actions"]:
                            continue
                        if seat == 0 and seen["phase"] == "play":
                            if holds is None:
                                return
                            entries = await asyncio.to_thread(load_log, cluster_db, table)
                            match = replay_log(parse_rules(rules), entries).match
                            assert match is not None and match.to_act == 0
                            if len(match.tricks) >= 6 and claim_holds(match, Claim(0, "tens")) == holds:
                                return
                        version, errors = state["version"], len(client.errors)
                        await client.send({"type": "act", "action": seen["legal_actions"][0], "version": version})
                        answered = lambda s, v=version, e=errors, c=client: s["version"] > v or len(c.errors) > e  # noqa: E731
                        await client.wait(answered)
                        assert not client.errors, client.errors
                    await asyncio.sleep(0.01)
                raise TimeoutError("no such turn of the claimer")

            # a claim refused by one person of the other team, answering on the other process
            await play_to(None)
            await claimer.send({"type": "claim", "what": "tricks"})
            for client in asked.values():
                await client.wait(lambda s: s["table"]["claim"] == {"seat": 0, "what": "tricks", "waiting": [1, 3]})
            await asked[3].send({"type": "claim_answer", "accept": False})
            for client in people.values():
                await client.wait_for(lambda c=client: notices(c, "claim_refused") == 1)
                await client.wait(lambda s: s["table"]["claim"] is None)
            # a claim that holds, accepted by both on the other process: the hand ends as claimed, everywhere
            await play_to(True)
            await claimer.send({"type": "claim", "what": "tens"})
            for client in asked.values():
                await client.wait(lambda s: s["table"]["claim"] is not None and s["table"]["claim"]["what"] == "tens")
                await client.send({"type": "claim_answer", "accept": True})
            for client in people.values():
                await client.wait_for(lambda c=client: notices(c, "claim_accepted") == 1)
                assert notices(client, "claim_refused") == 1
            for client in people.values():
                await client.close()
            return await asyncio.to_thread(load_log, cluster_db, table)

        entries = asyncio.run(run())
        claims = [entry for entry in entries if entry["type"] == "claim"]
        assert claims == [{"type": "claim", "seat": 0, "what": "tens"}], claims
        at = entries.index(claims[0])
        line = list(itertools.takewhile(lambda entry: entry["type"] == "action", entries[at + 1 :]))
        assert line and all(entry["by"] == "claim" for entry in line), line
    finally:
        _stop(servers)
