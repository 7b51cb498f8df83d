"""Rules in plain words, built from a ``Rules`` value so every variant is explained as it is played."""

from __future__ import annotations

import json

from dehla.rules import Rules

__all__ = ["explain"]


def _deal(rules: Rules) -> list[str]:
    n, size = rules.players, rules.hand_size
    pack = "the full 52-card pack" if rules.deck_size == 52 else "48 cards (the four twos taken out)"
    lines = [f"{n} players in two teams, partners alternate around the table (seat s is on team s % 2); {pack}."]
    if rules.staged_deal:
        lines.append(
            f"Deal: 5 cards each. Play starts on those five without trump; at the end of the trick in which someone "
            f"first cannot follow suit, everyone gets the other {size - 5} cards of the hand. If 5 tricks pass with "
            "nobody off-suit, the rest is dealt anyway and the hand is played without trump."
        )
    elif rules.trump == "called":
        lines.append(f"Deal: 5 cards each; trump is called; then the rest, {size} cards each in all.")
    else:
        lines.append(f"Deal: {size} cards each (in packets of 5, 4 and 4 at a real table).")
    return lines


def _trump(rules: Rules) -> list[str]:
    method = rules.trump
    if method == "called":
        return [
            "Trump is called: the player after the dealer looks at its first five cards and names a suit. "
            "It then leads the first trick."
        ]
    if method == "cut":
        text = (
            "Trump is cut (katte): the first card played by someone who cannot follow suit sets trump, and already "
            "counts as a trump in that trick, so a later player also void may overtrump it."
        )
        if not rules.staged_deal:
            text += " If nobody ever fails to follow, the hand has no trump."
        return [text]
    if method == "open_draw":
        return [
            "Trump by open draw: before the deal the player after the dealer draws a card from the shuffled pack "
            "and shows it; its suit is trump; it goes back into the pack."
        ]
    lines = [
        "Band hukum (hidden trump): the player after the dealer lays one of its cards face down and plays on with "
        "the rest. Until it is turned up there is no trump, and the hidden card does not count for following suit.",
    ]
    if method == "hidden":
        lines.append(
            "A player who cannot follow suit may, on its turn and before playing, ask for the card to be shown "
            "(the chooser too). Its suit becomes trump, the card goes back to the chooser, and the asker must play "
            "a trump to that trick if it holds one (and must follow suit if it now can)."
        )
    else:
        lines.append(
            "The card is turned up automatically the moment a player on its turn cannot follow suit; that player "
            "may then play any card, the chooser included."
        )
    lines.append(
        "Cards of the trump suit played before the reveal never count as trumps, even in the same trick; but when "
        "the suit led turns out to be trump, the highest card of that suit wins. If the chooser must play holding "
        "only the hidden card, it is turned up and played as a trump."
    )
    return lines


def _collection(rules: Rules) -> list[str]:
    if rules.collection == "immediate":
        return ["Each trick goes to its winner's team at once."]
    text = (
        "Two in a row: tricks go face down to the centre. When the same player wins two tricks in a row, that "
        "player's team collects the whole centre, this trick included. Partners winning in turn never collect."
    )
    if rules.streak_resets:
        text += " The count then starts afresh: a third win in a row stays in the centre, a fourth collects."
    else:
        text += " The count does not restart: every further win in a row collects again."
    text += " The winner of the last trick collects whatever remains."
    if rules.scoring == "taash":
        text += " Tricks still count for their winner's team at once; only the tens wait to be caught."
    return [text]


def _result(rules: Rules) -> list[str]:
    if rules.scoring == "pagat":
        lines = [
            "Hand result: only collected tens count. All 4 tens is a kot; 3 tens wins the hand; at 2-2 the team that "
            "did not deal wins. Trick counts never matter.",
        ]
        match = f"Match: the first team to {rules.target} kot{'s' if rules.target != 1 else ''} wins."
        if rules.streak_kot:
            match += (
                f" {rules.streak_kot} hand wins in a row also earn a kot (a win by the other team starts its own "
                "streak; after any kot both streaks restart). A hand earns at most one kot."
            )
        lines.append(match)
        return lines
    if rules.scoring == "mendikot":
        return [
            "Hand result: 3 or 4 tens wins the hand (all 4 is a mendikot; all tricks is a whitewash). At 2-2 the team "
            "with more tricks wins; equal tricks (possible with 6 or 8 players) is a drawn hand that nobody scores.",
            f"Match: 1 point for each hand won; the first team to {rules.target} points wins.",
        ]
    sweep = {"none": "80", "double": "160 (the sweep bonus doubles it)", "match": "80 and wins the match at once"}
    lines = [
        f"Hand result: the team with more tens wins: 4-0 scores {sweep[rules.sweep_bonus]}, 3-1 scores 30; at 2-2 "
        "the team with more tricks scores 20. The losing team scores nothing.",
    ]
    if rules.trick_minimum:
        lines.append(
            "Trick minimum: the team with more tens must also win most of the tricks (7 of 13), "
            "otherwise nobody scores the hand."
        )
    lines.append(
        "A hand ends early, at the end of a trick, the moment its result can no longer change whoever takes the "
        "tens not yet collected and the tricks not yet played (tens lying in the centre are not collected yet)."
    )
    lines.append(f"Match: the first team to {rules.target} points wins.")
    return lines


def _dealer(rules: Rules) -> list[str]:
    first = "First dealer by lot: each player draws a card, the highest deals (ties draw again)."
    if rules.rotation == "simple" or rules.scoring == "taash":
        return [first, "Next dealer: the player after the dealer, every hand."]
    if rules.scoring == "pagat":
        return [
            first,
            "Next dealer: if the dealing team won the hand, the player after the dealer; otherwise the "
            "same dealer deals again.",
        ]
    partner = "the player after the dealer"
    if rules.after_whitewash == "partner":
        partner = "the dealer's partner (dealer + 2)"
    return [
        first,
        "Next dealer: if the dealer's team won, the player after the dealer; if it lost, the same dealer again; if it "
        f"lost every trick, {partner}. After a drawn hand, the player after the dealer.",
    ]


def explain(rules: Rules) -> list[str]:
    """The rules as a list of plain-words paragraphs (one per line)."""
    head = f"{rules.preset}: {rules.description}" if rules.description else rules.preset
    if not isinstance(rules.to_json(), str):
        head += f"\nwith options {json.dumps(rules.to_json())}"
    lines = [head, ""]
    lines += _deal(rules)
    lines += _trump(rules)
    lines.append(
        "Play: the player after the dealer leads the first trick. Follow suit if you can, otherwise play any card; "
        "nobody has to trump or overtake. Ranks A K Q J 10 9 ... 2 in every suit. The highest trump wins the trick, "
        "otherwise the highest card of the suit led. The winner leads the next trick."
    )
    lines += _collection(rules)
    lines += _result(rules)
    lines += _dealer(rules)
    lines.append(f"Seats are numbered in the order of play; the table is drawn {rules.direction} (display only).")
    options = ", ".join(f"{name}={json.dumps(value)}" for name, value in rules.options().items())
    lines += ["", f"Options: {options}"]
    return [paragraph for line in lines for paragraph in line.split("\n")]
