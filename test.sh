#!/usr/bin/env bash
# Set up (a virtual environment in .venv-test) and run every check: ruff, mypy on the core, the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
VENV=.venv-test
if [ ! -x "$VENV/bin/pytest" ] || [ pyproject.toml -nt "$VENV/.installed" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --upgrade pip
  "$VENV/bin/pip" install --quiet -e ".[test]"
  touch "$VENV/.installed"
fi
echo "== ruff"
"$VENV/bin/ruff" check src tests benchmarks
echo "== mypy (core)"
"$VENV/bin/mypy"
echo "== pytest"
"$VENV/bin/pytest" "$@"
