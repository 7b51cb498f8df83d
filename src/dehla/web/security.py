"""Hardening for the open internet: security headers on every response and the WebSocket Origin check.

The page is served as files with no inline script or style, so the Content
Security Policy allows scripts, styles and connections from this origin only;
no page may frame ours.  Browsers send ``Origin`` with every WebSocket
handshake, and cookies are not used, but a seat token kept in a page's storage
is still only for our own pages: a handshake from another site's page is
refused before it is accepted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "SECURITY_HEADERS",
    "SecurityHeadersMiddleware",
    "origin_allowed",
    "normalise_origin",
]

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "object-src 'none'",
    )
)

#: Sent with every HTTP response, page or API.
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode("ascii")),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class SecurityHeadersMiddleware:
    """An ASGI middleware adding ``SECURITY_HEADERS`` to every HTTP response (a header already set wins)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend(item for item in SECURITY_HEADERS if item[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def normalise_origin(text: str) -> str | None:
    """``scheme://host[:port]`` in lower case with default ports dropped, or ``None`` if ``text`` is no origin."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme not in ("http", "https") or not host:
        return None
    if ":" in host:
        host = f"[{host}]"
    if port is None or (scheme, port) in (("http", 80), ("https", 443)):
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def origin_allowed(headers: Mapping[str, str], allowed_origins: Iterable[str] = ()) -> bool:
    """True if a WebSocket handshake with these headers comes from our own pages or an allowed origin.

    Our own origin is the one whose host is the handshake's ``Host`` (either
    scheme, since a proxy may end TLS).  A handshake without ``Origin`` is not
    from a browser page (a bot program, a test client): it is allowed, since
    only browsers carry another site's page into our socket.
    """
    origin = headers.get("origin")
    if origin is None:
        return True
    wanted = normalise_origin(origin)
    if wanted is None:
        return False
    host = headers.get("host", "").strip().lower()
    if host and wanted in {normalise_origin(f"http://{host}"), normalise_origin(f"https://{host}")}:
        return True
    return wanted in {normalise_origin(item) for item in allowed_origins}
