#!/usr/bin/env bash
# Seeds the fuzz corpora from the fixtures (corpora are not committed).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus/analyse_bytes corpus/analyse_mutated_fixture corpus/idempotency_key_parse
i=0
find ../fixtures -name '*.rs' | sort | while read -r f; do
    cp "$f" "corpus/analyse_bytes/$(basename "$(dirname "$f")")-$(basename "$f")"
done
# One seed per fixture index for the splicing target (first byte picks it).
for n in $(seq 0 40); do printf "\\x$(printf %02x "$n")" > "corpus/analyse_mutated_fixture/pick-$n"; done
for v in '"abc"' 'abc' '"a\"b"' '"k";p=1' ' "k" ' '"' '' '"a", "b"' '"\u00e9"' '"x"; a; b=?1'; do
    i=$((i + 1))
    printf '%s' "$v" > "corpus/idempotency_key_parse/seed-$i"
done
