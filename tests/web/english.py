"""What is English on a page in another language: the words, the allowed ones, and the texts a person sees.

In a language written in Latin letters (Spanish) a word is English when it occurs in
the English texts of the catalogs (the page's texts, the server's refusal templates,
the preset and bot texts) but in none of that language's translations, or is one of a
few common English words.  In a language of another script (Hindi and Marathi in
Devanagari, Gujarati in its own script) every word in Latin letters is English but the few the catalogs keep on
purpose (``LITERALS``).  Allowed everywhere: card symbols, names people typed, and the
game's own words in Latin letters (dehla, kot, hukum, haath).
"""

from __future__ import annotations

import re
from typing import Any

from dehla.web import catalogs, i18n

#: Names the tests type, and words both languages write alike.
ALLOWED = {
    "asha",
    "bela",
    "chand",
    "dev",
    "dehla",
    "pakad",
    "kot",
    "kots",
    "hukum",
    "haath",
    "band",
    "taash",
    "pagat",
    "mendikot",
    "bot",
    "bots",
    "ok",
    "json",
    "id",
    "english",
}
#: Common English words that may come from a text the catalogs have never seen (a server sentence, say).
COMMON_ENGLISH = {
    "the",
    "and",
    "of",
    "to",
    "you",
    "your",
    "is",
    "are",
    "with",
    "for",
    "not",
    "this",
    "that",
    "it",
    "on",
    "in",
    "must",
    "be",
    "can",
    "cannot",
    "there",
    "seat",
    "team",
    "hand",
    "hands",
    "trick",
    "tricks",
    "ten",
    "tens",
    "card",
    "cards",
    "player",
    "players",
    "play",
    "won",
    "wins",
    "win",
    "lost",
    "trump",
    "turn",
    "waiting",
    "table",
    "match",
    "score",
    "points",
    "dealer",
    "us",
    "them",
    "spades",
    "hearts",
    "diamonds",
    "clubs",
    "after",
    "before",
    "more",
    "no",
    "yes",
    "nobody",
    "main",
    "menu",
    "navigation",
    "close",
    "open",
    "next",
    "back",
    "skip",
    "content",
    "loading",
    "settings",
    "language",
    "sound",
    "link",
    "copy",
    "send",
    "share",
    "install",
    "new",
    "previous",
    "show",
    "hide",
}
_WORDS = re.compile(r"[A-Za-zÀ-ÿ]+")
#: Every language offered but English, and whether it is written in Latin letters (as its own name is).
LATIN = {lang: bool(_WORDS.fullmatch(name)) for lang, name in i18n.LANGUAGES.items() if lang != "en"}
#: Words in Latin letters a Devanagari or Gujarati catalog keeps on purpose: the rule sources' names (Pagat, Taash), the
#: API's literal words (JSON, true/false, the keys "rules", "seats", first_dealer, the actions call/hide/reveal), and
#: the deal check's hash and command (SHA-256, ``dehla verify``).
LITERALS = {
    "sha",
    "verify",
    "pagat",
    "taash",
    "mendikot",
    "json",
    "true",
    "false",
    "rules",
    "seats",
    "first",
    "dealer",
    "call",
    "hide",
    "reveal",
}


def _words(text: str) -> list[str]:
    return [word.lower() for word in _WORDS.findall(re.sub(r"\{\w+\}", " ", text))]


def translated_words(lang: str) -> set[str]:
    """Every word in Latin letters of the translations into ``lang``."""
    found: set[str] = set()
    for text in i18n.catalog(lang).values():
        found.update(_words(text))
    for forms in i18n.plurals(lang).values():
        for form in forms:
            found.update(_words(form))
    return found


def english_words(lang: str) -> set[str]:
    """The words that are English on a page in ``lang``.

    Latin letters: the words of the English texts that no translation uses, and the common English words.
    Another script: those, and every other word of the English texts, but the literals the catalog keeps.
    """
    template = catalogs.extract()
    english: set[str] = set()
    for message in template:
        for text in message.id if isinstance(message.id, tuple | list) else (message.id,):
            if text:
                english.update(_words(str(text)))
    kept = translated_words(lang) if LATIN[lang] else LITERALS
    return {word for word in (english - kept) | COMMON_ENGLISH if len(word) > 1} - ALLOWED - kept


#: The day periods of the Hindi clock as the browser's Intl writes them (CLDR's own Hindi: "4:44 am").
ALLOWED |= {"am", "pm"}
#: The time zone as the browser's Intl names it in every language (the daily duplicate's day ends at midnight UTC).
ALLOWED |= {"utc"}
#: The language switch names each language in itself ("English", "Español"): no text to translate.
ALLOWED |= {word.lower() for name in i18n.LANGUAGES.values() for word in _WORDS.findall(name)}
ENGLISH = {lang: english_words(lang) for lang in LATIN}


def english_in(texts: list[str], lang: str) -> list[str]:
    """The texts with an English word in them, each once, with the words marked.

    On a page in another script any word in Latin letters of two letters or more is English, unless allowed or kept.
    """
    found = []
    for text in dict.fromkeys(texts):
        words = [
            word
            for word in _words(text)
            if word in ENGLISH[lang] or (not LATIN[lang] and len(word) > 1 and word not in ALLOWED | LITERALS)
        ]
        if words:
            found.append(f"{text[:120]!r} <- {', '.join(sorted(set(words)))}")
    return found


_VISIBLE_TEXTS = """() => {
  const out = [];
  // code: machine text such as a deal's seed in hex, in no language
  const hidden = (el) => !el || el.closest("script, style, template, [hidden], code") || !el.getClientRects().length;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.textContent.trim();
    if (text && !hidden(node.parentElement)) out.push(text);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], [alt], [aria-description]")) {
    if (el.closest("[hidden]")) continue;
    for (const name of ["aria-label", "title", "placeholder", "alt", "aria-description"]) {
      const value = el.getAttribute(name);
      if (value) out.push(value);
    }
  }
  for (const el of document.querySelectorAll("select option, input[type=button], input[type=submit]")) {
    out.push(el.textContent.trim() || el.value);
  }
  out.push(document.title);
  return out.filter(Boolean);
}"""


def visible_texts(page: Any) -> list[str]:
    """Every text a person can see or hear on the page, with every folded <details> opened first."""
    page.evaluate("document.querySelectorAll('details').forEach((item) => { item.open = true; })")
    page.wait_for_timeout(100)
    texts: list[str] = page.evaluate(_VISIBLE_TEXTS)
    return texts
