"""Translations: Babel catalogs (``locale/<lang>/LC_MESSAGES/messages.po``) read at run time.

The page's script marks every text with ``t("...")``; ``pybabel extract`` finds
them (see docs/web.md), the ``.po`` files hold the translations, and the
browser fetches a language's catalog as JSON from ``/api/i18n/<lang>``.  English
is the source language, so its catalog is empty: a text is its own translation.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

__all__ = ["LANGUAGES", "LOCALE_DIR", "catalog", "languages"]

LOCALE_DIR = Path(__file__).parent / "locale"
#: Language code -> its own name, for the switch.
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español"}


@cache
def catalog(lang: str) -> dict[str, str]:
    """Every translated message of ``lang`` (msgid -> msgstr); empty for English."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        messages = read_po(handle, locale=lang)
    return {str(message.id): str(message.string) for message in messages
            if message.id and isinstance(message.id, str) and message.string and not message.fuzzy}


def languages() -> list[dict[str, str]]:
    return [{"code": code, "name": name} for code, name in LANGUAGES.items()]
