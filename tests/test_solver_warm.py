"""The kernel prepared aside: one compile at a time, the others wait for its marker instead of compiling again.

The real compile takes a minute or two (``benchmarks/bench_first_move.py``
measures it from an empty cache); here the marker's place and the compile are
stand-ins, so the tests check who compiles and who waits.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from dehla.solver import warm


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A marker in ``tmp_path`` and a stand-in compile that writes it; returns the log of compiles."""
    marker = tmp_path / "dehla-kernel-test.ready"
    compiles: list[str] = []

    def compile_here() -> None:
        compiles.append("compiled")
        marker.write_text("ok\n", encoding="utf-8")
        marker.with_suffix(".compiling").unlink(missing_ok=True)

    monkeypatch.setattr(warm, "marker_path", lambda: marker)
    monkeypatch.setattr(warm, "compile_here", compile_here)
    monkeypatch.setattr(warm, "WAIT_POLL_SECONDS", 0.01)
    monkeypatch.setattr(warm, "_loaded", False)
    monkeypatch.setattr(warm, "_aside", False)
    monkeypatch.setattr(warm, "_compiler", None)
    return compiles


def _finish_elsewhere(marker: Path, after: float) -> threading.Thread:
    """Another process's compile, as seen from here: its lock now, its marker ``after`` seconds later."""
    lock = marker.with_suffix(".compiling")
    lock.write_text("", encoding="utf-8")

    def finish() -> None:
        time.sleep(after)
        marker.write_text("ok\n", encoding="utf-8")
        lock.unlink()

    thread = threading.Thread(target=finish)
    thread.start()
    return thread


def test_prepare_cache_does_nothing_when_the_cache_is_complete(cache: list[str]) -> None:
    warm.marker_path().write_text("ok\n", encoding="utf-8")
    warm.prepare_cache()
    assert cache == []


def test_prepare_cache_compiles_when_nobody_else_does(cache: list[str]) -> None:
    warm.prepare_cache()
    assert cache == ["compiled"] and warm.marker_path().exists()
    assert not warm.marker_path().with_suffix(".compiling").exists()


def test_prepare_cache_waits_for_another_compile_instead_of_compiling_beside_it(cache: list[str]) -> None:
    started = time.monotonic()  # before the other compile's clock starts: its 0.2 s then lie within ours
    thread = _finish_elsewhere(warm.marker_path(), 0.2)
    warm.prepare_cache()
    thread.join()
    assert cache == [] and time.monotonic() - started >= 0.2


def test_prepare_cache_takes_over_a_stale_lock(cache: list[str]) -> None:
    lock = warm.marker_path().with_suffix(".compiling")
    lock.write_text("", encoding="utf-8")
    old = time.time() - 3600
    import os

    os.utime(lock, (old, old))  # left by a process that died an hour ago
    warm.prepare_cache()
    assert cache == ["compiled"]


def test_warm_up_waiting_waits_for_the_compile_aside_and_then_loads(cache: list[str]) -> None:
    """``wait=True`` (an analysis worker) while another process compiles: no second compile, then the kernel
    loads from the cache (the stand-in ``compile_here`` once the marker is there)."""
    thread = _finish_elsewhere(warm.marker_path(), 0.2)
    assert warm.warm_up(wait=True)
    thread.join()
    assert cache == ["compiled"]  # the load from the finished cache, after waiting: not a compile beside the other


def test_warm_up_without_waiting_says_not_yet_while_another_process_compiles(cache: list[str]) -> None:
    thread = _finish_elsewhere(warm.marker_path(), 0.2)
    assert not warm.warm_up()
    assert not warm.kernel_ready()
    thread.join()
    assert warm.kernel_ready() and cache == ["compiled"]


def test_the_aside_command_refuses_unknown_arguments() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dehla.solver.warm", "--soon"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and "usage: python -m dehla.solver.warm [--aside]" in done.stderr
    assert "Traceback" not in done.stderr
