#!/usr/bin/env bash
# Set up (a virtual environment in .venv, once) and run dehla. With no arguments: play a match in the terminal.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/dehla ] || [ pyproject.toml -nt .venv/.installed ]; then
  python3 -m venv .venv
  .venv/bin/pip install --quiet --upgrade pip
  .venv/bin/pip install --quiet -e .
  touch .venv/.installed
fi
if [ "$#" -eq 0 ]; then
  set -- play
fi
exec .venv/bin/dehla "$@"
