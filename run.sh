#!/usr/bin/env bash
# Set up (a virtual environment in .venv, once) and run dehla.
# With no arguments: the web tables (dehla serve) at http://localhost:8000/. Otherwise any dehla command.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/dehla ] || [ pyproject.toml -nt .venv/.installed ]; then
  python3 -m venv .venv
  .venv/bin/pip install --quiet --upgrade pip
  .venv/bin/pip install --quiet -e .
  touch .venv/.installed
fi
if [ "$#" -eq 0 ]; then
  set -- serve
fi
exec .venv/bin/dehla "$@"
