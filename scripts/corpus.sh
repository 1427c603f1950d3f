#!/usr/bin/env bash
# corpus.sh — the labelled real-world corpus (tests/ecosystem/): materialise it, score idem-lint on it.
#
# Usage:
#   scripts/corpus.sh materialise [NAME ...]   unpack every corpus row (or the named ones)
#   scripts/corpus.sh score [NAME ...]         run idem-lint over the unpacked rows and score it
#                                              against tests/ecosystem/labels.tsv
#   scripts/corpus.sh list                     print the corpus rows
#
# Files:
#   tests/ecosystem/corpus.tsv   name, source, commit, subdir, kind (one row per repository/crate)
#   tests/ecosystem/labels.tsv   name, path, line, code, kind (expect|trap|debatable), reason
#   tests/ecosystem/score.py     the scoring logic (Python 3.11, stdlib only)
#
# Sources:
#   github:OWNER/REPO  the repository is taken from a local bare mirror, never from the network:
#                      $MIRROR_DIR/OWNER+REPO/repo (what the session tool `fetch github:OWNER/REPO`
#                      creates: "/" in the name becomes "+", the git dir is the `repo` folder).
#                      `git --git-dir=... archive COMMIT -- SUBDIR | tar -x` unpacks the pinned commit
#                      into $CORPUS_DIR/NAME/ (only SUBDIR when it is not `.`). A mirror elsewhere can
#                      be given per row as MIRROR_<NAME with - replaced by _>=/path/to/git-dir.
#   crate:NAME@VER     the crates.io crate, unpacked by scripts/ecosystem-check.sh --download-only
#                      into $ECO_DIR/NAME-VER/ (downloads with cargo, builds nothing).
#
# Environment:
#   MIRROR_DIR   bare mirrors (default: /work/.mirror)
#   CORPUS_DIR   where github rows are unpacked (default: <repo>/target/corpus; target/ is gitignored:
#                never commit third-party sources)
#   ECO_DIR      where crate rows are unpacked (default: <repo>/target/ecosystem)
#   IDEM_LINT    the binary to score (default: <repo>/target/release/idem-lint; never built here)
#   CORPUS_REPORTS  where the JSON reports go (default: $CORPUS_DIR/.reports)
#
# score exit status: 0 when there is no trap hit and no unlabelled finding, 1 otherwise,
# 2 when a run failed or a row is not materialised. Missed `expect` rows are reported
# (recall) but do not fail the run on their own.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
ECO="$REPO_ROOT/tests/ecosystem"
CORPUS_TSV="$ECO/corpus.tsv"
LABELS_TSV="$ECO/labels.tsv"
MIRROR_DIR="${MIRROR_DIR:-/work/.mirror}"
CORPUS_DIR="${CORPUS_DIR:-$REPO_ROOT/target/corpus}"
ECO_DIR="${ECO_DIR:-$REPO_ROOT/target/ecosystem}"
IDEM_LINT="${IDEM_LINT:-$REPO_ROOT/target/release/idem-lint}"
CORPUS_REPORTS="${CORPUS_REPORTS:-$CORPUS_DIR/.reports}"
export ECO_DIR

die() { echo "corpus: error: $*" >&2; exit 2; }
log() { echo "corpus: $*" >&2; }

rows() { # prints the selected rows of corpus.tsv (without header)
  local want=("$@")
  tail -n +2 "$CORPUS_TSV" | while IFS=$'\t' read -r name source commit subdir kind; do
    [[ -z "$name" || "$name" == \#* ]] && continue
    if ((${#want[@]})); then
      local w hit=0
      for w in "${want[@]}"; do [[ "$w" == "$name" ]] && hit=1; done
      ((hit)) || continue
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$source" "$commit" "$subdir" "$kind"
  done
}

# Directory idem-lint runs in for a row (paths in labels.tsv are relative to it).
row_root() { # NAME SOURCE
  case "$2" in
    github:*) echo "$CORPUS_DIR/$1" ;;
    crate:*) local nv="${2#crate:}"; echo "$ECO_DIR/${nv%@*}-${nv#*@}" ;;
    *) die "unknown source '$2' for $1" ;;
  esac
}

mirror_of() { # NAME SOURCE -> git dir
  local var="MIRROR_${1//-/_}"
  if [[ -n "${!var:-}" ]]; then echo "${!var}"; return; fi
  local ownerrepo="${2#github:}"
  echo "$MIRROR_DIR/${ownerrepo/\//+}/repo"
}

materialise() {
  local crates=() failed=0 name source commit subdir kind
  while IFS=$'\t' read -r name source commit subdir kind; do
    case "$source" in
      crate:*) local nv="${source#crate:}"; crates+=("${nv%@*}") ;;
      github:*)
        local gd dest stamp
        gd="$(mirror_of "$name" "$source")"
        dest="$CORPUS_DIR/$name"
        stamp="$dest/.corpus-commit"
        if [[ -f "$stamp" && "$(cat "$stamp")" == "$commit" ]]; then continue; fi
        if ! git --git-dir="$gd" cat-file -e "$commit^{commit}" 2>/dev/null; then
          log "$name: commit $commit not in $gd (run the session tool: fetch ${source}, or set MIRROR_DIR)"
          failed=1; continue
        fi
        rm -rf "$dest"; mkdir -p "$dest"
        local paths=()
        [[ "$subdir" != "." ]] && paths=(-- "$subdir")
        if ! git --git-dir="$gd" archive --format=tar "$commit" ${paths[@]+"${paths[@]}"} | tar -x -C "$dest"; then
          log "$name: git archive failed"; failed=1; continue
        fi
        printf '%s\n' "$commit" >"$stamp"
        log "$name: $commit -> $dest"
        ;;
      *) log "$name: unknown source $source"; failed=1 ;;
    esac
  done < <(rows "$@")
  if ((${#crates[@]})); then
    bash "$SCRIPT_DIR/ecosystem-check.sh" --download-only "${crates[@]}" >/dev/null || failed=1
  fi
  return $((failed ? 2 : 0))
}

score() {
  [[ -x "$IDEM_LINT" ]] || die "idem-lint binary not found: $IDEM_LINT (set IDEM_LINT; this script never builds)"
  command -v python3 >/dev/null || die "python3 not found"
  mkdir -p "$CORPUS_REPORTS"
  local manifest="$CORPUS_REPORTS/manifest.tsv" failed=0 name source commit subdir kind
  : >"$manifest"
  while IFS=$'\t' read -r name source commit subdir kind; do
    local root rc=0 out="$CORPUS_REPORTS/$name.json"
    root="$(row_root "$name" "$source")"
    if [[ ! -d "$root/$subdir" ]]; then
      log "$name: not materialised ($root/$subdir); run: scripts/corpus.sh materialise $name"
      failed=1; continue
    fi
    (cd "$root" && "$IDEM_LINT" --format json --no-cache --exit-zero "$subdir") >"$out" 2>"$out.stderr" || rc=$?
    if ((rc != 0)); then log "$name: idem-lint exited $rc (see $out.stderr)"; failed=1; continue; fi
    printf '%s\t%s\t%s\t%s\n' "$name" "$kind" "$root" "$out" >>"$manifest"
  done < <(rows "$@")
  local src=0
  python3 "$ECO/score.py" "$LABELS_TSV" "$manifest" || src=$?
  if ((failed)); then return 2; fi
  return "$src"
}

cmd="${1:-}"; shift || true
case "$cmd" in
  materialise|materialize) materialise "$@" ;;
  score) score "$@" ;;
  list) rows "$@" ;;
  -h|--help|help|"") sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//' ;;
  *) die "unknown command '$cmd' (materialise, score, list)" ;;
esac
