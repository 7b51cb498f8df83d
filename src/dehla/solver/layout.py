"""The solver's own layout: its part of a row, the per-ply work row of the search stack, the statistics.

The rows are ``dehla.kernel.layout``'s, of which the search keeps and copies the words up to ``SOLVER_END``
(``ROW``).  ``work[ply]`` holds a node's candidate moves, keys and answers (``W_*``); ``stats`` counts what
the search did, at the named offsets ``ST_*``, then the history of refuting cards (``HIST``).
"""

from __future__ import annotations

from dehla.kernel.layout import SOLVER_END

#: The solver's row: the layout's words up to its own (``dehla.kernel.layout``); copy-make copies these.
ROW = SOLVER_END
MAXPLY = 128

REVEAL_MOVE = 52
# Per-ply work row of the explicit search stack.
W_MOVES = 0  # 16 candidate moves
W_COUNT = 16
W_NEXT = 17
W_BEST = 18
W_MAX = 19
W_BOUNDARY = 20
W_BOUND = 21
W_ENTRY = 22  # table slot that matched (or -1)
W_REL = 23  # relevant cards of the node's answer (see ``_query``)
W_KEY = 24  # the table key's words (``table.KEYW``)
W_PAT = 29  # the suit patterns' words (``table.PATW``)
W_SCORES = 33  # 16 move-ordering scores
W_KILLER = 49  # the move that last refuted a node at this ply (tried early at its siblings and cousins)
W_VAL = 50  # an answered node's bound on the final ``s``: at least this (answer 1) or at most this (answer 0)
W_ACC = 51  # while a node's moves run: the loosest child bound so far (see ``_query``)
W_SIZE = 52
UNBOUNDED = 1 << 40

# stats: what the search did, then the history of refuting cards.
ST_NODES = 0  # nodes
ST_BOUNDARY_NODES = 1  # trick-boundary nodes
ST_TABLE_HITS = 2  # table probes that answered
ST_LIMIT_REACHED = 3  # 1 once the node limit stopped the search
ST_ENTRIES_WALKED = 4  # table entries looked at
ST_SHAPES_FOUND = 5  # table probes that found their shape
ST_CAPPED = 6  # nodes answered by ``bounds.trick_caps``
ST_CUTOFFS = 8  # [ST_CUTOFFS + k]: cutoffs by the k-th move
ST_BOUNDARY_AFTER = 16  # [ST_BOUNDARY_AFTER + t]: boundary nodes after t tricks
HIST = 32  # stats[HIST + 53 * seat + card]: how often (weighted by depth) playing ``card`` refuted a node
STATS = HIST + 53 * 8
