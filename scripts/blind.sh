#!/usr/bin/env bash
# blind.sh [SET ...]: score idem-lint on the kept blind sets (tests/blind/*/), default tier.
#   IDEM_LINT=/path/to/idem-lint scripts/blind.sh s45
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LINT="${IDEM_LINT:-$ROOT/target/release/idem-lint}"
[ -x "$LINT" ] || { echo "blind: $LINT is not built (cargo build --release)" >&2; exit 2; }
sets=("$@")
if [ ${#sets[@]} -eq 0 ]; then
    for d in "$ROOT"/tests/blind/*/; do sets+=("$(basename "$d")"); done
fi
for s in "${sets[@]}"; do
    dir="$ROOT/tests/blind/$s"
    report="$(mktemp)"
    (cd "$dir" && "$LINT" --format json --exit-zero --no-cache ${CONFIDENCE:+--confidence "$CONFIDENCE"} . >"$report" 2>/dev/null)
    echo "== $s"
    # A set's own scorer (s45), else the shared one, given the set's labels.
    # A held-back set (named in tests/blind/HELD) shows its scores, not
    # which lines it misses: reading them would make it a tuning set.
    held=cat
    grep -qx "$s" "$ROOT/tests/blind/HELD" 2>/dev/null && held="sed -E /^(misses|false.positives):/,\$d"
    if [ -f "$dir/score.py" ]; then
        python3 "$dir/score.py" "$report" ${CONFIDENCE:+--confidence "$CONFIDENCE"}
    else
        python3 "$ROOT/tests/blind/score.py" "$report" --labels "$dir/labels.tsv" \
            ${CONFIDENCE:+--confidence "$CONFIDENCE"} | $held
    fi
    rm -f "$report"
done
