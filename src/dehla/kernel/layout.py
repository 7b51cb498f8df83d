"""One row layout and one parameter vector for every compiled kernel, with named offsets.

A row is one hand as int64 words.  The words both kernels read come first (``0 .. COMMON_END``); then the
solver's own words (``COMMON_END .. SOLVER_END``: its search copies only the row up to ``SOLVER_END`` from
ply to ply), then the batch simulator's (``SOLVER_END .. ROW``: the phase, the dealer, the captures as
masks, the logs).  A kernel never reads the other's words.

Cards are ints 0..51 (suit = card // 13), sets of cards 52-bit masks, -1 stands for "none".

The parameter vector is laid out the same way: the rules both kernels read, the solver's search settings,
the batch simulator's settings, and after ``NPARAMS`` the batch's table of hand results
(``dehla.kernel.scoring``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from dehla.engine.tricks import NOT_YET, OPENING_PACKET, STAGED_TRICKS

__all__ = ["ROW", "SOLVER_END", "NPARAMS", "Array"]

Array = npt.NDArray[np.int64]


# The row: the words both kernels read ---------------------------------------------------------------------
TO_ACT = 0  # -1 once the hand is over (batch)
LEADER = 1
LED = 2  # the suit led (meaningful while TLEN > 0)
TLEN = 3  # cards in the trick in progress
TRUMP = 4  # -1: no trump known to everybody
TFROM = 5  # trump counts for the trick's cards from this index (NOT_YET: none does)
CUT_OPEN = 6  # cut trump: the next card played off-suit sets trump
STAGED = 7  # a staged deal whose other cards are still to come
HIDDEN = 8  # the band-hukum card while face down, else -1
MUST_TRUMP = 9  # the seat to act asked for the reveal and must play a trump if it holds one
FREE_PLAY = 10  # the seat to act may play any card (automatic reveal at its turn)
LASTW = 11  # the seat that collects the centre if it wins the next trick too, else -1
K0 = 12  # tricks won per team
K1 = 13
NPLAYED = 14  # finished tricks
H0 = 15  # hands[0..7]: the cards each seat may play from
PN0 = 23  # pending[0..7]: the cards a staged deal has still to give each seat
C0 = 31  # the trick in progress, in play order
COMMON_END = 39

# The solver's words ----------------------------------------------------------------------------------------
CTENS = 39  # tens waiting in the centre
T0 = 40  # tens collected per team
T1 = 41
DONE = 42  # the level of a hand settled early (Taash), else -1
LIVE = 43  # every card not yet out of play: hands, still to be dealt, hidden, in the trick
RELWIN = 44  # the card that won the trick just finished *by rank* (it beat a card of its kind), else -1
SOLVER_END = 45

# The batch simulator's words ---------------------------------------------------------------------------------
PHASE = 45  # PH_CALL, PH_HIDE, PH_PLAY, PH_DONE
DEALER = 46
CHOOSER = 47  # the seat that chose the band-hukum card, else -1
REVEALED = 48
OPEN_DRAW = 49
CENTRE = 50  # mask of the cards waiting in the centre
CAP0 = 51  # masks of the cards each team collected
CAP1 = 52
TMASK = 53  # mask of the trick in progress
WINNER = 54  # the hand's winning team, -1 for nobody (valid once PHASE == PH_DONE)
PTS0 = 55
PTS1 = 56
EARLY = 57
SWEEP = 58
WHITEWASH = 59
RNG = 60  # the splitmix64 state of the hand's stream
NACTIONS = 61  # actions taken in the hand (ACTLOG entries)
SEED = 62
MSCORE0 = 63  # the match after this hand, as the first of a new match: each team's score,
MSCORE1 = 64
MSTREAK0 = 65  # its hand wins in a row (Pagat),
MSTREAK1 = 66
MOVER = 67  # and whether it is over
NEXT_DEALER = 68  # who deals next (``scoring.next_dealer``), -1 once the match is over
TL_LEADER = 69  # per finished trick (13): its leader,
TL_WINNER = 82  # its winner,
TL_COLLECTED = 95  # the seat whose team collected at it, or -1
ORDER = 108  # every card played, in play order (trick * players + position), 52 slots
ACTLOG = 160  # the hand's action codes in order, 56 slots
ROW = 216

PH_CALL = 0
PH_HIDE = 1
PH_PLAY = 2
PH_DONE = 3

# The parameter vector: the rules both kernels read -------------------------------------------------------------
P_N = 0  # players
P_TRICKS = 1  # tricks per hand
P_IMMEDIATE = 2  # each trick goes to its winner's team at once
P_STREAK_RESETS = 3
P_REVEAL = 4  # REVEAL_NONE, REVEAL_ASKED (hidden), REVEAL_AUTO (hidden_auto)
P_EARLY_END = 5
P_STAGED_LIMIT = 6  # tricks after which a staged deal is completed anyway

# The solver's settings -----------------------------------------------------------------------------------------
P_CHOOSER = 7  # the seat that chose the band-hukum card (0 when none)
P_ABS = 8  # absolute mode: the table keys hold the captures
P_W = 9  # the weight of a ten in ``s``
P_USES_TRICKS = 10
P_HB = 11  # bits per holder code in table keys
P_GEN = 12  # the table generation of this solve
P_CENTRE_OUT = 13  # 1: relative mode keeps the centre's tens out of the table key
P_NODE_LIMIT = 14  # stop once the node count passes this; 0 = no limit
P_PARTITION = 15  # 1: table entries cover every position that differs only in irrelevant low cards
P_LB = 16  # bits per count in the suit-length words of a key
P_CAPS = 17  # 1: bound what a team can still collect by the tricks it can still win
P_ETC = 18  # 1: enhanced transposition cutoffs

# The batch simulator's settings ----------------------------------------------------------------------------------
P_TRUMP = 19  # TR_CALLED .. TR_OPEN
P_STAGED = 20
P_DECK = 21  # 52 or 48
P_HAND = 22  # cards per seat
P_REWARD = 23  # RW_WIN or RW_POINTS
P_TARGET = 24
P_STREAK_SCALE = 25  # the encoding's divisor for streaks
NPARAMS = 26
#: The batch's table of hand results starts here (``dehla.kernel.scoring.RESULTS_SIZE`` words).
P_RESULTS = NPARAMS

REVEAL_NONE = 0
REVEAL_ASKED = 1
REVEAL_AUTO = 2

TR_CALLED = 0
TR_CUT = 1
TR_HIDDEN = 2
TR_HIDDEN_AUTO = 3
TR_OPEN = 4

RW_WIN = 0  # +1 to the winning team, -1 to the other, 0 to both for nobody
RW_POINTS = 1  # a team's points for the hand minus the other team's

SUIT = 0x1FFF
TENS = (1 << 8) | (1 << 21) | (1 << 34) | (1 << 47)
NONE_YET = NOT_YET
OPENING = OPENING_PACKET
STAGED_LIMIT = STAGED_TRICKS


# A playout's result (``dehla.kernel.playout``): the winning team (-1 nobody), each team's points, each team's tens.
RESULT_WORDS = 5
R_WINNER = 0
R_PTS0 = 1
R_PTS1 = 2
R_TENS0 = 3
R_TENS1 = 4
