#!/usr/bin/env bash
# The whole test suite, on a fresh machine: installs the external checkers the
# tests run (into .tools/, idempotent), then runs every test of the workspace.
# Extra arguments go to `cargo test` (e.g. `scripts/test.sh --test fixtures`).
set -euo pipefail
cd "$(dirname "$0")/.."

# Prerequisites first, all at once, each with what to install: finding out
# one at a time, twenty minutes into a build, is what this check prevents.
missing=()
command -v cargo >/dev/null || missing+=("cargo (https://rustup.rs)")
if [ ! -d .tools/node_modules/@microsoft/sarif-multitool ] && ! command -v npm >/dev/null; then
  missing+=("npm, to install Microsoft's SARIF validator into .tools/ (Debian: apt-get install npm)")
fi
if [ ! -x .tools/venv/bin/pre-commit ] && ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
  missing+=("python3 with the venv module, for pre-commit in .tools/venv (Debian: apt-get install python3-venv)")
fi
pg_found=
for dir in "" /usr/lib/postgresql/15/bin/; do
  if { [ -z "$dir" ] && command -v initdb >/dev/null && command -v pg_ctl >/dev/null; } ||
     { [ -n "$dir" ] && [ -x "${dir}initdb" ] && [ -x "${dir}pg_ctl" ]; }; then
    pg_found=1
  fi
done
[ -n "$pg_found" ] || missing+=("PostgreSQL 15 server binaries initdb and pg_ctl, on PATH or in /usr/lib/postgresql/15/bin (Debian: apt-get install postgresql-15)")
if [ "$(id -u)" = 0 ] && ! command -v runuser >/dev/null; then
  missing+=("runuser (util-linux), to run PostgreSQL as the postgres user when testing as root")
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "scripts/test.sh: missing prerequisites (see README, Development):" >&2
  printf '  - %s\n' "${missing[@]}" >&2
  exit 1
fi

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
