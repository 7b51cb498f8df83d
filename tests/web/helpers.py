"""Test helpers: a real uvicorn server in a subprocess, and WebSocket seat clients that keep every message."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import websockets

HERE = Path(__file__).parent
CARD_TEXT = re.compile(r"(?<![A-Za-z0-9])(10|[2-9JQKA])([SHDC])(?![A-Za-z0-9])")


#: The PostgreSQL server the tests use when it is reachable (.ci/run starts Debian's postgresql).
POSTGRES_URL = os.environ.get("DEHLA_TEST_POSTGRES", "postgresql://dehla:dehla@127.0.0.1:5432/dehla_test")


def postgres_reachable() -> bool:
    """Whether ``POSTGRES_URL`` answers (the PostgreSQL tests are skipped when it does not)."""
    try:
        import psycopg

        with psycopg.connect(POSTGRES_URL, connect_timeout=2):
            return True
    except Exception:
        return False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LiveServer:
    """``dehla``'s web app on a real uvicorn in its own process (so it can be killed with SIGKILL)."""

    def __init__(self, db: str, port: int | None = None, **options: float | str) -> None:
        self.db = db
        self.port = port or free_port()
        self.options = options
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        command = [sys.executable, str(HERE / "serve_for_tests.py"), "--db", self.db, "--port", str(self.port)]
        for key, value in self.options.items():
            command += [f"--{key.replace('_', '-')}", str(value)]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                output = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"server exited: {output}")
            try:
                urllib.request.urlopen(self.url + "/api/meta", timeout=1).read()
                return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.05)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        """SIGKILL: the abrupt end the durability test needs."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
            self.process = None

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def post(self, path: str, body: object, cookie: str | None = None) -> dict[str, Any]:
        """POST JSON; ``cookie``: as the player with that cookie (``new_player``); a refusal's body is returned."""
        headers = {"Content-Type": "application/json", **({"Cookie": f"dehla_player={cookie}"} if cookie else {})}
        request = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), method="POST", headers=headers
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.loads(response.read())  # type: ignore[no-any-return]
        except urllib.error.HTTPError as error:
            if cookie is None:
                raise
            return json.loads(error.read())  # type: ignore[no-any-return]

    def get(self, path: str, cookie: str | None = None) -> Any:
        headers = {"Cookie": f"dehla_player={cookie}"} if cookie else {}
        with urllib.request.urlopen(urllib.request.Request(self.url + path, headers=headers), timeout=10) as response:
            return json.loads(response.read())

    def new_player(self) -> str:
        """A browser's first visit: the value of the player cookie the server gives it."""
        with urllib.request.urlopen(self.url + "/", timeout=10) as response:
            cookie = response.headers["Set-Cookie"]
        return str(cookie.split("dehla_player=", 1)[1].split(";", 1)[0])


class SeatClient:
    """One WebSocket connection to a table; every message it receives is kept in ``messages``."""

    def __init__(
        self,
        server: LiveServer,
        table_id: str,
        token: str | None = None,
        watch: str | None = None,
        cookie: str | None = None,
        mine: bool = False,
    ) -> None:
        self.server = server
        #: The player cookie the socket's handshake carries (a player's window), and whether to ask for their seat.
        self.cookie = cookie
        self.mine = mine
        self.table_id = table_id
        self.token = token
        self.watch = watch
        self.messages: list[dict[str, Any]] = []
        #: When each message arrived (``time.monotonic()``), for tests of the server's pauses.
        self.times: list[float] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self._changed = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self.ws: Any = None

    async def open(self, *then: object) -> SeatClient:
        """Connect and say hello; ``then``: messages sent right after the hello, before its answer arrives."""
        headers = {"Cookie": f"dehla_player={self.cookie}"} if self.cookie else None
        self.ws = await websockets.connect(
            f"{self.server.ws_url}/ws/{self.table_id}", max_size=2**22, additional_headers=headers
        )
        self._reader = asyncio.create_task(self._read())
        hello: dict[str, Any] = {"type": "hello"}
        if self.token:
            hello["token"] = self.token
        if self.watch:
            hello["watch"] = self.watch
        if self.mine:
            hello["mine"] = True
        await self.ws.send(json.dumps(hello))
        for message in then:
            await self.send(message)
        # the first state may predate the hello; with a token, wait for the seat (or the refusal)
        # the hello is answered with a state (with the seat, for a token) or refused with an error
        seated = self.token or self.mine
        await self.wait_for(
            lambda: bool(self.errors) or (self.state is not None and (not seated or self.state["seat"] is not None))
        )
        return self

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                self.raw.append(text)
                message = json.loads(text)
                self.messages.append(message)
                self.times.append(time.monotonic())
                if message["type"] == "state":
                    self.state = message
                elif message["type"] == "error":
                    self.errors.append(message)
                self._changed.set()
        except websockets.ConnectionClosed:
            pass

    async def wait(self, condition: Any, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while not condition(self.state):
            self._changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"condition not met; last state version {self.state and self.state['version']}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
        assert self.state is not None
        return self.state

    async def wait_for(self, condition: Any, timeout: float = 20.0) -> None:
        """Wait until ``condition()`` holds (it may look at any message, not only the state)."""
        deadline = time.monotonic() + timeout
        while not condition():
            self._changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("condition not met")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    async def wait_error(self, count: int, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while len(self.errors) < count:
            self._changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"expected {count} errors, got {len(self.errors)}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
        return self.errors[count - 1]

    async def wait_closed(self, timeout: float = 5.0) -> None:
        """Wait until the server has closed this connection."""
        if self._reader is not None:
            await asyncio.wait_for(asyncio.shield(self._reader), timeout)

    async def send(self, message: object) -> None:
        """Send a message; an ``act`` without a ``version`` gets the version of the newest state, as the page's does
        (send it as text to leave it out)."""
        if isinstance(message, dict) and message.get("type") == "act" and "version" not in message:
            message = {**message, "version": self.state["version"] if self.state else 0}
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await self._reader


def all_strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in all_strings(key) + all_strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in all_strings(item)]
    return []


def cards_in(message: object) -> set[str]:
    """Every card text anywhere in a message (keys and values)."""
    found: set[str] = set()
    for text in all_strings(message):
        for rank, suit in CARD_TEXT.findall(text):
            found.add(rank + suit)
    return found
