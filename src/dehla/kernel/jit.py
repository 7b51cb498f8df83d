"""How the kernels are compiled by numba: the decorators every kernel module uses.

The kernels' sources import numba through this module only; ``dehla.kernel.layout``, ``codec`` and the other
modules a bot reads its constants from do not, so a process that runs the kernels compiled ahead of time
(``dehla.solver.compiled``) never loads numba.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from dehla import numba_cache  # first: a writable cache directory for numba before numba is imported

# isort: split
import numba

numba_cache.stamp_kernel_sources()  # an edit to any kernel source makes every cached kernel compile again

__all__ = ["OPTIONS", "jit", "inline", "jit_allocating"]

F = TypeVar("F", bound=Callable[..., Any])

#: How the kernels are compiled: on-disk cache, no GIL, numpy's error model (no checks for a division by zero)
#: and no reference counting (``_nrt``, numba's own switch).  Nothing they call allocates and every array they
#: take outlives the call, so the counts would only cost time: the atomic operations around each array passed
#: to a helper once took a third of the solver's time, and made a random batch hand three times slower.
OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "error_model": "numpy", "_nrt": False}


def jit(function: F) -> F:
    """``numba.njit`` with the kernels' options, typed for mypy."""
    return cast(F, numba.njit(**OPTIONS)(function))


def inline(function: F) -> F:
    """``jit``, inlined into its callers by numba itself.

    A call between compiled functions passes its arrays as structs and cost more than the rules it ran; and
    a cached caller of a non-inlined helper crashed on loading from the cache under numba 0.68.
    """
    return cast(F, numba.njit(**OPTIONS, inline="always")(function))


def jit_allocating(function: F) -> F:
    """``numba.njit`` with the on-disk cache and reference counting, for the few functions that make arrays."""
    return cast(F, numba.njit(cache=True, nogil=True)(function))
