#!/usr/bin/env bash
# Where a cold run's time goes, per unit: runs idem-lint once with
# IDEM_LINT_UNIT_STATS=1 (one line per unit: files parsed, bytes parsed,
# planning and parsing time) and summarises the lines.
#
#   bash bench/unit-stats.sh                       # the bench corpus, release build
#   LINT=/tmp/idem-lint-before bash bench/unit-stats.sh [DIR]
#
# With IDEM_LINT_SEED_STATS=1 as well, idem-lint also prints, per unit, each
# pre-filter seed, the facts it holds and how many items its callers' closure
# alone makes keyed: which seeds make the selection grow with the crate.
#
# Times are thread times of one run, for comparing where the time goes (builds
# before 5e38217 print only the units that parse); the
# wall-clock ratios are bench/run.sh's.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LINT="${LINT:-$ROOT/target/release/idem-lint}"
DIR="${1:-$ROOT/target/bench-corpus/vendor}"
TOP="${TOP:-10}"

if [ ! -d "$DIR" ]; then
    echo "error: $DIR is missing (bench/run.sh vendors the corpus)" >&2
    exit 2
fi

IDEM_LINT_UNIT_STATS=1 "$LINT" --no-cache --quiet --exit-zero --format short "$DIR" 2>&1 >/dev/null |
    awk -v top="$TOP" '
    # Durations as Rust prints them (Debug of Duration): 1.5s, 12.3ms, 45µs, 9ns.
    function secs(d,    v) {
        v = d + 0
        if (d ~ /ms$/) return v / 1e3
        if (d ~ /µs$/ || d ~ /us$/) return v / 1e6
        if (d ~ /ns$/) return v / 1e9
        return v
    }
    /^\[idem-lint unit\]/ {
        # [idem-lint unit] PATH: parsed C/F files, P of T bytes; plan D, parse D, all D
        line = $0
        sub(/^\[idem-lint unit\] /, "", line)
        at = index(line, ": parsed ")
        path = substr(line, 1, at - 1)
        split(substr(line, at + 9), f, /\/| files, | of | bytes; plan |, parse |, all /)
        chosen = f[1]; files = f[2]; pbytes = f[3]; tbytes = f[4]
        plan = secs(f[5]); parse = secs(f[6]); all = secs(f[7])
        units++; nfiles += files; nchosen += chosen; tb += tbytes; pb += pbytes
        tplan += plan; tparse += parse; tall += all
        if (chosen > 0) parsing++
        name[units] = path; cost[units] = plan + all
        detail[units] = sprintf("plan %.3f s, parse+analyse %.3f s, parsed %d/%d files, %.1f of %.1f MB",
            plan, all, chosen, files, pbytes / 1e6, tbytes / 1e6)
    }
    END {
        if (units == 0) { print "no unit statistics (is this build older than IDEM_LINT_UNIT_STATS?)"; exit 1 }
        printf "units: %d, of which %d parse anything\n", units, parsing
        printf "files parsed: %d of %d; bytes parsed: %.1f of %.1f MB\n", nchosen, nfiles, pb / 1e6, tb / 1e6
        printf "thread time: planning %.2f s, parsing %.2f s, parsing+analysis %.2f s\n", tplan, tparse, tall
        printf "the %d costliest units (planning + parsing + analysis):\n", top
        for (n = 0; n < top && n < units; n++) {
            best = 0
            for (i = 1; i <= units; i++) if (!(i in done) && (best == 0 || cost[i] > cost[best])) best = i
            done[best] = 1
            printf "  %-60s %s\n", name[best], detail[best]
        }
    }'
