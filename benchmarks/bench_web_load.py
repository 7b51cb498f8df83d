"""Web load: many tables of scripted clients over WebSockets on loopback against ``dehla serve``.

Each table has four person seats, each a WebSocket client in this process.  The seat to act waits a
"think time", sends a legal action, and the latency of that action is the time from sending it until
every seat of the table has received the state that includes it (the server commits the action to
SQLite first, then broadcasts).  Prints the median and the 99th percentile.

    python benchmarks/bench_web_load.py --tables 250 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import resource
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets
from served import served


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
                await table.sockets[seat].send(json.dumps({"type": "act", "version": state["version"],
                                                           "action": rng.choice(observation["legal_actions"])}))
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
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


async def _run(base: str, tables: int, seconds: float, think: float, preset: str) -> tuple[list[float], int]:
    latencies: list[float] = []
    stop = asyncio.Event()
    rng = random.Random(1)
    all_tables = []
    for _ in range(tables):
        created = _post(base + "/api/tables", {"rules": preset, "seats": [{"kind": "person"}] * 4, "grace": 3600})
        all_tables.append(Table(created["id"], [invite["token"] for invite in created["invites"]]))
    ws_base = base.replace("http://", "ws://")
    tasks = []
    for index, table in enumerate(all_tables):
        for seat, token in enumerate(table.tokens):
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
    while time.monotonic() - start < seconds + warmup:
        await asyncio.sleep(5)
        print(f"  {time.monotonic() - start:5.0f} s: {len(latencies)} actions timed", file=sys.stderr, flush=True)
    stop.set()
    measured = list(latencies)
    for task in players:
        task.cancel()
    for table in all_tables:
        for ws in table.sockets:
            await ws.close()
    for task in tasks:
        task.cancel()
    return measured, sum(len(table.sockets) for table in all_tables)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=60.0, help="measured time after a short warm-up")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a scripted player waits before acting")
    parser.add_argument("--preset", default="mendikot")
    parser.add_argument("--db", default=None, help="database URL for the server (default: a temporary SQLite file)")
    parser.add_argument("--sync", choices=("full", "normal"), default="full",
                        help="SQLite sync of the temporary file: full (the server's default: every accepted action "
                             "survives a power cut) or normal (survives the process dying only)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8192)), hard))
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'load.sqlite3'}?sync={args.sync}"
        with served(db, "--bot-delay", "0", "--hand-pause", "0") as base:
            latencies, sockets = asyncio.run(_run(base, args.tables, args.seconds, args.think, args.preset))
    if not latencies:
        print("no action was timed", file=sys.stderr)
        return 1
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
    print(f"tables {args.tables}, sockets {sockets}, actions timed {len(latencies)} "
          f"({len(latencies) / args.seconds:.0f}/s), think {args.think:g} s, "
          f"database {args.db or 'temporary SQLite file, sync=' + args.sync}")
    print(f"action -> every seat's update: median {statistics.median(latencies) * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
