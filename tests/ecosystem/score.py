#!/usr/bin/env python3
"""Score idem-lint JSON reports against tests/ecosystem/labels.tsv.

Usage: score.py LABELS_TSV MANIFEST_TSV
MANIFEST_TSV rows (written by scripts/corpus.sh score): name, kind, root dir, report.json

A finding matches a label when name, path and code are equal and the label's line lies within
the finding's primary span (start.line..end.line). Label kinds:
  expect     a real bug: a matching finding is "found"; no matching finding is a miss
  trap       a report here would be false: a matching finding is a "trap hit"
  debatable  neither: a matching finding is counted as debatable, never scored
A finding matching no label is "unlabelled" (listed with file:line code message).
In a row of kind `sdk` (client-side only) every finding is false: it must match a trap label
or it is unlabelled.
Exit status: 1 when there is a trap hit or an unlabelled finding, else 0.
"""
import csv
import json
import os
import sys
from collections import defaultdict

CODES = [f"IDEM00{i}" for i in range(1, 9)]
KINDS = ("expect", "trap", "debatable")


def norm(path: str) -> str:
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


def read_tsv(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    return rows[0], rows[1:]


def main() -> int:
    labels_path, manifest_path = sys.argv[1], sys.argv[2]
    header, rows = read_tsv(labels_path)
    want = ["name", "path", "line", "code", "kind", "reason"]
    if header[: len(want)] != want:
        print(f"score: {labels_path}: header must be {want}", file=sys.stderr)
        return 2
    labels = defaultdict(list)  # name -> [label dict]
    bad = 0
    for i, r in enumerate(rows, start=2):
        if len(r) < 6 or r[4] not in KINDS or not r[2].isdigit() or r[3] not in CODES + ["IDEM000"]:
            print(f"score: {labels_path}:{i}: malformed label row {r!r}", file=sys.stderr)
            bad += 1
            continue
        labels[r[0]].append(
            {"name": r[0], "path": norm(r[1]), "line": int(r[2]), "code": r[3], "kind": r[4],
             "reason": r[5], "hits": 0}
        )
    manifest = []
    with open(manifest_path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                manifest.append(line.rstrip("\n").split("\t"))

    repo_rows = []
    per_rule = {c: defaultdict(int) for c in CODES}
    unlabelled = []
    trap_hits = []
    misses = []
    totals = defaultdict(int)
    for name, kind, root, report in manifest:
        with open(report, encoding="utf-8") as f:
            diags = json.load(f)["diagnostics"]
        labs = labels.get(name, [])
        r = defaultdict(int)
        r["findings"] = len(diags)
        for d in diags:
            code = d["code"]
            path = norm(d["path"])
            lo, hi = d["span"]["start"]["line"], d["span"]["end"]["line"]
            matched = [l for l in labs if l["path"] == path and l["code"] == code and lo <= l["line"] <= hi]
            # A finding spanning several lines (a call over many lines) is judged by the label on its
            # first line when there is one, so a neighbouring label inside the span does not count.
            first = [l for l in matched if l["line"] == lo]
            if first:
                matched = first
            kinds = {l["kind"] for l in matched}
            for l in matched:
                l["hits"] += 1
            if "trap" in kinds:
                r["trap_hits"] += 1
                per_rule.setdefault(code, defaultdict(int))["trap_hits"] += 1
                trap_hits.append((name, path, lo, code, d["message"],
                                  next(l["reason"] for l in matched if l["kind"] == "trap")))
            elif "expect" in kinds and kind != "sdk":
                r["true"] += 1
                per_rule.setdefault(code, defaultdict(int))["true"] += 1
            elif "debatable" in kinds:
                r["debatable"] += 1
                per_rule.setdefault(code, defaultdict(int))["debatable"] += 1
            else:
                r["unlabelled"] += 1
                per_rule.setdefault(code, defaultdict(int))["unlabelled"] += 1
                unlabelled.append((name, path, lo, code, d["message"]))
        for l in labs:
            if l["kind"] == "expect":
                r["expected"] += 1
                per_rule.setdefault(l["code"], defaultdict(int))["expected"] += 1
                if l["hits"]:
                    r["found"] += 1
                    per_rule[l["code"]]["found"] += 1
                else:
                    misses.append(l)
            elif l["kind"] == "trap":
                r["traps"] += 1
                per_rule.setdefault(l["code"], defaultdict(int))["traps"] += 1
        for k, v in r.items():
            totals[k] += v
        repo_rows.append((name, kind, r))

    def table(head, body):
        widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
        fmt = "  ".join("{:<%d}" % w for w in widths)
        print(fmt.format(*head))
        for b in body:
            print(fmt.format(*[str(x) for x in b]))

    def ratio(a, b):
        return f"{a}/{b}" + (f" ({100 * a / b:.0f}%)" if b else "")

    print("== per repository ==")
    body = []
    for name, kind, r in repo_rows:
        body.append([name, kind, r["findings"], ratio(r["found"], r["expected"]), r["true"], r["debatable"],
                     f"{r['trap_hits']}/{r['traps']}", r["unlabelled"]])
    body.append(["TOTAL", "", totals["findings"], ratio(totals["found"], totals["expected"]), totals["true"],
                 totals["debatable"], f"{totals['trap_hits']}/{totals['traps']}", totals["unlabelled"]])
    table(["repository", "kind", "findings", "expected found", "true", "debatable", "trap hits/traps",
           "unlabelled"], body)
    print()
    print("== per rule ==")
    body = []
    for code in CODES:
        p = per_rule.get(code, {})
        reported = p.get("true", 0) + p.get("debatable", 0) + p.get("trap_hits", 0) + p.get("unlabelled", 0)
        prec = f"{p.get('true', 0) / (p.get('true', 0) + p.get('trap_hits', 0) + p.get('unlabelled', 0)):.2f}" \
            if p.get("true", 0) + p.get("trap_hits", 0) + p.get("unlabelled", 0) else "-"
        body.append([code, reported, ratio(p.get("found", 0), p.get("expected", 0)), p.get("true", 0),
                     p.get("debatable", 0), f"{p.get('trap_hits', 0)}/{p.get('traps', 0)}",
                     p.get("unlabelled", 0), prec])
    table(["rule", "findings", "expected found", "true", "debatable", "trap hits/traps", "unlabelled",
           "precision"], body)
    print("(precision = true / (true + trap hits + unlabelled); debatable findings are left out)")
    print()
    n = totals["findings"]
    print(f"of {n} findings: {totals['true']} true, {totals['debatable']} debatable, "
          f"{totals['trap_hits']} false (trap hits), {totals['unlabelled']} unlabelled")
    if misses:
        print()
        print(f"== missed expected bugs ({len(misses)}) ==")
        for l in misses:
            print(f"{l['name']}: {l['path']}:{l['line']} {l['code']} {l['reason']}")
    if trap_hits:
        print()
        print(f"== trap hits ({len(trap_hits)}) ==")
        for name, path, line, code, msg, reason in trap_hits:
            print(f"{name}: {path}:{line} {code} {msg}  [trap: {reason}]")
    if unlabelled:
        print()
        print(f"== unlabelled findings ({len(unlabelled)}): read each one and label it ==")
        for name, path, line, code, msg in unlabelled:
            print(f"{name}: {path}:{line} {code} {msg}")
    known = {m[0] for m in manifest}
    stale = sorted(set(labels) - known)
    if stale and len(sys.argv) > 3:
        print(f"labels for rows not scored: {', '.join(stale)}")
    if bad:
        return 2
    return 1 if trap_hits or unlabelled else 0


if __name__ == "__main__":
    sys.exit(main())
