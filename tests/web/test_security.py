"""Hardening: security headers on every route, the WebSocket Origin check, the durable log by default."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from dehla.web.app import WebSettings, create_app
from dehla.web.security import CONTENT_SECURITY_POLICY, normalise_origin, origin_allowed
from dehla.web.storage import SQLiteStorage, open_storage


def _app(tmp_path: Path, origins: tuple[str, ...] = ()) -> TestClient:
    settings = WebSettings(bot_delay=0, hand_pause=0, allowed_origins=origins)
    return TestClient(create_app(open_storage(str(tmp_path / "security.sqlite3")), settings))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with _app(tmp_path) as test_client:
        yield test_client


def _routes(client: TestClient) -> list[str]:
    """Every GET route of the app, with the path parameters filled in with a real table and match."""
    created = client.post("/api/tables", json={"rules": "pagat", "seats": [{"kind": "bot"}] * 4}).json()
    table = created["id"]
    paths = [
        "/",
        f"/t/{table}",
        "/history",
        f"/replay/{table}/1",
        "/scorekeeper",
        "/api/meta",
        "/api/i18n/es",
        "/api/i18n/en",
        "/api/tables",
        f"/api/tables/{table}",
        "/api/history",
        f"/api/history/{table}/1/record",
        f"/api/history/{table}/1/replay",
        "/static/style.css",
        "/api/no-such-route",
        "/static/no-such-file.js",
    ]
    for extra in ("/manifest.webmanifest", "/sw.js", "/i18n/es.js"):
        if client.get(extra).status_code == 200:
            paths.append(extra)
    return paths


def test_every_route_sends_the_security_headers(client: TestClient) -> None:
    for path in _routes(client):
        response = client.get(path)
        headers = response.headers
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
        assert headers["x-content-type-options"] == "nosniff", path
        assert headers["referrer-policy"] == "no-referrer", path
        assert headers["x-frame-options"] == "DENY", path
    for path, body in (
        ("/api/tables", {"rules": "whist"}),
        ("/api/scorekeeper", {"rules": "pagat"}),
        ("/api/rules", {"preset": "pagat"}),
    ):
        assert client.post(path, json=body).headers["content-security-policy"] == CONTENT_SECURITY_POLICY


def test_policy_forbids_inline_script_and_style_and_framing() -> None:
    directives = dict(item.split(" ", 1) for item in CONTENT_SECURITY_POLICY.split("; "))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY and "unsafe-eval" not in CONTENT_SECURITY_POLICY
    assert directives["frame-ancestors"] == "'none'"


def test_the_page_has_no_inline_script_or_style(client: TestClient) -> None:
    page = client.get("/").text
    assert "<style" not in page and " style=" not in page and " on" + "click=" not in page
    for tag in page.split("<script")[1:]:
        assert " src=" in tag.split(">", 1)[0], "every script is a file"


def test_cross_origin_websocket_is_refused(client: TestClient) -> None:
    table = client.post("/api/tables", json={"rules": "pagat", "seats": [{"kind": "bot"}] * 4}).json()["id"]
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"/ws/{table}", headers={"origin": "https://evil.example"}) as socket,
    ):
        socket.receive_json()
    assert refused.value.code == 4403


def test_same_origin_websocket_is_accepted(client: TestClient) -> None:
    table = client.post("/api/tables", json={"rules": "pagat", "seats": [{"kind": "bot"}] * 4}).json()["id"]
    with client.websocket_connect(f"/ws/{table}", headers={"origin": "http://testserver"}) as socket:
        socket.send_json({"type": "ping"})
        assert socket.receive_json()["type"] in ("state", "pong", "chat_log")


def test_an_origin_given_to_serve_is_accepted(tmp_path: Path) -> None:
    with _app(tmp_path, ("https://cards.example.org",)) as client:
        table = client.post("/api/tables", json={"rules": "pagat", "seats": [{"kind": "bot"}] * 4}).json()["id"]
        with client.websocket_connect(f"/ws/{table}", headers={"origin": "https://cards.example.org"}) as socket:
            socket.send_json({"type": "ping"})
            assert socket.receive_json()["type"] in ("state", "pong", "chat_log")
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(f"/ws/{table}", headers={"origin": "https://other.example.org"}) as socket,
        ):
            socket.receive_json()


@pytest.mark.parametrize(
    ("origin", "host", "allowed", "expected"),
    [
        (None, "localhost:8000", (), True),  # not a browser page: a bot program or a test client
        ("http://localhost:8000", "localhost:8000", (), True),
        ("HTTP://LOCALHOST:8000", "localhost:8000", (), True),
        ("https://cards.example.org", "cards.example.org", (), True),  # TLS ended by a proxy
        ("https://cards.example.org:443", "cards.example.org", (), True),
        ("http://localhost:8001", "localhost:8000", (), False),
        ("https://evil.example", "localhost:8000", (), False),
        ("null", "localhost:8000", (), False),  # sandboxed frames and file:// pages
        ("https://evil.example", "localhost:8000", ("https://evil.example",), True),
        ("https://evil.example.attacker.net", "localhost:8000", ("https://evil.example",), False),
    ],
)
def test_origin_rule(origin: str | None, host: str, allowed: tuple[str, ...], expected: bool) -> None:
    headers = {"host": host} if origin is None else {"host": host, "origin": origin}
    assert origin_allowed(headers, allowed) is expected


def test_normalise_origin() -> None:
    assert normalise_origin("https://Cards.Example.org/") == "https://cards.example.org"
    assert normalise_origin("http://[::1]:8000") == "http://[::1]:8000"
    assert normalise_origin("ftp://x") is None and normalise_origin("cards.example.org") is None


def test_bad_allow_origin_gives_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "dehla", "serve", "--allow-origin", "cards.example.org"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode != 0 and "is not an origin" in result.stderr and "Traceback" not in result.stderr


def test_the_log_is_durable_across_power_loss_by_default(tmp_path: Path) -> None:
    """SQLite syncs each commit to disk (synchronous=FULL) unless ?sync=normal asks for less."""
    assert isinstance(storage := open_storage(str(tmp_path / "a.sqlite3")), SQLiteStorage)
    assert storage.synchronous == "FULL"
    relaxed = open_storage(f"sqlite:///{tmp_path}/b.sqlite3?sync=normal")
    assert isinstance(relaxed, SQLiteStorage) and relaxed.synchronous == "NORMAL"


def test_the_database_is_opened_with_full_sync(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "c.sqlite3")
    asyncio.run(storage.open())
    try:
        assert storage.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert storage.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        asyncio.run(storage.close())
