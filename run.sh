#!/usr/bin/env bash
# Set up (a virtual environment in .venv; again whenever the sources change) and run dehla.
# With no arguments: the web tables (dehla serve) at http://localhost:8000/. Otherwise any dehla command.
# The package is installed as a wheel, so the engine is compiled with mypyc where a C compiler is at hand
# (setup.py; without one it installs as Python source). ./test.sh uses an editable install instead.
set -euo pipefail
cd "$(dirname "$0")"
stamp=.venv/.installed
if [ ! -x .venv/bin/dehla ] || [ ! -f "$stamp" ] \
    || [ -n "$(find pyproject.toml setup.py src -newer "$stamp" -not -path '*/__pycache__*' -print -quit)" ]; then
  echo "== setting up .venv (the first time, and after the sources change)" >&2
  python3 -m venv .venv
  .venv/bin/pip install --quiet --upgrade pip
  .venv/bin/pip uninstall --quiet --yes dehla >/dev/null 2>&1 || true  # so that the sources are built again
  .venv/bin/pip install --quiet ".[postgres]"  # the PostgreSQL driver too, so that --db postgresql:// just works
  touch "$stamp"
fi
if ! .venv/bin/dehla compile --check >/dev/null 2>&1; then
  # The search bots' kernels compiled ahead of time: a bot process then never loads numba (150 MB less each).
  echo "== compiling the search bots' kernels for this machine (the first time, and after the sources change: a few minutes)" >&2
  .venv/bin/dehla compile >/dev/null || echo "== could not compile them ahead of time: numba compiles them at run time instead" >&2
fi
if [ "$#" -eq 0 ]; then
  set -- serve
fi
exec .venv/bin/dehla "$@"
