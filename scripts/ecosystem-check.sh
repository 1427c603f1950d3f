#!/usr/bin/env bash
# ecosystem-check.sh — run idem-lint over real crates.io crates, without building them.
#
# Usage:
#   scripts/ecosystem-check.sh [OPTIONS] [CRATE ...] [-- IDEM_LINT_ARGS ...]
#
#   CRATE            restrict to these crate names (default: all crates in CRATES below)
#   -- ARGS          everything after `--` is passed to idem-lint before the crate dir
#                    (do not pass --format: the script sets it)
#
# Options:
#   --download-only  fetch and unpack the crates, do not run idem-lint
#   --json           also write `idem-lint --format json` output to $ECO_DIR/reports/NAME-VERSION.json
#   --no-build       never run `cargo build --release`; fail if the binary is missing
#   --refetch        delete the unpacked copy and unpack again
#   --list           print the crate list and exit
#   -h, --help       this help
#
# Environment:
#   ECO_DIR          work dir for unpacked crates (default: <repo>/target/ecosystem)
#   ECO_CARGO_HOME   private CARGO_HOME used only for downloading (default: $ECO_DIR/.cargo-home)
#   IDEM_LINT        idem-lint binary (default: <repo>/target/release/idem-lint; built if missing)
#   ECO_TIMEOUT      per-crate timeout for idem-lint in seconds (default: 300; 0 = none)
#   ECO_FETCH        download method: auto (cargo info, then cargo fetch; default), info, fetch
#
# Exit status: 0 when every idem-lint run exited 0 (clean) or 1 (findings);
# 2 when some run exited >= 2, was killed by a signal or timed out, or a download failed.
#
# How downloading works: `CARGO_HOME=<private dir> cargo info NAME@VERSION` downloads the
# package's `.crate` file into <private dir>/registry/cache/<index>/NAME-VERSION.crate
# (it never builds anything). If that file does not appear, the script falls back to a
# throwaway manifest depending on `NAME = "=VERSION"` plus `cargo fetch` with the same
# CARGO_HOME, which also only downloads. The `.crate` (a gzipped tar whose single top-level
# directory is NAME-VERSION/) is then unpacked into $ECO_DIR/NAME-VERSION/.
set -euo pipefail

# ---- crate list: NAME VERSION KIND (server = idempotency implementation, sdk = client SDK:
#      every finding in an sdk crate is a false positive) ----
CRATES=(
  "axum-idempotent 0.6.0 server"
  "actix-idempotent 0.1.1 server"
  "rustango 0.62.0 server"
  "klauthed-data 1.0.0 server"
  "minco-plugin-idempotency 1.12.0 server"
  "idempotent 0.3.0 server"
  "svix 2.9.1 sdk"
  "async-stripe-client-core 1.0.0-rc.10 sdk"
)
CODES=(IDEM001 IDEM002 IDEM003 IDEM004 IDEM005 IDEM006 IDEM007 IDEM008)

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"

ECO_DIR="${ECO_DIR:-$REPO_ROOT/target/ecosystem}"
mkdir -p "$ECO_DIR"
ECO_DIR="$(cd "$ECO_DIR" && pwd)"
ECO_CARGO_HOME="${ECO_CARGO_HOME:-$ECO_DIR/.cargo-home}"
ECO_TIMEOUT="${ECO_TIMEOUT:-300}"
ECO_FETCH="${ECO_FETCH:-auto}"
case "$ECO_FETCH" in auto|info|fetch) ;; *) echo "ecosystem-check: error: ECO_FETCH must be auto, info or fetch" >&2; exit 2 ;; esac

IDEM_LINT_DEFAULT="$REPO_ROOT/target/release/idem-lint"
IDEM_LINT_EXPLICIT=0
if [[ -n "${IDEM_LINT:-}" ]]; then IDEM_LINT_EXPLICIT=1; fi
IDEM_LINT="${IDEM_LINT:-$IDEM_LINT_DEFAULT}"

download_only=0
want_json=0
no_build=0
refetch=0
selected=()
lint_args=()

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "ecosystem-check: error: $*" >&2; exit 2; }
log() { echo "ecosystem-check: $*" >&2; }

while (($#)); do
  case "$1" in
    --download-only) download_only=1 ;;
    --json) want_json=1 ;;
    --no-build) no_build=1 ;;
    --refetch) refetch=1 ;;
    --list) for c in "${CRATES[@]}"; do echo "$c"; done; exit 0 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; lint_args=("$@"); break ;;
    -*) die "unknown option: $1 (idem-lint arguments go after --)" ;;
    *) selected+=("$1") ;;
  esac
  shift
done

# ---- resolve the crate selection ----
todo=()
if ((${#selected[@]} == 0)); then
  todo=("${CRATES[@]}")
else
  for want in "${selected[@]}"; do
    found=0
    for c in "${CRATES[@]}"; do
      read -r n _ _ <<<"$c"
      if [[ "$n" == "$want" ]]; then todo+=("$c"); found=1; fi
    done
    ((found)) || die "unknown crate '$want' (see --list)"
  done
fi

command -v cargo >/dev/null || die "cargo not found in PATH"
command -v tar >/dev/null || die "tar not found in PATH"

# ---- download helpers ----
find_crate_file() { # NAME VERSION -> path of cached .crate or nothing
  local f
  for f in "$ECO_CARGO_HOME"/registry/cache/*/"$1-$2.crate"; do
    if [[ -s "$f" ]]; then echo "$f"; return 0; fi
  done
  return 0
}

fetch_with_cargo_info() { # NAME VERSION
  # Run outside any workspace so cargo info does not consult a local Cargo.toml/lockfile.
  (cd "$ECO_CARGO_HOME" && CARGO_HOME="$ECO_CARGO_HOME" cargo info --quiet "$1@$2" >/dev/null)
}

fetch_with_cargo_fetch() { # NAME VERSION
  local tmp
  tmp="$(mktemp -d "$ECO_DIR/.fetch-XXXXXX")"
  mkdir -p "$tmp/src"
  : >"$tmp/src/lib.rs"
  cat >"$tmp/Cargo.toml" <<EOF
[package]
name = "eco-fetch-throwaway"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
$1 = { version = "=$2", default-features = false }
EOF
  # cargo fetch downloads the whole dependency graph of the manifest but builds nothing.
  local rc=0
  (cd "$tmp" && CARGO_HOME="$ECO_CARGO_HOME" cargo fetch --quiet --manifest-path "$tmp/Cargo.toml") || rc=$?
  rm -rf "$tmp"
  return "$rc"
}

unpack_crate() { # NAME VERSION -> 0 on success
  local name="$1" ver="$2" dest="$ECO_DIR/$1-$2" crate tmp
  if ((refetch)) && [[ -d "$dest" ]]; then rm -rf "$dest"; fi
  if [[ -f "$dest/.eco-unpacked" ]]; then
    return 0
  fi
  mkdir -p "$ECO_CARGO_HOME"
  crate="$(find_crate_file "$name" "$ver")"
  if [[ -z "$crate" && "$ECO_FETCH" != fetch ]]; then
    log "downloading $name@$ver (cargo info)"
    fetch_with_cargo_info "$name" "$ver" || log "cargo info $name@$ver failed"
    crate="$(find_crate_file "$name" "$ver")"
  fi
  if [[ -z "$crate" && "$ECO_FETCH" != info ]]; then
    log "no .crate for $name@$ver yet; downloading with a throwaway manifest + cargo fetch"
    fetch_with_cargo_fetch "$name" "$ver" || log "cargo fetch for $name@$ver failed"
    crate="$(find_crate_file "$name" "$ver")"
  fi
  if [[ -z "$crate" ]]; then
    log "could not download $name@$ver"
    return 1
  fi
  tmp="$(mktemp -d "$ECO_DIR/.unpack-XXXXXX")"
  if ! tar -xzf "$crate" -C "$tmp"; then
    rm -rf "$tmp"; log "could not unpack $crate"; return 1
  fi
  if [[ ! -d "$tmp/$name-$ver" ]]; then
    rm -rf "$tmp"; log "$crate has no top-level $name-$ver/ directory"; return 1
  fi
  rm -rf "$dest"
  mv "$tmp/$name-$ver" "$dest"
  rm -rf "$tmp"
  printf '%s\n' "$crate" >"$dest/.eco-unpacked"
  return 0
}

# ---- 1. download / unpack ----
failed=0
ready=()
for c in "${todo[@]}"; do
  read -r name ver kind <<<"$c"
  if unpack_crate "$name" "$ver"; then
    ready+=("$c")
  else
    failed=1
  fi
done
log "crates unpacked under $ECO_DIR"

if ((download_only)); then
  for c in ${ready[@]+"${ready[@]}"}; do
    read -r name ver _ <<<"$c"
    printf '%s\t%s\n' "$name@$ver" "$ECO_DIR/$name-$ver"
  done
  exit $((failed ? 2 : 0))
fi

# ---- 2. idem-lint binary ----
if [[ ! -x "$IDEM_LINT" ]]; then
  if ((IDEM_LINT_EXPLICIT)) || ((no_build)); then
    die "idem-lint binary not found or not executable: $IDEM_LINT"
  fi
  log "building idem-lint (cargo build --release)"
  (cd "$REPO_ROOT" && cargo build --release --bin idem-lint) || die "cargo build --release failed"
  [[ -x "$IDEM_LINT" ]] || die "build finished but $IDEM_LINT does not exist"
fi

run_lint() { # OUTFILE ERRFILE ARGS... -> echoes exit code
  local out="$1" err="$2"; shift 2
  local rc=0
  if [[ "$ECO_TIMEOUT" != 0 ]] && command -v timeout >/dev/null; then
    timeout --kill-after=10 "$ECO_TIMEOUT" "$IDEM_LINT" "$@" >"$out" 2>"$err" || rc=$?
  else
    "$IDEM_LINT" "$@" >"$out" 2>"$err" || rc=$?
  fi
  echo "$rc"
}

describe_rc() {
  case "$1" in
    0) echo "clean" ;;
    1) echo "findings" ;;
    124) echo "timeout" ;;
    137) echo "killed (SIGKILL/timeout)" ;;
    *) if (($1 > 128)); then echo "crashed (signal $(($1 - 128)))"; else echo "error (exit $1)"; fi ;;
  esac
}

# ---- 3. run ----
reports="$ECO_DIR/reports"
mkdir -p "$reports"
rows=()
for c in ${ready[@]+"${ready[@]}"}; do
  read -r name ver kind <<<"$c"
  dir="$ECO_DIR/$name-$ver"
  out="$reports/$name-$ver.short.txt"
  err="$reports/$name-$ver.stderr.txt"
  nfiles="$(find "$dir" -type f -name '*.rs' | wc -l | tr -d ' ')"
  nsql="$(find "$dir" -type f -name '*.sql' | wc -l | tr -d ' ')"

  echo "=== $name@$ver ($kind) — $nfiles .rs, $nsql .sql files ==="
  rc="$(run_lint "$out" "$err" --format short ${lint_args[@]+"${lint_args[@]}"} "$dir")"
  status="$(describe_rc "$rc")"

  # Make paths relative to the work dir for readability.
  sed "s|$ECO_DIR/||g" "$out"
  if [[ -s "$err" ]]; then
    echo "--- stderr ---"
    sed "s|$ECO_DIR/||g" "$err" | head -n 40
  fi

  # Count codes: first IDEMnnn token on each output line.
  declare -A cnt=()
  total=0
  while IFS= read -r code; do
    cnt[$code]=$(( ${cnt[$code]:-0} + 1 ))
    total=$((total + 1))
  done < <(awk 'match($0, /IDEM[0-9][0-9][0-9]/) { print substr($0, RSTART, RLENGTH) }' "$out")

  if ((rc >= 2)); then
    failed=1
    echo "!!! idem-lint $status on $name@$ver"
  elif ((rc == 1 && total == 0)); then
    echo "warning: idem-lint exited 1 but printed no IDEMnnn line"
  elif ((rc == 0 && total > 0)); then
    echo "warning: idem-lint exited 0 but printed $total IDEMnnn lines"
  fi

  if ((want_json)) && ((rc < 2)); then
    jrc="$(run_lint "$reports/$name-$ver.json" "$reports/$name-$ver.json.stderr.txt" \
            --format json ${lint_args[@]+"${lint_args[@]}"} "$dir")"
    if ((jrc >= 2)); then
      failed=1
      echo "!!! idem-lint --format json $(describe_rc "$jrc") on $name@$ver"
    else
      echo "json: $reports/$name-$ver.json"
    fi
  fi

  row="$name@$ver|$kind|$nfiles|$total"
  for code in "${CODES[@]}"; do row+="|${cnt[$code]:-0}"; done
  row+="|${cnt[IDEM000]:-0}|$status"
  if [[ "$kind" == sdk && $((total - ${cnt[IDEM000]:-0})) -gt 0 ]]; then row+=" FP!"; fi
  rows+=("$row")
  unset cnt
  echo
done

# ---- 4. summary ----
echo "=== summary ==="
header="crate|kind|files|total"
for code in "${CODES[@]}"; do header+="|${code#IDEM}"; done
header+="|000|status"
print_rows() {
  echo "$header"
  local r
  for r in ${rows[@]+"${rows[@]}"}; do echo "$r"; done
}
if command -v column >/dev/null; then
  print_rows | column -t -s '|'
else
  print_rows | tr '|' '\t'
fi
echo "(columns 001..008 = findings per code; 000 = parse errors; 'FP!' = findings in a client SDK, all false positives)"

if ((${#ready[@]} < ${#todo[@]})); then
  echo "some crates could not be downloaded"
fi
exit $((failed ? 2 : 0))
