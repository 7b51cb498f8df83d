"""The engine builds its events and scores naming every field, so that no field can land in another's place.

Each call of an event class (or ``MatchScore``) in the engine's modules names
its fields: by keyword, or, where a keyword call costs too much (the compiled
engine passes keywords through a dict: ``Trick`` on every trick, the events of
every hand; benchmarks/ab_engine.py), positionally with plain locals spelled
as the fields, in their order (a trailing ``_`` is allowed, for a name that
would shadow a function).  Nothing builds a tuple behind the class's back
(``tuple.__new__``), which would be blind to the order of the fields.
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
CLASSES = {name: cls for name, cls in CLASSES.items() if isinstance(cls, type) and hasattr(cls, "_fields")}


def _trees() -> list[tuple[str, ast.Module]]:
    return [(path.name, ast.parse(path.read_text(encoding="utf-8"))) for path in sorted(ENGINE.glob("*.py"))]


def _builds() -> list[tuple[str, ast.Call]]:
    return [
        (f"{name}:{node.lineno}", node)
        for name, tree in _trees()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CLASSES
    ]


def test_the_engine_builds_events() -> None:
    # If this fails the engine builds its events some other way, and this test no longer looks at them.
    assert len(_builds()) >= 10


@pytest.mark.parametrize("where, call", _builds(), ids=[where for where, _ in _builds()])
def test_each_build_names_its_fields(where: str, call: ast.Call) -> None:
    assert isinstance(call.func, ast.Name)
    cls = CLASSES[call.func.id]
    if call.args:
        names = [item.id.rstrip("_") if isinstance(item, ast.Name) else ast.unparse(item) for item in call.args]
        assert not call.keywords and tuple(names) == cls._fields, (
            f"{where}: {call.func.id} takes {cls._fields}; assign each value to a local of that name, or use keywords"
        )
        return
    named = [keyword.arg for keyword in call.keywords]
    assert None not in named and set(named) <= set(cls._fields), f"{where}: {call.func.id} takes {cls._fields}"
    required = set(cls._fields) - set(cls._field_defaults)
    assert required <= set(named), f"{where}: {call.func.id} needs {sorted(required - set(named))}"


def test_no_tuple_is_built_behind_a_class() -> None:
    for name, tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "__new__":
                assert not (isinstance(node.value, ast.Name) and node.value.id == "tuple"), f"{name}:{node.lineno}"


def test_a_wrong_order_is_caught() -> None:
    wrong = ast.parse("Trick(number, winner, cards, leader, collected_by)").body[0]
    assert isinstance(wrong, ast.Expr) and isinstance(wrong.value, ast.Call)
    with pytest.raises(AssertionError):
        test_each_build_names_its_fields("example", wrong.value)
