"""The catalogs: plural forms, the ES module the page imports, server-side texts, and a word for everything in
every language offered (Spanish, Hindi, Marathi, Gujarati, and any language added to ``i18n.LANGUAGES``).

The completeness test is the one that fails while any text lacks a translation in
any language: every ``t``/``tn`` text of the page's scripts (the modules under
static/js/), every refusal template the server registers, and the preset, bot and
analysis texts; it also fails when a translation loses a ``{placeholder}`` or a
plural entry lacks one of the language's forms.
"""

from __future__ import annotations

import gettext
import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.plurals import get_plural

from dehla.analysis.render import PLURAL_TEMPLATES as ANALYSIS_PLURALS
from dehla.analysis.render import TEMPLATES as ANALYSIS_TEMPLATES
from dehla.bots import BOTS, bot_names
from dehla.rules import PRESETS
from dehla.web import catalogs, i18n, texts
from dehla.web.messages import TEMPLATES

NODE = shutil.which("node")
#: Every language with a catalog to check: all offered but English, the source language.
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != "en"]


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{\w+\}", text))


def _code(script: str) -> str:
    """A script without its comments (a ``t("...")`` in a comment is no text of the page)."""
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", script, flags=re.S))


def test_english_is_its_own_catalog_with_the_english_plural_rule() -> None:
    assert i18n.catalog_json("en") == {"lang": "en", "messages": {}, "plurals": {}, "plural_expr": "(n != 1)"}
    assert i18n.translate("en", "Play now against bots") == "Play now against bots"
    assert i18n.translate_plural("en", "{n} ten", "{n} tens", 1) == "{n} ten"
    assert i18n.translate_plural("en", "{n} ten", "{n} tens", 0) == "{n} tens"


def test_a_language_not_offered_reads_as_english() -> None:
    assert i18n.catalog_json("xx") == i18n.catalog_json("en")
    assert i18n.translate("xx", "Lobby") == "Lobby" and i18n.module_js("</script>") == i18n.module_js("en")


def test_spanish_catalog_carries_plural_forms_and_babels_rule() -> None:
    data = i18n.catalog_json("es")
    assert data["plural_expr"] == "(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2)"
    assert data["plurals"]["{n} ten"] == ["{n} diez", "{n} dieces", "{n} dieces"]
    assert "{n} ten" not in data["messages"]  # counted texts live in plurals only
    assert data["messages"]["Play now against bots"] == "Jugar ya contra bots"
    assert [i18n.plural_index("es", n) for n in (0, 1, 2, 1_000_000)] == [2, 0, 2, 1]
    assert i18n.translate_plural("es", "{n} trick", "{n} tricks", 1) == "{n} baza"
    assert i18n.translate_plural("es", "{n} trick", "{n} tricks", 7) == "{n} bazas"
    assert i18n.translate("es", "a text nobody translated") == "a text nobody translated"


def test_json_is_embedded_safely_in_the_module() -> None:
    text = i18n._embed({"a": "</script><!-- & \u2028 \u2029"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == {"a": "</script><!-- & \u2028 \u2029"}


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_the_module_is_an_es_module_with_the_catalogs_and_the_plural_rule(lang: str, tmp_path: Path) -> None:
    module = tmp_path / f"{lang}.mjs"
    module.write_text(i18n.module_js(lang), encoding="utf-8")
    script = (
        "const m = await import(process.argv[1]);"
        "console.log(JSON.stringify({messages: m.messages, plurals: m.plurals,"
        " index: [0, 1, 2, 5, 1000000].map(m.pluralIndex)}));"
    )
    run = subprocess.run(
        [str(NODE), "--input-type=module", "-e", script, module.as_uri()],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    loaded = json.loads(run.stdout)
    assert loaded["messages"] == i18n.catalog(lang) and loaded["plurals"] == i18n.plurals(lang)
    assert loaded["index"] == [i18n.plural_index(lang, n) for n in (0, 1, 2, 5, 1_000_000)]
    expected = {
        "en": [1, 0, 1, 1, 1],
        "es": [2, 0, 2, 2, 1],
        "hi": [0, 0, 1, 1, 1],
        "mr": [1, 0, 1, 1, 1],
        "gu": [0, 0, 1, 1, 1],
    }
    assert loaded["index"] == expected.get(lang, loaded["index"])


def test_every_preset_has_a_title_and_a_summary_in_english_and_spanish() -> None:
    for name in PRESETS:
        title, summary = texts.preset_title(name), texts.preset_summary(name)
        assert title and summary and title != name, name
        assert texts.preset_title(name, "es") != title or title in (
            "Dehla Pakad (Pagat)",
            "Dehla Pakad (Taash)",
            "Mendikot, band hukum",
        )
        assert texts.preset_title(name, "es") == i18n.catalog("es")[title]
        assert texts.preset_summary(name, "es") == i18n.catalog("es")[summary] != summary
    assert set(texts.PRESET_TITLES) == set(PRESETS) == set(texts.PRESET_SUMMARIES)
    assert len(set(texts.PRESET_TITLES.values())) == len(PRESETS)  # no two presets look alike in a menu


def test_every_bot_level_and_bot_has_words_in_english_and_spanish() -> None:
    for name in bot_names():
        label = BOTS[name].label
        spanish = i18n.catalog("es")
        assert texts.level_name(label) != label
        assert texts.level_name(label, "es") == spanish[texts.LEVEL_NAMES[label]]
        assert texts.bot_summary(name) and texts.bot_summary(name, "es") == spanish[texts.BOT_SUMMARIES[name]]
    assert texts.level_name("unknown") == "unknown" and texts.preset_title("nope") == "nope"


def test_extraction_covers_the_page_modules_plurals_server_templates_and_preset_texts() -> None:
    template = catalogs.extract()
    files = {path for message in template for path, _ in message.locations}
    scripts = sorted(i18n.STATIC_DIR.rglob("*.js"))
    assert scripts
    root = i18n.STATIC_DIR.parent.parent.parent.parent
    marked = {
        path.relative_to(root).as_posix()
        for path in scripts
        if re.search(r"\btn?\(\"", _code(path.read_text(encoding="utf-8")))
    }
    assert marked <= files, f"texts of these scripts are not extracted: {sorted(marked - files)}"
    ids = {message.id for message in template if message.id}
    assert set(TEMPLATES.values()) <= ids and "tens_sum" in TEMPLATES  # the scorekeeper's codes are registered
    assert set(texts.ALL_TEXTS) <= ids
    assert any(isinstance(message.id, tuple) for message in template)  # tn("one", "many", n)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_text_of_the_page_and_the_server_is_translated(lang: str) -> None:
    """Fails while any text lacks a translation (run ``python -m dehla.web.catalogs``, then translate)."""
    messages, plurals = i18n.catalog(lang), i18n.plurals(lang)
    forms_wanted = get_plural(lang).num_plurals
    missing = []
    for message in catalogs.extract():
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            singular, plural = (str(text) for text in message.id)
            forms = plurals.get(singular)
            if not forms:
                missing.append(f"{singular} / {plural}")
                continue
            assert len(forms) == forms_wanted, (lang, singular)
            for form in forms:  # every form keeps the placeholders (the count itself may be spelled out only in one)
                assert _placeholders(form) >= _placeholders(plural) - {"{n}"}, (lang, singular, form)
        elif not messages.get(str(message.id)):
            missing.append(str(message.id))
    assert not missing, f"untranslated into {lang} ({len(missing)}): {missing[:10]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_catalog_carries_babels_plural_rule_for_its_language(lang: str) -> None:
    """The .po header's Plural-Forms is Babel's for the locale, and the page's rule is the same expression."""
    rule = get_plural(lang)
    path = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    assert f'"Plural-Forms: {rule.plural_forms}\\n"' in path.read_text(encoding="utf-8")
    assert i18n.plural_expr(lang) == rule.plural_expr
    assert all(len(forms) == rule.num_plurals for forms in i18n.plurals(lang).values())


def test_hindi_gujarati_and_marathi_count_with_their_own_plural_rules() -> None:
    """Hindi and Gujarati say "0 पत्ता", "0 પત્તું" like 1 (n > 1 takes the plural); Marathi takes the plural for 0."""
    assert [i18n.plural_index("hi", n) for n in (0, 1, 2, 5)] == [0, 0, 1, 1]
    assert [i18n.plural_index("gu", n) for n in (0, 1, 2, 5)] == [0, 0, 1, 1]
    assert [i18n.plural_index("mr", n) for n in (0, 1, 2, 5)] == [1, 0, 1, 1]
    assert i18n.translate_plural("gu", "{n} card", "{n} cards", 0) == "{n} પત્તું"
    assert i18n.translate_plural("gu", "{n} card", "{n} cards", 2) == "{n} પત્તાં"
    assert i18n.translate_plural("hi", "{n} card", "{n} cards", 0) == "{n} पत्ता"
    assert i18n.translate_plural("hi", "{n} card", "{n} cards", 3) == "{n} पत्ते"
    assert i18n.translate_plural("mr", "{n} card", "{n} cards", 1) == "{n} पान"
    assert i18n.translate_plural("mr", "{n} card", "{n} cards", 0) == "{n} पाने"


@pytest.mark.parametrize(
    ("preferred", "chosen"),
    [
        (["hi-IN", "en-GB"], "hi"),
        (["mr_IN"], "mr"),
        (["fr-FR", "es-MX", "hi"], "es"),
        (["MR"], "mr"),
        (["gu-IN", "hi-IN"], "gu"),
        (["de", "fr"], "en"),
        ([], "en"),
    ],
)
def test_a_first_visit_takes_the_first_offered_of_the_browsers_languages(preferred: list[str], chosen: str) -> None:
    assert i18n.negotiate(preferred) == chosen


def test_accept_language_is_read_by_quality() -> None:
    assert i18n.accepted("en;q=0.5, mr-IN, hi;q=0.9") == ["mr-IN", "hi", "en"]
    assert i18n.accepted("hi;q=0, es;q=oops, mr") == ["mr"]
    assert i18n.accepted("") == []
    assert i18n.negotiate(i18n.accepted("de-DE,de;q=0.9,hi;q=0.8,en;q=0.7")) == "hi"


def test_every_template_of_the_analysis_renderer_is_extracted_and_translated() -> None:
    """The replay translates what ``dehla.analysis.render`` says of each decision: all of it, into Spanish."""
    ids = {message.id for message in catalogs.extract() if message.id}
    messages, plurals = i18n.catalog("es"), i18n.plurals("es")
    for text in ANALYSIS_TEMPLATES:
        assert text in ids and messages.get(text), text
        assert _placeholders(messages[text]) == _placeholders(text), text
    for singular, plural in ANALYSIS_PLURALS:
        assert (singular, plural) in ids and len(plurals.get(singular, [])) == 3, singular


@pytest.fixture
def locale_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of every catalog in a directory of its own, where the catalogs tool reads and writes."""
    for lang in TRANSLATED:
        target = tmp_path / lang / "LC_MESSAGES"
        target.mkdir(parents=True)
        (target / "messages.po").write_bytes((i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").read_bytes())
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(catalogs, "LOCALE_DIR", tmp_path)
    yield tmp_path
    monkeypatch.undo()
    i18n.clear_caches()


def test_the_update_command_keeps_a_complete_catalog_complete(locale_dir: Path) -> None:
    assert catalogs.update_catalogs() == {lang: 0 for lang in TRANSLATED}
    assert i18n.catalog("es")["Lobby"] == "Vestíbulo" and i18n.plurals("es")["{n} ten"][0] == "{n} diez"
    assert i18n.catalog("hi")["Lobby"] == "लॉबी"


def test_a_new_language_is_one_entry_and_a_catalog_the_tool_writes(
    locale_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Adding Bengali (say): the tool writes its .po with Babel's plural rule and counts every entry to translate."""
    monkeypatch.setitem(i18n.LANGUAGES, "bn", "বাংলা")
    counts = catalogs.update_catalogs()
    written = (locale_dir / "bn" / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    assert f'"Plural-Forms: {get_plural("bn").plural_forms}\\n"' in written
    assert counts["bn"] == sum(1 for message in catalogs.extract() if message.id) > 400
    assert i18n.translate("bn", "Lobby") == "Lobby" and i18n.plural_expr("bn") == "(n > 1)"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_survive_translation(lang: str) -> None:
    for source, translated in i18n.catalog(lang).items():
        assert _placeholders(source) == _placeholders(translated), (lang, source)
    for singular, forms in i18n.plurals(lang).items():
        for form in forms:
            assert _placeholders(form) <= _placeholders(singular) | {"{n}"}, (lang, singular, form)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_preset_bot_and_analysis_text_is_in_the_language(lang: str) -> None:
    messages, plurals = i18n.catalog(lang), i18n.plurals(lang)
    for name in PRESETS:
        assert texts.preset_title(name, lang) == messages[texts.PRESET_TITLES[name]]
        assert (
            texts.preset_summary(name, lang) == messages[texts.PRESET_SUMMARIES[name]] != texts.PRESET_SUMMARIES[name]
        )
    for name in bot_names():
        assert texts.bot_summary(name, lang) == messages[texts.BOT_SUMMARIES[name]]
    for text in ANALYSIS_TEMPLATES:
        assert _placeholders(messages[text]) == _placeholders(text), (lang, text)
    for singular, _ in ANALYSIS_PLURALS:
        assert len(plurals[singular]) == get_plural(lang).num_plurals, (lang, singular)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_pages_json_fallback_reads_every_plural_rule_as_babel_does(tmp_path: Path) -> None:
    """``pluralRule`` (no eval under the CSP) agrees with gettext's own reading of Babel's rules, here and beyond."""
    locales = [*i18n.LANGUAGES, "bn", "ru", "ar", "pl", "cs", "lt", "ro", "sl", "ga", "lv", "be"]
    rules = {locale: str(get_plural(locale).plural_expr) for locale in locales}
    numbers = [*range(0, 230), 1_000_000, 1_000_001]
    script = (
        "const {pluralRule} = await import(process.argv[1]);"
        "const rules = JSON.parse(process.argv[2]); const numbers = JSON.parse(process.argv[3]); const out = {};"
        "for (const [locale, expr] of Object.entries(rules)) out[locale] = numbers.map(pluralRule(expr));"
        "console.log(JSON.stringify(out));"
    )
    run = subprocess.run(
        [
            str(NODE),
            "--input-type=module",
            "-e",
            script,
            (i18n.STATIC_DIR / "js" / "i18n.js").as_uri(),
            json.dumps(rules),
            json.dumps(numbers),
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    read = json.loads(run.stdout)
    for locale, expr in rules.items():
        rule = gettext.c2py(expr)
        assert read[locale] == [int(rule(n)) for n in numbers], (locale, expr)
