"""The kernels a bot calls: compiled ahead of time when ``dehla compile`` has built them, else by numba at run time.

numba keeps LLVM in every process that runs a compiled function, even one loaded from its cache (about 150 MB
before a line of ours runs).  ``dehla compile`` (``dehla.solver.build``) compiles the entry points a bot calls
(the solver's searches and table, the playouts) into one C extension, so that a process that plays with them
never imports numba.  This module finds that extension, or falls back to numba; it imports neither.

The extension is named after a digest of the kernels' sources (``dehla.numba_cache.COMPILED_SOURCES``) and
the build's (``dehla.solver.build``), numba's and numpy's versions, Python's and the CPU's (it is compiled for
this CPU): an edit to a kernel or a new numba makes the build stale, and the kernels are compiled at run time
again until ``dehla compile`` runs.
It lives beside numba's cache (``dehla.numba_cache``), or in ``DEHLA_COMPILED_DIR`` when that is set.

``DEHLA_KERNELS`` chooses: ``auto`` (the default: the extension when it is built, else numba, with a warning
when the file cannot be loaded), ``jit`` (always numba) or ``compiled`` (the extension, and an error when it is
missing or cannot be loaded).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import platform
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from dehla import numba_cache
from dehla.errors import DehlaError
from dehla.kernel.layout import Array

__all__ = [
    "ENTRY_POINTS",
    "MODE_ENV",
    "DIR_ENV",
    "Kernels",
    "kernels",
    "ahead_of_time",
    "compiled_dir",
    "module_name",
    "module_path",
    "load_compiled",
    "load_jit",
]

#: Every kernel function a bot calls from Python: (module, name).  The extension exports each under its name.
ENTRY_POINTS: tuple[tuple[str, str], ...] = (
    ("dehla.solver.table", "new_table"),
    ("dehla.solver.kernel", "new_work"),
    ("dehla.solver.kernel", "query"),
    ("dehla.solver.kernel", "level"),
    ("dehla.solver.kernel", "solve_position"),
    ("dehla.kernel.playout", "play_worlds"),
)
MODE_ENV = "DEHLA_KERNELS"
DIR_ENV = "DEHLA_COMPILED_DIR"
_MODES = ("auto", "jit", "compiled")


@dataclass(frozen=True)
class Kernels:
    """The entry points (``ENTRY_POINTS``) and where they come from."""

    new_table: Callable[[int], Array]
    new_work: Callable[[], Array]
    query: Callable[..., bool]
    level: Callable[..., int]
    solve_position: Callable[..., None]
    play_worlds: Callable[..., None]
    #: The extension's file when compiled ahead of time; ``None`` when numba compiles them in this process.
    path: Path | None = None

    @property
    def ahead_of_time(self) -> bool:
        return self.path is not None


def _cpu() -> str:
    """What the machine code depends on: the CPU's model and features (``/proc/cpuinfo`` on Linux)."""
    try:
        lines = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return platform.processor()
    wanted = ("model name", "flags", "Features", "CPU part")
    return "\n".join(sorted({line for line in lines if line.split(":")[0].strip() in wanted}))


@cache
def module_name() -> str:
    """The extension's module name: ``dehla_kernels_`` and the digest of what its code depends on."""
    digest = hashlib.sha256(numba_cache.kernel_sources_digest().encode())
    digest.update(Path(__file__).with_name("build.py").read_bytes())  # how it is built
    for part in (
        importlib.metadata.version("numba"),
        importlib.metadata.version("numpy"),
        sys.version,
        platform.machine(),
        _cpu(),
    ):
        digest.update(part.encode())
    return f"dehla_kernels_{digest.hexdigest()[:16]}"


def compiled_dir() -> Path:
    """Where the extension is built and looked for: ``DEHLA_COMPILED_DIR``, else beside numba's cache."""
    if os.environ.get(DIR_ENV):
        return Path(os.environ[DIR_ENV])
    if os.environ.get(numba_cache.ENV):  # set by ``dehla.numba_cache`` when the package's own place is read-only
        return Path(os.environ[numba_cache.ENV]) / "dehla-compiled"
    return Path(__file__).resolve().parent / "__pycache__"


def module_path(directory: Path | None = None) -> Path:
    """The extension's file for this machine and these sources, in ``directory`` (default ``compiled_dir()``)."""
    return (directory or compiled_dir()) / (module_name() + importlib.machinery.EXTENSION_SUFFIXES[0])


def load_compiled(path: Path) -> Kernels:
    """The entry points from the extension at ``path`` (built by ``dehla compile`` for these sources)."""
    name = path.name.split(".")[0]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - a path that is not a file of an extension
        raise DehlaError(f"{path} is not a compiled kernels module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    functions: dict[str, Any] = {name: getattr(module, name) for _, name in ENTRY_POINTS}
    return Kernels(**functions, path=path)


def load_jit() -> Kernels:
    """The entry points compiled by numba in this process (or loaded from numba's cache)."""
    functions: dict[str, Any] = {name: getattr(importlib.import_module(module), name) for module, name in ENTRY_POINTS}
    return Kernels(**functions)


def _mode() -> str:
    mode = os.environ.get(MODE_ENV, "auto") or "auto"
    if mode not in _MODES:
        raise DehlaError(f"{MODE_ENV}={mode!r}: expected one of {', '.join(_MODES)}")
    return mode


def ahead_of_time() -> bool:
    """Will this process run the kernels compiled ahead of time (nothing for numba to compile or load)?"""
    return _mode() != "jit" and module_path().exists() and kernels().ahead_of_time  # loads: a damaged file is not


@cache
def kernels() -> Kernels:
    """The entry points this process uses (``DEHLA_KERNELS``: see the module's notes), chosen once."""
    mode = _mode()
    if mode != "jit":
        path = module_path()
        if path.exists():
            try:
                return load_compiled(path)
            except ImportError as error:  # a damaged file, or one built against other libraries
                if mode == "compiled":
                    raise DehlaError(f"{path} cannot be loaded ({error}): run `dehla compile --force`") from error
                warnings.warn(
                    f"{path} cannot be loaded ({error}); numba compiles the kernels instead "
                    "(`dehla compile --force` builds them again)",
                    RuntimeWarning,
                    stacklevel=2,
                )
        if mode == "compiled":
            raise DehlaError(
                f"{MODE_ENV}=compiled, but the kernels are not compiled for these sources ({path} is missing): "
                "run `dehla compile` first"
            )
    return load_jit()
