#!/usr/bin/env python3
"""Score an idem-lint JSON report against labels.tsv (blind set s45).

usage: python3 score.py REPORT.json [--confidence certain|possible] [--labels labels.tsv]

Tiers
  certain (default): required = expect rows with confidence `certain`.
      Expect rows with confidence `possible` count as found (TP) when a finding
      matches them and are never misses. Findings the report marks
      "confidence": "possible" are left out (the analyzer's default run would not
      show them) unless they match an expect row.
  possible: every expect row is required and every finding is considered.

Matching: a finding matches a label when the label's file is a path suffix of
the finding's path, the codes are equal, and the label line lies within the
finding's primary span (span.start.line .. span.end.line).

FP = a finding on a trap row, or any finding with no expect row of its code at
a line inside its span (unlabelled findings are FP and listed). A second finding
matching an already matched expect row is reported as a duplicate, not an FP.
"""
import argparse
import csv
import json
import os
import sys
from collections import defaultdict

RULES = [f"IDEM00{i}" for i in range(1, 9)]


def norm_path(p):
    p = p.replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    return p


def suffix_match(path, file):
    path = norm_path(path)
    file = norm_path(file)
    return path == file or path.endswith("/" + file)


def load_labels(path):
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            r["line"] = int(r["line"])
            rows.append(r)
    return rows


def load_findings(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    diags = data.get("diagnostics", data if isinstance(data, list) else [])
    out = []
    for d in diags:
        span = d.get("span") or {}
        start = (span.get("start") or {}).get("line")
        end = (span.get("end") or {}).get("line", start)
        if start is None:
            start = end = 1
        if end is None or end < start:
            end = start
        out.append({
            "code": d.get("code", "?"),
            "path": d.get("path", ""),
            "start": int(start),
            "end": int(end),
            "confidence": d.get("confidence", "certain"),
            "message": d.get("message", ""),
        })
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report")
    ap.add_argument("--confidence", choices=["certain", "possible"], default="certain")
    ap.add_argument("--labels", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "labels.tsv"))
    args = ap.parse_args()

    labels = load_labels(args.labels)
    findings = load_findings(args.report)
    possible_tier = args.confidence == "possible"

    expects = [r for r in labels if r["kind"] == "expect"]
    traps = [r for r in labels if r["kind"] == "trap"]
    required = [r for r in expects if possible_tier or r["confidence"] == "certain"]

    matched = {}  # id(expect row) -> finding
    tp = defaultdict(int)
    fp = defaultdict(int)
    false_findings = []
    duplicates = []
    dropped_possible = 0

    def covering(rows, f):
        return [r for r in rows if r["code"] == f["code"] and suffix_match(f["path"], r["file"]) and f["start"] <= r["line"] <= f["end"]]

    # Pass 1: findings that match an expect row (so a wide span prefers an expect over a trap).
    pending = []
    for f in sorted(findings, key=lambda x: (x["path"], x["start"], x["end"], x["code"])):
        hits = covering(expects, f)
        if not possible_tier and f["confidence"] == "possible" and not hits:
            dropped_possible += 1
            continue
        if not possible_tier and f["confidence"] == "possible":
            # a possible-tier finding only counts for expect rows of confidence possible
            hits = [r for r in hits if r["confidence"] == "possible"]
            if not hits:
                dropped_possible += 1
                continue
        free = [r for r in hits if id(r) not in matched]
        if free:
            r = free[0]
            matched[id(r)] = f
            tp[f["code"]] += 1
        elif hits:
            duplicates.append(f)
        else:
            pending.append(f)

    for f in pending:
        trap_hits = covering(traps, f)
        reason = ("trap: " + trap_hits[0]["reason"]) if trap_hits else "unlabelled"
        fp[f["code"]] += 1
        false_findings.append((f, reason))

    misses = [r for r in required if id(r) not in matched]
    fn = defaultdict(int)
    for r in misses:
        fn[r["code"]] += 1

    codes = sorted(set(RULES) | set(tp) | set(fp) | set(fn))
    print(f"idem-lint blind set s45 — tier: {args.confidence}")
    print(f"labels: {len(expects)} expect ({len(required)} required at this tier), {len(traps)} trap; findings: {len(findings)}"
          + (f" ({dropped_possible} possible-confidence findings ignored at this tier)" if dropped_possible else ""))
    print()
    print(f"{'rule':<9}{'TP':>5}{'FP':>5}{'FN':>5}{'precision':>11}{'recall':>9}")

    def pr(t, p, n):
        prec = t / (t + p) if (t + p) else 1.0
        rec = t / (t + n) if (t + n) else 1.0
        return prec, rec

    T = P = N = 0
    for c in codes:
        t, p, n = tp[c], fp[c], fn[c]
        T, P, N = T + t, P + p, N + n
        prec, rec = pr(t, p, n)
        print(f"{c:<9}{t:>5}{p:>5}{n:>5}{prec:>11.3f}{rec:>9.3f}")
    prec, rec = pr(T, P, N)
    f1 = 2 * prec * rec / (prec + rec) if (prec + rec) else 0.0
    print(f"{'total':<9}{T:>5}{P:>5}{N:>5}{prec:>11.3f}{rec:>9.3f}   F1 {f1:.3f}")
    extra_possible = sum(1 for r in expects if r["confidence"] == "possible" and id(r) in matched and r not in required)
    if not possible_tier:
        print(f"(possible-confidence expect rows found: {extra_possible} of {len(expects) - len(required)}; counted in TP, never as misses)")
    if duplicates:
        print(f"duplicate findings on already matched rows (not counted): {len(duplicates)}")

    print()
    print(f"MISSES ({len(misses)}):")
    for r in sorted(misses, key=lambda r: (r["file"], r["line"], r["code"])):
        print(f"  {r['file']}:{r['line']}  {r['code']}  [{r['confidence']}]  {r['reason']}")
    print()
    print(f"FALSE FINDINGS ({len(false_findings)}):")
    for f, reason in sorted(false_findings, key=lambda x: (x[0]["path"], x[0]["start"], x[0]["code"])):
        span = f"{f['start']}" if f["start"] == f["end"] else f"{f['start']}-{f['end']}"
        print(f"  {f['path']}:{span}  {f['code']}  [{f['confidence']}]  {reason}  — {f['message']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
