#!/usr/bin/env bash
# Service bench: idem-lint on public Rust services, each against the
# parse-everything baseline (bench/parse-all) measured in the same run.
#
#   bash bench/services.sh                          # RUNS=5 runs each, medians
#   RUNS=3 bash bench/services.sh
#   LINT=/tmp/idem-lint COMPARE=/tmp/idem-lint-before bash bench/services.sh
#   ONLY="vector tikv" bash bench/services.sh       # some services only
#   bash bench/services.sh --any-mirror             # exit 0 if some mirror is there
#
# Sources are never committed: each service is pinned below (repository,
# full commit, paths) and unpacked with `git archive` from a mirror under
# MIRROR_DIR (default /work/.mirror, where the session tool `fetch
# github:OWNER/REPO` puts OWNER+REPO/repo) into target/bench-services/NAME.
# A service whose mirror is missing is skipped with a line saying how to
# fetch it. Prints, per service: files, lines, parse-all and idem-lint median
# wall time and peak RSS, their ratio, the finding count (`--format json`) and
# whether the findings are identical with `--no-prefilter`; then a cost-growth
# table for the biggest service (¼, ½ and all of its files). NO_BUILD=1 skips
# the release builds (bench/run.sh calls it so). Timings are reported, never
# asserted.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
RUNS="${RUNS:-5}"
MIRROR_DIR="${MIRROR_DIR:-/work/.mirror}"
OUT="$ROOT/target/bench-services"
LINT="${LINT:-$ROOT/target/release/idem-lint}"
BASE="$ROOT/target/bench-parse-all/release/parse-all"

# NAME  OWNER/REPO  COMMIT  PATH...  (`.` is the whole repository). vector
# and tikv are single-crate services of 100k+ lines: one package, its
# manifest and its src/ (their workspaces' other crates are left out);
# agentdesk is the monolith of issue 27 (one crate, 1,417 files, 866k lines,
# also a labelled corpus row).
SERVICES=(
    "tuwunel         matrix-construct/tuwunel 5b3669144219d5d4c0774743c84191b476f1b54f ."
    "omicron-nexus   oxidecomputer/omicron    b848b6df85531e85aaaa6d434dfb5bfd45bb42ce nexus"
    "neon-pageserver neondatabase/neon        6a35a3e9f149798df1b1761ee64099d8d75fbe90 pageserver"
    "vector          vectordotdev/vector      c3445d42d2799eb9afe102b71cba7ae96a80942b Cargo.toml src"
    "tikv            tikv/tikv                8e964719db0d2088d47a280a1dde3fefa1b31d6b Cargo.toml src"
    "agentdesk       kunkunGames/AgentDesk    c42112abe22fac8c6cb4666e5596a50edb06f354 Cargo.toml src"
)

# git_dir OWNER/REPO: prints the mirror's git directory (a bare snapshot is
# OWNER+REPO/repo, a clone OWNER+REPO/repo/.git); fails when there is none.
git_dir() {
    local base="$MIRROR_DIR/${1/\//+}" d
    for d in "$base/repo/.git" "$base/repo" "$base/.git" "$base"; do
        if [ -d "$d/objects" ] && [ -f "$d/HEAD" ]; then
            echo "$d"
            return 0
        fi
    done
    return 1
}

if [ "${1:-}" = --any-mirror ]; then
    for s in "${SERVICES[@]}"; do
        read -r _ repo _ <<<"$s"
        if git_dir "$repo" >/dev/null; then exit 0; fi
    done
    exit 1
fi

for tool in /usr/bin/time jq; do
    if ! command -v "$tool" >/dev/null; then
        echo "error: $tool is missing (apt-get install $(basename "$tool"))" >&2
        exit 2
    fi
done
if [ -z "${NO_BUILD:-}" ]; then
    echo "== building (release)"
    cargo build --release --quiet --bin idem-lint
    cargo build --release --quiet --manifest-path bench/parse-all/Cargo.toml \
        --target-dir "$ROOT/target/bench-parse-all"
fi
for bin in "$LINT" "$BASE" ${COMPARE:+"$COMPARE"}; do
    if [ ! -x "$bin" ]; then
        echo "error: $bin is not an executable (build it, or unset NO_BUILD)" >&2
        exit 2
    fi
done

# shellcheck source=bench/measure.sh
source "$ROOT/bench/measure.sh" # measure, ratio

TIMES="$(mktemp)"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$TIMES" "$SCRATCH"' EXIT

# flags_for BIN: the timed runs' flags (--no-cache where the build has it).
flags_for() {
    FLAGS=(--format short --quiet --exit-zero)
    if "$1" --help | grep -q -- '--no-cache'; then FLAGS+=(--no-cache); fi
}

# unpack NAME OWNER/REPO COMMIT PATH...: the service's sources in $OUT/NAME,
# unpacked once per pin (NAME.stamp). Fails, saying why, when it cannot.
unpack() {
    local name="$1" repo="$2" commit="$3"
    shift 3
    local dir="$OUT/$name" stamp="$repo $commit $*" gd
    local paths=("$@")
    if [ "${paths[*]}" = . ]; then paths=(); fi
    if ! gd="$(git_dir "$repo")"; then
        echo "skip $name: no mirror of $repo in $MIRROR_DIR" \
            "(bring it with the session tool: fetch github:$repo)"
        return 1
    fi
    if ! git --git-dir="$gd" cat-file -e "$commit^{commit}" 2>/dev/null; then
        echo "skip $name: the mirror $gd lacks commit $commit" \
            "(fetch github:$repo again for a newer snapshot)"
        return 1
    fi
    if [ -d "$dir" ] && [ "$(cat "$dir.stamp" 2>/dev/null)" = "$stamp" ]; then
        return 0
    fi
    rm -rf "$dir" "$dir.stamp"
    mkdir -p "$dir"
    # git may warn about blobs the snapshot lacks (files of 4 MiB and more)
    # outside PATH; only a failed archive matters.
    if ! git --git-dir="$gd" archive "$commit" -- "${paths[@]}" 2>"$SCRATCH/archive.log" |
        tar -x -C "$dir"; then
        echo "skip $name: git archive $commit from $gd failed:"
        sed 's/^/    /' "$SCRATCH/archive.log"
        rm -rf "$dir"
        return 1
    fi
    echo "$stamp" >"$dir.stamp"
}

rs_files() { find "$1" -name '*.rs' -type f | wc -l; }
rs_lines() { find "$1" -name '*.rs' -type f -print0 | xargs -0 cat | wc -l; }

# findings BIN DIR FILE [FLAG...]: one untimed JSON run; writes the sorted
# diagnostics (one compact JSON object a line) to FILE, sets RC and LINTED
# (the files idem-lint analysed).
findings() {
    local bin="$1" dir="$2" file="$3" json="$SCRATCH/out.json"
    shift 3
    RC=0
    "$bin" --format json --quiet --exit-zero --no-cache "$@" "$dir" >"$json" 2>/dev/null || RC=$?
    jq -c '.diagnostics[]' "$json" 2>/dev/null | LC_ALL=C sort >"$file" || RC="$RC, no JSON"
    LINTED="$(jq '.summary.files_analyzed' "$json" 2>/dev/null || echo '?')"
}

# same A B: identical, or how the sorted diagnostics differ (IDEM000 apart:
# --no-prefilter also reports parse errors in items the pre-filter skips).
same() {
    if cmp -s "$1" "$2"; then
        echo identical
        return
    fi
    local a b
    a="$(comm -23 "$1" "$2" | wc -l)"
    b="$(comm -13 "$1" "$2" | wc -l)"
    if cmp -s <(grep -v '"code":"IDEM000"' "$1") <(grep -v '"code":"IDEM000"' "$2"); then
        echo "IDEM000 only (-$a/+$b)"
    else
        echo "DIFFERENT (-$a/+$b)"
    fi
}

flags_for "$LINT"
LINT_FLAGS=("${FLAGS[@]}")
if [ -n "${COMPARE:-}" ]; then
    flags_for "$COMPARE"
    COMPARE_FLAGS=("${FLAGS[@]}")
fi
HAS_NO_PREFILTER=""
if "$LINT" --help | grep -q -- '--no-prefilter'; then HAS_NO_PREFILTER=1; fi

echo "== services: $(nproc) cores, $RUNS runs each, mirrors in $MIRROR_DIR"
ROWS=()
PINS=()
BIGGEST="" BIGGEST_LINES=0
for s in "${SERVICES[@]}"; do
    read -r name repo commit paths <<<"$s"
    read -r -a path_list <<<"$paths"
    if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then continue; fi
    if ! unpack "$name" "$repo" "$commit" "${path_list[@]}"; then continue; fi
    dir="$OUT/$name"
    files="$(rs_files "$dir")"
    lines="$(rs_lines "$dir")"
    PINS+=("$(printf '%-16s %-26s %s  %-16s %6d %9d' "$name" "$repo" "$commit" "$paths" "$files" "$lines")")
    echo "-- $name ($repo @ ${commit:0:12}, $paths): $files .rs files, $lines lines"
    measure "parse-all $name" "$BASE" "$dir"
    base_s="$MEDIAN" base_mb="$PEAK_MB"
    measure "idem-lint $name" "$LINT" "${LINT_FLAGS[@]}" "$dir"
    lint_s="$MEDIAN" lint_mb="$PEAK_MB"
    findings "$LINT" "$dir" "$SCRATCH/lint.txt"
    count="$(wc -l <"$SCRATCH/lint.txt")"
    linted="$LINTED"
    notes=""
    if [ "$RC" != 0 ]; then notes+=" exit $RC"; fi
    over="$(grep -c '"message":"analysis budget exceeded' "$SCRATCH/lint.txt" || true)"
    if [ "$over" -gt 0 ]; then notes+=" $over over budget"; fi
    panics="$(grep -c '"message":"internal error' "$SCRATCH/lint.txt" || true)"
    if [ "$panics" -gt 0 ]; then notes+=" $panics internal errors"; fi
    nopre="n/a"
    if [ -n "$HAS_NO_PREFILTER" ]; then
        findings "$LINT" "$dir" "$SCRATCH/nopre.txt" --no-prefilter
        nopre="$(same "$SCRATCH/lint.txt" "$SCRATCH/nopre.txt")"
    fi
    row="$(printf '%-16s %6d %9d %6s %8.2f %6d %8.2f %6d %6s %8d  %-22s' "$name" "$files" "$lines" \
        "$linted" "$base_s" "$base_mb" "$lint_s" "$lint_mb" "$(ratio "$lint_s" "$base_s")" \
        "$count" "$nopre")"
    if [ -n "${COMPARE:-}" ]; then
        measure "comparison build $name" "$COMPARE" "${COMPARE_FLAGS[@]}" "$dir"
        findings "$COMPARE" "$dir" "$SCRATCH/compare.txt"
        row+="$(printf ' %8.2f %6d %6s %6s  %-22s' "$MEDIAN" "$PEAK_MB" "$(ratio "$MEDIAN" "$base_s")" \
            "$(ratio "$lint_s" "$MEDIAN")" "$(same "$SCRATCH/lint.txt" "$SCRATCH/compare.txt")")"
    fi
    ROWS+=("$row${notes:+ $notes}")
    if [ "$lines" -gt "$BIGGEST_LINES" ]; then
        BIGGEST="$name" BIGGEST_LINES="$lines" BIG_BASE="$base_s/$base_mb" BIG_LINT="$lint_s/$lint_mb"
    fi
done

if [ "${#ROWS[@]}" -eq 0 ]; then
    echo "(no service mirror found in $MIRROR_DIR: service bench skipped)"
    exit 0
fi

# part_tree SRC DEST PERCENT: the first PERCENT % of SRC's .rs files (sorted
# paths), hard-linked into DEST at the same paths, with every Cargo.toml and
# ignore file, so units and walks are the same as in SRC.
part_tree() {
    local src="$1" dest="$2" pct="$3" n
    rm -rf "$dest"
    mkdir -p "$dest"
    mapfile -t rs < <(cd "$src" && find . -name '*.rs' -type f | LC_ALL=C sort)
    n=$(((${#rs[@]} * pct + 99) / 100))
    (cd "$src" && find . \( -name Cargo.toml -o -name .gitignore -o -name .ignore \
        -o -name idem-lint.toml \) -type f -print0 | xargs -0 -r cp --parents -l -t "$dest")
    (cd "$src" && printf '%s\0' "${rs[@]:0:n}" | xargs -0 -r cp --parents -l -t "$dest")
}

echo "== cost growth: $BIGGEST (first ¼, ½ of its sorted .rs files, and all)"
GROWTH=()
for pct in 25 50; do
    dir="$OUT/growth-$BIGGEST-$pct"
    part_tree "$OUT/$BIGGEST" "$dir" "$pct"
    files="$(rs_files "$dir")"
    lines="$(rs_lines "$dir")"
    echo "-- $pct %: $files .rs files, $lines lines"
    measure "parse-all $BIGGEST $pct %" "$BASE" "$dir"
    b="$MEDIAN" bm="$PEAK_MB"
    measure "idem-lint $BIGGEST $pct %" "$LINT" "${LINT_FLAGS[@]}" "$dir"
    GROWTH+=("$(printf '%5s %6d %9d %8.2f %6d %8.2f %6d %6s' "$pct %" "$files" "$lines" \
        "$b" "$bm" "$MEDIAN" "$PEAK_MB" "$(ratio "$MEDIAN" "$b")")")
done
GROWTH+=("$(printf '%5s %6d %9d %8.2f %6d %8.2f %6d %6s' "100 %" "$(rs_files "$OUT/$BIGGEST")" \
    "$BIGGEST_LINES" "${BIG_BASE%/*}" "${BIG_BASE#*/}" "${BIG_LINT%/*}" "${BIG_LINT#*/}" \
    "$(ratio "${BIG_LINT%/*}" "${BIG_BASE%/*}")")")

echo
echo "== pinned services"
printf '%-16s %-26s %-40s  %-16s %6s %9s\n' service repository commit paths files lines
printf '%s\n' "${PINS[@]}"
echo
echo "== services summary (median of $RUNS runs; s = wall seconds, MB = peak RSS)"
header="$(printf '%-16s %6s %9s %6s %8s %6s %8s %6s %6s %8s  %-22s' service files lines linted \
    'parse s' MB 'lint s' MB ratio findings '= --no-prefilter')"
if [ -n "${COMPARE:-}" ]; then
    header+="$(printf ' %8s %6s %6s %6s  %-22s' 'cmp s' MB 'c/pa' 'l/cmp' '= compare findings')"
fi
echo "$header"
printf '%s\n' "${ROWS[@]}"
echo "(files/lines: every .rs file; linted: files idem-lint analysed, without tests/ and benches/;"
echo " ratio: idem-lint / parse-all${COMPARE:+; c/pa: comparison / parse-all; l/cmp: idem-lint / comparison})"
echo
echo "== cost growth: $BIGGEST"
printf '%5s %6s %9s %8s %6s %8s %6s %6s\n' part files lines 'parse s' MB 'lint s' MB ratio
printf '%s\n' "${GROWTH[@]}"
