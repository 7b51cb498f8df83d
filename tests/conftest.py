"""Test-suite setup: make ``tests.helpers`` and ``tests.oracle`` importable however pytest is started, and run the
kernels as numba compiles them, whether or not ``dehla compile`` has built them in this checkout
(``tests/test_solver_compiled.py`` holds the two builds to each other)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("DEHLA_KERNELS", "jit")
