"""Independent reference implementation (test oracle) of the dehla SPEC.

Written from /work/shared/SPEC.md, the seed texts and the project's rules decisions
only; it shares no code with the engine.  Slow and obvious on purpose.

Public API
    replay_record(record) -> dict   what `dehla replay --json` must print for one record
    legal_actions(record) -> list | None
        the legal next actions of the unfinished last hand (None if there is none);
        raises OracleError for a broken record.  Used by random legal-play generators.
    HAND_FIELDS                     the keys of each hand in that output

Cards are tuples (rank, suit) with rank 2..14 (14 = ace) and suit one of "SHDC".
"""

SUITS = "SHDC"
SUIT_SYMBOLS = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}
RANK_IN = {str(r): r for r in range(2, 11)}
RANK_IN.update({"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14})
RANK_OUT = {r: str(r) for r in range(2, 11)}
RANK_OUT.update({11: "J", 12: "Q", 13: "K", 14: "A"})


HAND_FIELDS = (
    "dealer",
    "trump",
    "tricks",
    "tens",
    "tricks_won",
    "winner",
    "sweep",
    "whitewash",
    "points",
    "ended_early",
    "next_dealer",
)


class OracleError(Exception):
    pass


# ----------------------------------------------------------------------------- cards


def parse_suit(text):
    if isinstance(text, str):
        t = text.strip()
        if t in SUIT_SYMBOLS:
            return SUIT_SYMBOLS[t]
        if len(t) == 1 and t.upper() in SUITS:
            return t.upper()
    raise OracleError(f"bad suit {text!r}")


def parse_card(text):
    if not isinstance(text, str):
        raise OracleError(f"bad card {text!r}")
    t = text.strip()
    if len(t) >= 2:
        rank = RANK_IN.get(t[:-1].upper())
        if rank is not None:
            return (rank, parse_suit(t[-1]))
    raise OracleError(f"bad card {text!r}")


def card_text(card):
    return RANK_OUT[card[0]] + card[1]


def make_deck(players):
    lowest = 3 if players in (6, 8) else 2  # six or eight players: the 2s are removed
    return {(r, s) for s in SUITS for r in range(lowest, 15)}


# ----------------------------------------------------------------------------- rules

COMMON_DEFAULTS = {
    "players": 4,
    "streak_resets": True,
    "rotation": "rules",
    "after_whitewash": "partner",
    "trick_minimum": False,
    "sweep_bonus": "none",
    "staged_deal": False,
}
PAGAT = dict(scoring="pagat", target=1, streak_kot=7, collection="centre", direction="anticlockwise")
TAASH = dict(scoring="taash", target=100, streak_kot=0, trump="cut", staged_deal=True, direction="clockwise")
MENDIKOT = dict(scoring="mendikot", target=5, streak_kot=0, trump="cut", collection="immediate", direction="clockwise")
PRESETS = {
    "pagat": dict(PAGAT, trump="called"),
    "pagat-cut": dict(PAGAT, trump="cut", staged_deal=True),
    "taash": dict(TAASH, collection="immediate"),
    "taash-b2b": dict(TAASH, collection="centre"),
    "mendikot": dict(MENDIKOT),
    "mendikot-band": dict(MENDIKOT, trump="hidden"),
    "mendikot-band-auto": dict(MENDIKOT, trump="hidden_auto"),
    "mendikot-open": dict(MENDIKOT, trump="open_draw"),
    "mendikot-6": dict(MENDIKOT, players=6),
    "mendikot-8": dict(MENDIKOT, players=8),
}


def _is_int(v):
    return type(v) is int  # excludes bool


def _choice(*values):
    return lambda v: isinstance(v, str) and v in values


OPTION_CHECKS = {
    "target": lambda v: _is_int(v) and v >= 1,
    "streak_resets": lambda v: isinstance(v, bool),
    "rotation": _choice("rules", "simple"),
    "after_whitewash": _choice("partner", "next"),
    "direction": _choice("anticlockwise", "clockwise"),
    "trick_minimum": lambda v: isinstance(v, bool),
    "trump": _choice("called", "cut", "hidden", "hidden_auto", "open_draw"),
    "staged_deal": lambda v: isinstance(v, bool),
    "collection": _choice("centre", "immediate"),
    "sweep_bonus": _choice("none", "double", "match"),
    "players": lambda v: _is_int(v) and v in (4, 6, 8),
    "scoring": _choice("pagat", "taash", "mendikot"),
    "streak_kot": lambda v: _is_int(v) and v >= 0,
}


def parse_rules(rules):
    if isinstance(rules, str):
        name, overrides = rules, {}
    elif isinstance(rules, dict):
        if "preset" not in rules:
            raise OracleError("rules object without 'preset'")
        name = rules["preset"]
        overrides = {k: v for k, v in rules.items() if k != "preset"}
    else:
        raise OracleError("rules must be a preset name or an object")
    if not isinstance(name, str) or name not in PRESETS:
        raise OracleError(f"unknown preset {name!r}")
    r = dict(COMMON_DEFAULTS)
    r.update(PRESETS[name])
    for key, value in overrides.items():
        if key not in OPTION_CHECKS:
            raise OracleError(f"unknown rules option {key!r}")
        if not OPTION_CHECKS[key](value):
            raise OracleError(f"bad value {value!r} for rules option {key!r}")
        r[key] = value
    if r["staged_deal"] and r["trump"] != "cut":
        raise OracleError(
            f"a staged deal needs cut trump, not {r['trump']!r} (the rest is dealt after the trick that sets trump)"
        )
    return r


def taash_result(tens, tricks_won, ntricks, r):
    """(winner team or None, (points team 0, points team 1)) of a Taash hand."""
    if tens[0] != tens[1]:
        w = 0 if tens[0] > tens[1] else 1
        pts = 80 if tens[w] == 4 else 30
        if tens[w] == 4 and r["sweep_bonus"] == "double":
            pts = 160
        if r["trick_minimum"] and not 2 * tricks_won[w] > ntricks:
            return None, (0, 0)
    else:
        if tricks_won[0] == tricks_won[1]:
            return None, (0, 0)
        w = 0 if tricks_won[0] > tricks_won[1] else 1
        pts = 20
    return w, ((pts, 0) if w == 0 else (0, pts))


# ----------------------------------------------------------------------------- one hand


class Hand:
    def __init__(self, r, dealer, deal, open_draw):
        self.r = r
        self.n = r["players"]
        self.ntricks = len(deal[0])
        self.dealer = dealer
        self.mode = r["trump"]
        self.staged = r["staged_deal"]
        cut = 5 if self.staged else self.ntricks
        self.held = [set(d[:cut]) for d in deal]  # cards a seat can see and play
        self.pending = [list(d[cut:]) for d in deal]  # staged deal: not dealt yet
        self.stage1 = self.staged
        self.trump = None  # trump suit (set, called, drawn or revealed)
        self.trump_active = False
        if self.mode == "open_draw":
            self.trump, self.trump_active = open_draw[1], True
        self.chooser = (dealer + 1) % self.n  # caller / hider; also leads trick 1
        self.hidden = None
        self.phase = {"called": "call", "hidden": "hide", "hidden_auto": "hide"}.get(self.mode, "play")
        self.leader = (dealer + 1) % self.n
        self.trick = []  # (seat, card, counts_as_trump)
        self.tricks = []
        self.centre = []
        self.captured = [[], []]
        self.tricks_won = [0, 0]
        self.run_seat, self.run_len = None, 0
        self.duty = None  # seat that asked for the reveal in this trick
        self.finished = False
        self.ended_early = False
        self.settled = None

    # -- state helpers
    def turn(self):
        return (self.leader + len(self.trick)) % self.n

    def led(self):
        return self.trick[0][1][1] if self.trick else None

    def tens(self):
        return [sum(1 for c in self.captured[t] if c[0] == 10) for t in (0, 1)]

    def _situation(self):
        """(cards the seat on turn may play, whether playing triggers the reveal)."""
        seat, led = self.turn(), self.led()
        hand = self.held[seat]
        if self.hidden is not None and seat == self.chooser and not hand:
            return {self.hidden}, True  # nothing but the hidden card: revealed, played
        if led is None:
            return set(hand), False
        follow = {c for c in hand if c[1] == led}
        if self.hidden is not None and self.mode == "hidden_auto" and not follow:
            allowed = set(hand)  # automatic reveal: any card, even the returned one
            if seat == self.chooser:
                allowed.add(self.hidden)
            return allowed, True
        if self.duty == seat:  # asked for the reveal: follow, else trump
            if follow:
                return follow, False
            trumps = {c for c in hand if c[1] == self.trump}
            return (trumps or set(hand)), False
        return (follow or set(hand)), False

    def _reveal_legal(self):
        if self.mode != "hidden" or self.hidden is None or self.phase != "play" or not self.trick:
            return False
        return not any(c[1] == self.led() for c in self.held[self.turn()])

    def _reveal(self):
        self.trump, self.trump_active = self.hidden[1], True
        self.held[self.chooser].add(self.hidden)
        self.hidden = None

    def legal_actions(self):
        if self.finished:
            return []
        if self.phase == "call":
            return ["call " + s for s in SUITS]
        if self.phase == "hide":
            return ["hide " + card_text(c) for c in sorted(self.held[self.chooser])]
        acts = [card_text(c) for c in sorted(self._situation()[0])]
        if self._reveal_legal():
            acts.append("reveal")
        return acts

    # -- actions
    def apply(self, action):
        if self.finished:
            raise OracleError("action after the hand has ended")
        if not isinstance(action, str):
            raise OracleError(f"action must be a string, got {action!r}")
        words = action.split()
        keyword = words[0].lower() if words else ""
        if self.phase == "call":
            if keyword != "call" or len(words) != 2:
                raise OracleError(f"expected 'call SUIT' by seat {self.chooser}, got {action!r}")
            self.trump, self.trump_active = parse_suit(words[1]), True
            self.phase = "play"
            return
        if self.phase == "hide":
            if keyword != "hide" or len(words) != 2:
                raise OracleError(f"expected 'hide CARD' by seat {self.chooser}, got {action!r}")
            card = parse_card(words[1])
            if card not in self.held[self.chooser]:
                raise OracleError(f"seat {self.chooser} cannot hide {card_text(card)}: not in its hand")
            self.held[self.chooser].remove(card)
            self.hidden = card
            self.phase = "play"
            return
        if keyword in ("call", "hide"):
            raise OracleError(f"{action!r} is not allowed here")
        seat = self.turn()
        if keyword == "reveal":
            if len(words) != 1 or not self._reveal_legal():
                raise OracleError(f"seat {seat} may not ask for the reveal here")
            self._reveal()
            self.duty = seat
            return
        card = parse_card(action)
        allowed, reveals = self._situation()
        if card not in allowed:
            raise OracleError(self._why_illegal(seat, card))
        if reveals:
            self._reveal()
        self.held[seat].remove(card)
        led = self.led()
        if (
            self.mode == "cut"
            and self.trump is None
            and led is not None
            and card[1] != led
            and (not self.staged or self.stage1)
        ):
            self.trump, self.trump_active = card[1], True  # the cutting card sets trump
        self.trick.append((seat, card, self.trump_active and card[1] == self.trump))
        if self.duty == seat:
            self.duty = None
        if len(self.trick) == self.n:
            self._end_trick()

    def _why_illegal(self, seat, card):
        c = card_text(card)
        if card == self.hidden and seat == self.chooser:
            return f"seat {seat} cannot play {c}: it is the hidden trump card"
        if card not in self.held[seat]:
            return f"seat {seat} does not hold {c}"
        if self.duty == seat:
            return f"seat {seat} asked for the reveal and must follow suit or play a trump, not {c}"
        return f"seat {seat} must follow suit {self.led()}, not {c}"

    def _end_trick(self):
        led = self.led()
        if self.trump_active and led == self.trump:
            cands = [p for p in self.trick if p[1][1] == led]
        else:
            cands = [p for p in self.trick if p[2]] or [p for p in self.trick if p[1][1] == led]
        winner = max(cands, key=lambda p: p[1][0])[0]
        team = winner % 2
        self.tricks_won[team] += 1
        cards = [p[1] for p in self.trick]
        last = len(self.tricks) + 1 == self.ntricks
        collected = False
        if self.r["collection"] == "immediate":
            self.captured[team] += cards
            collected = True
        else:
            self.centre += cards
            if winner == self.run_seat:
                self.run_len += 1
            else:
                self.run_seat, self.run_len = winner, 1
            if self.run_len >= 2 or last:
                self.captured[team] += self.centre
                self.centre = []
                collected = True
                if self.run_len >= 2 and self.r["streak_resets"]:
                    self.run_len = 0
        self.tricks.append(
            {
                "leader": self.leader,
                "cards": [card_text(c) for c in cards],
                "winner": winner,
                "collected_by": winner if collected else None,
            }
        )
        self.trick = []
        self.leader = winner
        if self.stage1 and (self.trump is not None or len(self.tricks) >= 5):
            self.stage1 = False  # staged deal: the other cards arrive now
            for s in range(self.n):
                self.held[s].update(self.pending[s])
                self.pending[s] = []
        if last:
            self.finished = True
        elif self.r["scoring"] == "taash":
            self._check_early_end()

    def _check_early_end(self):
        rem = self.ntricks - len(self.tricks)
        tens = self.tens()
        unc = 4 - sum(tens)
        tw = self.tricks_won
        outcomes = set()
        for a in range(unc + 1):
            for b in range(rem + 1):
                outcomes.add(
                    taash_result([tens[0] + a, tens[1] + unc - a], [tw[0] + b, tw[1] + rem - b], self.ntricks, self.r)
                )
        if len(outcomes) == 1:
            self.finished = self.ended_early = True
            self.settled = outcomes.pop()

    def base_output(self):
        return {
            "dealer": self.dealer,
            "trump": self.trump if self.trump_active else None,
            "tricks": [dict(t, cards=list(t["cards"])) for t in self.tricks],
            "tens": self.tens(),
            "tricks_won": list(self.tricks_won),
        }


# ----------------------------------------------------------------------------- a record


def _parse_deal(h, r, where):
    n = r["players"]
    per_seat = 52 // n if n == 4 else 48 // n
    deck = make_deck(n)
    cards = h.get("cards")
    if not isinstance(cards, list) or len(cards) != n:
        raise OracleError(f"{where}: 'cards' must list {n} hands")
    deal, seen = [], set()
    for s, text in enumerate(cards):
        if not isinstance(text, str):
            raise OracleError(f"{where}: cards of seat {s} must be a string")
        try:
            hand = [parse_card(t) for t in text.split()]
        except OracleError as e:
            raise OracleError(f"{where}: seat {s}: {e}") from None
        if len(hand) != per_seat:
            raise OracleError(f"{where}: seat {s} has {len(hand)} cards, not {per_seat}")
        for c in hand:
            if c not in deck:
                raise OracleError(f"{where}: {card_text(c)} is not in the {len(deck)}-card deck")
            if c in seen:
                raise OracleError(f"{where}: duplicate card {card_text(c)}")
            seen.add(c)
        deal.append(hand)
    open_draw = None
    if r["trump"] == "open_draw":
        if "open_draw" not in h:
            raise OracleError(f"{where}: 'open_draw' missing under open-draw rules")
        try:
            open_draw = parse_card(h["open_draw"])
        except OracleError as e:
            raise OracleError(f"{where}: open_draw: {e}") from None
        if open_draw not in deck:
            raise OracleError(f"{where}: open_draw {card_text(open_draw)} is not in the deck")
    elif "open_draw" in h:
        raise OracleError(f"{where}: 'open_draw' given but trump is not open draw")
    return deal, open_draw


def _run(record):
    """Replay a record. Returns (output, unfinished last Hand or None)."""
    if not isinstance(record, dict):
        raise OracleError("a record must be a JSON object")
    if record.get("format") != "dehla-record/1":
        raise OracleError(f"format must be 'dehla-record/1', got {record.get('format')!r}")
    if "rules" not in record:
        raise OracleError("missing 'rules'")
    r = parse_rules(record["rules"])
    n = r["players"]
    first = record.get("first_dealer")
    if not _is_int(first) or not 0 <= first < n:
        raise OracleError(f"first_dealer must be a seat number 0..{n - 1}, got {first!r}")
    if "players" in record:
        names = record["players"]
        if not isinstance(names, list) or len(names) != n or not all(isinstance(x, str) for x in names):
            raise OracleError(f"'players' must list {n} names")
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise OracleError("'hands' must be a list")

    out, score = [], [0, 0]
    over, match_winner = False, None
    streak_team, streak_len = None, 0
    dealer = first
    for hi, h in enumerate(hands):
        where = f"hand {hi}"
        if over:
            raise OracleError(f"{where}: the match is already over")
        if not isinstance(h, dict):
            raise OracleError(f"{where}: a hand must be an object")
        if "dealer" in h and not (_is_int(h["dealer"]) and h["dealer"] == dealer):
            raise OracleError(f"{where}: dealer {h['dealer']!r} disagrees with the rules (dealer is {dealer})")
        deal, open_draw = _parse_deal(h, r, where)
        actions = h.get("actions")
        if not isinstance(actions, list):
            raise OracleError(f"{where}: 'actions' must be a list")
        hand = Hand(r, dealer, deal, open_draw)
        for ai, action in enumerate(actions):
            try:
                hand.apply(action)
            except OracleError as e:
                raise OracleError(f"{where}, action {ai}: {e}") from None
        if not hand.finished:
            if hi != len(hands) - 1:
                raise OracleError(f"{where}: the hand is incomplete and is not the last hand")
            res = hand.base_output()
            res.update(
                winner=None,
                sweep=False,
                whitewash=False,
                points=None,
                ended_early=False,
                next_dealer=None,
                complete=False,
            )
            out.append(res)
            return {"hands": out, "match": {"over": over, "winner": match_winner, "score": list(score)}}, hand

        tens, tw, T = hand.tens(), hand.tricks_won, hand.ntricks
        dteam = dealer % 2
        if r["scoring"] == "taash":
            winner, pts = hand.settled if hand.ended_early else taash_result(tens, tw, T, r)
            pts = list(pts)
            if winner is not None:
                score[winner] += pts[winner]
                if (tens[winner] == 4 and r["sweep_bonus"] == "match") or score[winner] >= r["target"]:
                    over, match_winner = True, winner
            nd = dealer + 1
        elif r["scoring"] == "pagat":
            winner = (0 if tens[0] > tens[1] else 1) if tens[0] != tens[1] else 1 - dteam
            pts = [1, 0] if winner == 0 else [0, 1]
            if streak_team == winner:
                streak_len += 1
            else:
                streak_team, streak_len = winner, 1
            if tens[winner] == 4 or (r["streak_kot"] > 0 and streak_len >= r["streak_kot"]):
                score[winner] += 1  # a kot; both streaks restart
                streak_team, streak_len = None, 0
            if score[winner] >= r["target"]:
                over, match_winner = True, winner
            nd = dealer + 1 if winner == dteam else dealer
        else:  # mendikot
            if tens[0] != tens[1]:
                winner = 0 if tens[0] > tens[1] else 1
            elif tw[0] != tw[1]:
                winner = 0 if tw[0] > tw[1] else 1
            else:
                winner = None
            pts = [0, 0]
            if winner is not None:
                pts[winner] = 1
                score[winner] += 1
                if score[winner] >= r["target"]:
                    over, match_winner = True, winner
            if winner is None or winner == dteam:
                nd = dealer + 1
            elif tw[dteam] == 0:
                nd = dealer + 2 if r["after_whitewash"] == "partner" else dealer + 1
            else:
                nd = dealer
        if r["rotation"] == "simple":
            nd = dealer + 1
        nd = None if over else nd % n
        res = hand.base_output()
        res.update(
            winner=winner,
            sweep=winner is not None and tens[winner] == 4,
            whitewash=not hand.ended_early and T in tw,
            points=pts,
            ended_early=hand.ended_early,
            next_dealer=nd,
        )
        out.append(res)
        if nd is not None:
            dealer = nd
    return {"hands": out, "match": {"over": over, "winner": match_winner, "score": list(score)}}, None


def replay_record(record):
    try:
        return _run(record)[0]
    except OracleError as e:
        return {"error": str(e)}


def legal_actions(record):
    """Legal next actions of the unfinished last hand, or None when there is none."""
    _out, hand = _run(record)
    return None if hand is None else hand.legal_actions()
