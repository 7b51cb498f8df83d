"""A hint: what the strongest bot would play in a seat, from that seat's observation alone, and why, in words.

One place for the hint's words, shared by the terminal (``terminal.words.hint_note``) and the web table (whose
server sends the codes and parameters of ``HINT_TEMPLATES``, worded by the page from its catalogs): where the
move came from (solved sampled deals, sampled deals played out, the learned value, the heuristic, the only legal
action) and, where the move was not solved, the estimate for it (``bots.search.estimate_action``).  Nothing
here sees a hidden card: the bot and the estimate read only the observation.
"""

from __future__ import annotations

from dataclasses import dataclass

from dehla.bots import Bot, make_bot
from dehla.engine.actions import Action, Call, Hide, Play
from dehla.engine.observe import Observation
from dehla.play.reasons import REASON_TEMPLATES, Reason, reason_text, reasons_for

__all__ = [
    "HINT_BOT",
    "HINT_TEMPLATES",
    "Hint",
    "HintWord",
    "hint_for",
    "hint_of",
    "hint_words",
    "reasons_words",
    "web_words",
]

#: The bot that gives hints: the strongest that answers within a few seconds.
HINT_BOT = "hard"

#: Code -> English template of each sentence a hint may say (the web's catalogs translate these): the move,
#: its reasons in game terms (``play.reasons``), where it came from, and the estimate.
HINT_TEMPLATES: dict[str, str] = {
    **REASON_TEMPLATES,
    "hint_play": "Hint: the strongest bot would play {card}.",
    "hint_call": "Hint: the strongest bot would call {suit} trump.",
    "hint_hide": "Hint: the strongest bot would hide {card}.",
    "hint_reveal": "Hint: the strongest bot would ask for trump.",
    "hint_forced": "It is your only legal choice.",
    "hint_solved": "Chosen by solving {n} sampled deals of the unseen cards exactly.",
    "hint_playout": "Chosen by playing out {n} sampled deals with a fast policy, none solved exactly.",
    "hint_heuristic_early": "The heuristic's choice: the search bots solve no deal before the play.",
    "hint_heuristic": "The heuristic's choice: no sampled deal could be solved in time.",
    "hint_estimate": "Estimate for your team: {margin} (from -{scale}, lost, to +{scale}, won), over {n} sampled "
    "deals; not exact.",
}


@dataclass(frozen=True)
class HintWord:
    """One sentence of a hint: its code (``HINT_TEMPLATES``) and parameters."""

    code: str
    params: dict[str, int | float | str]


@dataclass(frozen=True)
class Hint:
    """What the hint bot would do and why: ``source`` is ``forced``, ``solved``, ``playout`` or
    ``heuristic`` (``bots.search.move_source``); ``samples`` the sampled deals behind it; ``margin``/``scale``/
    ``estimated`` the estimate where the move was not solved (``estimated`` 0 when there is none); ``reasons``
    what the move does in the position (``play.reasons``), each true whatever the unseen cards are."""

    action: Action
    source: str
    phase: str
    samples: int = 0
    margin: float = 0.0
    scale: int = 1
    estimated: int = 0
    reasons: tuple[Reason, ...] = ()


def hint_of(bot: Bot, observation: Observation, action: Action) -> Hint:
    """The hint ``bot`` gives by having just chosen ``action`` in ``observation`` (ask right after ``bot.act``)."""
    from dehla.bots.search import SearchBot, estimate_action, move_source

    reasons = reasons_for(observation, action)
    if not isinstance(bot, SearchBot):
        source = "forced" if len(observation.legal_actions) == 1 else "heuristic"
        return Hint(action, source, observation.phase, reasons=reasons)
    source = move_source(bot, observation)
    samples = {"solved": bot.last_samples, "playout": bot.last_playouts}.get(source, 0)
    hint = Hint(action, source, observation.phase, samples, reasons=reasons)
    if source not in ("playout", "heuristic"):
        return hint
    estimate = estimate_action(observation, action)
    if estimate is None:
        return hint
    return Hint(action, source, observation.phase, samples, estimate.margin, estimate.scale, estimate.samples, reasons)


def hint_for(observation: Observation, bot: Bot | None = None) -> Hint:
    """The hint for the seat of ``observation``: what ``bot`` (by default a fresh ``HINT_BOT``) would play."""
    hinter = bot if bot is not None else make_bot(HINT_BOT, 0)
    action = hinter.act(observation)
    return hint_of(hinter, observation, action)


def web_words(hint: Hint) -> list[HintWord]:
    """The hint's sentences as codes and parameters: the move, its reasons, where it came from, the estimate."""
    action = hint.action
    if isinstance(action, Play):
        words = [HintWord("hint_play", {"card": str(action.card)})]
    elif isinstance(action, Call):
        words = [HintWord("hint_call", {"suit": action.suit.letter})]
    elif isinstance(action, Hide):
        words = [HintWord("hint_hide", {"card": str(action.card)})]
    else:
        words = [HintWord("hint_reveal", {})]
    words.extend(HintWord(reason.code, dict(reason.params)) for reason in hint.reasons)
    if hint.source == "forced":
        words.append(HintWord("hint_forced", {}))
    elif hint.source == "solved":
        words.append(HintWord("hint_solved", {"n": hint.samples}))
    elif hint.source == "playout":
        words.append(HintWord("hint_playout", {"n": hint.samples}))
    elif hint.phase != "play":
        words.append(HintWord("hint_heuristic_early", {}))
    else:
        words.append(HintWord("hint_heuristic", {}))
    if hint.estimated:
        margin = f"{hint.margin:+.2f}"
        words.append(HintWord("hint_estimate", {"margin": margin, "scale": hint.scale, "n": hint.estimated}))
    return words


def hint_words(hint: Hint) -> tuple[str, str]:
    """``(short, full)`` words for a terminal: the move's reasons in English, then, where the hint did not come
    from solved deals, saying so in brackets, with the estimate.  Both empty when the hint has no reason and is
    exact over its samples (or forced)."""
    short, full = _source_words(hint)
    why = reasons_words(hint)
    if not why:
        return short, full
    if not short:
        return why, why
    return f"{why} ({short})", f"{why} ({full})"


def reasons_words(hint: Hint) -> str:
    """The hint's reasons in English sentences (empty when it has none)."""
    return " ".join(reason_text(reason) for reason in hint.reasons)


def _source_words(hint: Hint) -> tuple[str, str]:
    """Where a hint did not come from solved deals, saying so, with the estimate (empty when it did)."""
    if hint.source == "playout":
        short = "played out, not solved"
        head = f"chosen by playing out {hint.samples} sampled deals with a fast policy, none solved exactly"
    elif hint.source == "heuristic" and hint.phase != "play":
        short = "heuristic's choice"
        head = "the heuristic's choice: the search bots solve no deal before the play"
    elif hint.source == "heuristic":
        short = "heuristic's choice, nothing solved in time"
        head = "the heuristic's choice: no sampled deal could be solved in time"
    else:
        return "", ""
    if not hint.estimated:
        return short, head
    scale = hint.scale
    return (
        f"{short}; ~ estimate {hint.margin:+.2f} (-{scale}..+{scale})",
        f"{head}; ~ estimate for it: {hint.margin:+.2f} for your team "
        f"(the hand's points margin, -{scale} lost to +{scale} won; {hint.estimated} sampled deals; not exact)",
    )
