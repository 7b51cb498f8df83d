"""The import contract (pyproject.toml ``[tool.importlinter]``, docs/architecture.md): layers that only point down.

``lint-imports`` (import-linter, in the ``test`` extra) checks every import of ``src/dehla``, lazy ones and
those made for type checking included; this test runs it so that a broken contract fails the suite.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _lint_imports() -> str:
    beside = Path(sys.executable).parent / "lint-imports"
    found = str(beside) if beside.exists() else shutil.which("lint-imports")
    assert found, "lint-imports is missing: install the test extra (pip install -e '.[test]')"
    return found


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_lint_imports(), "--no-cache", *arguments], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_the_import_contract_is_kept() -> None:
    done = _run()
    assert done.returncode == 0, f"an import breaks the layers (docs/architecture.md):\n{done.stdout}{done.stderr}"
    assert "0 broken" in done.stdout


def test_a_broken_contract_fails(tmp_path: Path) -> None:
    """The check has teeth: the real layers turned upside down must be reported broken."""
    config = tmp_path / "upside-down.toml"
    config.write_text(
        '[tool.importlinter]\nroot_package = "dehla"\n\n'
        '[[tool.importlinter.contracts]]\nname = "upside down"\ntype = "layers"\ncontainers = ["dehla"]\n'
        'layers = ["engine", "cli"]\n',
        encoding="utf-8",
    )
    done = _run(str(config))
    assert done.returncode != 0
    assert "dehla.cli is not allowed to import dehla.engine" in done.stdout
