"""The maintainers' catalog tool: extract every text to translate and bring the ``.po`` files up to date.

``python -m dehla.web.catalogs`` finds the page's ``t``/``tn`` calls (as
``pybabel extract -k t -k tn:1,2`` does), adds the server's refusal templates,
the preset texts and the analysis's templates (``dehla.analysis.render``), which are
data rather than calls an extractor could find, and
updates each language's catalog (writing a new one, with Babel's plural rule for
the language, for a language of ``i18n.LANGUAGES`` that has none yet); then
translate the entries it counts.
It imports the whole web app (every module registers its refusal codes when
imported), so it sits above the app, never below it.
"""

from __future__ import annotations

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

import dehla.web.app
import dehla.web.scorekeeper  # noqa: F401 - registers the scorekeeper's
from dehla.analysis.render import PLURAL_TEMPLATES as ANALYSIS_PLURALS
from dehla.analysis.render import TEMPLATES as ANALYSIS_TEMPLATES
from dehla.web.i18n import LANGUAGES, LOCALE_DIR, PAGE_KEYWORDS, STATIC_DIR, clear_caches
from dehla.web.messages import TEMPLATES
from dehla.web.texts import ALL_TEXTS

__all__ = ["extract", "update_catalogs"]


def extract() -> Catalog:
    """Every text to translate: the page's ``t``/``tn`` calls, the server's refusal templates, the preset texts, and
    the analysis's templates.

    The same catalog template ``pybabel extract -k t -k tn:1,2`` makes for the page,
    plus the server's own texts, which are data rather than calls it could find.
    """
    template = Catalog(project="dehla", fuzzy=False)
    root = STATIC_DIR.parent.parent.parent.parent
    for filename, lineno, message, comments, context in extract_from_dir(
        str(STATIC_DIR), method_map=[("**.js", "javascript")], keywords=PAGE_KEYWORDS
    ):
        path = (STATIC_DIR / filename).relative_to(root).as_posix()
        template.add(message, None, [(path, lineno)], auto_comments=comments, context=context)
    for code, text in sorted(TEMPLATES.items()):
        template.add(text, None, [("src/dehla/web/messages.py", 0)], auto_comments=[f"server refusal {code}"])
    for text in ALL_TEXTS:
        template.add(text, None, [("src/dehla/web/texts.py", 0)])
    for text in ANALYSIS_TEMPLATES:  # what the analysis says of each decision: the replay translates it
        template.add(text, None, [("src/dehla/analysis/render.py", 0)])
    for forms in ANALYSIS_PLURALS:
        template.add(forms, None, [("src/dehla/analysis/render.py", 0)])
    return template


def update_catalogs() -> dict[str, int]:
    """Bring every language's ``.po`` up to date with ``extract()``; returns how many entries each lacks."""
    template = extract()
    missing: dict[str, int] = {}
    for lang in LANGUAGES:
        if lang == "en":  # the source language: its texts are their own translations
            continue
        path = LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
        if path.exists():
            with path.open("rb") as handle:
                messages = read_po(handle, locale=lang)
        else:  # a new language: Babel's Catalog writes the language's own Plural-Forms header
            path.parent.mkdir(parents=True, exist_ok=True)
            messages = Catalog(locale=lang, project="dehla", fuzzy=False)
        messages.update(template, no_fuzzy_matching=True)
        with path.open("wb") as handle:
            write_po(handle, messages, width=120, ignore_obsolete=False, include_lineno=False)
        missing[lang] = sum(
            1
            for message in messages
            if message.id and not all(message.string if isinstance(message.string, tuple | list) else [message.string])
        )
    clear_caches()
    return missing


if __name__ == "__main__":  # pragma: no cover - the maintainers' command, see docs/web.md
    for code, count in update_catalogs().items():
        print(f"{code}: {count} entries to translate")
