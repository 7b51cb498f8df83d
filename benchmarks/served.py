"""``dehla serve`` in a child process on a free loopback port, for the web benchmarks."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: ``python -c`` this with the statistics file and ``dehla``'s arguments: the server under cProfile.  uvicorn
#: stops on SIGTERM and then raises it again for the handler it found, this one, which writes the statistics.
_PROFILED = """
import cProfile, runpy, signal, sys
path = sys.argv[1]
sys.argv = ["dehla", *sys.argv[2:]]
profiler = cProfile.Profile()
def stop(*_):
    profiler.disable()
    profiler.dump_stats(path)
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
profiler.enable()
runpy.run_module("dehla", run_name="__main__", alter_sys=True)
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def served(db: str, *options: str, with_pid: bool = False, profile: str | None = None) -> Iterator[Any]:
    """Run ``dehla serve --db DB OPTIONS...`` until the block ends; yields its base URL once it answers
    (and its process id, with ``with_pid``).  ``profile``: run it under cProfile, the statistics written to
    that file when it stops."""
    port = free_port()
    python = [sys.executable, "-c", _PROFILED, profile] if profile else [sys.executable, "-m", "dehla"]
    server = subprocess.Popen(
        [*python, "serve", "--port", str(port), "--db", db, *options],
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(400):
            try:
                urllib.request.urlopen(base + "/api/meta", timeout=1).read()
                break
            except OSError:
                if server.poll() is not None:
                    raise RuntimeError(f"dehla serve exited with code {server.returncode}") from None
                time.sleep(0.05)
        yield (base, server.pid) if with_pid else base
    finally:
        server.terminate()
        server.wait(30)


def _descendants(pids: Iterable[int]) -> list[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found: list[int] = []
    todo = list(pids)
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def cpu_seconds(pids: Iterable[int] | None = None, name: str | None = None) -> float:
    """CPU time (user + system) used so far by these processes and their descendants, or by every process
    called ``name`` (``postgres``: the database's server processes), in seconds (Linux)."""
    if pids is not None:
        chosen = _descendants(pids)
    else:
        chosen = [
            int(path.name)
            for path in Path("/proc").glob("[0-9]*")
            if (path / "comm").exists() and _read(path / "comm").strip() == name
        ]
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in chosen:
        text = _read(Path(f"/proc/{pid}/stat"))
        if text:
            fields = text.rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def tree_rss_mb(pids: Iterable[int]) -> float:
    """Resident memory of these processes and all their descendants (bot workers included), in MB (Linux)."""
    total = 0
    for pid in _descendants(pids):
        for line in _read(Path(f"/proc/{pid}/status")).splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024
