"""Card tracking: what one seat can infer about the hand in play from its observation alone.

A ``CardTracker`` is built from an ``Observation`` (never from a ``Match``) and
answers the questions a card player keeps in mind:

* which cards are gone (played this hand), which are mine, which are *unseen*;
* where the unseen cards may be: every other seat's hand (with the suits it is
  known to be void in), the face-down band-hukum card, cards not yet dealt;
* which seats are void in which suits, inferred from the trick history;
* who is winning the trick in progress, and from which card trump counts;
* rough probabilities that a seat holds a card, a card of a set, or no card of a
  suit (``expected`` suit counts fitted to the void constraints);
* a random deal of the unseen cards consistent with everything known
  (``sample``), for search bots.

Inference rules (SPEC 3.2 - 3.4):

* A player who does not follow suit holds no card of the suit led *in its hand*.
  Under band hukum the face-down card is not in the hand, so its chooser may
  still own a card of that suit: the hidden card is tracked as its own slot,
  free of void constraints.  When the card is turned up it goes back to the
  chooser's hand and is known to everybody until played.
* Only a player who cannot follow may ask for the reveal, so an asker is void
  in the suit led even when it then follows with the card turned up (its own,
  as chooser); it must then play a trump if it holds one: an asker that plays
  neither the suit led nor trump is void in trump as well.
* With automatic reveal the player at whose turn the card is turned up may play
  any card; it could not follow before the reveal, so the void still holds (the
  chooser's returned card is a known card, not an unknown one).
* In a staged deal the voids shown while players held only their first five
  cards say nothing once the other eight have been dealt, and the undealt
  cards are unknown to every seat, the owner included.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import repeat

from dehla.cards import DECK_48, DECK_52, SUIT_MASKS, TENS_MASK, Card, Suit, mask_of
from dehla.engine.observe import Observation

__all__ = ["CardTracker", "HolderSample", "card_bit_above"]

_SUITS = tuple(Suit)
_CARD_BITS = tuple(1 << card for card in range(52))
_DECK_MASK = {52: mask_of(DECK_52), 48: mask_of(DECK_48)}

# Which of the ``history`` texts are card plays (everything but call/hide/reveal).
_NOT_PLAYS = ("call", "hide", "reveal")


def card_bit_above(card: int) -> int:
    """Mask of the cards of ``card``'s suit ranked above it."""
    suit = card // 13
    return SUIT_MASKS[suit] & ~((2 << card) - 1)


@dataclass(frozen=True)
class HolderSample:
    """One deal of the unseen cards consistent with an observation.

    ``hands[s]`` is the mask of seat ``s``'s playable hand (the observer's own
    hand is its real hand); ``hidden`` is the face-down band-hukum card (``None``
    when there is none); ``pending[s]`` the cards still to be dealt to ``s``.
    """

    hands: tuple[int, ...]
    hidden: int | None
    pending: tuple[int, ...]


class CardTracker:
    """What ``observation.seat`` knows about every card of the hand in play.

    Masks are 52-bit card masks (see ``dehla.cards``); suit sets are 4-bit
    masks (bit ``s`` for suit ``s``).  Build one per decision: it is cheap.
    """

    __slots__ = (
        "seat",
        "players",
        "deck",
        "own",
        "own_hidden",
        "played",
        "played_by",
        "plays",
        "known_held",
        "voids",
        "unseen",
        "hand_slots",
        "hidden_holder",
        "pending_slots",
        "chooser",
        "trump",
        "private_trump",
        "trump_from",
        "cut_open",
        "hidden_open",
        "staged_done",
        "reveal_at",
        "reveal_asker",
        "trick_start",
        "_expected",
        "_placements",
    )

    def __init__(self, obs: Observation) -> None:
        n = obs.players
        self.seat: int = obs.seat
        self.players: int = n
        self.deck: int = _DECK_MASK[obs.rules.deck_size]
        self.own: int = mask_of(obs.hand)
        self.own_hidden: Card | None = obs.hidden_card
        self.chooser: int | None = obs.chooser
        # Every card played this hand, in order: (seat, card, trick number from 1, index in trick).
        plays: list[tuple[int, Card, int, int]] = []
        for trick in obs.tricks:
            for index, card in enumerate(trick.cards):
                plays.append(((trick.leader + index) % n, card, trick.number, index))
        self.trick_start: int = len(plays)
        current = len(obs.tricks) + 1
        for index, (seat, card) in enumerate(obs.trick):
            plays.append((seat, card, current, index))
        self.plays = plays
        played = 0
        played_by = [0] * n
        for seat, card, _number, _index in plays:
            played |= 1 << card
            played_by[seat] |= 1 << card
        self.played: int = played
        self.played_by: list[int] = played_by
        self.trump: Suit | None = obs.trump
        self.private_trump: Suit | None = obs.hidden_card.suit if obs.hidden_card is not None else obs.trump
        self._find_reveal(obs)
        self._infer_voids(obs)
        self._place_unseen(obs)
        rules = obs.rules
        self.staged_done: bool = rules.staged_deal and not any(obs.undealt) and obs.phase == "play"
        # Cut trump not set yet: a player who cannot follow sets it with any card.
        self.cut_open: bool = rules.trump == "cut" and obs.trump is None and not self.staged_done
        self.hidden_open: bool = obs.trump_hidden
        self.trump_from: int = 0
        if self.reveal_at is not None and self.reveal_at >= self.trick_start:
            self.trump_from = self.reveal_at - self.trick_start
        self._expected: list[list[float]] | None = None
        self._placements: _Placements | None = None

    # ------------------------------------------------------------------------------------------
    # Reconstruction

    def _find_reveal(self, obs: Observation) -> None:
        """Where the band-hukum card was turned up: the index in ``plays`` of the first card played after it."""
        self.reveal_at: int | None = None
        self.reveal_asker: int | None = None
        if obs.revealed_card is None:
            return
        plays = self.plays
        count = 0
        for text in obs.history:
            if text == "reveal":
                self.reveal_at = count
                self.reveal_asker = plays[count][0] if count < len(plays) else obs.to_act
                return
            if not text.startswith(_NOT_PLAYS):
                count += 1
        # Not asked: turned up automatically (a player who could not follow, hidden_auto), or the
        # chooser held nothing else.  The first play that shows it is the reveal turn.
        auto = obs.rules.trump == "hidden_auto"
        revealed = obs.revealed_card
        led = -1
        for position, (seat, card, _number, index) in enumerate(plays):
            if index == 0:
                led = card // 13
            if (seat == obs.chooser and card == revealed) or (auto and index > 0 and card // 13 != led):
                self.reveal_at = position
                return
        self.reveal_at = len(plays)  # it happened at the turn now in progress

    def _infer_voids(self, obs: Observation) -> None:
        n = self.players
        voids = [0] * n
        rules = obs.rules
        forget_through = 0  # staged deal: voids from tricks up to this number no longer hold
        if rules.staged_deal and not any(obs.undealt) and obs.phase == "play":
            # The rest was dealt after the trick in which trump was cut, or after trick 5.
            forget_through = 5
            led = 0
            for _seat, card, number, index in self.plays:
                if index == 0:
                    led = card // 13
                elif card // 13 != led:
                    forget_through = min(number, 5)
                    break
        revealed_suit = obs.revealed_card.suit if obs.revealed_card is not None else None
        led = 0
        for position, (seat, card, number, index) in enumerate(self.plays):
            if index == 0:
                led = card // 13
                continue
            if number <= forget_through:
                continue
            suit = card // 13
            asked = position == self.reveal_at and self.reveal_asker == seat and obs.rules.trump == "hidden"
            if suit != led or asked:
                # An asker could not follow from its hand even when it then follows with the card turned up.
                voids[seat] |= 1 << led
            if asked and suit not in (led, revealed_suit) and revealed_suit is not None:
                voids[seat] |= 1 << revealed_suit  # the asker had to play a trump if it held one
        voids[self.seat] = 0
        self.voids: list[int] = voids

    def _place_unseen(self, obs: Observation) -> None:
        n = self.players
        me = self.seat
        known = [0] * n
        if obs.revealed_card is not None and obs.chooser is not None and obs.chooser != me:
            bit = 1 << obs.revealed_card
            if not self.played & bit:
                known[obs.chooser] = bit
        self.known_held: list[int] = known
        seen = self.own | self.played
        for mask in known:
            seen |= mask
        if self.own_hidden is not None:
            seen |= 1 << self.own_hidden
        self.unseen: int = self.deck & ~seen
        self.hand_slots: list[int] = [
            0 if seat == me else obs.hand_sizes[seat] - known[seat].bit_count() for seat in range(n)
        ]
        self.hidden_holder: int | None = (
            obs.chooser if obs.trump_hidden and obs.chooser is not None and obs.chooser != me else None
        )
        self.pending_slots: list[int] = list(obs.undealt)

    # ------------------------------------------------------------------------------------------
    # Plain facts

    def is_void(self, seat: int, suit: int) -> bool:
        """Known to hold no unseen card of ``suit`` in its hand (and no known one either)."""
        if seat == self.seat:
            return not self.own & SUIT_MASKS[suit]
        return bool(self.voids[seat] >> suit & 1) and not self.known_held[seat] & SUIT_MASKS[suit]

    def outstanding(self, suit: int) -> int:
        """Cards of ``suit`` not yet played and not mine: unseen or known to be held by another seat."""
        mine = self.own | (0 if self.own_hidden is None else 1 << self.own_hidden)
        return self.deck & SUIT_MASKS[suit] & ~self.played & ~mine

    def higher_outstanding(self, card: int) -> int:
        """Outstanding cards of ``card``'s suit that rank above it."""
        return self.outstanding(card // 13) & card_bit_above(card)

    def unseen_tens(self) -> int:
        return self.unseen & TENS_MASK

    def slots_total(self) -> int:
        """How many unseen cards the holders have room for (always equals the number of unseen cards)."""
        return sum(self.hand_slots) + (1 if self.hidden_holder is not None else 0) + sum(self.pending_slots)

    # ------------------------------------------------------------------------------------------
    # Probabilities

    def _holders(self) -> list[tuple[int, int, int]]:
        """(capacity, forbidden suit set, seat) per holder: hands first (index = seat), then hidden, then pending."""
        holders = [(self.hand_slots[seat], self.voids[seat], seat) for seat in range(self.players)]
        if self.hidden_holder is not None:
            holders.append((1, 0, self.hidden_holder))
        for seat, count in enumerate(self.pending_slots):
            if count:
                holders.append((count, 0, seat))
        return holders

    def expected(self) -> list[list[float]]:
        """``expected()[suit][seat]``: expected number of unseen cards of ``suit`` in ``seat``'s hand.

        Fitted by iterative proportional scaling so that each suit's unseen
        cards and each holder's free room are both accounted for, with zeros
        where a seat is void.
        """
        if self._expected is not None:
            return self._expected
        holders = self._holders()
        counts = [(self.unseen & SUIT_MASKS[suit]).bit_count() for suit in range(4)]
        total = sum(counts)
        caps = [cap for cap, _forbidden, _seat in holders]
        room = sum(caps)
        table = [
            [
                (counts[suit] * cap / room if room and not forbidden >> suit & 1 else 0.0)
                for cap, forbidden, _seat in holders
            ]
            for suit in range(4)
        ]
        if total:
            for _round in range(12):
                for suit in range(4):
                    row = table[suit]
                    got = sum(row)
                    if got > 0:
                        scale = counts[suit] / got
                        table[suit] = [value * scale for value in row]
                worst = 0.0
                for column, cap in enumerate(caps):
                    got = table[0][column] + table[1][column] + table[2][column] + table[3][column]
                    if got > 0:
                        scale = cap / got
                        worst = max(worst, abs(scale - 1.0))
                        for suit in range(4):
                            table[suit][column] *= scale
                if worst < 0.01:
                    break
        self._expected = [row[: self.players] for row in table]
        return self._expected

    def p_card(self, seat: int, card: int) -> float:
        """Probability that ``seat`` holds ``card`` in its hand now (1 or 0 when known)."""
        bit = 1 << card
        if seat == self.seat:
            return 1.0 if self.own & bit else 0.0
        if self.known_held[seat] & bit:
            return 1.0
        if not self.unseen & bit:
            return 0.0
        suit = card // 13
        count = (self.unseen & SUIT_MASKS[suit]).bit_count()
        return min(1.0, self.expected()[suit][seat] / count)

    def p_any(self, seat: int, mask: int) -> float:
        """Probability that ``seat`` holds at least one card of ``mask`` in its hand now."""
        if seat == self.seat:
            return 1.0 if self.own & mask else 0.0
        if self.known_held[seat] & mask:
            return 1.0
        mask &= self.unseen
        if not mask:
            return 0.0
        expected = self.expected()
        none = 1.0
        for suit in range(4):
            part = (mask & SUIT_MASKS[suit]).bit_count()
            if part:
                count = (self.unseen & SUIT_MASKS[suit]).bit_count()
                share = min(1.0, expected[suit][seat] / count)
                none *= (1.0 - share) ** part
        return 1.0 - none

    def p_void(self, seat: int, suit: int) -> float:
        """Probability that ``seat`` holds no card of ``suit`` in its hand now."""
        if seat == self.seat:
            return 0.0 if self.own & SUIT_MASKS[suit] else 1.0
        if self.known_held[seat] & SUIT_MASKS[suit]:
            return 0.0
        if self.voids[seat] >> suit & 1:
            return 1.0
        return 1.0 - self.p_any(seat, SUIT_MASKS[suit])

    def suit_length(self, seat: int, suit: int) -> float:
        """Expected number of cards of ``suit`` in ``seat``'s hand."""
        if seat == self.seat:
            return float((self.own & SUIT_MASKS[suit]).bit_count())
        return self.expected()[suit][seat] + (self.known_held[seat] & SUIT_MASKS[suit]).bit_count()

    # ------------------------------------------------------------------------------------------
    # Sampling (for search bots)

    def sample(self, rng: random.Random, exact: bool = True) -> HolderSample:
        """A random placement of every unseen card that agrees with all known voids and counts.

        Every consistent placement has the same chance (``_Placements`` counts
        them suit by suit, once per tracker; a draw then costs some 30
        microseconds).  Where counting would take too long (six or eight players
        with many voids), and with ``exact=False``, a greedy pass places the cards
        of the most constrained suits first, each to a holder chosen with weight
        equal to its free room, and completes a pass that corners itself by
        augmenting paths: always consistent, but not uniform (late in a hand,
        with several voids, some placements come up several times as often as
        others).
        """
        holders = self._holders()
        if exact:
            if self._placements is None:
                self._placements = _Placements.count(holders, [card for card in range(52) if self.unseen >> card & 1])
            if self._placements.total:
                return self._assemble_groups(holders, self._placements.draw(rng))
        cards = [card for card in range(52) if self.unseen >> card & 1]
        caps = [cap for cap, _forbidden, _seat in holders]
        rng.shuffle(cards)
        allowed: list[list[int]] = [
            [index for index, (_cap, forbidden, _seat) in enumerate(holders) if not forbidden >> (card // 13) & 1]
            for card in cards
        ]
        order = sorted(range(len(cards)), key=lambda i: len(allowed[i]))
        room = list(caps)
        owner: list[int] = [-1] * len(cards)
        stuck: list[int] = []
        for i in order:
            options = [holder for holder in allowed[i] if room[holder] > 0]
            if not options:
                stuck.append(i)
                continue
            weights = [room[holder] for holder in options]
            holder = rng.choices(options, weights)[0]
            owner[i] = holder
            room[holder] -= 1
        if stuck:
            self._repair(stuck, allowed, owner, room)
        return self._assemble(holders, cards, owner)

    def _assemble_groups(
        self, holders: list[tuple[int, int, int]], placed: list[tuple[int, list[int]]]
    ) -> HolderSample:
        """The sample in which each (holder, cards) of ``placed`` gives the holder (an index into ``holders``)
        those cards: ``_assemble`` a holder at a time, with a mask summed in C."""
        n = self.players
        hands = list(self.known_held)
        hands[self.seat] |= self.own
        pending = [0] * n
        hidden: int | None = self.own_hidden
        for holder, cards in placed:
            if not cards:
                continue
            if holder < n:
                hands[holder] |= sum(map(_CARD_BITS.__getitem__, cards))
            elif self.hidden_holder is not None and holder == n:
                hidden = cards[0]
            else:
                pending[holders[holder][2]] |= sum(map(_CARD_BITS.__getitem__, cards))
        return HolderSample(tuple(hands), hidden, tuple(pending))

    def _assemble(self, holders: list[tuple[int, int, int]], cards: list[int], owner: list[int]) -> HolderSample:
        """The sample in which ``cards[i]`` goes to holder ``owner[i]`` (an index into ``holders``)."""
        hands = [0] * self.players
        hands[self.seat] = self.own
        for seat in range(self.players):
            hands[seat] |= self.known_held[seat]
        pending = [0] * self.players
        hidden: int | None = self.own_hidden
        hand_count = self.players
        for i, holder in enumerate(owner):
            card = cards[i]
            if holder < hand_count:
                hands[holder] |= 1 << card
            elif self.hidden_holder is not None and holder == hand_count:
                hidden = card
            else:
                pending[holders[holder][2]] |= 1 << card
        return HolderSample(tuple(hands), hidden, tuple(pending))

    def deals(self, limit: int, rng: random.Random, exact: bool = True) -> list[HolderSample]:
        """Every placement of the unseen cards consistent with the observation if there are at most ``limit``,
        else ``limit`` random ones (``sample(rng, exact)``).  Exhaustive only once everything is dealt and face up."""
        if self.hidden_holder is None and not any(self.pending_slots):
            cards = [card for card in range(52) if self.unseen >> card & 1]
            seats = [seat for seat in range(self.players) if self.hand_slots[seat]]
            found: list[tuple[int, ...]] = []
            room = [self.hand_slots[seat] for seat in range(self.players)]
            hands = [0] * self.players

            def place(index: int) -> bool:
                if index == len(cards):
                    found.append(tuple(hands))
                    return len(found) <= limit
                card = cards[index]
                suit_bit = 1 << (card // 13)
                for seat in seats:
                    if room[seat] and not self.voids[seat] & suit_bit:
                        room[seat] -= 1
                        hands[seat] |= 1 << card
                        going = place(index + 1)
                        hands[seat] ^= 1 << card
                        room[seat] += 1
                        if not going:
                            return False
                return True

            if place(0):
                base = [self.known_held[seat] | (self.own if seat == self.seat else 0) for seat in range(self.players)]
                empty = (0,) * self.players
                return [
                    HolderSample(tuple(base[seat] | deal[seat] for seat in range(self.players)), None, empty)
                    for deal in found
                ]
        return [self.sample(rng, exact) for _ in range(limit)]

    @staticmethod
    def _repair(stuck: list[int], allowed: list[list[int]], owner: list[int], room: list[int]) -> None:
        """Place the cards the greedy pass could not, moving others along augmenting paths (Kuhn)."""
        holder_cards: dict[int, list[int]] = {}
        for i, holder in enumerate(owner):
            if holder >= 0:
                holder_cards.setdefault(holder, []).append(i)

        def place(i: int, current: int, visited: set[int]) -> bool:
            for holder in allowed[i]:
                if holder == current or holder in visited:
                    continue
                visited.add(holder)
                if room[holder] > 0:
                    room[holder] -= 1
                else:
                    # Full: move one of its cards elsewhere to make room.
                    moved = next(
                        (other for other in list(holder_cards.get(holder, ())) if place(other, holder, visited)), None
                    )
                    if moved is None:
                        continue
                    holder_cards[holder].remove(moved)
                owner[i] = holder
                holder_cards.setdefault(holder, []).append(i)
                return True
            return False

        for i in stuck:
            if not place(i, -1, set()):
                raise RuntimeError("no deal of the unseen cards fits the observation")  # pragma: no cover


class _Placements:
    """Every placement of the unseen cards that fits the holders' room and voids, counted for exact sampling.

    Holders that are void in the same suits are one group (cards move freely
    among them), so only how many cards of each suit each group gets needs
    counting.  ``splits[suit, room]`` lists, for the cards of ``suit`` when the
    groups have ``room`` left, each way to split them among the groups that
    may hold them, with the running count of the placements of this suit and
    the later ones that it allows.  A draw picks each suit's split in
    proportion to its count, then which cards of the suit go to each group,
    then which holder of a group gets each card, all at random.  Every
    placement then has the same chance.  ``total`` is how many
    placements there are, or 0 when counting them would take too long (many
    groups and cards); the caller then samples greedily.
    """

    LIMIT = 2_000  # splits examined before giving up (some 25 ms; reached only with six or eight players)

    def __init__(self) -> None:
        self.total = 0
        self.groups: list[list[int]] = []  # holder indices per group
        self.group_caps: list[list[int]] = []  # their room, per group
        self.masks: list[int] = []  # suits each group is void in
        self.by_suit: list[list[int]] = [[], [], [], []]  # the unseen cards of each suit
        self.later: list[list[int]] = []  # [suit][group]: cards of the later suits the group may hold
        self.splits: dict[tuple[int, tuple[int, ...]], list[tuple[int, tuple[int, ...]]]] = {}
        self.runnings: dict[tuple[int, tuple[int, ...]], list[int]] = {}  # each split list's running counts
        self.work = 0

    @classmethod
    def count(cls, holders: list[tuple[int, int, int]], cards: list[int]) -> _Placements:
        placements = cls()
        index_of: dict[int, int] = {}
        for holder, (cap, forbidden, _seat) in enumerate(holders):
            if cap == 0:
                continue
            if forbidden not in index_of:
                index_of[forbidden] = len(placements.groups)
                placements.groups.append([])
                placements.group_caps.append([])
                placements.masks.append(forbidden)
            group = index_of[forbidden]
            placements.groups[group].append(holder)
            placements.group_caps[group].append(cap)
        for card in cards:
            placements.by_suit[card // 13].append(card)
        # After each suit, how many cards of the later suits each group may still take.
        placements.later = [
            [
                sum(len(placements.by_suit[other]) for other in range(suit + 1, 4) if not mask >> other & 1)
                for mask in placements.masks
            ]
            for suit in range(4)
        ]
        room = tuple(sum(caps) for caps in placements.group_caps)
        try:
            total = placements._ways(0, room)
        except _TooMany:
            return placements
        for caps in placements.group_caps:  # which holder of a group gets which of its cards
            total *= math.factorial(sum(caps))
            for cap in caps:
                total //= math.factorial(cap)
        placements.total = total
        return placements

    def _ways(self, suit: int, room: tuple[int, ...]) -> int:
        """Placements of the cards of ``suit`` and later suits into ``room`` (recording each split's share)."""
        if suit == 4:
            return 1 if not any(room) else 0
        key = (suit, room)
        known = self.splits.get(key)
        if known is not None:
            return known[-1][0] if known else 0
        cards = len(self.by_suit[suit])
        later = self.later[suit]
        takers = [g for g, mask in enumerate(self.masks) if not mask >> suit & 1]
        shares: list[tuple[int, tuple[int, ...]]] = []
        running = 0
        orders = math.factorial(cards)
        for split in _splits(cards, [room[g] for g in takers]):
            self.work += 1
            if self.work > self.LIMIT:
                raise _TooMany
            left = list(room)
            for g, amount in zip(takers, split):
                left[g] -= amount
            if any(left[g] > later[g] for g in range(len(left))):
                continue  # a group's room left cannot be filled by the later suits it may hold
            rest = self._ways(suit + 1, tuple(left))
            if rest:
                arrangements = orders
                for amount in split:
                    arrangements //= math.factorial(amount)
                running += arrangements * rest
                shares.append((running, tuple(left)))
        self.splits[key] = shares
        return running

    def draw(self, rng: random.Random) -> list[tuple[int, list[int]]]:
        """One placement, uniformly: each holder (its index) with its cards."""
        room = tuple(sum(caps) for caps in self.group_caps)
        to_group: list[list[int]] = [[] for _ in self.groups]
        for suit in range(4):
            shares = self.splits[(suit, room)]
            runnings = self.runnings.get((suit, room))
            if runnings is None:
                runnings = self.runnings[(suit, room)] = [running for running, _after in shares]
            # The first split whose running count passes the pick (a binary search: there may be many splits).
            left = shares[bisect_right(runnings, rng.randrange(runnings[-1]))][1]
            amounts = [before - after for before, after in zip(room, left)]
            if amounts.count(0) >= len(amounts) - 1:  # at most one group takes the suit: no order to draw
                for g, amount in enumerate(amounts):
                    if amount:
                        to_group[g].extend(self.by_suit[suit])
                room = left
                continue
            cards = _shuffled(self.by_suit[suit], rng)
            start = 0
            for g, amount in enumerate(amounts):
                to_group[g].extend(cards[start : start + amount])
                start += amount
            room = left
        placed: list[tuple[int, list[int]]] = []
        for g, members in enumerate(self.groups):
            got = to_group[g]
            if len(members) == 1:  # one holder takes the group's cards, in any order
                placed.append((members[0], got))
                continue
            got = _shuffled(got, rng)
            start = 0
            for holder, cap in zip(members, self.group_caps[g]):
                placed.append((holder, got[start : start + cap]))
                start += cap
        return placed


def _shuffled(cards: list[int], rng: random.Random) -> list[int]:
    """``cards`` in a uniformly random order: sorted by a random key each, drawn in one call from C, several times
    faster than ``rng.shuffle`` (equal keys, never seen in practice, keep the cards' order)."""
    keys = list(map(type(rng).random, repeat(rng, len(cards))))
    return [card for _key, card in sorted(zip(keys, cards))]


class _TooMany(Exception):
    """Counting the placements passed ``_Placements.LIMIT`` splits."""


def _splits(total: int, limits: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as a sum of one amount per limit, each amount at most its limit."""
    if not limits:
        if total == 0:
            yield ()
        return
    if len(limits) == 1:
        if total <= limits[0]:
            yield (total,)
        return
    rest_room = sum(limits[1:])
    for first in range(max(0, total - rest_room), min(total, limits[0]) + 1):
        for rest in _splits(total - first, limits[1:]):
            yield (first, *rest)
