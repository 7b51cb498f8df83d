"""The engine builds events and scores with ``tuple.__new__`` (fast, but blind to field order).

Every such call must be ``_new_tuple(Cls, (a, b, ...))`` whose items are plain names spelled as
``Cls._fields`` in order (a trailing ``_`` is allowed, for a name that would shadow a function), so
a swapped, missing or extra field fails here whatever values a trace happens to produce.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import dehla.engine.events as events
import dehla.engine.scoring as scoring

ENGINE = Path(events.__file__).parent
CLASSES = {name: getattr(events, name) for name in events.__all__ if name != "Event"} | {
    "MatchScore": scoring.MatchScore
}


def _fast_builds(path: Path) -> list[ast.Call]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_new_tuple"
    ]


def _all_builds() -> list[tuple[str, ast.Call]]:
    return [(f"{path.name}:{call.lineno}", call) for path in sorted(ENGINE.glob("*.py")) for call in _fast_builds(path)]


def test_the_engine_uses_the_fast_form() -> None:
    # If this fails the fast form is gone and so is the reason for this test.
    assert len(_all_builds()) >= 10


@pytest.mark.parametrize("where, call", _all_builds(), ids=[where for where, _ in _all_builds()])
def test_fast_builds_name_every_field_in_order(where: str, call: ast.Call) -> None:
    assert len(call.args) == 2 and not call.keywords, f"{where}: write _new_tuple(Cls, (field, ...))"
    cls_node, items = call.args
    assert isinstance(cls_node, ast.Name) and cls_node.id in CLASSES, f"{where}: the class must be named directly"
    assert isinstance(items, ast.Tuple), f"{where}: the fields must be a tuple display"
    names = [item.id.rstrip("_") if isinstance(item, ast.Name) else ast.unparse(item) for item in items.elts]
    assert tuple(names) == CLASSES[cls_node.id]._fields, (
        f"{where}: {cls_node.id} takes {CLASSES[cls_node.id]._fields}; assign each value to a local of that name"
    )


def test_a_wrong_order_is_caught() -> None:
    wrong = ast.parse("_new_tuple(Trick, (number, winner, cards, leader, collected_by))").body[0]
    assert isinstance(wrong, ast.Expr) and isinstance(wrong.value, ast.Call)
    with pytest.raises(AssertionError):
        test_fast_builds_name_every_field_in_order("example", wrong.value)
