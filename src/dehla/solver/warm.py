"""The compiled kernel without a compiler in a player's path: load it from numba's cache, or build the cache aside.

numba compiles the kernel on first use (30-50 s) and keeps the machine code on
disk (``cache=True``); a later process loads it in under a second.  A fresh
install has no cache.  A program that serves players (``dehla serve`` and its
bot workers, ``dehla play``, ``dehla bot``) calls ``warm_up()`` when it starts:
if the cache is ready the kernel is loaded at once, else a separate process
(``python -m dehla.solver.warm``) compiles it and writes the cache, and the
program goes on without it: the search bots play their ``heuristic`` move while
``kernel_ready()`` says no, then load the kernel (about half a second, once).
A marker file beside numba's cache, named after a digest of the kernel's
source, numba, Python and the CPU, says the cache is complete.

With the kernels compiled ahead of time (``dehla compile``, ``dehla.solver.compiled``) there is nothing to
compile or load: ``kernel_ready()`` is always true and ``prepare_cache()`` does nothing.

A process that never called ``warm_up`` (a library user, the tests, the
benchmarks) keeps the plain behaviour: ``kernel_ready()`` is always true and
the kernel compiles on its first use, so results never depend on a compile
racing in the background.

* ``warm_up(wait=False)``: load the kernel if its cache is ready, else start the
  background compile and return; ``wait=True`` blocks until the kernel is
  loaded (waiting for the compile aside, never a second compile beside it).
  Safe in a thread or a worker process.
* ``kernel_ready()``: True when the search may use the kernel now without
  waiting for a compile (loading it now if the cache is ready).
* ``prepare_cache()``: make sure the cache holds the kernel without loading it
  here; what ``python -m dehla.solver.warm --aside`` runs for ``dehla serve``,
  whose process then says "preparing" for as long as that process lives.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import dehla.numba_cache  # noqa: F401 - a writable cache directory for numba before numba is imported
from dehla.solver.compiled import ahead_of_time

__all__ = [
    "kernel_ready",
    "warm_up",
    "marker_path",
    "compile_here",
    "run_entry_points",
    "prepare_cache",
    "WAIT_POLL_SECONDS",
]

_lock = threading.Lock()
_loaded = False
_aside = False  # set by ``warm_up``: compile in a separate process rather than on first use
_compiler: subprocess.Popen[bytes] | None = None

#: How much ``--aside`` lowers its priority (as the web server's bot workers do).
ASIDE_NICENESS = 10

#: How often a process waiting for another one's compile looks for the marker.
WAIT_POLL_SECONDS = 0.25


def _stamp() -> str:
    """A digest of what numba's cache depends on: the kernel's source and the rules core's it inlines
    (``dehla.kernel``), numba, Python and the CPU."""
    import llvmlite.binding as llvm  # type: ignore[import-untyped]
    import numba

    digest = hashlib.sha256((Path(__file__).parent / "kernel.py").read_bytes())
    for shared in sorted((Path(__file__).parent.parent / "kernel").glob("*.py")):
        digest.update(shared.read_bytes())
    for part in (numba.__version__, sys.version, llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten()):
        digest.update(part.encode())
    return digest.hexdigest()[:16]


def marker_path() -> Path:
    """The file that says numba's cache holds the whole kernel (in numba's cache directory for the kernel)."""
    from dehla.solver import kernel

    cache_dir = Path(kernel.query._cache._cache_path)  # type: ignore[attr-defined]
    return cache_dir / f"dehla-kernel-{_stamp()}.ready"


def run_entry_points() -> None:
    """Run every kernel entry point a bot calls once, with the types it uses: numba compiles (or loads) each."""
    from dehla.solver.fast import kernel_load_seconds

    kernel_load_seconds()  # one small solve: every entry point ``Solver`` calls
    from dehla.kernel.playout import warm_playouts

    warm_playouts()  # and the search bots' playouts


def compile_here() -> None:
    """Compile (or load) every kernel entry point the solver uses, in this process, and write the marker."""
    global _loaded
    run_entry_points()
    _loaded = True
    path = marker_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("ok\n", encoding="utf-8")
        path.with_suffix(".compiling").unlink(missing_ok=True)
    except OSError:  # pragma: no cover - a read-only cache directory: numba then compiles in memory each time
        pass


def _claim() -> bool:
    """Take the right to compile aside (a lock file beside the marker), unless another process holds it: two
    bot workers of one server must not both spend a core on the same compile.  A lock older than ten minutes
    is taken to be left by a process that died."""
    lock = marker_path().with_suffix(".compiling")
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        if lock.exists() and time.time() - lock.stat().st_mtime > 600:
            lock.unlink(missing_ok=True)
        os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    except OSError:  # pragma: no cover - a cache directory we cannot write: compile aside anyway
        return True
    return True


def _start_compiler() -> None:
    global _compiler
    if _compiler is None and _claim():
        _compiler = subprocess.Popen(
            [sys.executable, "-m", "dehla.solver.warm"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # it finishes the cache even if this process ends first
            env=dict(os.environ),
        )


def kernel_ready() -> bool:
    """May the search use the kernel now without waiting for a compile?  Always, in a process that never called
    ``warm_up``.  Otherwise loads it from the cache when that is ready (about half a second, once), or says no
    while the background compile runs."""
    global _loaded
    if _loaded or not _aside or ahead_of_time():
        return True
    with _lock:
        if _loaded:
            return True
        if _compiler is not None and _compiler.poll() is None:
            return False
        if marker_path().exists():
            compile_here()  # loads from the cache
            return True
        if _compiler is not None:
            # It ended without writing the marker (a cache directory it cannot write?): give up on compiling aside,
            # and let the kernel compile on its first use here.
            _loaded = True
            return True
        _start_compiler()
        return False


def warm_up(wait: bool = False) -> bool:
    """Get the kernel ready for the first move: load it if the cache is ready, else start compiling it in the
    background (``wait``: block until it is loaded, waiting for the compile aside).  Returns whether it is loaded now.

    From then on the search bots of this process do not wait for a compile (``kernel_ready``)."""
    global _aside
    _aside = True
    if kernel_ready():
        return True
    if wait:
        # Wait for the compile aside (this process's, or another's that holds the lock) rather than compile a
        # second time beside it: two compiles of the kernel at once take both cores for a minute or two.
        while not kernel_ready():
            time.sleep(WAIT_POLL_SECONDS)
        return True
    return False


def prepare_cache() -> None:
    """Make sure numba's cache holds the whole kernel, without loading it for play here: nothing to do when the
    marker is there or the kernels are compiled ahead of time (``dehla compile``); else compile it here, or,
    while another process holds the right to compile, wait until that one has written the marker (taking over
    if its lock grows stale)."""
    while not ahead_of_time() and not marker_path().exists():
        if _claim():
            compile_here()
            return
        time.sleep(WAIT_POLL_SECONDS)


def _main(argv: list[str]) -> int:
    if argv == ["--aside"]:
        if hasattr(os, "nice"):
            os.nice(ASIDE_NICENESS)  # the server's tables come first on a contested core
        prepare_cache()
    elif not argv:
        compile_here()  # the compile aside that ``warm_up`` started: it holds the lock already
    else:
        print("usage: python -m dehla.solver.warm [--aside]", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
