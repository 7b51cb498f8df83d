"""The full truth of a table, rebuilt from its stored log: which cards each seat may have seen at each version."""

from __future__ import annotations

import asyncio
from typing import Any

from dehla.cards import parse_card, parse_cards
from dehla.engine.actions import Deal, parse_action
from dehla.engine.state import Match
from dehla.rules import parse_rules
from dehla.web.log import upgrade_entry
from dehla.web.storage import open_storage


def load_log(db: str, table_id: str) -> list[dict[str, Any]]:
    async def read() -> list[dict[str, Any]]:
        storage = open_storage(db)
        await storage.open()
        try:
            return await storage.load_log(table_id)
        finally:
            await storage.close()

    return asyncio.run(read())


def replay_entries(rules: object, entries: list[dict[str, Any]]) -> Match | None:
    match: Match | None = None
    for entry in entries:
        match = apply_entry(parse_rules(rules), match, entry)
    return match


def apply_entry(rules: Any, match: Match | None, raw: dict[str, Any]) -> Match | None:
    """One log entry (either log format) applied with the engine alone; seat and settings events change no card."""
    entry = upgrade_entry(raw)
    if entry["type"] == "match":
        return Match(rules, entry["first_dealer"])
    if entry["type"] in ("seat", "settings", "seal"):  # a seal holds the next hand's seed, no card
        return match
    assert match is not None
    if entry["type"] == "deal":
        draw = entry.get("open_draw")
        match.apply(Deal([parse_cards(hand) for hand in entry["cards"]], None if draw is None else parse_card(draw)))
    else:
        match.apply(parse_action(entry["action"]))
    return match


Truth = dict[int, tuple[frozenset[str], list[frozenset[str]]]]


def legitimate_cards(rules: object, entries: list[dict[str, Any]]) -> Truth:
    """For each version (number of log entries applied): the public cards, and per seat the cards it may know.

    A seat may know every card it has held (its own hand as dealt to it so far, its hidden card), and every
    card shown to all: cards played, the open-draw card, the turned-up hidden card.
    """
    parsed = parse_rules(rules)
    players = parsed.players
    seen: list[set[str]] = [set() for _ in range(players)]
    public: set[str] = set()
    truth: Truth = {0: (frozenset(), [frozenset()] * players)}
    match: Match | None = None
    for version, entry in enumerate(entries, start=1):
        match = apply_entry(parsed, match, entry)
        if match is None:
            truth[version] = truth[version - 1]
            continue
        for seat in range(players):
            seen[seat].update(str(card) for card in match.hand_of(seat))
        state = match.hand_state()
        if state.hidden_card is not None and state.chooser is not None:
            seen[state.chooser].add(str(state.hidden_card))
        for trick in match.tricks:
            public.update(str(card) for card in trick.cards)
        public.update(str(card) for _, card in match.current_trick)
        if state.open_draw is not None:
            public.add(str(state.open_draw))
        if state.revealed_card is not None:
            public.add(str(state.revealed_card))
        frozen = frozenset(public)
        truth[version] = (frozen, [frozenset(seen[seat]) | frozen for seat in range(players)])
    return truth
