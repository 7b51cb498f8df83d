"""Plain-words text for people: hands, tricks and events (shared by the transcript and terminal play)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dehla.cards import RANKS, Card, Suit, sort_hand
from dehla.engine.events import (
    CentreCollected,
    Event,
    HandEnded,
    HandResult,
    HandStarted,
    KotAwarded,
    MatchOver,
    StagedDeal,
    Trick,
    TrumpRevealed,
    TrumpSet,
)
from dehla.rules import Rules

__all__ = ["seat_label", "hand_text", "describe_event", "makes_trump", "result_text", "score_text", "team_label"]


def seat_label(seat: int, names: Sequence[str] | None = None) -> str:
    if names and 0 <= seat < len(names) and names[seat]:
        return f"{names[seat]} (seat {seat})"
    return f"seat {seat}"


def team_label(team: int, players: int = 4, names: Sequence[str] | None = None) -> str:
    seats = [seat for seat in range(players) if seat % 2 == team]
    if names:
        return f"team {team} (" + " & ".join(names[seat] for seat in seats if seat < len(names)) + ")"
    return f"team {team} (seats " + " & ".join(str(seat) for seat in seats) + ")"


def hand_text(cards: Iterable[Card], symbols: bool = True) -> str:
    """A hand grouped by suit, high cards first: ``♠ A 10 4  ♥ K Q  ♦ —  ♣ 9``."""
    by_suit: dict[Suit, list[str]] = {suit: [] for suit in Suit}
    for card in sort_hand(cards):
        by_suit[card.suit].append(RANKS[card.rank])
    parts = []
    for suit in Suit:
        label = suit.symbol if symbols else suit.name
        parts.append(f"{label} {' '.join(by_suit[suit]) if by_suit[suit] else '—'}")
    return "  ".join(parts)


def trick_text(trick: Trick, names: Sequence[str] | None = None) -> str:
    plays = ", ".join(f"{card} ({seat_label(seat, names)})" for seat, card in zip(trick.seats, trick.cards))
    return f"trick {trick.number}: {plays}"


def makes_trump(card: Card, events: Iterable[Event]) -> bool:
    """Did playing ``card`` make trump?  Its ``TrumpSet`` line then tells the play ("cannot follow and plays ..."),
    so a log that tells each card played leaves this one to it."""
    return any(isinstance(event, TrumpSet) and event.card == card for event in events)


def describe_event(event: Event, rules: Rules, names: Sequence[str] | None = None) -> str | None:
    """One line for an event, or ``None`` for events that need no words of their own."""
    players = rules.players
    if isinstance(event, HandStarted):
        draw = f"; open draw {event.open_draw}" if event.open_draw is not None else ""
        return f"hand {event.hand}: {seat_label(event.dealer, names)} deals{draw}"
    if isinstance(event, TrumpSet):
        who = seat_label(event.seat, names) if event.seat is not None else "nobody"
        if event.how == "called":
            return f"{who} calls {event.suit.word} ({event.suit.symbol}) trump"
        if event.how == "open_draw":
            return f"{event.card} drawn: {event.suit.word} ({event.suit.symbol}) are trump"
        return f"{who} cannot follow and plays {event.card}: {event.suit.word} ({event.suit.symbol}) are trump"
    if isinstance(event, TrumpRevealed):
        how = f"at {seat_label(event.asked_by, names)}'s request" if event.asked_by is not None else "automatically"
        return (
            f"the hidden card is turned up {how}: {event.card}, so {event.suit.word} ({event.suit.symbol}) are trump; "
            f"it goes back to {seat_label(event.chooser, names)}"
        )
    if isinstance(event, StagedDeal):
        after = "no trump for the rest of the hand" if event.trump is None else f"trump {event.trump.word}"
        return f"the rest of the cards are dealt after trick {event.after_trick} ({after})"
    if isinstance(event, Trick):
        text = f"{trick_text(event, names)} — won by {seat_label(event.winner, names)}"
        if rules.collection == "centre" and event.collected_by is None:
            text += ", stays in the centre"
        return text
    if isinstance(event, CentreCollected):
        tens = f"{event.tens} ten{'s' if event.tens != 1 else ''}"
        return (
            f"{seat_label(event.seat, names)} collects the centre for {team_label(event.team, players, names)}: "
            f"{len(event.cards)} cards, {tens}"
        )
    if isinstance(event, HandEnded):
        if event.early:
            return f"the result is settled after trick {event.tricks_played}: the hand ends early"
        return None
    if isinstance(event, HandResult):
        return result_text(event, rules, names)
    if isinstance(event, KotAwarded):
        return f"KOT for {team_label(event.team, players, names)} ({event.reason})"
    if isinstance(event, MatchOver):
        return f"{team_label(event.winner, players, names)} wins the match, {score_text(event.score, rules)}"
    return None


def score_text(score: tuple[int, int], rules: Rules) -> str:
    unit = "kots" if rules.scoring == "pagat" else "points"
    return f"{unit} {score[0]}-{score[1]} (target {rules.target})"


def result_text(result: HandResult, rules: Rules, names: Sequence[str] | None = None) -> str:
    tens = f"tens {result.tens[0]}-{result.tens[1]}, tricks {result.tricks_won[0]}-{result.tricks_won[1]}"
    if result.winner is None:
        verdict = "nobody scores this hand"
    else:
        verdict = f"{team_label(result.winner, rules.players, names)} wins the hand"
        if result.points[result.winner]:
            verdict += f" (+{result.points[result.winner]})"
    extras = [word for word, flag in (("sweep", result.sweep), ("whitewash", result.whitewash)) if flag]
    if result.ended_early:
        extras.append("ended early")
    extra = f" [{', '.join(extras)}]" if extras else ""
    following = f"; next dealer {seat_label(result.next_dealer, names)}" if result.next_dealer is not None else ""
    return f"result: {tens}: {verdict}{extra}; match {score_text(result.score, rules)}{following}"
