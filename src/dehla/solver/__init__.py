"""Double-dummy solving: the exact value of a position when every card is known.

* ``objective`` — what a position is worth (the hand's result, then tens), as levels.
* ``reference`` — plain minimax over the engine's ``Match``: slow, obvious, the yardstick.
* ``kernel`` — the compiled (numba) bound-query search the fast solver runs.
* ``warm`` — ``warm_up`` and ``kernel_ready``: the kernel compiled aside, never in a player's path.
* ``fast`` — ``Solver``: encodes a ``Match``, finds values with bound queries, values every legal action
  (``solve``), or only each action's hand result (``results``, cheaper).

The solver reads the whole truth of a ``Match`` (every hand, undealt cards, the
hidden card).  Only the solver, analysis and the ``cheat`` bot may do that;
the search bots give it matches they built from samples of what they have seen.
"""

from dehla.solver.fast import Results, Solution, Solver, default_solver, kernel_load_seconds, solve
from dehla.solver.objective import Objective, Value, objective_for
from dehla.solver.reference import reference_value, reference_values
from dehla.solver.warm import kernel_ready, warm_up

__all__ = [
    "Objective",
    "Results",
    "Solution",
    "Solver",
    "Value",
    "default_solver",
    "kernel_ready",
    "kernel_load_seconds",
    "objective_for",
    "reference_value",
    "reference_values",
    "solve",
    "warm_up",
]
