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


def test_the_heuristic_and_random_bots_play_without_loading_numba() -> None:
    """Only the search bots need the compiled kernels: a process of ``heuristic`` or ``random`` bots (a terminal
    game, a bot-protocol process) stays small (docs/benchmarks.md, "Memory") and starts fast."""
    script = (
        "import random, sys\n"
        "from dehla import Match\n"
        "from dehla.bots import make_bot\n"
        "rng = random.Random(1)\n"
        "match = Match.new('pagat', rng)\n"
        "bots = [make_bot(name, seat) for seat, name in enumerate(['heuristic', 'random'] * 2)]\n"
        "while len(match.results) < 1:\n"
        "    if match.is_chance:\n"
        "        match.apply(match.random_deal(rng))\n"
        "    else:\n"
        "        match.apply(bots[match.to_act].act(match.observe(match.to_act)))\n"
        "print(sorted(name for name in sys.modules if name == 'numba' or name.startswith('dehla.kernel')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "[]"
