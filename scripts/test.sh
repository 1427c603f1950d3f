#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs the external checkers the
# tests run (into .tools/, idempotent), then runs every test of the workspace.
# Extra arguments go to `cargo test` (e.g. `scripts/test.sh --test fixtures`).
set -euo pipefail
cd "$(dirname "$0")/.."

# Microsoft's SARIF validator (a self-contained .NET binary inside the npm
# package) checks --format sarif; the pre-commit framework runs the hooks.
# The tests fail, never skip, when either is missing.
if [ ! -d .tools/node_modules/@microsoft/sarif-multitool ]; then
  command -v npm >/dev/null || { echo "npm is required to install the SARIF validator" >&2; exit 1; }
  npm install --prefix .tools --no-audit --no-fund --loglevel=error @microsoft/sarif-multitool@5.7.0
fi
if [ ! -x .tools/venv/bin/pre-commit ]; then
  [ -x .tools/venv/bin/python ] || python3 -m venv .tools/venv
  .tools/venv/bin/python -m pip install --quiet --disable-pip-version-check pre-commit==4.7.0
fi

# The idem-scope PostgreSQL test starts a throwaway cluster itself and fails,
# never skips, when it cannot.
cargo test --workspace --all-features "$@"
