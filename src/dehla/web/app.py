"""The ASGI application: the page, its scripts and styles, the JSON API and the table WebSockets.

``create_app(storage)`` builds a Starlette app around a ``TableService``; the
``dehla serve`` command runs it on uvicorn.  Pages are served as they are on
disk (no build step); the browser reads the same Babel catalogs as JSON.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import TypeVar

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from dehla.bots import BOTS, bot_names
from dehla.errors import DehlaError
from dehla.record import replay, replay_json
from dehla.rules import OPTIONS, PRESETS, parse_rules
from dehla.web import i18n, texts
from dehla.web.analysis import WEB_NODE_LIMIT, AnalysisService
from dehla.web.botpool import DEFAULT_BOTS_PER_WORKER, BotPool, SolverPreparation
from dehla.web.cluster import DEFAULT_LEASE_SECONDS
from dehla.web.messages import TEMPLATES, WebError, register
from dehla.web.players import Identities, PlayerMiddleware, Viewer, player_of
from dehla.web.scorekeeper import score_hands
from dehla.web.security import SecurityHeadersMiddleware
from dehla.web.settings import DEFAULT_BOT_DELAY, DEFAULT_TRICK_PAUSE, default_bot
from dehla.web.storage import FinishedMatch, Storage
from dehla.web.tables import TableService
from dehla.web.transport import serve_socket
from dehla.web.visibility import Audience

__all__ = ["create_app", "STATIC_DIR"]

T = TypeVar("T")
#: How often a waiting request checks that its client is still there, in seconds.
DISCONNECT_POLL = 0.5

STATIC_DIR = Path(__file__).parent / "static"
MAX_BODY_BYTES = 16_384
#: Page paths the single-page app answers (the script reads the path).
PAGES = ("/", "/t/{table_id}", "/history", "/replay/{table_id}/{match_no:int}", "/scorekeeper")


register({
    "body_too_large": "The request is too large (at most {max} bytes).",
    "bad_json": "The request body is not valid JSON.",
    "join_body": "Send the seat to take and your name.",
    "no_language": "There is no such language.",
    "no_finished_match": "There is no such finished match.",
    "no_hand": "This match has hands 0 to {max}.",
    "bad_request": "This request cannot be used.",
    "not_found": "There is nothing here.",
})


class WebSettings:
    """Tunable timings and limits (tests make bots instant and the rate limit looser).

    ``trick_pause`` is the default pause after a finished trick for tables that do not choose one;
    ``allowed_origins`` are the origins besides our own whose pages may open table sockets.
    ``bot_workers``: worker processes the search bots think in (0: threads of the server's process);
    ``lease_seconds``: with PostgreSQL, how long a silent process keeps its tables before another takes them;
    ``node``: this process's name among those sharing the database (random if not given); ``address``: where it
    serves (``host:port pid N``, kept beside its heartbeat for operators);
    ``prepare_solver``: compile the solver's kernel into its cache aside at startup (``dehla serve`` does; the
    tests, whose process has it compiled already, do not).
    """

    def __init__(self, *, bot_delay: float = DEFAULT_BOT_DELAY, hand_pause: float = 20.0, rate: float = 10.0,
                 burst: float = 30.0, kick_after: int = 300, analysis_nodes: int = WEB_NODE_LIMIT,
                 trick_pause: float = DEFAULT_TRICK_PAUSE, allowed_origins: tuple[str, ...] = (),
                 bot_workers: int = 0, bots_per_worker: int = DEFAULT_BOTS_PER_WORKER,
                 lease_seconds: float = DEFAULT_LEASE_SECONDS, node: str | None = None,
                 prepare_solver: bool = False, address: str | None = None) -> None:
        self.node = node
        self.address = address
        self.prepare_solver = prepare_solver
        self.bot_workers = bot_workers
        self.bots_per_worker = bots_per_worker
        self.lease_seconds = lease_seconds
        self.bot_delay = bot_delay
        self.analysis_nodes = analysis_nodes
        self.hand_pause = hand_pause
        self.rate = rate
        self.burst = burst
        self.kick_after = kick_after
        self.trick_pause = trick_pause
        self.allowed_origins = allowed_origins


def _error(error: WebError) -> JSONResponse:
    """A refusal: its HTTP status comes from its kind, its body is code, params and the English text; a busy server
    says when to come back (``Retry-After``, the ``n`` seconds of its params)."""
    headers = {"Retry-After": str(error.params["n"])} if error.kind == "busy" and "n" in error.params else None
    return JSONResponse(error.to_json(), status_code=error.status, headers=headers)


def _viewer(request: Request) -> Viewer:
    """Who asks: their player (cookie) and the seat or watch link tokens the request carries."""
    tokens = tuple(value for name in ("watch", "token") if (value := request.query_params.get(name)))
    return Viewer(player_of(request.scope), tokens)


def _asker(request: Request) -> str:
    """Whom a limit counts: the player, or the address of a client without one."""
    player = player_of(request.scope)
    if player is not None:
        return "player:" + player
    return "address:" + (request.client.host if request.client else "")


async def _unless_gone(request: Request, work: Awaitable[T]) -> T | None:
    """``work``'s answer, or ``None`` (and ``work`` cancelled) if the client goes away first."""
    task = asyncio.ensure_future(work)
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=DISCONNECT_POLL)
            if done:
                return task.result()
            if await request.is_disconnected():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                return None
    except BaseException:
        task.cancel()
        raise


async def _body(request: Request) -> object:
    """The request's JSON body, not yet checked (``{}`` when empty)."""
    size = 0
    chunks = []
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise WebError("body_too_large", max=MAX_BODY_BYTES)
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks) or b"{}")
    except (ValueError, RecursionError):
        raise WebError("bad_json") from None


def audience_of(finished: FinishedMatch) -> Audience:
    return Audience(finished.listed, frozenset(finished.players), frozenset(finished.hashes))


def create_app(storage: Storage, settings: WebSettings | None = None) -> Starlette:
    """The web app over ``storage``; tables are resumed from it at startup."""
    settings = settings or WebSettings()
    pool = BotPool(settings.bot_workers, settings.bots_per_worker) if settings.bot_workers > 0 else None
    service = TableService(storage, bot_delay=settings.bot_delay, hand_pause=settings.hand_pause,
                           trick_pause=settings.trick_pause, lease_seconds=settings.lease_seconds, bot_pool=pool,
                           node=settings.node, address=settings.address)
    analyses = AnalysisService(settings.analysis_nodes)
    preparation = SolverPreparation()
    identities = Identities()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    async def meta(request: Request) -> Response:
        lang = request.query_params.get("lang", "en")
        if lang not in i18n.LANGUAGES:
            lang = "en"
        presets = []
        for name, rules in PRESETS.items():
            presets.append({"name": name, "players": rules.players, "description": rules.description,
                            "title": texts.preset_title(name, lang),
                            "summary": texts.preset_summary(name, lang) or i18n.translate(lang, rules.description),
                            "options": rules.options()})
        bots = [{"name": name, "level": BOTS[name].level, "label": BOTS[name].label,
                 "level_name": texts.level_name(BOTS[name].label, lang),
                 "description": BOTS[name].description, "summary": texts.bot_summary(name, lang)}
                for name in bot_names(for_people=True)]
        messages = {code: i18n.translate(lang, template) for code, template in sorted(TEMPLATES.items())}
        return JSONResponse({"presets": presets, "options": list(OPTIONS), "bots": bots, "default_bot": default_bot(),
                             "languages": i18n.languages(), "messages": messages,
                             "solver_preparing": preparation.preparing})

    def _language(request: Request) -> str:
        lang = str(request.path_params["lang"])
        if lang not in i18n.LANGUAGES:
            raise WebError("no_language", "not_found")
        return lang

    async def catalog(request: Request) -> Response:
        try:
            lang = _language(request)
        except WebError as error:
            return _error(error)
        return JSONResponse(i18n.catalog_json(lang))

    async def catalog_module(request: Request) -> Response:
        try:
            lang = _language(request)
        except WebError as error:
            return _error(error)
        return Response(i18n.module_js(lang), media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    def _static_file(name: str, media_type: str, headers: dict[str, str]) -> Response:
        path = STATIC_DIR / name
        if not path.is_file():
            return _error(WebError("not_found", "not_found"))
        return FileResponse(path, media_type=media_type, headers=headers)

    async def manifest(request: Request) -> Response:
        return _static_file("manifest.webmanifest", "application/manifest+json", {"Cache-Control": "no-cache"})

    async def service_worker(request: Request) -> Response:
        # the worker lives at the root so that it may serve the whole site (its scope is /)
        return _static_file("sw.js", "text/javascript", {"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"})

    async def tables(request: Request) -> Response:
        if request.method == "GET":
            return JSONResponse({"tables": await service.list_tables()})
        try:
            created = await service.create_table(await _body(request), player_of(request.scope))
        except WebError as error:
            return _error(error)
        return JSONResponse(created.to_json(), status_code=201)

    async def table_info(request: Request) -> Response:
        try:
            session = await service.visible(request.path_params["table_id"], request.query_params.get("watch"),
                                            request.query_params.get("token"), player_of(request.scope))
        except WebError as error:
            return _error(error)
        return JSONResponse(session.public_info(time.monotonic()))

    async def join(request: Request) -> Response:
        try:
            body = await _body(request)
            if not isinstance(body, dict):
                raise WebError("join_body")
            seat, token = await service.join(request.path_params["table_id"], body.get("seat"), body.get("name"),
                                             player_of(request.scope))
        except WebError as error:
            return _error(error)
        return JSONResponse({"token": token, "seat": seat})

    async def history(request: Request) -> Response:
        """The finished matches this viewer may see: those of listed tables and their own."""
        finished = await storage.list_finished(player_of(request.scope))
        return JSONResponse({"matches": [{"table": item.table_id, "match_no": item.match_no,
                                          "finished": item.finished, "listed": item.listed, **item.summary}
                                         for item in finished]})

    async def _finished_record(request: Request) -> FinishedMatch:
        """A finished match this viewer may see (``visibility``); one they may not is as missing as no match."""
        found = await storage.get_finished(request.path_params["table_id"], request.path_params["match_no"])
        if found is None or not audience_of(found).admits(_viewer(request)):
            raise WebError("no_finished_match", "not_found")
        return found

    async def record(request: Request) -> Response:
        try:
            data = (await _finished_record(request)).record
        except WebError as error:
            return _error(error)
        name = f"dehla-{request.path_params['table_id']}-{request.path_params['match_no']}.json"
        return Response(json.dumps(data, ensure_ascii=False, indent=1), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def replay_view(request: Request) -> Response:
        try:
            data = (await _finished_record(request)).record
        except WebError as error:
            return _error(error)
        return JSONResponse({"record": data, "replay": replay_json(replay(data))})

    async def analysis_view(request: Request) -> Response:
        try:
            data = (await _finished_record(request)).record
            hand = request.path_params["hand"]
            hands = data.get("hands", [])
            count = len(hands) if isinstance(hands, list) else 0
            if not 0 <= hand < count:
                raise WebError("no_hand", "not_found", max=count - 1)
            result = await _unless_gone(request, analyses.hand(
                request.path_params["table_id"], request.path_params["match_no"], data, hand, _asker(request)))
        except WebError as error:
            return _error(error)
        if result is None:  # the page went away: nobody reads the answer
            return Response(status_code=499)
        return JSONResponse(result)

    async def analysis_progress(request: Request) -> Response:
        """How far the solver is with a hand it is analysing now: ``{"done": n, "total": m, "preparing": p}`` (zeros
        when idle; ``preparing`` while the analysis waits for the solver's first compile after an install)."""
        params = request.path_params
        progress = analyses.progress(params["table_id"], params["match_no"], params["hand"])
        if progress is None:
            return JSONResponse({"done": 0, "total": 0, "preparing": False})
        # the worker says so once it waits; before it has started, the compile the server started is the answer
        preparing = progress["preparing"] or (not progress["total"] and preparation.preparing)
        return JSONResponse({**progress, "preparing": preparing})

    async def scorekeeper(request: Request) -> Response:
        try:
            return JSONResponse(score_hands(await _body(request)))
        except WebError as error:
            return _error(error)
        except DehlaError as error:
            return _error(WebError("bad_request", detail=str(error)))

    async def rules_check(request: Request) -> Response:
        try:
            rules = parse_rules(await _body(request))
        except WebError as error:
            return _error(error)
        except DehlaError as error:
            return _error(WebError("bad_rules", detail=str(error)))
        return JSONResponse({"rules": rules.to_json(), "options": rules.options()})

    async def socket(websocket: WebSocket) -> None:
        await serve_socket(websocket, service, settings.allowed_origins, settings.rate, settings.burst,
                           settings.kick_after)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if settings.prepare_solver:
            preparation.start()
        await service.start()
        identities.start(await storage.secret("player-cookies"))
        try:
            yield
        finally:
            await service.stop()
            analyses.close()

    routes: list[BaseRoute] = [Route(path, page) for path in PAGES]
    routes += [
        Route("/api/meta", meta),
        Route("/api/i18n/{lang}", catalog),
        Route("/i18n/{lang}.js", catalog_module),
        Route("/manifest.webmanifest", manifest),
        Route("/sw.js", service_worker),
        Route("/api/tables", tables, methods=["GET", "POST"]),
        Route("/api/tables/{table_id}", table_info),
        Route("/api/tables/{table_id}/join", join, methods=["POST"]),
        Route("/api/history", history),
        Route("/api/history/{table_id}/{match_no:int}/record", record),
        Route("/api/history/{table_id}/{match_no:int}/replay", replay_view),
        Route("/api/history/{table_id}/{match_no:int}/analysis/{hand:int}", analysis_view),
        Route("/api/history/{table_id}/{match_no:int}/analysis/{hand:int}/progress", analysis_progress),
        Route("/api/scorekeeper", scorekeeper, methods=["POST"]),
        Route("/api/rules", rules_check, methods=["POST"]),
        WebSocketRoute("/ws/{table_id}", socket),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(SecurityHeadersMiddleware),
                                                                  Middleware(PlayerMiddleware, identities=identities)])
    app.state.service = service
    app.state.settings = settings
    return app
