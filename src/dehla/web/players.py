"""Who is asking: a player identity in a signed cookie, given on the first visit with no sign-up.

A browser gets ``dehla_player`` on its first answer from the server: a random
player id signed with the server's secret (``itsdangerous``), ``HttpOnly`` (the
page's scripts never see it), ``SameSite=Lax`` (sent when a friend follows an
invite link from a chat, never with another site's background requests) and
``Secure`` behind https.  The WebSocket handshake carries it too, so a table
knows which player a window belongs to.  A cookie whose signature does not
verify is ignored (a new identity replaces it).  The secret lives in the
database (``Storage.secret``), so every process of a cluster and every restart
reads the same one.

``Viewer`` is what the visibility rule (``dehla.web.visibility``) is given: the
player, if any, and the tokens (seat or watch links) a request carries.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from http.cookies import SimpleCookie

from itsdangerous import BadSignature, URLSafeSerializer, URLSafeTimedSerializer
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["COOKIE", "Identities", "PlayerMiddleware", "Viewer", "player_of", "MAX_AGE", "is_https"]

COOKIE = "dehla_player"
#: How long a browser keeps its identity without coming back: two years, renewed on every visit.
MAX_AGE = 2 * 365 * 24 * 3600
_SALT = "dehla-player"


@dataclass(frozen=True)
class Viewer:
    """Who asks to see something: their player id (``None`` without a cookie) and the link tokens they offer."""

    player: str | None = None
    tokens: tuple[str, ...] = ()


class Identities:
    """Signs and reads player ids; usable once ``start`` has given it the server's secret."""

    def __init__(self) -> None:
        self._serializer: URLSafeSerializer | None = None
        self._sealer: URLSafeTimedSerializer | None = None

    def start(self, secret: str) -> None:
        self._serializer = URLSafeSerializer(secret, salt=_SALT)
        self._sealer = URLSafeTimedSerializer(secret, salt="dehla-sealed")

    def seal(self, data: dict[str, str]) -> str:
        """``data`` signed with the time, for the browser to hand back (a passkey ceremony's challenge)."""
        if self._sealer is None:
            raise RuntimeError("the player identities have no secret yet (the app has not started)")
        return str(self._sealer.dumps(data))

    def unseal(self, text: object, max_age: int) -> dict[str, str] | None:
        """What ``seal`` signed, if it is ours and at most ``max_age`` seconds old."""
        if self._sealer is None or not isinstance(text, str) or len(text) > 1000:
            return None
        try:
            data = self._sealer.loads(text, max_age=max_age)
        except BadSignature:
            return None
        return data if isinstance(data, dict) and all(isinstance(value, str) for value in data.values()) else None

    def cookie(self, player: str, secure: bool) -> str:
        """The ``Set-Cookie`` value that makes a browser ``player``."""
        return f"{COOKIE}={self.sign(player)}; Path=/; Max-Age={MAX_AGE}; HttpOnly; SameSite=Lax" + (
            "; Secure" if secure else ""
        )

    @property
    def serializer(self) -> URLSafeSerializer:
        if self._serializer is None:
            raise RuntimeError("the player identities have no secret yet (the app has not started)")
        return self._serializer

    @staticmethod
    def new_player() -> str:
        """A new player id, never starting with "-", which ``dehla admin ban ID`` would read as an option."""
        while True:
            player = secrets.token_urlsafe(16)
            if not player.startswith("-"):
                return player

    def sign(self, player: str) -> str:
        return str(self.serializer.dumps(player))

    def read(self, value: str | None) -> str | None:
        """The player id in a cookie's value, or ``None`` if there is none or it was not signed by this server."""
        if not value or len(value) > 200:
            return None
        try:
            player = self.serializer.loads(value)
        except BadSignature:
            return None
        return player if isinstance(player, str) and 0 < len(player) <= 64 else None


def _cookie_value(scope: Scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a malformed Cookie header is no identity
                return None
            morsel = jar.get(COOKIE)
            if morsel is not None:
                return morsel.value
    return None


def player_of(scope: Scope) -> str | None:
    """The player of a request or socket, as ``PlayerMiddleware`` found it."""
    state = scope.get("state") or {}
    player = state.get("player")
    return player if isinstance(player, str) else None


class PlayerMiddleware:
    """Puts the player of every request and socket in ``scope["state"]["player"]``; gives a browser without one a
    new identity in its first answer, and renews the cookie's lifetime on every page."""

    def __init__(self, app: ASGIApp, identities: Identities) -> None:
        self.app = app
        self.identities = identities

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        player = self.identities.read(_cookie_value(scope))
        # a request that brought no identity is anonymous: the one it is given counts from the next request on
        # (a program that keeps no cookies stays anonymous, and never binds a seat to an identity it cannot show)
        scope.setdefault("state", {})["player"] = player
        fresh = player is None and scope["type"] == "http"
        if fresh:
            player = self.identities.new_player()
        if scope["type"] != "http" or not (fresh or scope.get("path") == "/"):
            await self.app(scope, receive, send)
            return
        assert player is not None
        cookie = self.identities.cookie(player, is_https(scope))

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie.encode())]}
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def is_https(scope: Scope) -> bool:
    """The browser reached us over https (behind a proxy that ends TLS, docs/deploy.md: ``X-Forwarded-Proto``)."""
    return scope.get("scheme") in ("https", "wss") or any(
        name == b"x-forwarded-proto" and value.strip().lower() == b"https" for name, value in scope.get("headers", [])
    )
