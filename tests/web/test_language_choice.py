"""The language a player meets: the browser's on a first visit, the stored choice after, and every plural form.

A first visit (nothing chosen) takes the first offered of the browser's languages
(``navigator.languages``, then ``Accept-Language``); a choice in the switch is kept and
wins over the browser from then on; the page's ``tn`` words every counted text with
a count of each plural form of each language (Babel's rule) as the server does.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from tests.web import page_walk  # noqa: E402
from tests.web.english import ALLOWED, LATIN, LITERALS, english_in, translated_words  # noqa: E402
from tests.web.helpers import LiveServer  # noqa: E402

from dehla.web import catalogs, i18n  # noqa: E402

pytestmark = pytest.mark.skipif(not Path(page_walk.CHROMIUM).exists(), reason="Debian's chromium is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = str(tmp_path_factory.mktemp("language-choice") / "choice.sqlite3")
    with LiveServer(db, bot_delay=0.02, hand_pause=60, trick_pause=0.1) as live:
        yield live


def test_catalogs_in_indian_scripts_keep_only_the_literals_in_latin_letters() -> None:
    """Hindi, Marathi and Gujarati translations hold no English word but the sources' names and the API's literals."""
    for lang in (lang for lang, latin in LATIN.items() if not latin):
        assert {word for word in translated_words(lang) if len(word) > 1} - LITERALS - ALLOWED == set(), lang


def _one_number_per_form(lang: str) -> list[int]:
    """A count for each plural form of ``lang`` (Babel's rule): the smallest that takes it."""
    found: dict[int, int] = {}
    for n in range(0, 1_000_001):
        found.setdefault(i18n.plural_index(lang, n), n)
        if len(found) == len(next(iter(i18n.plurals(lang).values()))):
            break
    return sorted(found.values())


@pytest.mark.parametrize("lang", list(LATIN))
def test_the_page_counts_with_every_plural_form_of_the_language(browser: Any, server: LiveServer, lang: str) -> None:
    """Each counted text, worded by the page's ``tn`` for a count of each form, reads as Babel's rule picks."""
    numbers = _one_number_per_form(lang)
    entries = [message.id for message in catalogs.extract() if isinstance(message.id, tuple | list)]
    assert len(numbers) == len(next(iter(i18n.plurals(lang).values()))) >= 2
    page = page_walk.new_page(browser, lang=lang)
    try:
        page_walk.lobby(page, server, lang)
        worded: list[list[str]] = page.evaluate(
            """async ([entries, numbers]) => {
          const {tn} = await import("/static/js/i18n.js");
          return entries.map(([one, many]) => numbers.map((n) => tn(one, many, n)));
        }""",
            [[list(entry) for entry in entries], numbers],
        )
    finally:
        page.context.close()
    for (singular, plural), forms in zip(entries, worded, strict=True):
        expected = [i18n.translate_plural(lang, singular, plural, n).replace("{n}", str(n)) for n in numbers]
        assert forms == expected, (lang, singular)
        assert not english_in(forms, lang), (lang, forms)


@pytest.mark.parametrize(
    ("browser_lang", "shown"), [("hi", "hi"), ("mr", "mr"), ("gu", "gu"), ("es", "es"), ("en", "en")]
)
def test_a_first_visit_speaks_the_browsers_language(
    browser: Any, server: LiveServer, browser_lang: str, shown: str
) -> None:
    """No language chosen yet: the page takes the browser's; the lobby's menu reads in it."""
    page = page_walk.new_page(browser, lang=browser_lang)
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#quick-play")
        assert page.evaluate("document.documentElement.lang") == shown
        assert page.input_value("#lang") == shown
        assert page.text_content("#nav-lobby") == i18n.translate(shown, "Lobby")
        assert page.evaluate("localStorage.getItem('dehla.lang')") is None  # nothing chosen: nothing remembered
    finally:
        page.context.close()


def test_a_browser_in_a_language_not_offered_takes_its_next_language(browser: Any, server: LiveServer) -> None:
    context = browser.new_context(locale="de-DE", extra_http_headers={"Accept-Language": "de-DE,mr;q=0.8"})
    page = context.new_page()
    try:
        page.add_init_script("Object.defineProperty(navigator, 'languages', {get: () => ['de-DE', 'mr-IN', 'hi']})")
        page.goto(server.url + "/")
        page.wait_for_selector("#quick-play")
        assert page.evaluate("document.documentElement.lang") == "mr"
    finally:
        context.close()


def test_a_stored_choice_wins_over_the_browsers_language(browser: Any, server: LiveServer) -> None:
    """A Hindi browser whose player picked Marathi: the next visit is in Marathi, the page's lang attribute too."""
    page = page_walk.new_page(browser, lang="hi")
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#quick-play")
        assert page.evaluate("document.documentElement.lang") == "hi"
        page.select_option("#lang", "mr")
        page.wait_for_function(
            "(want) => document.getElementById('nav-lobby').textContent === want", arg=i18n.translate("mr", "Lobby")
        )
        page.goto(server.url + "/history")
        page.wait_for_function(
            "(want) => document.getElementById('nav-history').textContent === want",
            arg=i18n.translate("mr", "History"),
        )
        assert page.evaluate("document.documentElement.lang") == "mr"
    finally:
        page.context.close()


def test_the_meta_data_picks_from_accept_language_on_a_first_visit(server: LiveServer) -> None:
    request = urllib.request.Request(
        server.url + "/api/meta?lang=auto", headers={"Accept-Language": "fr-FR, hi-IN;q=0.9, en;q=0.5"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        meta = json.load(response)
    assert meta["lang"] == "hi" and meta["presets"][0]["title"] == i18n.translate("hi", "Dehla Pakad (Pagat)")
    assert server.get("/api/meta?lang=auto&prefer=xx,mr-IN")["lang"] == "mr"
    assert server.get("/api/meta?lang=auto&prefer=xx")["lang"] == "en"
    assert [language["code"] for language in server.get("/api/meta")["languages"]] == list(i18n.LANGUAGES)


# The refusals, triggered for real ---------------------------------------------------------------
