"""The README's Python examples run as written (python-chess keeps its README doctested the same way)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    block = BLOCKS[index]
    if "dehla.envs" in block:
        pytest.importorskip("pettingzoo")
        pytest.importorskip("gymnasium")
    exec(compile(block, f"README.md example {index + 1}", "exec"), {})
    if "print(" in block:
        assert capsys.readouterr().out.strip()
