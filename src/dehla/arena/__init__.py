"""The arena: measure bots against each other honestly, on one machine or a Ray cluster.

Duplicate deals (each deal played twice with the teams' seats swapped), round
robin with Elo, 95% intervals, JSON/CSV/PNG/SVG output, identical results for
a seed whatever the workers or backend.  See ``docs/arena.md``.
"""

from dehla.arena.games import ArenaConfig, Task, entrant_labels, plan_tasks, play_leg, play_task
from dehla.arena.report import REPORT_FORMAT, summarize, summary_lines
from dehla.arena.runner import ArenaRun, run_arena, write_outputs
from dehla.arena.seeds import derive_seed

__all__ = [
    "ArenaConfig",
    "ArenaRun",
    "REPORT_FORMAT",
    "Task",
    "derive_seed",
    "entrant_labels",
    "plan_tasks",
    "play_leg",
    "play_task",
    "run_arena",
    "summarize",
    "summary_lines",
    "write_outputs",
]
