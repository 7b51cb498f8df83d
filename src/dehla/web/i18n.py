"""Translations: Babel catalogs (``locale/<lang>/LC_MESSAGES/messages.po``) read at run time.

The page's scripts mark every text with ``t("...")`` and every counted text with
``tn("one", "many", n)``; ``pybabel extract`` finds them (see docs/web.md), the
``.po`` files hold the translations, and the browser fetches a language's
catalog as JSON (``catalog_json``) or as an ES module (``module_js``).  English
is the source language, so its catalogs are empty: a text is its own
translation, and the plural rule is Babel's English one.  The server words its
own texts (preset titles, refusals) with ``translate``.  A browser with no language
chosen yet gets the first offered of its own languages (``negotiate``, ``accepted``).
"""

from __future__ import annotations

import gettext
import json
import re
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import TypedDict

from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

__all__ = [
    "LANGUAGES",
    "LOCALE_DIR",
    "catalog",
    "accepted",
    "catalog_json",
    "languages",
    "module_js",
    "negotiate",
    "plural_expr",
    "plural_index",
    "plurals",
    "translate",
    "translate_plural",
]

LOCALE_DIR = Path(__file__).parent / "locale"
STATIC_DIR = Path(__file__).parent / "static"
#: The page's translation functions, as ``pybabel extract -k t -k tn:1,2`` reads them.
PAGE_KEYWORDS: dict[str, tuple[int, ...] | None] = {"t": None, "tn": (1, 2)}
#: Language code -> its own name, for the switch.  Adding a language is one entry here and one catalog,
#: ``locale/<code>/LC_MESSAGES/messages.po``: ``python -m dehla.web.catalogs`` writes it with Babel's plural
#: rule for the language (docs/web.md); translate its entries and the tests check every one.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "es": "Español",
    "hi": "हिन्दी",
    "mr": "मराठी",
    "gu": "ગુજરાતી",
}
#: What a gettext plural expression may contain: ``n``, numbers, C operators and brackets (nothing to run).
_SAFE_EXPR = re.compile(r"[n0-9\s()?:%!=<>&|+\-*/]+")


@cache
def _read(lang: str) -> Catalog | None:
    """The parsed ``.po`` of ``lang``, or ``None`` (English and unknown languages have none)."""
    if lang not in LANGUAGES:
        return None
    path = LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    if not path.exists():
        return None
    with path.open("rb") as handle:
        return read_po(handle, locale=lang)


def _known(lang: str) -> str:
    """``lang`` if it is offered, else English: caches stay bounded whatever a request asks for."""
    return lang if lang in LANGUAGES else "en"


def catalog(lang: str) -> dict[str, str]:
    """Every translated ordinary message of ``lang`` (msgid -> msgstr); empty for English."""
    return _catalog(_known(lang))


@cache
def _catalog(lang: str) -> dict[str, str]:
    messages = _read(lang)
    if messages is None:
        return {}
    return {
        str(message.id): str(message.string)
        for message in messages
        if message.id
        and isinstance(message.id, str)
        and isinstance(message.string, str)
        and message.string
        and not message.fuzzy
    }


def plurals(lang: str) -> dict[str, list[str]]:
    """Every fully translated plural message of ``lang``: singular msgid -> one form per plural category."""
    return _plurals(_known(lang))


@cache
def _plurals(lang: str) -> dict[str, list[str]]:
    messages = _read(lang)
    if messages is None:
        return {}
    found: dict[str, list[str]] = {}
    for message in messages:
        if not isinstance(message.id, tuple | list) or message.fuzzy:
            continue
        forms = [str(form) for form in message.string] if isinstance(message.string, tuple | list) else []
        if len(forms) == messages.num_plurals and all(forms):
            found[str(message.id[0])] = forms
    return found


def plural_expr(lang: str) -> str:
    """Babel's gettext plural expression for ``lang`` (``"(n != 1)"`` for English); it is valid JavaScript too."""
    return _plural_expr(_known(lang))


@cache
def _plural_expr(lang: str) -> str:
    messages = _read(lang)
    # a catalog's own Plural-Forms header wins; English (no catalog) takes Babel's rule for the language
    expr = str(messages.plural_expr) if messages is not None else str(get_plural(lang).plural_expr)
    if not _SAFE_EXPR.fullmatch(expr):  # pragma: no cover - Babel's rules are plain arithmetic
        raise ValueError(f"unexpected plural expression for {lang!r}: {expr!r}")
    return expr


def plural_index(lang: str, n: int) -> int:
    """Which plural form ``n`` takes in ``lang`` (Babel's rule, evaluated without ``eval``)."""
    return int(_plural_function(_known(lang))(n))


@cache
def _plural_function(lang: str) -> Callable[[int], int]:
    """The plural rule as a Python function, compiled once by the standard library's gettext parser."""
    return gettext.c2py(plural_expr(lang))


def translate(lang: str, text: str) -> str:
    """``text`` in ``lang``, or ``text`` itself where the catalog has no translation (always for English)."""
    return catalog(lang).get(text, text)


def translate_plural(lang: str, singular: str, plural: str, n: int) -> str:
    """The form of a counted text for ``n`` in ``lang``; English rules where the catalog has no entry."""
    forms = plurals(lang).get(singular)
    if forms is None:
        return singular if n == 1 else plural
    return forms[min(plural_index(lang, n), len(forms) - 1)]


class CatalogJSON(TypedDict):
    """A language's catalog for the page: its messages, its plural forms, and its plural rule (a C expression)."""

    lang: str
    messages: dict[str, str]
    plurals: dict[str, list[str]]
    plural_expr: str


def catalog_json(lang: str) -> CatalogJSON:
    """What ``GET /api/i18n/<lang>`` returns: the messages, the plural forms and the plural rule."""
    lang = _known(lang)
    return {"lang": lang, "messages": catalog(lang), "plurals": plurals(lang), "plural_expr": plural_expr(lang)}


def _embed(value: object) -> str:
    """JSON that is safe anywhere in a script: no ``</script>``, ``<!--`` or line separators left raw."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    for raw, escaped in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(raw, escaped)
    return text


def module_js(lang: str) -> str:
    """``/i18n/<lang>.js``: the catalogs as an ES module the page imports, with the plural rule as a function."""
    return _module_js(_known(lang))


@cache
def _module_js(lang: str) -> str:
    return (
        f"// The {lang} catalog of dehla, made by dehla.web.i18n.module_js from the Babel catalog.\n"
        f"export const lang = {_embed(lang)};\n"
        f"export const messages = {_embed(catalog(lang))};\n"
        f"export const plurals = {_embed(plurals(lang))};\n"
        f"export function pluralIndex(n) {{ return Number({plural_expr(lang)}); }}\n"
    )


def negotiate(preferred: Iterable[str]) -> str:
    """The first language offered among a browser's preferred ones (``hi-IN`` reads as ``hi``), else English."""
    for tag in preferred:
        code = tag.strip().replace("_", "-").split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


def accepted(header: str) -> list[str]:
    """The language tags of an ``Accept-Language`` header, most wanted first (quality 0 means not wanted)."""
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            weighted.append((-quality, index, tag.strip()))
    return [tag for _, _, tag in sorted(weighted)]


def languages() -> list[dict[str, str]]:
    """The languages the switch offers, each with its own name."""
    return [{"code": code, "name": name} for code, name in LANGUAGES.items()]


def clear_caches() -> None:
    """Forget the catalogs read so far (after the ``.po`` files were rewritten)."""
    for function in (_read, _catalog, _plurals, _plural_expr, _plural_function, _module_js):
        function.cache_clear()
