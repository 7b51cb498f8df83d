"""The page and what it loads: the one HTML file, the manifest, the service worker, the catalogs and ``/api/meta``."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from dehla.bots import BOTS, bot_names
from dehla.rules import OPTIONS, PRESETS
from dehla.web import i18n, texts
from dehla.web.endpoints.common import error, shared
from dehla.web.messages import TEMPLATES, WebError
from dehla.web.settings import default_bot

__all__ = ["STATIC_DIR", "PAGES", "page", "meta", "catalog", "catalog_module", "manifest", "service_worker"]

STATIC_DIR = Path(__file__).parent.parent / "static"
#: Page paths the single-page app answers (the script reads the path).
PAGES = (
    "/",
    "/t/{table_id}",
    "/history",
    "/replay/{table_id}/{match_no:int}",
    "/scorekeeper",
    "/daily",
    "/daily/{day}",
    "/daily/{day}/replay/{table_id}",
)


async def page(request: Request) -> Response:
    return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})


async def meta(request: Request) -> Response:
    """Presets, bots, languages and refusal templates in the asked language; whether the solver is being prepared.

    ``?lang=auto`` (a browser with no language chosen yet) picks the first offered of ``prefer`` (the page's
    ``navigator.languages``) and the ``Accept-Language`` header; ``lang`` in the answer says which.
    """
    lang = request.query_params.get("lang", "en")
    if lang == "auto":  # a first visit: the browser's languages (the page's list, then Accept-Language)
        preferred = request.query_params.get("prefer", "").split(",")[:32]
        lang = i18n.negotiate([*preferred, *i18n.accepted(request.headers.get("accept-language", ""))])
    if lang not in i18n.LANGUAGES:
        lang = "en"
    presets = []
    for name, rules in PRESETS.items():
        presets.append(
            {
                "name": name,
                "players": rules.players,
                "description": rules.description,
                "title": texts.preset_title(name, lang),
                "summary": texts.preset_summary(name, lang) or i18n.translate(lang, rules.description),
                "options": rules.options(),
            }
        )
    bots = [
        {
            "name": name,
            "level": BOTS[name].level,
            "label": BOTS[name].label,
            "level_name": texts.level_name(BOTS[name].label, lang),
            "description": BOTS[name].description,
            "summary": texts.bot_summary(name, lang),
        }
        for name in bot_names(for_people=True)
    ]
    messages = {code: i18n.translate(lang, template) for code, template in sorted(TEMPLATES.items())}
    return JSONResponse(
        {
            "presets": presets,
            "options": list(OPTIONS),
            "bots": bots,
            "default_bot": default_bot(),
            "lang": lang,
            "languages": i18n.languages(),
            "messages": messages,
            "solver_preparing": shared(request).preparation.preparing,
        }
    )


def _language(request: Request) -> str:
    lang = str(request.path_params["lang"])
    if lang not in i18n.LANGUAGES:
        raise WebError("no_language", "not_found")
    return lang


async def catalog(request: Request) -> Response:
    try:
        lang = _language(request)
    except WebError as refusal:
        return error(refusal)
    return JSONResponse(i18n.catalog_json(lang))


async def catalog_module(request: Request) -> Response:
    try:
        lang = _language(request)
    except WebError as refusal:
        return error(refusal)
    return Response(i18n.module_js(lang), media_type="text/javascript", headers={"Cache-Control": "no-cache"})


def _static_file(name: str, media_type: str, headers: dict[str, str]) -> Response:
    path = STATIC_DIR / name
    if not path.is_file():
        return error(WebError("not_found", "not_found"))
    return FileResponse(path, media_type=media_type, headers=headers)


async def manifest(request: Request) -> Response:
    return _static_file("manifest.webmanifest", "application/manifest+json", {"Cache-Control": "no-cache"})


async def service_worker(request: Request) -> Response:
    # the worker lives at the root so that it may serve the whole site (its scope is /)
    return _static_file("sw.js", "text/javascript", {"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"})
