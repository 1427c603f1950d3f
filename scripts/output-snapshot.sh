#!/usr/bin/env bash
# output-snapshot.sh — write idem-lint's output for every fixture folder, the
# demo and the ecosystem crates into one directory, so two builds can be
# compared byte for byte (`diff -r before/ after/`) around a refactoring.
#
# Usage: scripts/output-snapshot.sh BINARY OUTDIR
#
# Environment: ECO_DIR  unpacked ecosystem crates (default: <repo>/target/ecosystem,
#                       see scripts/ecosystem-check.sh --download-only); skipped when absent.
# Runs with --no-cache: a warm cache keyed on the same version would replay the old output.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BINARY OUTDIR" >&2; exit 2; }
BIN="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
OUT="$2"
cd "$(dirname "$0")/.."
ECO_DIR="${ECO_DIR:-target/ecosystem}"
mkdir -p "$OUT"

run() { # NAME ARGS..: output and exit code of one run
  local name="$1"; shift
  local code=0
  "$BIN" --no-cache --color never "$@" > "$OUT/$name" 2>&1 || code=$?
  echo "exit $code" >> "$OUT/$name"
}

for dir in fixtures/*/; do
  name="$(basename "$dir")"
  run "fixture-$name.json" --format json "$dir"
  run "fixture-$name.no-prefilter.json" --format json --no-prefilter "$dir"
done
run demo.human --format human fixtures/demo
run demo.sarif --format sarif fixtures/demo
if [ -d "$ECO_DIR" ]; then
  for dir in "$ECO_DIR"/*/; do
    name="$(basename "$dir")"
    case "$name" in .*) continue ;; esac
    run "ecosystem-$name.json" --format json "$dir"
  done
fi
echo "wrote $(ls "$OUT" | wc -l) outputs to $OUT"
