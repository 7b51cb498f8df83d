"""``dehla compile``: the kernels a bot calls, compiled ahead of time into one C extension (``dehla.solver.compiled``).

Each entry point is first compiled by numba at run time on a real solve and a real playout, so the extension
takes exactly the argument types the solver and the playouts pass; then ``numba.pycc`` compiles the same
functions, for this CPU, into the extension.  ``numba.pycc`` is deprecated by numba but still shipped; a build
that fails leaves the run-time compile in place, so nothing breaks without it (bots then load numba).
"""

from __future__ import annotations

import importlib
import os
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dehla.errors import DehlaError
from dehla.solver.compiled import ENTRY_POINTS, MODE_ENV, module_name, module_path

__all__ = ["build"]


def _compile_at_run_time() -> None:
    """Every entry point compiled (or loaded from numba's cache) by numba with the types the bots call it with."""
    from dehla.solver.compiled import kernels
    from dehla.solver.warm import run_entry_points

    if kernels().ahead_of_time:
        raise DehlaError(f"the build needs the kernels compiled at run time: set {MODE_ENV}=jit")
    run_entry_points()


def _calling(dispatcher: Any, arity: int) -> Callable[..., Any]:
    """A function that calls ``dispatcher`` with its ``arity`` arguments, for ``numba.pycc`` to export.

    pycc compiles the function it exports with its own options (reference counting, Python's error model); the
    dispatcher it calls keeps the kernels' (``dehla.kernel.jit.OPTIONS``), so inlined helpers stay as fast as
    under numba at run time.
    """
    names = ", ".join(f"a{index}" for index in range(arity))
    scope: dict[str, Any] = {"kernel": dispatcher}
    exec(f"def call({names}):\n    return kernel({names})\n", scope)  # numba compiles it: a fixed arity, no *args
    function: Callable[..., Any] = scope["call"]
    return function


def _failed(error: Exception) -> DehlaError:
    text = str(error).strip()
    first = text.splitlines()[0].split(". ")[0].rstrip(".") if text else type(error).__name__  # its first sentence
    return DehlaError(
        f"numba.pycc could not build the kernels ({first}); it needs a C compiler and Python's headers. "
        "Without the build, numba compiles the kernels at run time."
    )


def build(directory: Path | None = None, progress: Callable[[str], None] | None = None) -> Path:
    """Compile the entry points into the extension for this machine (in ``directory``, default beside numba's
    cache); returns its path.  Takes a minute or two; the file appears whole or not at all, and replaces the
    builds for other sources or versions in that directory."""
    say = progress or (lambda text: None)
    target = module_path(directory)
    os.environ[MODE_ENV] = "jit"  # this process compiles with numba whatever the caller's setting
    start = time.perf_counter()
    say("compiling the kernels at run time, to learn the types they are called with")
    _compile_at_run_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc's notice that it is deprecated
        pycc: Any = importlib.import_module("numba.pycc")  # untyped
        try:
            compiler = pycc.CC(module_name())
        except RuntimeError as error:  # pycc looks for a C compiler here
            raise _failed(error) from error
        compiler.target_cpu = "host"
        compiler.verbose = False
        for module, name in ENTRY_POINTS:
            dispatcher = getattr(importlib.import_module(module), name)
            signatures = dispatcher.nopython_signatures
            if len(signatures) != 1:  # pragma: no cover - a caller passed a second set of types
                raise DehlaError(f"{module}.{name} was compiled for {len(signatures)} sets of types, expected 1")
            compiler.export(name, signatures[0])(_calling(dispatcher, len(signatures[0].args)))
        say(f"compiling {len(ENTRY_POINTS)} entry points ahead of time ({time.perf_counter() - start:.0f} s so far)")
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
            compiler.output_dir = scratch
            try:
                compiler.compile()
            except Exception as error:  # a compiler or linker that failed: said in one line, not a traceback
                raise _failed(error) from error
            os.replace(Path(scratch, Path(compiler.output_file).name), target)  # one filesystem: atomic
    for stale in target.parent.glob("dehla_kernels_*.*"):  # builds for other sources or versions: never loaded again
        if stale != target:
            stale.unlink(missing_ok=True)
    say(f"built {target} in {time.perf_counter() - start:.0f} s")
    return target
