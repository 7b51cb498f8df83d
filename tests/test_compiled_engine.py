"""The compiled engine (a wheel build: mypyc over the engine's hot path, setup.py) is the same engine.

The tests themselves run on the Python source (an editable install).  Here a
wheel is built from a copy of the project, unpacked, and the engine's own
tests run on it in a child process: the trace of random matches over every
preset and option variant (byte-identical digests), the golden records, the
rule clauses, the trick core, the SPEC oracle, properties and records.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE_TESTS = [
    "tests/test_engine_trace.py",
    "tests/test_golden.py",
    "tests/test_rule_clauses.py",
    "tests/test_trick_core.py",
    "tests/test_oracle_agreement.py",
    "tests/test_properties.py",
    "tests/test_records.py",
    "tests/test_observation.py",
    "tests/test_event_order.py",
    "tests/test_game.py",
]


def _can_compile() -> str | None:
    """Why a compiled build cannot be made here, or ``None`` when it can."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc (from mypy) is not installed"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    return None


@pytest.fixture(scope="module")
def compiled_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    reason = _can_compile()
    if reason:
        pytest.skip(reason)
    work = tmp_path_factory.mktemp("compiled")
    project = work / "project"
    project.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, project / name)
    shutil.copytree(ROOT / "src", project / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.so"))
    wheels = work / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(wheels), "."],
        cwd=project,
        check=True,
        env={**os.environ, "DEHLA_PURE_PYTHON": "0"},
    )
    (wheel,) = wheels.glob("dehla-*.whl")
    site = work / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return site


def _child_env(site: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(site)}


def test_the_wheel_build_compiles_the_engine(compiled_site: Path) -> None:
    engine = compiled_site / "dehla" / "engine"
    for module in ("state", "hand", "game", "tricks"):
        assert list(engine.glob(f"{module}.*.so")), module
    assert (engine / "state.py").is_file()  # the source ships beside the extension
    shown = subprocess.run(
        [sys.executable, "-c", "import dehla.engine as e, dehla.engine.state as s; print(e.COMPILED, s.__file__)"],
        env=_child_env(compiled_site),
        capture_output=True,
        text=True,
        check=True,
        cwd=compiled_site,
    ).stdout.split()
    assert shown[0] == "True" and shown[1].startswith(str(compiled_site)) and shown[1].endswith(".so")


def test_the_compiled_engine_passes_the_engines_tests(compiled_site: Path) -> None:
    check = "import dehla.engine as e, sys; sys.exit(0 if e.COMPILED else 1)"
    command = [sys.executable, "-c", check]
    assert subprocess.run(command, env=_child_env(compiled_site), cwd=ROOT).returncode == 0
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *ENGINE_TESTS],
        env=_child_env(compiled_site),
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
