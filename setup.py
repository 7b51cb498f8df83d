"""Build hook: the engine's hot path compiled with mypyc, or pure Python where that cannot be done.

Everything else about the package is in pyproject.toml.  A wheel (``pip install .``) compiles
the engine's hot path (the match, its hand, the game's facts and the trick core: ``COMPILED_MODULES``)
to C extensions with mypyc (about twice the random hands a second, docs/benchmarks.md); the Python
sources ship beside them and are the same code.
Editable installs (``pip install -e .``, the test setup) stay pure Python so that an edit takes
effect at once, and so does any build with ``DEHLA_PURE_PYTHON=1`` or without a C compiler (the
extensions are optional: a failed compile installs the pure-Python package).
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup

COMPILED_MODULES = [
    "src/dehla/engine/state.py",
    "src/dehla/engine/hand.py",
    "src/dehla/engine/game.py",
    "src/dehla/engine/tricks.py",
]


def compiled_extensions() -> list[Extension]:
    if os.environ.get("DEHLA_PURE_PYTHON") == "1" or "editable_wheel" in sys.argv:
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # mypy is a build requirement; without it, pure Python
        return []
    extensions = mypycify(COMPILED_MODULES, opt_level="3", group_name="dehla_engine")
    for extension in extensions:
        extension.optional = True  # no C compiler: install the pure-Python modules rather than fail
    return extensions


setup(ext_modules=compiled_extensions())
