"""Web load: many tables of scripted clients over WebSockets on loopback against ``dehla serve``.

Each table has four person seats, each a WebSocket client in this process.  The seat to act waits a
"think time", sends a legal action, and the latency of that action is the time from sending it until
every seat of the table has received the state that includes it (the server commits the action to
its log first, then broadcasts).  Prints the median and the 99th percentile.

    python benchmarks/bench_web_load.py --tables 250 --seconds 60

With ``--processes N --db postgresql://...`` the tables are spread over N ``dehla serve`` processes on one
PostgreSQL database (in a fresh schema, dropped afterwards): table i is made on process i mod N (which then
runs it) and its seat s connects to process (i + s) mod N, so every action reaches seats on other processes
through LISTEN/NOTIFY.  ``--baseline`` first measures one process on a temporary SQLite file with the same
tables, so both figures come from the same run.  ``--bot-tables K --bot hard`` adds K tables of four search
bots (nobody connected) beside the scripted ones; the servers' memory (every process, bot workers included)
is printed at the end.

    python benchmarks/bench_web_load.py --tables 250 --seconds 30 --processes 2 \
        --db postgresql://dehla:dehla@127.0.0.1:5432/dehla_test --baseline
    python benchmarks/bench_web_load.py --tables 50 --seconds 30 --bot-tables 16 --bot hard --bot-workers 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import websockets
from served import cpu_seconds, served, tree_rss_mb

from dehla.web.storage.postgres import scratch_schema


class Table:
    """Four seat sockets of one table and the pending action being timed."""

    def __init__(self, table_id: str, tokens: list[str]) -> None:
        self.table_id = table_id
        self.tokens = tokens
        self.sockets: list[Any] = []
        self.states: list[dict[str, Any] | None] = [None] * 4
        self.sent_at: float | None = None
        self.sent_version = -1
        self.arrived: set[int] = set()
        self.turn = asyncio.Event()


async def _seat_reader(table: Table, seat: int, latencies: list[float], stop: asyncio.Event) -> None:
    ws = table.sockets[seat]
    async for text in ws:
        message = json.loads(text)
        if message.get("type") != "state":
            continue
        table.states[seat] = message
        if table.sent_at is not None and message["version"] > table.sent_version:
            table.arrived.add(seat)
            if len(table.arrived) == 4:
                latencies.append(time.perf_counter() - table.sent_at)
                table.sent_at = None
        table.turn.set()
        if stop.is_set():
            return


async def _player(table: Table, rng: random.Random, think: float, stop: asyncio.Event) -> None:
    while not stop.is_set():
        table.turn.clear()
        acted = False
        for seat, state in enumerate(table.states):
            if state is None or table.sent_at is not None:
                continue
            observation = state["observation"]
            if observation is None:
                continue
            if observation["to_act"] == seat and observation["legal_actions"] and state["version"] > table.sent_version:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                if stop.is_set():
                    return
                table.sent_version = state["version"]
                table.arrived = set()
                table.sent_at = time.perf_counter()
                await table.sockets[seat].send(
                    json.dumps(
                        {"type": "act", "version": state["version"], "action": rng.choice(observation["legal_actions"])}
                    )
                )
                acted = True
                break
            if state["table"]["status"] == "over":
                await table.sockets[seat].send(json.dumps({"type": "rematch"}))
                acted = True
                break
        if not acted:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.turn.wait(), 5)


def _post(url: str, body: object) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


Reading = tuple[float, float, float]


async def _run(
    bases: list[str], tables: int, seconds: float, think: float, preset: str, mark: Callable[[], Reading]
) -> tuple[list[float], int, list[Reading]]:
    """Play; ``mark()`` is read at the start and the end of the measured time (CPU seconds and the clock)."""
    window: list[Reading] = []
    latencies: list[float] = []
    stop = asyncio.Event()
    rng = random.Random(1)
    all_tables = []
    for index in range(tables):
        created = _post(
            bases[index % len(bases)] + "/api/tables",
            {"rules": preset, "seats": [{"kind": "person"}] * 4, "grace": 3600},
        )
        all_tables.append(Table(created["id"], [invite["token"] for invite in created["invites"]]))
    tasks = []
    for index, table in enumerate(all_tables):
        for seat, token in enumerate(table.tokens):
            ws_base = bases[(index + seat) % len(bases)].replace("http://", "ws://")
            ws = await websockets.connect(f"{ws_base}/ws/{table.table_id}", max_size=2**22, compression=None)
            table.sockets.append(ws)
            await ws.send(json.dumps({"type": "hello", "token": token}))
            tasks.append(asyncio.create_task(_seat_reader(table, seat, latencies, stop)))
        if (index + 1) % 50 == 0:
            print(f"  {index + 1}/{tables} tables connected ({4 * (index + 1)} sockets)", file=sys.stderr, flush=True)
    players = [asyncio.create_task(_player(table, random.Random(rng.random()), think, stop)) for table in all_tables]
    start = time.monotonic()
    warmup = min(5.0, seconds / 4)
    await asyncio.sleep(warmup)
    latencies.clear()
    window.append(mark())
    while time.monotonic() - start < seconds + warmup:
        await asyncio.sleep(5)
        print(f"  {time.monotonic() - start:5.0f} s: {len(latencies)} actions timed", file=sys.stderr, flush=True)
    stop.set()
    window.append(mark())
    measured = list(latencies)
    for task in players:
        task.cancel()
    for table in all_tables:
        for ws in table.sockets:
            await ws.close()
    for task in tasks:
        task.cancel()
    return measured, sum(len(table.sockets) for table in all_tables), window


def _bot_tables(base: str, count: int, bot: str) -> None:
    """Tables of four search bots, nobody connected: they play a long match for the whole run."""
    for _ in range(count):
        _post(
            base + "/api/tables",
            {"rules": {"preset": "mendikot", "target": 50}, "seats": [{"kind": "bot", "bot": bot}] * 4},
        )


def _measure(args: argparse.Namespace, db: str, processes: int, label: str) -> dict[str, Any]:
    """One configuration: start the servers, run the scripted tables, and return the figures."""
    options = ["--bot-delay", "0", "--hand-pause", "0"]
    if args.bot_workers is not None:
        options += ["--bot-workers", str(args.bot_workers)]
    with contextlib.ExitStack() as stack:
        bases: list[str] = []
        pids: list[int] = []
        for number in range(processes):
            profile = None
            if args.profile:
                Path(args.profile).mkdir(parents=True, exist_ok=True)
                name = "sqlite" if db.startswith("sqlite") else "postgresql"
                profile = str(Path(args.profile) / f"serve-{name}-{processes}-{number}.prof")
            base, pid = stack.enter_context(served(db, *options, with_pid=True, profile=profile))
            bases.append(base)
            pids.append(pid)
        if args.bot_tables:
            _bot_tables(bases[0], args.bot_tables, args.bot)
        memory_before = tree_rss_mb(pids)
        latencies, sockets, window = asyncio.run(
            _run(
                bases,
                args.tables,
                args.seconds,
                args.think,
                args.preset,
                lambda: (cpu_seconds(pids), cpu_seconds(name="postgres"), time.monotonic()),
            )
        )
        memory = tree_rss_mb(pids)
    (server0, db0, t0), (server1, db1, t1) = window
    latencies.sort()
    result: dict[str, Any] = {
        "label": label,
        "sockets": sockets,
        "timed": len(latencies),
        "memory_mb": memory,
        "memory_before_mb": memory_before,
        "server_cpu": (server1 - server0) / (t1 - t0),
        "db_cpu": (db1 - db0) / (t1 - t0),
    }
    if latencies:
        result["median"] = statistics.median(latencies) * 1000
        result["p99"] = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] * 1000
        result["max"] = latencies[-1] * 1000
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=60.0, help="measured time after a short warm-up")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a scripted player waits before acting")
    parser.add_argument("--preset", default="mendikot")
    parser.add_argument(
        "--db",
        default=None,
        help="database URL for the server (default: a temporary SQLite file); "
        "a postgresql:// URL is used in a fresh schema",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="dehla serve processes sharing the database (more than 1 needs --db postgresql://...)",
    )
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="first measure one process on a temporary SQLite file with the same tables",
    )
    parser.add_argument("--bot-tables", type=int, default=0, help="tables of four search bots beside the scripted")
    parser.add_argument("--bot", default="hard", help="the bot of those tables (default hard)")
    parser.add_argument("--bot-workers", type=int, default=None, help="dehla serve --bot-workers (default: its own)")
    parser.add_argument(
        "--sync",
        choices=("full", "normal"),
        default="full",
        help="SQLite sync of the temporary file: full (the server's default: every accepted action "
        "survives a power cut) or normal (survives the process dying only)",
    )
    parser.add_argument(
        "--profile",
        metavar="DIR",
        default=None,
        help="run each server under cProfile and write its statistics to DIR/serve-*.prof when it "
        "stops (read them with python -m pstats); the profiler slows the servers down",
    )
    args = parser.parse_args()
    postgres = bool(args.db and args.db.startswith(("postgresql://", "postgres://")))
    if args.processes > 1 and not postgres:
        parser.error("--processes above 1 needs --db postgresql://...")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8192)), hard))
    print(f"load average before: {' '.join(f'{value:.2f}' for value in os.getloadavg())}", flush=True)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = f"sqlite:///{Path(tmp) / 'load.sqlite3'}?sync={args.sync}"
        if args.baseline:
            results.append(_measure(args, sqlite, 1, f"1 process, SQLite (sync={args.sync})"))
        if postgres:
            with scratch_schema(args.db, "bench") as db:
                results.append(_measure(args, db, args.processes, f"{args.processes} process(es), PostgreSQL"))
        else:
            db = args.db or f"sqlite:///{Path(tmp) / 'load2.sqlite3'}?sync={args.sync}"
            results.append(_measure(args, db, 1, "1 process, " + (args.db or f"SQLite (sync={args.sync})")))
    print(f"load average after: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    failed = False
    for result in results:
        print(
            f"{result['label']}: tables {args.tables}, sockets {result['sockets']}, bot tables {args.bot_tables} "
            f"({args.bot}), actions timed {result['timed']} ({result['timed'] / args.seconds:.0f}/s), "
            f"think {args.think:g} s"
        )
        if not result["timed"]:
            print("  no action was timed")
            failed = True
            continue
        print(
            f"  action -> every seat's update: median {result['median']:.1f} ms, p99 {result['p99']:.1f} ms, "
            f"max {result['max']:.1f} ms; servers' memory (every process) {result['memory_before_mb']:.0f} MB "
            f"at start, {result['memory_mb']:.0f} MB at the end"
        )
        per_action = 1000 / max(1.0, result["timed"] / args.seconds)
        print(
            f"  CPU: servers {result['server_cpu']:.2f} cores ({result['server_cpu'] * per_action:.2f} ms an "
            f"action), every postgres process {result['db_cpu']:.2f} cores "
            f"({result['db_cpu'] * per_action:.2f} ms an action)"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
