"""Self-checks of the spec oracle on hand-built and randomly generated legal records."""

import os
import random
import sys

import pytest

try:
    from .spec_oracle import HAND_FIELDS, legal_actions, replay_record
except ImportError:  # imported outside the package
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from spec_oracle import HAND_FIELDS, legal_actions, replay_record

FORMAT = "dehla-record/1"
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
PLAYERS = {"mendikot-6": 6, "mendikot-8": 8}


# ----------------------------------------------------------------------------- helpers


def nplayers(rules):
    if isinstance(rules, dict):
        return rules.get("players", PLAYERS.get(rules["preset"], 4))
    return PLAYERS.get(rules, 4)


def preset(rules):
    return rules["preset"] if isinstance(rules, dict) else rules


def deck(n=4):
    ranks = RANKS if n == 4 else RANKS[:-1]
    return [r + s for s in "SHDC" for r in ranks]


def deal(rng, n=4, fixed=None):
    """Random deal; fixed[seat] = cards listed first (in that order) for that seat."""
    fixed = fixed or {}
    rest = [c for c in deck(n) if not any(c in f for f in fixed.values())]
    rng.shuffle(rest)
    per = len(deck(n)) // n
    hands = []
    for s in range(n):
        h = list(fixed.get(s, []))
        while len(h) < per:
            h.append(rest.pop())
        hands.append(" ".join(h))
    return hands


def record(rules, first_dealer, hands):
    return {"format": FORMAT, "rules": rules, "first_dealer": first_dealer, "hands": hands}


def hand(cards, actions, dealer=None, open_draw=None):
    h = {"cards": cards, "actions": list(actions)}
    if dealer is not None:
        h["dealer"] = dealer
    if open_draw is not None:
        h["open_draw"] = open_draw
    return h


def finish_hand(rules, dealer, h, rng):
    """Append random legal actions (from the oracle's own legality) until the hand ends."""
    while True:
        acts = legal_actions(record(rules, dealer, [h]))
        if not acts:
            return h
        h["actions"].append(rng.choice(acts))


def random_hand(rules, dealer, rng):
    n = nplayers(rules)
    od = (
        rng.choice(deck(n))
        if preset(rules) == "mendikot-open" or (isinstance(rules, dict) and rules.get("trump") == "open_draw")
        else None
    )
    return finish_hand(rules, dealer, hand(deal(rng, n), [], dealer=dealer, open_draw=od), rng)


def play_match(rules, seed, first_dealer=0, max_hands=40):
    rng = random.Random(seed)
    rec = record(rules, first_dealer, [])
    dealer = first_dealer
    for _ in range(max_hands):
        rec["hands"].append(random_hand(rules, dealer, rng))
        out = replay_record(rec)
        assert "error" not in out, out
        if out["match"]["over"]:
            break
        dealer = out["hands"][-1]["next_dealer"]
    return rec, out


def tens_in(cards):
    return sum(1 for c in cards if c.startswith("10"))


HAND_KEYS = set(HAND_FIELDS)


# ----------------------------------------------------------------------------- seed examples


def test_seed_000_004_worked_example():
    # Diamonds trump, order A B C D = seats 0 1 2 3 (dealer 3, seat 0 calls and leads).
    fixed = {0: ["AH", "AS"], 1: ["10H", "QS"], 2: ["3H", "2S"], 3: ["7H", "10S"]}
    cards = deal(random.Random(1), 4, fixed)
    acts = ["call D", "AH", "10H", "3H", "7H", "AS", "QS", "2S", "10S"]
    out = replay_record(record("pagat", 3, [hand(cards, acts)]))
    h = out["hands"][0]
    assert h["complete"] is False
    assert h["trump"] == "D"
    assert h["tricks"][0] == {"leader": 0, "cards": ["AH", "10H", "3H", "7H"], "winner": 0, "collected_by": None}
    assert h["tricks"][1] == {"leader": 0, "cards": ["AS", "QS", "2S", "10S"], "winner": 0, "collected_by": 0}
    assert h["tens"] == [2, 0]
    # Had partner C won the second trick, the centre stays common.
    fixed2 = {0: ["AH", "QS"], 1: ["10H", "3S"], 2: ["3H", "AS"], 3: ["7H", "10S"]}
    cards2 = deal(random.Random(2), 4, fixed2)
    out2 = replay_record(
        record("pagat", 3, [hand(cards2, ["call D", "AH", "10H", "3H", "7H", "QS", "3S", "AS", "10S"])])
    )
    assert [t["collected_by"] for t in out2["hands"][0]["tricks"]] == [None, None]
    assert out2["hands"][0]["tens"] == [0, 0]
    # Finishing the hand keeps the example and gives a complete hand.
    h0 = finish_hand("pagat", 3, hand(cards, acts), random.Random(3))
    full = replay_record(record("pagat", 3, [h0]))["hands"][0]
    assert set(full) == HAND_KEYS
    assert full["tricks"][:2] == h["tricks"]
    assert len(full["tricks"]) == 13 and sum(full["tens"]) == 4


def test_seed_001_partner_collects_24_cards():
    cards = [
        "AH 2C 10D 3S 5H 7C",
        "2H AC 2D 4S KH KC",
        "3H 3C AD 2S 6H 5C",
        "10H 4C 3D AS 4H 6C",
    ]
    cards = deal(random.Random(5), 4, {s: c.split() for s, c in enumerate(cards)})
    acts = [
        "call S",
        "AH",
        "2H",
        "3H",
        "10H",  # seat 0 wins
        "2C",
        "AC",
        "3C",
        "4C",  # seat 1 wins
        "2D",
        "AD",
        "3D",
        "10D",  # seat 2 wins
        "2S",
        "AS",
        "3S",
        "4S",  # seat 3 wins
        "4H",
        "5H",
        "KH",
        "6H",  # seat 1 wins trick 5
        "KC",
        "5C",
        "6C",
        "7C",
    ]  # seat 1 wins trick 6 and collects all 24 cards
    h = replay_record(record("pagat", 3, [hand(cards, acts)]))["hands"][0]
    assert [t["winner"] for t in h["tricks"]] == [0, 1, 2, 3, 1, 1]
    assert [t["collected_by"] for t in h["tricks"]] == [None] * 5 + [1]
    assert h["tens"] == [0, 2]
    assert h["tricks_won"] == [2, 4]
    collected = sum(len(t["cards"]) for t in h["tricks"])
    assert collected == 24


def test_seed_003_lone_trump_cut_wins():
    fixed = {0: ["4H"], 1: ["10H"], 2: ["2S", "5C", "6C", "7D", "8D"], 3: ["KH"]}
    cards = deal(random.Random(7), 4, fixed)
    h0 = hand(cards, ["4H", "10H", "2S", "KH"])
    h = replay_record(record("taash", 3, [h0]))["hands"][0]
    assert h["trump"] == "S"
    assert h["tricks"][0] == {"leader": 0, "cards": ["4H", "10H", "2S", "KH"], "winner": 2, "collected_by": 2}
    assert h["tens"] == [1, 0]
    # After the trump trick every seat has its other 8 cards: 12 legal plays are possible later.
    finish_hand("taash", 3, h0, random.Random(8))
    full = replay_record(record("taash", 3, [h0]))["hands"][0]
    assert "complete" not in full and full["trump"] == "S"


def test_staged_deal_cards_not_dealt_cannot_be_played():
    cards = deal(random.Random(9), 4, {0: ["AH", "KH", "QH", "JH", "9H"], 1: ["2H"]})
    # seat 1's sixth card is not dealt before trump is set
    sixth = cards[1].split()[5]
    out = replay_record(record("pagat-cut", 3, [hand(cards, ["AH", sixth])]))
    assert "error" in out and "hand 0, action 1" in out["error"]


# ----------------------------------------------------------------------------- Taash early end


def test_taash_early_end_after_all_tens_collected():
    fixed = {
        0: ["AH", "AD", "AC", "AS"],
        1: ["10H", "10D", "10C", "10S"],
        2: ["2H", "2D", "2C", "2S"],
        3: ["3H", "3D", "3C", "3S"],
    }
    cards = deal(random.Random(11), 4, fixed)
    acts = ["AH", "10H", "2H", "3H", "AD", "10D", "2D", "3D", "AC", "10C", "2C", "3C", "AS", "10S", "2S", "3S"]
    out = replay_record(record("taash", 3, [hand(cards, acts)]))
    h = out["hands"][0]
    assert h["ended_early"] is True and len(h["tricks"]) == 4
    assert h["tens"] == [4, 0] and h["tricks_won"] == [4, 0]
    assert h["winner"] == 0 and h["points"] == [80, 0] and h["sweep"] is True
    assert h["whitewash"] is False and h["next_dealer"] == 0
    assert out["match"] == {"over": False, "winner": None, "score": [80, 0]}
    # after three tricks (3-0 tens, one ten still out) the hand is not over
    out3 = replay_record(record("taash", 3, [hand(cards, acts[:12])]))
    assert out3["hands"][0]["complete"] is False
    # no action may follow an early end
    bad = replay_record(record("taash", 3, [hand(cards, [*acts, cards[0].split()[4]])]))
    assert "error" in bad and "hand 0, action 16" in bad["error"]
    # sweep bonus variants
    d = replay_record(record({"preset": "taash", "sweep_bonus": "double"}, 3, [hand(cards, acts)]))
    assert d["hands"][0]["points"] == [160, 0]
    m = replay_record(record({"preset": "taash", "sweep_bonus": "match"}, 3, [hand(cards, acts)]))
    assert m["match"] == {"over": True, "winner": 0, "score": [80, 0]}
    assert m["hands"][0]["next_dealer"] is None
    # trick minimum: 4 tens but only 4 tricks so far -> not settled yet
    t = replay_record(record({"preset": "taash", "trick_minimum": True}, 3, [hand(cards, acts)]))
    assert t["hands"][0]["complete"] is False


def _independent_taash(tens, tw, total, trick_minimum):
    if tens[0] == tens[1]:
        if tw[0] == tw[1]:
            return None, [0, 0]
        w = 0 if tw[0] > tw[1] else 1
        p = 20
    else:
        w = 0 if tens[0] > tens[1] else 1
        p = {4: 80, 3: 30}[tens[w]]
        if trick_minimum and tw[w] * 2 <= total:
            return None, [0, 0]
    return w, [p if w == 0 else 0, p if w == 1 else 0]


@pytest.mark.parametrize(
    "rules",
    ["taash", "taash-b2b", {"preset": "taash", "trick_minimum": True}, {"preset": "taash-b2b", "trick_minimum": True}],
)
def test_taash_early_end_is_exactly_when_settled(rules):
    rng = random.Random(17)
    hands = [replay_record(record(rules, d % 4, [random_hand(rules, d % 4, rng)]))["hands"][0] for d in range(30)]
    tm = isinstance(rules, dict)
    early = 0
    for h in hands:
        k = len(h["tricks"])
        early += h["ended_early"]
        assert h["ended_early"] == (k < 13)
        # replay the trick list: what was settled after each trick?
        for j in range(1, k + 1):
            prefix = h["tricks"][:j]
            tw = [sum(1 for t in prefix if t["winner"] % 2 == x) for x in (0, 1)]
            # collected tens: count tens in collected packets (centre handled by walking)
            centre, tens = [], [0, 0]
            for t in prefix:
                centre += t["cards"]
                if t["collected_by"] is not None:
                    tens[t["collected_by"] % 2] += tens_in(centre)
                    centre = []
            u, r = 4 - sum(tens), 13 - j
            res = {
                str(_independent_taash([tens[0] + a, tens[1] + u - a], [tw[0] + b, tw[1] + r - b], 13, tm))
                for a in range(u + 1)
                for b in range(r + 1)
            }
            if j < k:
                assert len(res) > 1
            elif h["ended_early"]:
                assert len(res) == 1 and [tens, tw] == [h["tens"], h["tricks_won"]]
                assert res == {str((h["winner"], h["points"]))}
    assert early > 0


# ----------------------------------------------------------------------------- band hukum


def _band_cards(seed):
    # seat 0 (chooser, leads) has AH and hides 5S; seat 1 has no hearts but has 2S and clubs
    rng = random.Random(seed)
    hearts = [r + "H" for r in RANKS if r not in ("A", "3", "4")]
    fixed = {0: ["AH", "5S", *hearts[:5]], 1: ["2S", "3C", "4C"], 2: ["3H", *hearts[5:8]], 3: ["4H", *hearts[8:]]}
    rest = [c for c in deck() if not any(c in f for f in fixed.values()) and not c.endswith("H")]
    rng.shuffle(rest)
    hands = []
    for s in range(4):
        h = list(fixed[s])
        while len(h) < 13:
            h.append(rest.pop())
        hands.append(" ".join(h))
    return hands


def test_band_hukum_requested_reveal():
    cards = _band_cards(1)
    acts = ["hide 5S", "AH", "reveal", "2S", "3H", "4H"]
    out = replay_record(record("mendikot-band", 3, [hand(cards, acts)]))
    h = out["hands"][0]
    assert h["trump"] == "S"
    assert h["tricks"][0] == {"leader": 0, "cards": ["AH", "2S", "3H", "4H"], "winner": 1, "collected_by": 1}
    # the asker must play a trump if it holds one
    bad = replay_record(record("mendikot-band", 3, [hand(cards, ["hide 5S", "AH", "reveal", "3C"])]))
    assert "error" in bad and "action 3" in bad["error"]
    # the leader may not ask, nor a player who can follow, nor twice
    for acts_bad, idx in (
        (["hide 5S", "reveal"], 1),
        (["hide 5S", "AH", "2S", "reveal"], 3),
        (["hide 5S", "AH", "reveal", "2S", "reveal"], 4),
    ):
        bad = replay_record(record("mendikot-band", 3, [hand(cards, acts_bad)]))
        assert "error" in bad and f"action {idx}" in bad["error"], (acts_bad, bad)
    # the returned card is back in the chooser's hand and the hand completes
    h1 = finish_hand("mendikot-band", 3, hand(cards, acts), random.Random(2))
    full = replay_record(record("mendikot-band", 3, [h1]))["hands"][0]
    assert "complete" not in full and full["trump"] == "S"
    assert any("5S" in t["cards"] for t in full["tricks"])


def test_band_hukum_hidden_suit_is_not_trump_before_reveal():
    cards = _band_cards(3)
    out = replay_record(record("mendikot-band", 3, [hand(cards, ["hide 5S", "AH", "2S", "3H", "4H"])]))
    h = out["hands"][0]
    assert h["tricks"][0]["winner"] == 0 and h["trump"] is None
    bad = replay_record(record("mendikot-band", 3, [hand(cards, ["hide 5S", "AH", "2S", "3H", "4H", "5S"])]))
    assert "error" in bad and "action 5" in bad["error"] and "hidden" in bad["error"]


def test_band_hukum_automatic_reveal():
    cards = _band_cards(4)
    # seat 1 cannot follow: the card turns up, seat 1 may still play any card (a club here)
    out = replay_record(record("mendikot-band-auto", 3, [hand(cards, ["hide 5S", "AH", "3C", "3H", "4H"])]))
    h = out["hands"][0]
    assert h["trump"] == "S" and h["tricks"][0]["winner"] == 0
    bad = replay_record(record("mendikot-band-auto", 3, [hand(cards, ["hide 5S", "AH", "reveal"])]))
    assert "error" in bad and "action 2" in bad["error"]
    h1 = finish_hand("mendikot-band-auto", 3, hand(cards, ["hide 5S"]), random.Random(5))
    full = replay_record(record("mendikot-band-auto", 3, [h1]))["hands"][0]
    assert "complete" not in full and full["trump"] == "S"


@pytest.mark.parametrize("seed", range(6))
def test_band_hukum_chooser_plays_hidden_card_last(seed):
    # Nobody asks: the chooser keeps its hidden card until it has nothing else, at trick 13,
    # where it is revealed, played, and counts as trump.
    rng = random.Random(seed)
    cards = deal(rng)
    hidden = cards[0].split()[seed]
    h0 = hand(cards, ["hide " + hidden], dealer=3)
    while True:
        acts = legal_actions(record("mendikot-band", 3, [h0]))
        if not acts:
            break
        h0["actions"].append(rng.choice([a for a in acts if a != "reveal"]))
    h = replay_record(record("mendikot-band", 3, [h0]))["hands"][0]
    assert "complete" not in h and h["trump"] == hidden[-1]
    assert all(hidden not in t["cards"] for t in h["tricks"][:-1])
    last = h["tricks"][-1]
    pos = last["cards"].index(hidden)
    led, trump = last["cards"][0][-1], hidden[-1]
    value = {r: 14 - i for i, r in enumerate(RANKS)}
    if led == trump:
        cands = [i for i, c in enumerate(last["cards"]) if c[-1] == led]
    else:
        cands = [i for i, c in enumerate(last["cards"]) if i >= pos and c[-1] == trump]
    best = max(cands, key=lambda i: value[last["cards"][i][:-1]])
    assert last["winner"] == (last["leader"] + best) % 4
    assert (last["leader"] + pos) % 4 == 0


# ----------------------------------------------------------------------------- hand results


def _find_hands(rules, pred, seed, tries=300):
    rng = random.Random(seed)
    found = []
    for _i in range(tries):
        dealer = rng.randrange(nplayers(rules))
        h = random_hand(rules, dealer, rng)
        out = replay_record(record(rules, dealer, [h]))
        hh = out["hands"][0]
        if pred(hh):
            found.append(hh)
            if len(found) >= 3:
                break
    return found


def test_mendikot_2_2_decided_by_tricks():
    found = _find_hands("mendikot", lambda h: h["tens"] == [2, 2], seed=21)
    assert found
    for h in found:
        more = 0 if h["tricks_won"][0] > h["tricks_won"][1] else 1
        assert h["winner"] == more and h["points"][more] == 1 and sum(h["points"]) == 1
        d = h["dealer"]
        assert h["next_dealer"] == ((d + 1) % 4 if more == d % 2 else d)
        # tens and tricks recomputed from the trick list (immediate collection)
        assert [sum(1 for t in h["tricks"] if t["winner"] % 2 == x) for x in (0, 1)] == h["tricks_won"]
        assert [sum(tens_in(t["cards"]) for t in h["tricks"] if t["winner"] % 2 == x) for x in (0, 1)] == h["tens"]


def test_pagat_2_2_goes_to_non_dealing_team():
    found = _find_hands("pagat", lambda h: h["tens"] == [2, 2], seed=22)
    assert found
    for h in found:
        d = h["dealer"]
        assert h["winner"] == 1 - d % 2
        assert h["next_dealer"] == d  # the non-dealing team won: same dealer
        assert h["sweep"] is False


def test_mendikot_6_drawn_hand():
    found = _find_hands("mendikot-6", lambda h: h["tens"] == [2, 2] and h["tricks_won"] == [4, 4], seed=23, tries=400)
    assert found
    for h in found:
        assert h["winner"] is None and h["points"] == [0, 0]
        assert h["next_dealer"] == (h["dealer"] + 1) % 6


def test_pagat_streak_kot():
    rules = {"preset": "pagat", "streak_kot": 2, "target": 2}
    _rec, out = play_match(rules, seed=31, max_hands=60)
    assert out["match"]["over"]
    kots, team, run = [0, 0], None, 0
    for h in out["hands"]:
        w = h["winner"]
        run = run + 1 if team == w else 1
        team = w
        if h["tens"][w] == 4 or run >= 2:
            kots[w] += 1
            team, run = None, 0
    assert kots == out["match"]["score"] and max(kots) == 2


# ----------------------------------------------------------------------------- dealer rotation


@pytest.mark.parametrize(
    "rules",
    ["pagat", "pagat-cut", {"preset": "pagat", "target": 3}, {"preset": "pagat", "rotation": "simple", "target": 2}],
)
def test_rotation_pagat_family(rules):
    _rec, out = play_match(rules, seed=41, first_dealer=2)
    simple = isinstance(rules, dict) and rules.get("rotation") == "simple"
    assert out["hands"][0]["dealer"] == 2
    for i, h in enumerate(out["hands"]):
        d = h["dealer"]
        if h["next_dealer"] is None:
            assert out["match"]["over"] and i == len(out["hands"]) - 1
            continue
        expect = (d + 1) % 4 if simple or h["winner"] == d % 2 else d
        assert h["next_dealer"] == expect
        assert out["hands"][i + 1]["dealer"] == expect


@pytest.mark.parametrize("rules", ["taash", "taash-b2b"])
def test_rotation_taash_family(rules):
    _rec, out = play_match(rules, seed=42, first_dealer=1)
    assert out["match"]["over"]
    w = out["match"]["winner"]
    assert out["match"]["score"][w] >= 100
    for i, h in enumerate(out["hands"][:-1]):
        assert h["next_dealer"] == (h["dealer"] + 1) % 4 == out["hands"][i + 1]["dealer"]
    assert out["hands"][-1]["next_dealer"] is None


@pytest.mark.parametrize(
    "rules", ["mendikot", "mendikot-band", "mendikot-band-auto", "mendikot-open", "mendikot-6", "mendikot-8"]
)
def test_rotation_mendikot_family(rules):
    _rec, out = play_match(rules, seed=43, first_dealer=0)
    n = nplayers(rules)
    assert out["match"]["over"] and max(out["match"]["score"]) == 5
    for i, h in enumerate(out["hands"][:-1]):
        d = h["dealer"]
        if h["winner"] is None or h["winner"] == d % 2:
            expect = (d + 1) % n
        elif h["tricks_won"][d % 2] == 0:
            expect = (d + 2) % n
        else:
            expect = d
        assert h["next_dealer"] == expect == out["hands"][i + 1]["dealer"]


@pytest.mark.parametrize("after,step", [("partner", 2), (None, 2), ("next", 1)])
def test_mendikot_whitewash_passes_deal(after, step):
    # open draw, spades trump; seat 0 (dealer+1, leader) holds all 13 spades and wins every trick
    rng = random.Random(51)
    others = [c for c in deck() if not c.endswith("S")]
    rng.shuffle(others)
    cards = [" ".join(r + "S" for r in RANKS), " ".join(others[:13]), " ".join(others[13:26]), " ".join(others[26:])]
    rules = "mendikot-open" if after is None else {"preset": "mendikot-open", "after_whitewash": after}
    h = finish_hand(rules, 3, hand(cards, [], open_draw="7S"), rng)
    out = replay_record(record(rules, 3, [h]))["hands"][0]
    assert out["tricks_won"] == [13, 0] and out["whitewash"] and out["sweep"]
    assert out["winner"] == 0 and out["next_dealer"] == (3 + step) % 4
    # simple rotation ignores all that
    simple = replay_record(record({"preset": "mendikot-open", "rotation": "simple"}, 3, [h]))
    assert simple["hands"][0]["next_dealer"] == 0


# ----------------------------------------------------------------------------- broken records


def _good_pagat():
    h = finish_hand("pagat", 3, hand(deal(random.Random(61)), []), random.Random(62))
    h2 = hand(deal(random.Random(63)), [])
    return h, h2


def test_errors():
    h, h2 = _good_pagat()
    ok = record("pagat", 3, [h])
    assert "error" not in replay_record(ok)

    def err(rec):
        out = replay_record(rec)
        assert set(out) == {"error"}, out
        return out["error"]

    assert "hand 0" in err(record("pagat", 3, [dict(h, cards=h["cards"][:3])]))
    dup = list(h["cards"])
    dup[0] = dup[0].replace(dup[0].split()[0], dup[1].split()[0])
    assert "duplicate" in err(record("pagat", 3, [dict(h, cards=dup)]))
    short = list(h["cards"])
    short[2] = " ".join(short[2].split()[:12])
    assert "hand 0" in err(record("pagat", 3, [dict(h, cards=short)]))
    assert "hand 0" in err(record("mendikot-6", 3, [dict(h)]))  # wrong deck/count
    assert "hand 0, action 0" in err(record("pagat", 3, [dict(h, actions=h["actions"][1:])]))
    assert "hand 0, action 53" in err(record("pagat", 3, [dict(h, actions=h["actions"] + ["call S"])]))
    assert "hand 0" in err(record("pagat", 3, [dict(h, actions=h["actions"][:-1]), h2]))
    assert "dealer" in err(record("pagat", 3, [dict(h, dealer=0)]))
    assert "error" not in replay_record(record("pagat", 3, [dict(h, dealer=3)]))
    assert "open_draw" in err(record("pagat", 3, [dict(h, open_draw="AS")]))
    assert "open_draw" in err(record("mendikot-open", 3, [hand(h["cards"], [])]))
    assert "preset" in err(record("bridge", 3, [h]))
    assert "option" in err(record({"preset": "pagat", "trumps": "cut"}, 3, [h]))
    assert "staged" in err(record({"preset": "taash", "trump": "called"}, 3, [h]))
    assert err(record({"preset": "taash", "target": 0}, 3, []))
    assert err({"format": "dehla-record/2", "rules": "pagat", "first_dealer": 0, "hands": []})
    assert err({"format": FORMAT, "rules": "pagat", "hands": []})
    assert err(record("pagat", 4, []))
    # illegal: not following suit
    cards = deal(random.Random(64), 4, {0: ["AH"], 1: ["KH", "2C"]})
    assert "hand 0, action 2" in err(record("pagat", 3, [hand(cards, ["call S", "AH", "2C"])]))
    assert "hand 0, action 2" in err(record("pagat", 3, [hand(cards, ["call S", "AH", "AH"])]))
    # hands after the match is over (pagat target 1: play until a kot)
    rec, out = play_match("pagat", seed=65)
    assert out["match"]["over"]
    rec["hands"].append(hand(deal(random.Random(66)), [], dealer=None))
    assert "over" in err(rec)


def test_input_card_spellings():
    base = deal(random.Random(71), 4, {0: ["AH"], 1: ["10H"], 2: ["3H"], 3: ["7H"]})
    spelled = list(base)
    spelled[1] = spelled[1].replace("10H", "Th")
    spelled[0] = spelled[0].replace("AH", "a\u2665")
    out = replay_record(record("pagat", 3, [hand(spelled, ["call \u2666", "ah", "t\u2665", "3h", "7H"])]))
    h = out["hands"][0]
    assert h["trump"] == "D" and h["tricks"][0]["cards"] == ["AH", "10H", "3H", "7H"]


@pytest.mark.parametrize(
    "rules",
    [
        "pagat",
        "pagat-cut",
        "taash",
        "taash-b2b",
        "mendikot",
        "mendikot-band",
        "mendikot-band-auto",
        "mendikot-open",
        "mendikot-6",
        "mendikot-8",
        {"preset": "pagat", "streak_resets": False, "target": 2},
    ],
)
def test_random_matches_are_consistent(rules):
    _rec, out = play_match(rules, seed=81, first_dealer=1)
    n = nplayers(rules)
    for hh in out["hands"]:
        assert set(hh) == HAND_KEYS
        total = 52 // n if n == 4 else 48 // n
        if not hh["ended_early"]:
            assert len(hh["tricks"]) == total
        assert [sum(1 for t in hh["tricks"] if t["winner"] % 2 == x) for x in (0, 1)] == hh["tricks_won"]
        seen = [c for t in hh["tricks"] for c in t["cards"]]
        assert len(seen) == len(set(seen))
        for t in hh["tricks"]:
            assert len(t["cards"]) == n
        # recompute tens from collections
        centre, tens = [], [0, 0]
        for t in hh["tricks"]:
            centre += t["cards"]
            if t["collected_by"] is not None:
                assert t["collected_by"] == t["winner"]
                tens[t["collected_by"] % 2] += tens_in(centre)
                centre = []
        assert tens == hh["tens"]
        if not hh["ended_early"]:
            assert centre == [] and sum(tens) == 4
        assert hh["tricks"][-1]["collected_by"] is not None or hh["ended_early"]
