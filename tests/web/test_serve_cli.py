"""``dehla serve``: bad arguments and unusable databases give one clear line and a non-zero exit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dehla", "serve", *args], capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "eighty"], "not a whole number"),
        (["--port", "70000"], "must be 0..65535"),
        (["--bot-delay", "-1"], "0..3600"),
        (["--daily-deals", "0"], "1..12"),
        (["--daily-preset", "whist"], "no preset 'whist'"),
        (["--db", "mysql://x/y"], "not supported"),
        (["--db", "sqlite://nope"], "sqlite:///"),
        (["--db", "/no/such/dir/at/all/x.sqlite3"], "cannot open the SQLite database"),
    ],
)
def test_bad_serve_arguments_give_one_line(args: list[str], message: str) -> None:
    result = _serve(*args)
    assert result.returncode != 0
    assert message in result.stderr and "Traceback" not in result.stderr


def test_serve_help_names_the_options(tmp_path: Path) -> None:
    result = _serve("--help")
    assert result.returncode == 0 and "--db" in result.stdout and "postgresql://" in result.stdout


def test_several_workers_need_postgresql(tmp_path: Path) -> None:
    result = _serve("--workers", "2", "--db", str(tmp_path / "x.sqlite3"))
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "--workers 2 needs --db postgresql://" in result.stderr and "SQLite" in result.stderr
