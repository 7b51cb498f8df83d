"""Where numba keeps dehla's compiled kernels: a directory this process can write, chosen before numba is imported.

The solver's and the batch simulator's kernels are compiled with ``cache=True``.  numba writes that cache
beside the sources (``__pycache__``), else in the user's cache (``~/.cache/numba``); where neither can be
written it refuses when the kernel module is imported ("cannot cache function ...: no locator available").
That is the case of a system user with no home running a read-only install, as a hardened systemd unit does.

Importing this module (the kernel modules do, before ``import numba``) sets ``NUMBA_CACHE_DIR`` when it is
not set and the package's directories cannot be written:

1. ``NUMBA_CACHE_DIR`` when it is set (the operator's choice, never changed);
2. nothing when the directories beside the kernels' sources can be written (numba's own place);
3. ``$XDG_CACHE_HOME/dehla/numba``, else ``~/.cache/dehla/numba``, the first that can be written;
4. else ``dehla-numba-UID`` in the temporary directory (``tempfile.gettempdir()``), private to this user.

The choice is kept in the environment, so the processes started from this one (the compile aside, the bot
workers) use the same cache.

numba keys a cached function by its own source file alone, but a kernel's functions inline the rules of
``dehla.kernel`` and link the solver's other modules: after ``configure``, the source stamp numba gives a
function of these modules (``COMPILED_SOURCES``) also takes in all of their sources (``stamp_kernel_sources``),
so that an edit to any of them makes every cached kernel compile again instead of loading stale machine code.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["ENV", "choose_cache_dir", "configure", "writable", "stamp_kernel_sources"]

#: numba's setting for the cache directory.
ENV = "NUMBA_CACHE_DIR"

#: The directories of the modules compiled with ``cache=True`` (numba's first choice is their ``__pycache__``).
KERNEL_DIRS = tuple(Path(__file__).resolve().parent / name for name in ("kernel", "solver", "batch"))
#: The modules whose code or constants a cached kernel holds: the compiled ones, and the layouts they read.
COMPILED_SOURCES = tuple(
    Path(__file__).resolve().parent / name
    for name in (
        "kernel/layout.py",
        "kernel/jit.py",
        "kernel/rules.py",
        "kernel/scoring.py",
        "kernel/step.py",
        "kernel/playout.py",
        "solver/layout.py",
        "solver/position.py",
        "solver/table.py",
        "solver/ordering.py",
        "solver/bounds.py",
        "solver/kernel.py",
        "batch/kernel.py",
        "batch/observe.py",
    )
)


def writable(directory: Path) -> bool:
    """Can a file be made in ``directory`` (made first if missing)?  The test numba itself makes."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError:
        return False
    return True


def _private(directory: Path) -> bool:
    """Is ``directory`` this user's alone (numba loads pickles from its cache: nobody else may write there)?"""
    try:
        directory.mkdir(mode=0o700, exist_ok=True)
        info = directory.lstat()
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode) or info.st_mode & 0o022:
        return False
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()


def _temporary(temp_dir: Path) -> Path:
    """A cache directory in ``temp_dir`` that only this user can write: the same one each time when possible."""
    user = os.getuid() if hasattr(os, "getuid") else os.getpid()
    directory = temp_dir / f"dehla-numba-{user}"
    if _private(directory) and writable(directory):
        return directory
    return Path(tempfile.mkdtemp(prefix="dehla-numba-", dir=temp_dir))  # someone else's: a fresh one of ours


def choose_cache_dir(
    environ: Mapping[str, str], package_dirs: Sequence[Path], home: Path | None, temp_dir: Path
) -> str | None:
    """The ``NUMBA_CACHE_DIR`` to use, or None when numba's own place (beside the sources) can be written."""
    if environ.get(ENV):
        return environ[ENV]
    if all(writable(directory / "__pycache__") for directory in package_dirs):
        return None
    candidates: list[Path] = []
    xdg = environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        candidates.append(Path(xdg) / "dehla" / "numba")
    if home is not None:
        candidates.append(home / ".cache" / "dehla" / "numba")
    for candidate in candidates:
        if writable(candidate):
            return str(candidate)
    return str(_temporary(temp_dir))


def _home() -> Path | None:
    try:
        return Path.home()
    except (KeyError, RuntimeError):  # no HOME and no entry in the password database
        return None


def configure() -> str | None:
    """Choose the cache directory for this process and put it in ``os.environ`` (see the module's notes)."""
    chosen = choose_cache_dir(os.environ, KERNEL_DIRS, _home(), Path(tempfile.gettempdir()))
    if chosen is not None and os.environ.get(ENV) != chosen:
        os.environ[ENV] = chosen
        config = sys.modules.get("numba.core.config")
        if config is not None:  # numba was imported first: make it read the environment again
            config.reload_config()
    return chosen


@cache
def kernel_sources_digest() -> str:
    """A digest of the sources of every module a cached kernel holds (``COMPILED_SOURCES``)."""
    digest = hashlib.sha256()
    for source in COMPILED_SOURCES:
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()


def stamp_kernel_sources() -> None:
    """Make numba's source stamp of a function of ``COMPILED_SOURCES`` take in all of them (see the notes)."""
    from numba.core import caching

    mixin: Any = getattr(caching, "_SourceFileBackedLocatorMixin", None)
    if mixin is None or getattr(mixin, "_dehla_stamped", False):
        return
    own_stamp = mixin.get_source_stamp

    def get_source_stamp(self: Any) -> Any:
        stamp = own_stamp(self)
        if Path(self._py_file).resolve() in COMPILED_SOURCES:
            return (stamp, kernel_sources_digest())
        return stamp

    mixin.get_source_stamp = get_source_stamp
    mixin._dehla_stamped = True


configure()  # importing this module only sets the directory: numba itself is imported by ``dehla.kernel.jit``
