#!/usr/bin/env bash
# One command that sets up everything the tests need and runs every check:
#   system packages (Debian's chromium for the browser tests, PostgreSQL for the storage tests),
#   a virtual environment in .venv-test with the test extras, then ruff, mypy, the import contracts, pytest.
# Arguments are passed to pytest (e.g. ./test.sh -x tests/test_rules.py).
set -euo pipefail
cd "$(dirname "$0")"

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  if ! command -v chromium >/dev/null || ! command -v pg_ctlcluster >/dev/null \
      || ! dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || ! dpkg -s fonts-noto-core >/dev/null 2>&1 \
      || ! command -v node >/dev/null \
      || ! command -v nginx >/dev/null || ! command -v caddy >/dev/null; then
    echo "== installing chromium, an emoji font and the Noto fonts for Devanagari and Gujarati (for the screenshots), postgresql and node (the JavaScript example bot) (Debian packages)"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-color-emoji fonts-noto-core postgresql nodejs nginx caddy >/dev/null; { nginx -s quit; caddy stop; } >/dev/null 2>&1 || true
  fi
  cluster=$(pg_lsclusters -h 2>/dev/null | awk 'NR==1 {print $1" "$2}')
  if [ -n "$cluster" ]; then
    pg_ctlcluster $cluster start 2>/dev/null || true
    su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='dehla'\"" | grep -q 1 \
      || su postgres -c "psql -qc \"CREATE ROLE dehla LOGIN PASSWORD 'dehla'\""
    su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname='dehla_test'\"" | grep -q 1 \
      || su postgres -c "createdb -O dehla dehla_test"
    export DEHLA_TEST_POSTGRES="${DEHLA_TEST_POSTGRES:-postgresql://dehla:dehla@127.0.0.1:5432/dehla_test}"
  fi
else
  echo "== not root or no apt-get: browser and PostgreSQL tests run only if chromium / a server are already there"
fi

VENV=.venv-test
if [ ! -x "$VENV/bin/pytest" ] || [ pyproject.toml -nt "$VENV/.installed" ]; then
  echo "== setting up $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --upgrade pip
  "$VENV/bin/pip" install --quiet -e ".[test]"
  touch "$VENV/.installed"
fi
# axe-core for the accessibility test (tests/web/test_a11y.py), from npm, once: the tests themselves use no network.
if [ ! -f .axe/node_modules/axe-core/axe.min.js ] && command -v npm >/dev/null; then
  echo "== installing axe-core (npm) into .axe"
  npm install --no-save --no-audit --no-fund --silent --prefix .axe axe-core@4 >/dev/null \
    || echo "== axe-core could not be installed: the accessibility test will be skipped"
fi

echo "== ruff"
"$VENV/bin/ruff" check src tests benchmarks examples
"$VENV/bin/ruff" format --check src tests benchmarks examples
echo "== mypy (core)"
"$VENV/bin/mypy"
echo "== import contracts (layers point down, no cycles)"
"$VENV/bin/lint-imports" --no-cache
echo "== pytest"
"$VENV/bin/pytest" "$@"
