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
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from dehla.bots import BOTS, bot_names
from dehla.errors import DehlaError
from dehla.record import replay, replay_json
from dehla.rules import OPTIONS, PRESETS, parse_rules
from dehla.web import i18n
from dehla.web.analysis import WEB_NODE_LIMIT, AnalysisService
from dehla.web.protocol import ProtocolError, RateLimiter, parse_message
from dehla.web.scorekeeper import score_hands
from dehla.web.storage import Storage
from dehla.web.tables import Client, TableService, default_bot

__all__ = ["create_app", "STATIC_DIR"]

STATIC_DIR = Path(__file__).parent / "static"
MAX_BODY_BYTES = 16_384
#: Page paths the single-page app answers (the script reads the path).
PAGES = ("/", "/t/{table_id}", "/history", "/replay/{table_id}/{match_no:int}", "/scorekeeper")


class WebSettings:
    """Tunable timings and limits (tests make bots instant and the rate limit looser)."""

    def __init__(self, *, bot_delay: float = 0.7, hand_pause: float = 20.0, rate: float = 10.0,
                 burst: float = 30.0, kick_after: int = 300, analysis_nodes: int = WEB_NODE_LIMIT) -> None:
        self.bot_delay = bot_delay
        self.analysis_nodes = analysis_nodes
        self.hand_pause = hand_pause
        self.rate = rate
        self.burst = burst
        self.kick_after = kick_after


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> Any:
    size = 0
    chunks = []
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise DehlaError(f"request body too large (at most {MAX_BODY_BYTES} bytes)")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks) or b"{}")
    except (ValueError, RecursionError):
        raise DehlaError("the request body is not valid JSON") from None


def create_app(storage: Storage, settings: WebSettings | None = None) -> Starlette:
    """The web app over ``storage``; tables are resumed from it at startup."""
    settings = settings or WebSettings()
    service = TableService(storage, bot_delay=settings.bot_delay, hand_pause=settings.hand_pause)
    analyses = AnalysisService(settings.analysis_nodes)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    async def meta(request: Request) -> Response:
        presets = []
        for name, rules in PRESETS.items():
            presets.append({"name": name, "players": rules.players, "description": rules.description,
                            "options": rules.options()})
        bots = [{"name": name, "level": BOTS[name].level, "label": BOTS[name].label,
                 "description": BOTS[name].description} for name in bot_names(for_people=True)]
        return JSONResponse({"presets": presets, "options": list(OPTIONS), "bots": bots, "default_bot": default_bot(),
                             "languages": i18n.languages()})

    async def catalog(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in i18n.LANGUAGES:
            return _error(f"no language {lang[:8]!r}; languages are {', '.join(i18n.LANGUAGES)}", 404)
        return JSONResponse({"lang": lang, "messages": i18n.catalog(lang)})

    async def tables(request: Request) -> Response:
        if request.method == "GET":
            return JSONResponse({"tables": service.list_tables()})
        try:
            spec = await _body(request)
            table, seat, tokens = await service.create_table(spec)
        except DehlaError as error:
            return _error(str(error))
        invites = [{"seat": number, "token": token} for number, token in tokens.items() if number != seat]
        return JSONResponse({"id": table.table_id, "seat": seat, "token": tokens.get(seat) if seat is not None
                             else None, "invites": invites}, status_code=201)

    async def table_info(request: Request) -> Response:
        try:
            table = service.get(request.path_params["table_id"])
        except DehlaError as error:
            return _error(str(error), 404)
        return JSONResponse(table.public_info(time.monotonic()))

    async def join(request: Request) -> Response:
        try:
            body = await _body(request)
            if not isinstance(body, dict):
                raise DehlaError("send {\"seat\": N, \"name\": \"...\"}")
            token = await service.join(request.path_params["table_id"], body.get("seat"), body.get("name"))
        except DehlaError as error:
            status = 404 if str(error) == "no such table" else 409
            return _error(str(error), status)
        return JSONResponse({"token": token, "seat": body["seat"]})

    async def history(request: Request) -> Response:
        finished = await storage.list_finished()
        return JSONResponse({"matches": [{"table": item.table_id, "match_no": item.match_no,
                                          "finished": item.finished, **item.summary} for item in finished]})

    async def _finished_record(request: Request) -> dict[str, Any] | None:
        found = await storage.get_finished(request.path_params["table_id"], request.path_params["match_no"])
        return None if found is None else found.record

    async def record(request: Request) -> Response:
        data = await _finished_record(request)
        if data is None:
            return _error("no such finished match", 404)
        name = f"dehla-{request.path_params['table_id']}-{request.path_params['match_no']}.json"
        return Response(json.dumps(data, ensure_ascii=False, indent=1), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def replay_view(request: Request) -> Response:
        data = await _finished_record(request)
        if data is None:
            return _error("no such finished match", 404)
        try:
            replayed = replay_json(replay(data))
        except DehlaError as error:  # pragma: no cover - the server wrote this record
            return _error(str(error), 500)
        return JSONResponse({"record": data, "replay": replayed})

    async def analysis_view(request: Request) -> Response:
        data = await _finished_record(request)
        if data is None:
            return _error("no such finished match", 404)
        hand = request.path_params["hand"]
        count = len(data.get("hands", []))
        if not 0 <= hand < count:
            return _error(f"this match has hands 0..{count - 1}, not {hand}", 404)
        result = await analyses.hand(request.path_params["table_id"], request.path_params["match_no"], data, hand)
        return JSONResponse(result)

    async def scorekeeper(request: Request) -> Response:
        try:
            return JSONResponse(score_hands(await _body(request)))
        except DehlaError as error:
            return _error(str(error))

    async def rules_check(request: Request) -> Response:
        try:
            rules = parse_rules(await _body(request))
        except DehlaError as error:
            return _error(str(error))
        return JSONResponse({"rules": rules.to_json(), "options": rules.options()})

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            table = service.get(websocket.path_params["table_id"])
        except DehlaError:
            await websocket.send_text(json.dumps({"type": "error", "code": "no_table", "message": "no such table"}))
            await websocket.close(code=4404)
            return
        client = Client(websocket.send_text)
        writer = asyncio.create_task(_write(client))
        await service.connect(table, client)
        limiter = RateLimiter(settings.rate, settings.burst)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not limiter.allow():
                    if limiter.refused > settings.kick_after:
                        await websocket.close(code=1008)
                        break
                    _refuse(client, ProtocolError("rate", "too many messages; slow down"))
                    continue
                text = message.get("text")
                if text is None:
                    _refuse(client, ProtocolError("bad_message", "messages must be JSON text, not binary"))
                    continue
                try:
                    kind, fields = parse_message(text)
                    await service.handle(table, client, kind, fields)
                except ProtocolError as error:
                    _refuse(client, error)
        except WebSocketDisconnect:
            pass
        finally:
            await service.disconnect(table, client)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.stop()

    routes: list[Any] = [Route(path, page) for path in PAGES]
    routes += [
        Route("/api/meta", meta),
        Route("/api/i18n/{lang}", catalog),
        Route("/api/tables", tables, methods=["GET", "POST"]),
        Route("/api/tables/{table_id}", table_info),
        Route("/api/tables/{table_id}/join", join, methods=["POST"]),
        Route("/api/history", history),
        Route("/api/history/{table_id}/{match_no:int}/record", record),
        Route("/api/history/{table_id}/{match_no:int}/replay", replay_view),
        Route("/api/history/{table_id}/{match_no:int}/analysis/{hand:int}", analysis_view),
        Route("/api/scorekeeper", scorekeeper, methods=["POST"]),
        Route("/api/rules", rules_check, methods=["POST"]),
        WebSocketRoute("/ws/{table_id}", socket),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.service = service
    app.state.settings = settings
    return app


def _refuse(client: Client, error: ProtocolError) -> None:
    client.push(json.dumps({"type": "error", "code": error.code, "message": error.message}))


async def _write(client: Client) -> None:
    try:
        await client.run_writer()
    except Exception:
        client.closed = True

