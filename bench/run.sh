#!/usr/bin/env bash
# Benchmark: idem-lint against the "parse everything" baseline on a corpus
# made by `cargo vendor` of bench/corpus (pinned by its Cargo.lock).
#
#   bash bench/run.sh            # RUNS=5 runs each, medians
#   RUNS=3 SKIP_SCALING=1 bash bench/run.sh
#   COMPARE=/tmp/idem-lint-before bash bench/run.sh   # a second build, same run
#
# Reports medians of wall time, the ratio idem-lint / baseline, peak RSS,
# scaling over ¼, ½ and all of the corpus and over --jobs 1/2, the warm
# cache time, the per-unit statistics summary (bench/unit-stats.sh), and
# semgrep/ast-grep ratios when those tools are installed.
#
# Then the service bench, bench/services.sh: public Rust services pinned by
# commit (tuwunel, omicron's nexus, neon's pageserver, vector, tikv),
# unpacked from mirrors under MIRROR_DIR (default /work/.mirror; a missing one
# is skipped with how to fetch it), each against parse-all: median time, peak
# RSS, ratio, finding count, equality with --no-prefilter, and a cost-growth
# table (¼, ½, all) for the biggest. It runs by default when a mirror is
# present; SERVICES=1 asks for it, SERVICES=0 skips it; `bash
# bench/services.sh` runs it alone.
# Timings are reported, never asserted.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
RUNS="${RUNS:-5}"
BENCH="$ROOT/target/bench-corpus"
CORPUS="$BENCH/vendor"
LINT="${LINT:-$ROOT/target/release/idem-lint}"
BASE="$ROOT/target/bench-parse-all/release/parse-all"

if [ ! -x /usr/bin/time ]; then
    echo "error: /usr/bin/time is missing (apt-get install time)" >&2
    exit 2
fi

if [ ! -d "$CORPUS" ]; then
    echo "== vendoring the corpus into $CORPUS"
    cargo vendor --locked --versioned-dirs --manifest-path bench/corpus/Cargo.toml "$CORPUS" >/dev/null
fi
if [ -z "${NO_BUILD:-}" ]; then
    echo "== building (release)"
    cargo build --release --quiet --bin idem-lint
    cargo build --release --quiet --manifest-path bench/parse-all/Cargo.toml \
        --target-dir "$ROOT/target/bench-parse-all"
fi

corpus_stats() {
    find "$1" -name '*.rs' -type f -printf '%s\n' |
        awk '{n++; s+=$1} END {printf "%d .rs files, %.0f MB", n, s/1e6}'
}

# shellcheck source=bench/measure.sh
source "$ROOT/bench/measure.sh"   # measure, ratio

TIMES="$(mktemp)"
trap 'rm -f "$TIMES"' EXIT

lint_flags=(--format short --quiet --exit-zero)
if "$LINT" --help | grep -q -- '--no-cache'; then
    lint_flags+=(--no-cache)
fi

echo "== corpus: $(corpus_stats "$CORPUS"), $(nproc) cores, $RUNS runs each"
measure "baseline: parse every file with syn" "$BASE" "$CORPUS"
base_all="$MEDIAN"
measure "idem-lint (all rules)" "$LINT" "${lint_flags[@]}" "$CORPUS"
lint_all="$MEDIAN"
if "$LINT" --help | grep -q -- '--partition'; then
    # Two shards and their merge must give the single run's JSON (run once:
    # together the shards cost one full run).
    shards="$(mktemp -d)"
    json_flags=(--format json --quiet --exit-zero --no-cache)
    "$LINT" "${json_flags[@]}" --output "$shards/single.json" "$CORPUS"
    for i in 1 2; do
        "$LINT" "${json_flags[@]}" --partition "hash:$i/2" --output "$shards/$i.json" "$CORPUS"
    done
    "$LINT" merge --exit-zero --output "$shards/merged.json" "$shards/1.json" "$shards/2.json"
    if cmp -s "$shards/single.json" "$shards/merged.json"; then verdict=identical; else verdict=DIFFERENT; fi
    echo "partition-merge check (2 shards + merge vs single run, JSON): $verdict"
    rm -rf "$shards"
fi
echo "ratio idem-lint / baseline: $(ratio "$lint_all" "$base_all")"
if [ -n "${COMPARE:-}" ]; then
    # Another build (e.g. main before a change), measured in this run so the
    # machine's noise affects both alike.
    measure "comparison build ($(basename "$COMPARE"))" "$COMPARE" "${lint_flags[@]}" "$CORPUS"
    echo "ratio comparison build / baseline: $(ratio "$MEDIAN" "$base_all")"
    echo "ratio idem-lint / comparison build: $(ratio "$lint_all" "$MEDIAN")"
fi
if "$LINT" --help | grep -q -- '--no-prefilter'; then
    measure "idem-lint --no-prefilter" "$LINT" "${lint_flags[@]}" --no-prefilter "$CORPUS"
    echo "ratio idem-lint --no-prefilter / baseline: $(ratio "$MEDIAN" "$base_all")"
fi
if "$LINT" --help | grep -q -- '--no-cache'; then
    cache_dir="$BENCH/cache"
    rm -rf "$cache_dir"
    IDEM_LINT_CACHE_DIR="$cache_dir" "$LINT" --format short --quiet --exit-zero "$CORPUS" >/dev/null
    measure "idem-lint warm cache" env IDEM_LINT_CACHE_DIR="$cache_dir" \
        "$LINT" --format short --quiet --exit-zero "$CORPUS"
fi

echo "== where the cold time goes (bench/unit-stats.sh, one run)"
LINT="$LINT" TOP=5 bash "$ROOT/bench/unit-stats.sh" "$CORPUS" || true

if [ -z "${SKIP_SCALING:-}" ]; then
    echo "== scaling with corpus size"
    mapfile -t crates < <(ls "$CORPUS" | sort)
    for part in 4 2; do
        dir="$BENCH/part-$part"
        if [ ! -d "$dir" ]; then
            mkdir -p "$dir"
            # Every part-th crate: a fair sample, hard links cost no space.
            for i in "${!crates[@]}"; do
                if [ $((i % part)) -eq 0 ]; then cp -al "$CORPUS/${crates[$i]}" "$dir/"; fi
            done
        fi
        echo "-- 1/$part: $(corpus_stats "$dir")"
        measure "baseline 1/$part" "$BASE" "$dir"
        b="$MEDIAN"
        measure "idem-lint 1/$part" "$LINT" "${lint_flags[@]}" "$dir"
        echo "ratio: $(ratio "$MEDIAN" "$b")"
    done
    echo "== scaling with --jobs (whole corpus)"
    for jobs in 1 2; do
        measure "baseline --jobs $jobs" "$BASE" --jobs "$jobs" "$CORPUS"
        b="$MEDIAN"
        measure "idem-lint --jobs $jobs" "$LINT" "${lint_flags[@]}" --jobs "$jobs" "$CORPUS"
        echo "ratio: $(ratio "$MEDIAN" "$b")"
    done
fi

# Scaling in one file: 20,000 findings (10,000 functions each concatenating
# the Idempotency-Key header into a tenant-scoped key: IDEM001 + IDEM002), and
# a ~20 MB generated file (mostly clean functions, one in ten with findings).
# Both must take time linear in their size and findings.
echo "== one large file"
gen_fns() { # gen_fns COUNT EVERY: COUNT functions, every EVERY-th with findings
    awk -v n="$1" -v every="$2" 'BEGIN {
        print "use axum::http::HeaderMap;\n"
        for (i = 0; i < n; i++) {
            if (i % every == 0) {
                printf "fn h%d(s: &Store, h: &HeaderMap, tenant: &str) {\n", i
                print "    let k = h.get(\"Idempotency-Key\").unwrap().to_str().unwrap();"
                print "    s.set(format!(\"{}:{}\", tenant, k), 1);\n}"
            } else {
                printf "fn f%d(s: &Store, v: u64) -> u64 {\n", i
                print "    let total = v.wrapping_mul(31).wrapping_add(s.len() as u64);"
                print "    if total % 7 == 0 { total / 7 } else { total + 1 }\n}"
            }
        }
    }'
}
mkdir -p "$BENCH"
gen_fns 10000 1 >"$BENCH/findings-20k.rs"
gen_fns 125000 10 >"$BENCH/generated-20mb.rs"
measure "idem-lint 20k findings, human format" "$LINT" --no-cache --quiet --exit-zero \
    "$BENCH/findings-20k.rs"
measure "idem-lint 20k findings, SARIF" "$LINT" --no-cache --quiet --exit-zero --format sarif \
    "$BENCH/findings-20k.rs"
measure "idem-lint $(($(stat -c %s "$BENCH/generated-20mb.rs") / 1000000)) MB file" \
    "$LINT" "${lint_flags[@]}" --max-file-size 100000000 "$BENCH/generated-20mb.rs"

# One rule roughly equivalent to IDEM001 (a client key formatted into a
# storage key), for the tools that match syntax patterns.
if command -v ast-grep >/dev/null 2>&1; then
    echo "== ast-grep"
    measure "ast-grep (one rule)" ast-grep run --lang rust \
        --pattern '$S.set(format!($$$A), $$$B)' "$CORPUS"
    echo "ratio ast-grep / baseline: $(ratio "$MEDIAN" "$base_all")"
else
    echo "(ast-grep not installed: skipped)"
fi
if command -v semgrep >/dev/null 2>&1; then
    echo "== semgrep"
    measure "semgrep (one rule)" semgrep --metrics=off --quiet --lang rust \
        -e '$S.set(format!(...), ...)' "$CORPUS"
    echo "ratio semgrep / baseline: $(ratio "$MEDIAN" "$base_all")"
else
    echo "(semgrep not installed: skipped)"
fi

SERVICES="${SERVICES:-auto}"
if [ "$SERVICES" = 1 ] || { [ "$SERVICES" = auto ] && bash "$ROOT/bench/services.sh" --any-mirror; }; then
    echo "== services (bench/services.sh)"
    RUNS="$RUNS" LINT="$LINT" NO_BUILD=1 bash "$ROOT/bench/services.sh"
else
    echo "(service bench skipped: SERVICES=$SERVICES, or no mirror; see bench/services.sh)"
fi
