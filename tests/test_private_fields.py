"""Outside ``dehla.engine``, no code reads a private field of a ``Match`` (issue 17).

The solver, the search bots and the trackers read ``Match.hand_state()`` (the
trick core's ``HandState``) or an ``Observation``; only the engine itself
knows how a ``Match`` keeps its state.  The scan looks, in every module of
``src/dehla`` outside ``engine/``, for an attribute ``x._name`` (on anything
but ``self`` or ``cls``) whose name is one of ``Match``'s private slots or
methods.
"""

from __future__ import annotations

import ast
from pathlib import Path

from dehla.engine.state import MATCH_FIELDS, Match

SOURCE = Path(__file__).resolve().parent.parent / "src" / "dehla"
PRIVATE = {
    name
    for name in (*MATCH_FIELDS, *vars(Match))
    if name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
}


def private_reads(source: str, name: str) -> list[str]:
    """``name:line: .field`` for each read of a private ``Match`` field in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if not isinstance(node, ast.Attribute) or node.attr not in PRIVATE:
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        found.append(f"{name}:{node.lineno}: .{node.attr}")
    return found


def test_the_scan_finds_a_private_read() -> None:
    assert {"_hand", "_game", "_log", "_finish_hand"} <= PRIVATE
    source = "def f(match, state):\n    return match._hand.hands[0] + self._hand.hands[0] + state.hands[0] + x._ways\n"
    assert private_reads(source, "f.py") == ["f.py:2: ._hand"]


def test_no_private_match_field_is_read_outside_the_engine() -> None:
    offenders = []
    for path in sorted(SOURCE.rglob("*.py")):
        if (SOURCE / "engine") in path.parents:
            continue
        offenders.extend(private_reads(path.read_text(encoding="utf-8"), str(path.relative_to(SOURCE.parent))))
    assert not offenders, "read Match.hand_state() or an Observation instead:\n" + "\n".join(offenders)
