"""The ASGI application: the page, its scripts and styles, the JSON API and the table WebSockets.

``create_app(storage, settings)`` makes the server's shared objects (the table
service, the analysis service, the solver's preparation, the player identities),
puts them on the application's state and routes to the endpoint modules of
``dehla.web.endpoints``; the ``dehla serve`` command runs it on uvicorn.  Pages
are served as they are on disk (no build step).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from dehla.web.analysis import WEB_NODE_LIMIT, AnalysisService
from dehla.web.botpool import DEFAULT_BOTS_PER_WORKER, BotPool, SolverPreparation
from dehla.web.cluster import DEFAULT_LEASE_SECONDS
from dehla.web.daily import DailyService, DailySettings
from dehla.web.endpoints import daily, history, lobby, me, pages, passkeys, queue, ratings
from dehla.web.endpoints.common import ServerOptions, Shared
from dehla.web.endpoints.pages import PAGES, STATIC_DIR
from dehla.web.players import Identities, PlayerMiddleware
from dehla.web.queue import Matchmaker
from dehla.web.security import SecurityHeadersMiddleware
from dehla.web.settings import DEFAULT_BOT_DELAY, DEFAULT_TRICK_PAUSE
from dehla.web.storage import Storage
from dehla.web.tables import TableService

__all__ = ["create_app", "WebSettings", "STATIC_DIR", "PAGES"]


@dataclass(frozen=True)
class WebSettings:
    """Tunable timings and limits of a server (tests make bots instant and the rate limit looser)."""

    #: Pause before each bot move; longest wait between hands; a finished trick's pause for tables that set none.
    bot_delay: float = DEFAULT_BOT_DELAY
    hand_pause: float = 20.0
    trick_pause: float = DEFAULT_TRICK_PAUSE
    #: A socket's messages a second, its burst, and how many refusals in a row before it is closed.
    rate: float = 10.0
    burst: float = 30.0
    kick_after: int = 300
    #: Search nodes per position of the replay's analysis.
    analysis_nodes: int = WEB_NODE_LIMIT
    #: Origins besides our own whose pages may open table sockets.
    allowed_origins: tuple[str, ...] = ()
    #: Worker processes the search bots think in (0: threads of the server's process), and bots per worker.
    bot_workers: int = 0
    bots_per_worker: int = DEFAULT_BOTS_PER_WORKER
    #: With PostgreSQL: how long a silent process keeps its tables before another takes them; this process's name
    #: among those sharing the database (random if not given); where it serves (``host:port pid N``, for operators).
    lease_seconds: float = DEFAULT_LEASE_SECONDS
    node: str | None = None
    address: str | None = None
    #: Compile the solver's kernel into its cache aside at startup (``dehla serve`` does; the tests, whose process
    #: has it compiled already, do not).
    prepare_solver: bool = False
    #: The daily duplicate: deals a day, their preset, and the bot of the other seats and of the reference play
    #: (the tests choose a quick one).
    daily: DailySettings = field(default_factory=DailySettings)


def _table_service(storage: Storage, settings: WebSettings) -> TableService:
    """The tables of the server, with their timings and the bots' worker pool."""
    pool = BotPool(settings.bot_workers, settings.bots_per_worker) if settings.bot_workers > 0 else None
    return TableService(
        storage,
        bot_delay=settings.bot_delay,
        hand_pause=settings.hand_pause,
        trick_pause=settings.trick_pause,
        lease_seconds=settings.lease_seconds,
        bot_pool=pool,
        node=settings.node,
        address=settings.address,
    )


def create_app(storage: Storage, settings: WebSettings | None = None) -> Starlette:
    """The web app over ``storage``; tables are resumed from it at startup."""
    settings = settings or WebSettings()
    service = _table_service(storage, settings)
    found = Shared(
        storage=storage,
        service=service,
        analyses=AnalysisService(settings.analysis_nodes),
        preparation=SolverPreparation(),
        identities=Identities(),
        matchmaker=Matchmaker(storage, service),
        options=ServerOptions(settings.allowed_origins, settings.rate, settings.burst, settings.kick_after),
        daily=DailyService(storage, service, settings.daily),
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if settings.prepare_solver:
            found.preparation.start()
        await service.start()
        found.identities.start(await storage.secret("player-cookies"))
        try:
            yield
        finally:
            await found.daily.close()
            await service.stop()
            found.analyses.close()

    routes: list[BaseRoute] = [Route(path, pages.page) for path in PAGES]
    routes += [
        Route("/api/meta", pages.meta),
        Route("/api/i18n/{lang}", pages.catalog),
        Route("/i18n/{lang}.js", pages.catalog_module),
        Route("/manifest.webmanifest", pages.manifest),
        Route("/sw.js", pages.service_worker),
        Route("/api/tables", lobby.tables, methods=["GET", "POST"]),
        Route("/api/tables/{table_id}", lobby.table_info),
        Route("/api/tables/{table_id}/join", lobby.join, methods=["POST"]),
        Route("/api/tables/{table_id}/invite", lobby.invite_friend, methods=["POST"]),
        Route("/api/history", history.history),
        Route("/api/me", me.me, methods=["GET", "POST", "DELETE"]),
        Route("/api/me/games", me.my_games),
        Route("/api/me/blocks", me.blocks, methods=["GET", "POST", "DELETE"]),
        Route("/api/me/friends", me.friends, methods=["GET", "POST", "DELETE"]),
        Route("/api/me/notices", me.notices, methods=["GET", "DELETE"]),
        Route("/api/me/records", me.my_records),
        Route("/api/me/ratings", ratings.my_ratings),
        Route("/api/passkeys/register/options", passkeys.register_options, methods=["POST"]),
        Route("/api/passkeys/register", passkeys.register_passkey, methods=["POST"]),
        Route("/api/passkeys/login/options", passkeys.login_options, methods=["POST"]),
        Route("/api/passkeys/login", passkeys.login, methods=["POST"]),
        Route("/api/queue", queue.queue, methods=["GET", "POST", "DELETE"]),
        Route("/api/queue/bots", queue.queue_bots, methods=["POST"]),
        Route("/api/ratings/{family}", ratings.leaderboard),
        *history.MATCHES.routes("/api/history/{table_id}/{match_no:int}"),
        Route("/api/daily", daily.today),
        Route("/api/daily/days", daily.days),
        Route("/api/daily/play", daily.play, methods=["POST"]),
        Route("/api/daily/{day}", daily.day),
        *daily.GAMES.routes("/api/daily/{day}/games/{table_id}"),
        Route("/api/scorekeeper", lobby.scorekeeper, methods=["POST"]),
        Route("/api/rules", lobby.rules_check, methods=["POST"]),
        WebSocketRoute("/ws/{table_id}", lobby.socket),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(SecurityHeadersMiddleware), Middleware(PlayerMiddleware, identities=found.identities)],
    )
    app.state.shared = found
    app.state.settings = settings
    return app
