"""The kernels compiled ahead of time (``dehla compile``, ``dehla.solver.compiled``) against numba's: the same
solutions and the same playouts on the same positions; a bot process that uses them never loads numba; and a
missing or stale build is said plainly, never a traceback."""

from __future__ import annotations

import importlib.machinery
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tests.helpers import ALL_RULES, rules_id

from dehla import Match
from dehla.bots import playout
from dehla.errors import DehlaError
from dehla.solver import compiled, fast
from dehla.solver.fast import Solver

_ENV = {key: value for key, value in os.environ.items() if key not in (compiled.MODE_ENV, compiled.DIR_ENV)}


def _dehla(*args: str, env: dict[str, str] = _ENV) -> subprocess.CompletedProcess[str]:
    """The ``dehla`` command as a user runs it (a build takes a minute or two)."""
    return subprocess.run([sys.executable, "-m", "dehla", *args], capture_output=True, text=True, env=env, timeout=1200)


#: A build for other sources, left in the build's directory before the build.
_STALE = "dehla_kernels_0123456789abcdef" + importlib.machinery.EXTENSION_SUFFIXES[0]


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One build for the module, by the command a user runs (a minute or two)."""
    directory = tmp_path_factory.mktemp("compiled")
    (directory / _STALE).write_bytes(b"a build for other sources")
    done = _dehla("compile", "--output", str(directory))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(compiled.module_path(directory))
    return directory


@pytest.fixture(scope="module")
def aot(build_dir: Path) -> compiled.Kernels:
    kernels = compiled.load_compiled(compiled.module_path(build_dir))
    assert kernels.ahead_of_time
    return kernels


def _positions(rules: Any, seeds: range, left: int) -> Iterator[Match]:
    """Random games of their first hand with ``left`` tricks to play, or its first trick when it has fewer."""
    for seed in seeds:
        rng = random.Random(seed)
        match = Match.new(rules, rng)
        match.apply(match.random_deal(rng))
        while len(match.tricks) < match.rules.tricks_per_hand - left and not match.results:
            match.apply(rng.choice(match.legal_actions()))
        if not match.results:
            yield match


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_the_solver_answers_the_same_with_kernels_compiled_ahead_of_time(
    rules: Any, aot: compiled.Kernels, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Solutions (every action's value and the nodes searched), the value alone and a bound query, from both
    builds of the same kernels on the same positions: every entry point the solver calls."""
    jit = compiled.load_jit()
    answers: dict[bool, list[Any]] = {}
    for kernels in (jit, aot):
        monkeypatch.setattr(fast, "kernels", lambda kernels=kernels: kernels)
        found: list[Any] = []
        for match in _positions(rules, range(4), left=6):
            solver = Solver(table_bits=12)
            solution = solver.solve(match)
            found.append((solution.value, solution.actions, solution.nodes, solver.value(match)))
            found.append(solver.reaches(match, 0, 1))
        answers[kernels.ahead_of_time] = found
    assert answers[True] == answers[False]
    assert len(answers[True]) >= 4


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_playouts_give_the_same_results_with_kernels_compiled_ahead_of_time(
    rules: Any, aot: compiled.Kernels, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same sampled worlds (one seed) played out by both builds give the same values for every action."""
    jit = compiled.load_jit()
    matches = list(_positions(rules, range(3), left=12))
    values: dict[bool, list[Any]] = {}
    for kernels in (jit, aot):
        monkeypatch.setattr(playout, "kernels", lambda kernels=kernels: kernels)
        found = []
        for match in matches:
            assert match.to_act is not None
            seen = match.observe(match.to_act)
            actions = list(match.legal_actions())
            worlds = iter(range(12))
            batches = playout.playout_batches(
                seen, actions, random.Random(5), lambda worlds=worlds: next(worlds, None) is not None
            )
            found.append(np.concatenate(list(batches)))
        values[kernels.ahead_of_time] = found
    for with_jit, with_aot in zip(values[False], values[True], strict=True):
        assert with_jit.shape[0] == 12
        np.testing.assert_array_equal(with_jit, with_aot)


_BOT_HAND = """
import json, random, sys
from dehla import Match
from dehla.bots import make_bot
from dehla.bots.base import bind_bots
from dehla.solver.compiled import kernels
from dehla.play import play_hand

seats = [make_bot("hard", 1), *(make_bot("heuristic", seat) for seat in (1, 2, 3))]
chance = random.Random(3)
match = Match.new("pagat", chance)
bind_bots(seats, match)
match.apply(match.random_deal(chance))
play_hand(match, lambda seat, seen: seats[seat].act(seen))
print(json.dumps({"over": bool(match.results), "ahead_of_time": kernels().ahead_of_time,
                  "numba": "numba" in sys.modules, "llvmlite": "llvmlite" in sys.modules}))
"""


def test_a_hard_bot_plays_a_hand_without_loading_numba(build_dir: Path) -> None:
    """The point of the build: a process whose ``hard`` bot plays a whole ``pagat`` hand (solver and playouts)
    with the compiled kernels never imports numba or LLVM."""
    env = {**_ENV, compiled.MODE_ENV: "compiled", compiled.DIR_ENV: str(build_dir)}
    done = subprocess.run([sys.executable, "-c", _BOT_HAND], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"over": True, "ahead_of_time": True, "numba": False, "llvmlite": False}


def test_compile_check_and_a_second_build_say_what_is_there(build_dir: Path, tmp_path: Path) -> None:
    """``--check`` says built or missing (exit 0 or 1); building again where the build exists does nothing."""

    built = _dehla("compile", "--check", "--output", str(build_dir))
    assert (built.returncode, built.stdout.strip().endswith(": built")) == (0, True)
    missing = _dehla("compile", "--check", "--output", str(tmp_path))
    assert (missing.returncode, missing.stdout.strip().endswith(": missing")) == (1, True)
    again = _dehla("compile", "--output", str(build_dir))
    assert (again.returncode, "already built" in again.stdout) == (0, True)


def test_a_build_without_a_c_compiler_says_so_in_one_line(tmp_path: Path) -> None:
    env = {**_ENV, "CC": "/nonexistent/cc", "LDSHARED": "/nonexistent/cc -shared"}
    done = _dehla("compile", "--output", str(tmp_path), env=env)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "dehla: numba.pycc could not build the kernels" in done.stderr and "C compiler" in done.stderr
    assert not list(tmp_path.glob("dehla_kernels_*"))


def test_a_build_replaces_the_builds_for_other_sources(build_dir: Path) -> None:
    assert [path.name for path in build_dir.iterdir()] == [compiled.module_path(build_dir).name]


def test_a_process_that_asks_for_compiled_kernels_without_a_build_is_told_to_run_compile(tmp_path: Path) -> None:
    env = {**_ENV, compiled.MODE_ENV: "compiled", compiled.DIR_ENV: str(tmp_path)}
    code = "from dehla.solver.compiled import kernels\nkernels()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode != 0
    assert "DehlaError" in done.stderr and "run `dehla compile` first" in done.stderr


def test_a_damaged_build_falls_back_to_numba_with_a_warning_or_is_an_error_when_asked_for(tmp_path: Path) -> None:
    """``auto``: a warning naming the file and the command, then numba; ``compiled``: an error saying the same."""
    code = (
        "import sys\nfrom dehla.solver import compiled\n"
        "compiled.module_path().write_bytes(b'not an extension')\n"
        "print(compiled.kernels().ahead_of_time, 'numba' in sys.modules)"
    )
    for mode in ("auto", "compiled"):
        env = {**_ENV, compiled.MODE_ENV: mode, compiled.DIR_ENV: str(tmp_path)}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        assert "cannot be loaded" in done.stderr and "dehla compile --force" in done.stderr
        if mode == "auto":
            assert (done.returncode, done.stdout.split()) == (0, ["False", "True"])
            assert "RuntimeWarning" in done.stderr
        else:
            assert done.returncode != 0 and "DehlaError" in done.stderr


def test_an_unknown_kernels_setting_is_an_error_that_names_the_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(compiled.MODE_ENV, "fast")
    with pytest.raises(DehlaError, match="expected one of auto, jit, compiled"):
        compiled.ahead_of_time()


def test_jit_mode_ignores_a_build(build_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(compiled.DIR_ENV, str(build_dir))
    monkeypatch.setenv(compiled.MODE_ENV, "jit")
    compiled.kernels.cache_clear()  # chosen once a process: chosen again here, and again after the test
    try:
        assert not compiled.ahead_of_time()
        monkeypatch.setenv(compiled.MODE_ENV, "auto")
        compiled.kernels.cache_clear()
        assert compiled.ahead_of_time()
    finally:
        compiled.kernels.cache_clear()


def test_the_build_is_named_after_the_kernels_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    """An edit to a kernel's source names a different build, so a stale one is never loaded."""
    from dehla import numba_cache

    name = compiled.module_name.__wrapped__()
    monkeypatch.setattr(numba_cache, "kernel_sources_digest", lambda: "an edited kernel")
    assert compiled.module_name.__wrapped__() != name
    assert name.startswith("dehla_kernels_")
