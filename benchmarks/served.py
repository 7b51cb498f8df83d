"""``dehla serve`` in a child process on a free loopback port, for the web benchmarks."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def served(db: str, *options: str) -> Iterator[str]:
    """Run ``dehla serve --db DB OPTIONS...`` until the block ends; yields its base URL once it answers."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "dehla", "serve", "--port", str(port), "--db", db, *options],
                              stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONUNBUFFERED": "1"})
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
        yield base
    finally:
        server.terminate()
        server.wait(10)
