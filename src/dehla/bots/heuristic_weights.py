"""The heuristic bot's tuned numbers (``Weights``), each with its reason."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Weights"]


@dataclass(frozen=True)
class Weights:
    """Every tuned number of the bot, each with its reason: worths in units of one ten captured, chances and
    shares as fractions.  How the tuned ones were chosen is in docs/benchmarks.md ("Heuristic bot")."""

    trick: float = 0.15  # a trick, when tricks count (Mendikot, Taash)
    win: float = 0.4  # a card that may win a later trick, kept in hand
    centre_us: float = 0.5  # my team becoming the next collector of the centre (share of its tens)
    centre_rest: float = 0.0  # ... my share of it when I won the trick but my next lead may not win
    centre_them: float = 0.05  # the opponents becoming the next collector
    cunning: float = 0.0  # opponents beat a card when they can (1) or play blind (0), or in between
    partner_willing: float = 1.0  # how surely partner beats an opponent's card when it can
    overtake_again: float = 0.5  # once someone still to play has overtaken, the chance a later one beats the
    # (higher, unknown) card now best is taken as this share of its chance to beat the card it had to beat
    draw_trumps: float = 0.12  # leading trumps while holding most of them
    falling: float = 0.8  # how surely a player holding the ten of the suit led drops it, per card of the suit
    last_reserve: float = 0.3  # keeping the top trump for the last trick, per ten expected in the centre then
    lead_ten: float = 0.6  # leading a ten that a higher card still out can catch
    trump_partner: float = 10.0  # trumping a trick my partner's card is winning (large: only when every card would)
    cut_suit: float = 0.06  # per unit of strength of the suit a cut would make trump
    ten_base: float = 0.55  # chance of saving a ten with higher cards out, before length and danger
    ten_length: float = 0.1  # ... more for each other card of its suit I hold
    ten_length_cap: int = 3  # ... counting at most this many: past three guards, length no longer protects a ten
    ten_danger: float = 0.06  # ... less for each higher card still out
    ten_late: float = 0.2  # ... less as the hand goes on
    ten_floor: float = 0.4  # ... never below this: it may still be dropped on partner's winner later
    odds: float = 0.5  # chance that each ten still open ends with my team, in judging what a ten is worth
    sweep: float = 0.3  # extra worth of taking all four tens (a kot in Pagat's rules, 80 points in Taash)
    endgame: int = 3  # play the last this many tricks exactly, over every deal of the unseen cards
    endgame_deals: int = 12  # ... or over this many random deals when there are more
    endgame_many: int = 2  # ... with six or eight players (longer tricks, many more lines of play)
    endgame_cunning: float = 0.3  # opponents in the exact endgame: best reply (1) or any card (0), or in between
    endgame_deals_many: int = 12  # ... with six or eight players (longer tricks, many more deals)
    endgame_lines: int = 12000  # ... and at most about this many lines of play in all
    blunder: float = 0.0  # chance of a random legal action (a weaker player)
    # Chances the card tracker cannot give: how likely a player void in the suit led can trump.
    ruff_chooser: float = 0.9  # the band-hukum chooser, card still hidden: it chose the suit, so holds most of it
    ruff_unknown: float = 0.45  # anyone else, when I do not know the hidden suit: about one suit in two is live
    ruff_blind_hidden: float = 0.2  # a void player playing blind, card still hidden: few of its cards are trumps
    # What a card kept for later is worth, as a share of ``win`` (a likely winner).
    win_decay: float = 0.55  # per higher card still out: each one may take the trick my card would win
    trump_win_floor: float = 0.35  # a trump wins at least this often: it also beats every card of a void suit
    trump_risk_cut: float = 0.75  # a card of a plain suit while a trump is live: it may be trumped
    ten_as_winner: float = 0.5  # a ten kept is also a card that may win a trick, less so than any other card
    ten_win_decay: float = 0.5  # ... per higher card still out (steeper than win_decay: it is a target)
    rank_tiebreak: float = 0.002  # per rank: between cards of equal value keep the higher, play the lower
    # Chance of capturing my own ten later (see ``ten_base``), where no card of the suit decides it.
    ten_trump: float = 0.9  # a ten of trumps: only a higher trump takes it
    ten_trump_danger: float = 0.06  # ... less for each higher trump still out
    ten_boss: float = 0.9  # a ten no card still out can beat, while no trump can be played
    ten_boss_trumped: float = 0.8  # ... and while a trump is or may become live: a void player may trump it
    ten_ceiling: float = 0.95  # never above this: a ten can always be lost to a line nobody tracks
    loose_tens: float = 0.3  # share of the tens neither taken nor in the centre expected there by the last trick
    draw_trumps_low: float = 0.3  # share of ``draw_trumps`` for leading a trump a card still out can beat
    cut_alone: float = 1.0  # strength taken off a cut that would leave me no other card of the new trump suit
    endgame_deals_min: int = 4  # the exact endgame looks at no fewer deals, however many lines each has
