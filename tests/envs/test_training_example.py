"""The training example runs (a few hundred decisions and a few evaluation hands): CI's smoke test of it."""

from __future__ import annotations

import subprocess
import sys

import pytest
from tests.helpers import ROOT

pytest.importorskip("sb3_contrib")


def test_training_example_smoke() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "train_masked_ppo.py"),
            *("--steps", "256", "--envs", "1", "--eval-hands", "10"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "policy + policy vs random + random: hand-win rate" in done.stdout
