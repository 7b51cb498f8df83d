"""The words players see for the server's own names: preset titles and summaries, bot levels.

Preset names (``pagat``, ``mendikot-band``) and bot labels are identifiers for
programs and records; players read these texts instead, in their language
(``/api/meta?lang=es`` passes each through ``i18n.translate``).  Every text here
is an ordinary msgid of the Babel catalogs, so one Spanish catalog covers the
page and the server.
"""

from __future__ import annotations

from dehla.web.i18n import translate

__all__ = [
    "PRESET_TITLES",
    "PRESET_SUMMARIES",
    "LEVEL_NAMES",
    "BOT_SUMMARIES",
    "ALL_TEXTS",
    "preset_title",
    "preset_summary",
    "level_name",
    "bot_summary",
]

#: Preset name -> its human title, short enough for a menu.
PRESET_TITLES: dict[str, str] = {
    "pagat": "Dehla Pakad (Pagat)",
    "pagat-cut": "Dehla Pakad, cut trump",
    "taash": "Dehla Pakad (Taash)",
    "taash-b2b": "Dehla Pakad (Taash), back-to-back",
    "mendikot": "Mendikot, cut trump",
    "mendikot-band": "Mendikot, band hukum",
    "mendikot-band-auto": "Mendikot, band hukum turned up automatically",
    "mendikot-open": "Mendikot, open draw",
    "mendikot-6": "Mendikot for six players",
    "mendikot-8": "Mendikot for eight players",
}

#: Preset name -> one line saying how it plays, for the lobby and the scorekeeper.
PRESET_SUMMARIES: dict[str, str] = {
    "pagat": "Dehla Pakad (Pagat): the player after the dealer calls trump from five cards; two tricks in a row "
    "collect the centre; first team to one kot wins.",
    "pagat-cut": "Dehla Pakad with cut trump: five cards each; the first card played off-suit sets trump; then the "
    "rest are dealt.",
    "taash": "Taash's Dehla Pakad: cut trump, each trick to its winner; 4 tens = 80, 3 tens = 30, 2-2 = 20 to the "
    "team with more tricks; first to 100.",
    "taash-b2b": "Taash back-to-back: as Taash, but the tens wait in the centre until someone wins two tricks in a "
    "row.",
    "mendikot": "Mendikot: all 13 cards dealt; the first card played off-suit sets trump; 3 or 4 tens win the hand; "
    "first to 5 hands.",
    "mendikot-band": "Mendikot with band hukum: a trump card is hidden face down and turned up when a player who "
    "cannot follow asks for it.",
    "mendikot-band-auto": "Mendikot with band hukum, turned up automatically the first time someone cannot follow "
    "suit.",
    "mendikot-open": "Mendikot with open draw: a card drawn before the deal sets trump.",
    "mendikot-6": "Mendikot for six players: 48 cards (no twos), 8 each, three against three.",
    "mendikot-8": "Mendikot for eight players: 48 cards (no twos), 6 each, four against four.",
}

#: Bot level label (``BotInfo.label``) -> the level's name, as shown beside a bot.
LEVEL_NAMES: dict[str, str] = {
    "beginner": "Beginner",
    "intermediate": "Intermediate",
    "advanced": "Advanced",
    "expert": "Expert",
    "cheat": "Sees every card",
}

#: Bot name -> what playing against it is like, in a player's words (the registry's descriptions are technical).
BOT_SUMMARIES: dict[str, str] = {
    "random": "Plays any card it may: good for learning the rules.",
    "heuristic": "Plays by rules of thumb: keeps track of the cards, keeps its tens safe and goes after yours.",
    "hard": "Thinks about every card still unseen before each play; strong and quick.",
    "expert": "The strongest: thinks longer about every play.",
    "cheat": "Sees every card; only for measuring the other bots.",
}

#: Every text of this module, for the catalogs and the test that each one is translated.
ALL_TEXTS: tuple[str, ...] = (
    *PRESET_TITLES.values(),
    *PRESET_SUMMARIES.values(),
    *LEVEL_NAMES.values(),
    *BOT_SUMMARIES.values(),
)


def preset_title(name: str, lang: str = "en") -> str:
    """The preset's title in ``lang`` (the name itself for a preset without one, never an error)."""
    return translate(lang, PRESET_TITLES.get(name, name))


def preset_summary(name: str, lang: str = "en") -> str:
    """The preset's one-line summary in ``lang`` (empty for a preset without one)."""
    text = PRESET_SUMMARIES.get(name, "")
    return translate(lang, text) if text else ""


def level_name(label: str, lang: str = "en") -> str:
    """A bot level's name in ``lang`` (the label itself for an unknown level)."""
    return translate(lang, LEVEL_NAMES.get(label, label))


def bot_summary(name: str, lang: str = "en") -> str:
    """What a bot is like to play against, in ``lang`` (empty for an unknown bot)."""
    text = BOT_SUMMARIES.get(name, "")
    return translate(lang, text) if text else ""
