#!/usr/bin/env bash
# Benchmark: the overhead of idem-scope's IdempotencyLayer per request against
# the same axum router without it, with the memory store and with Redis and
# PostgreSQL 15 on loopback (both started by the bench, as in the tests), in
# one run, as ratios to the bare router. Prints a Markdown table.
#
#   bash bench/idem-scope-layer.sh
#
# Needs redis-server and the PostgreSQL 15 binaries (initdb, pg_ctl), like
# `cargo test -p idem-scope --all-features`. Timings are reported, never asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -p idem-scope --all-features --bench layer_overhead 2>/dev/null
