# shellcheck shell=bash
# Sourced by bench/run.sh and bench/services.sh: timing helpers.
# Needs RUNS (runs per measurement) and TIMES (a scratch file) to be set.

# measure LABEL CMD... : runs CMD $RUNS times; prints the median wall time
# and the largest peak RSS; sets MEDIAN (seconds) for ratios and PEAK_MB.
measure() {
    local label="$1"
    shift
    local times=() rss=() out
    for _ in $(seq "$RUNS"); do
        # shellcheck disable=SC2153 # TIMES is the caller's scratch file
        /usr/bin/time -v -o "$TIMES" "$@" >/dev/null 2>&1 || true
        out="$(cat "$TIMES")"
        # `/usr/bin/time -v` prints h:mm:ss or m:ss.ss.
        times+=("$(echo "$out" | awk -F': ' '/Elapsed \(wall clock\)/ {
            n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }')")
        rss+=("$(echo "$out" | awk -F': ' '/Maximum resident set size/ {print $2}')")
    done
    MEDIAN="$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')"
    local peak
    peak="$(printf '%s\n' "${rss[@]}" | sort -g | tail -1)"
    PEAK_MB=$((peak / 1024))
    printf '%-44s median %7.2f s  (runs: %s)  peak RSS %4d MB\n' \
        "$label" "$MEDIAN" "$(echo "${times[*]}" | tr ' ' ',')" "$PEAK_MB"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
