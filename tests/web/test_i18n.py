"""The catalogs: plural forms, the ES module the page imports, server-side texts, and a Spanish word for everything.

The completeness test is the one that fails while any text lacks a Spanish
translation: every ``t``/``tn`` text of the page's scripts (static/app.js and the
modules under static/js/), every refusal template the server registers, and the
preset and bot texts; it also fails when a translation loses a ``{placeholder}``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from dehla.analysis.render import PLURAL_TEMPLATES as ANALYSIS_PLURALS
from dehla.analysis.render import TEMPLATES as ANALYSIS_TEMPLATES
from dehla.bots import BOTS, bot_names
from dehla.rules import PRESETS
from dehla.web import catalogs, i18n, texts
from dehla.web.messages import TEMPLATES

NODE = shutil.which("node")


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
@pytest.mark.parametrize("lang", ["en", "es"])
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
    assert loaded["index"] == ([1, 0, 1, 1, 1] if lang == "en" else [2, 0, 2, 2, 1])


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


def test_spanish_catalog_translates_every_text_of_the_page_and_the_server() -> None:
    """Fails while any text lacks a Spanish translation (run ``python -m dehla.web.catalogs``, then translate)."""
    messages, plurals = i18n.catalog("es"), i18n.plurals("es")
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
            assert len(forms) == 3, singular
            for form in forms:  # every form keeps the placeholders (the count itself may be spelled out only in one)
                assert _placeholders(form) >= _placeholders(plural) - {"{n}"}, (singular, form)
        elif not messages.get(str(message.id)):
            missing.append(str(message.id))
    assert not missing, f"untranslated ({len(missing)}): {missing[:10]}"


def test_every_template_of_the_analysis_renderer_is_extracted_and_translated() -> None:
    """The replay translates what ``dehla.analysis.render`` says of each decision: all of it, into Spanish."""
    ids = {message.id for message in catalogs.extract() if message.id}
    messages, plurals = i18n.catalog("es"), i18n.plurals("es")
    for text in ANALYSIS_TEMPLATES:
        assert text in ids and messages.get(text), text
        assert _placeholders(messages[text]) == _placeholders(text), text
    for singular, plural in ANALYSIS_PLURALS:
        assert (singular, plural) in ids and len(plurals.get(singular, [])) == 3, singular


def test_the_update_command_keeps_a_complete_catalog_complete(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "es" / "LC_MESSAGES"
    target.mkdir(parents=True)
    source = i18n.LOCALE_DIR / "es" / "LC_MESSAGES" / "messages.po"
    (target / "messages.po").write_bytes(source.read_bytes())
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    assert catalogs.update_catalogs() == {"es": 0}
    assert i18n.catalog("es")["Lobby"] == "Vestíbulo" and i18n.plurals("es")["{n} ten"][0] == "{n} diez"


def test_placeholders_survive_translation() -> None:
    for source, translated in i18n.catalog("es").items():
        assert _placeholders(source) == _placeholders(translated), source
    for singular, forms in i18n.plurals("es").items():
        for form in forms:
            assert _placeholders(form) <= _placeholders(singular) | {"{n}"}, (singular, form)
