#!/usr/bin/env python3
"""Score an idem-lint JSON report against a blind set's labels.tsv (s46 and later).

usage: score.py REPORT.json --labels SET/labels.tsv [--confidence possible]
"""
import argparse
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RULES = [f"IDEM00{i}" for i in range(1, 9)]


def load_labels(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def norm(p):
    return p.replace("\\", "/")


def path_match(finding_path, label_file):
    fp = norm(finding_path)
    lf = norm(label_file)
    return fp == lf or fp.endswith("/" + lf)


def span_lines(d):
    span = d.get("span") or {}
    s = (span.get("start") or {}).get("line")
    e = (span.get("end") or {}).get("line", s)
    if s is None:
        return None
    if e is None or e < s:
        e = s
    return s, e


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--confidence", choices=["certain", "possible"], default="certain")
    ap.add_argument("--labels", default=os.path.join(HERE, "labels.tsv"))
    a = ap.parse_args()

    labels = load_labels(a.labels)
    with open(a.report) as f:
        report = json.load(f)
    diags = report.get("diagnostics", []) if isinstance(report, dict) else report

    expects = [r for r in labels if r["kind"] == "expect"]
    traps = [r for r in labels if r["kind"] == "trap"]
    possible_tier = a.confidence == "possible"

    def required(r):
        return possible_tier or r["confidence"] == "certain"

    found = set()          # indices of expect rows matched
    fps = []               # (diag, reason)
    ignored = 0
    for d in diags:
        code = d.get("code", "")
        path = d.get("path", "")
        sl = span_lines(d)
        conf = d.get("confidence", "certain")
        hits = []
        if sl is not None:
            s, e = sl
            for i, r in enumerate(expects):
                if r["code"] == code and path_match(path, r["file"]) and s <= int(r["line"]) <= e:
                    hits.append(i)
        if not possible_tier and conf == "possible":
            # a possible finding counts only when it matches a possible expect row
            hits = [i for i in hits if expects[i]["confidence"] == "possible"]
            if not hits:
                ignored += 1
                continue
        if hits:
            found.update(hits)
            continue
        reason = "no expect label"
        if sl is not None:
            s, e = sl
            for r in traps:
                if r["code"] == code and path_match(path, r["file"]) and s <= int(r["line"]) <= e:
                    reason = "trap: " + r["reason"]
                    break
        fps.append((d, reason))

    codes = list(RULES)
    for d, _ in fps:
        if d.get("code") not in codes:
            codes.append(d.get("code"))
    print(f"tier: {a.confidence}   report: {a.report}   findings ignored (possible, unmatched): {ignored}")
    print(f"{'rule':<8} {'TP':>4} {'FP':>4} {'FN':>4} {'precision':>9} {'recall':>7}")
    T = [0, 0, 0]
    misses = []
    for code in codes:
        tp = sum(1 for i in found if expects[i]["code"] == code)
        fn_rows = [r for i, r in enumerate(expects) if r["code"] == code and i not in found and required(r)]
        fp = sum(1 for d, _ in fps if d.get("code") == code)
        fn = len(fn_rows)
        misses.extend(fn_rows)
        T[0] += tp; T[1] += fp; T[2] += fn
        prec = tp / (tp + fp) if tp + fp else 1.0
        rec = tp / (tp + fn) if tp + fn else 1.0
        print(f"{code:<8} {tp:>4} {fp:>4} {fn:>4} {prec:>9.3f} {rec:>7.3f}")
    tp, fp, fn = T
    prec = tp / (tp + fp) if tp + fp else 1.0
    rec = tp / (tp + fn) if tp + fn else 1.0
    print(f"{'total':<8} {tp:>4} {fp:>4} {fn:>4} {prec:>9.3f} {rec:>7.3f}")
    if fps:
        print("\nfalse positives:")
        for d, why in fps:
            sl = span_lines(d) or (0, 0)
            print(f"  FP {d.get('code')} {d.get('path')}:{sl[0]}-{sl[1]} [{d.get('confidence', 'certain')}] ({why}) {d.get('message', '')}")
    if misses:
        print("\nmisses:")
        for r in misses:
            print(f"  FN {r['code']} {r['file']}:{r['line']} [{r['confidence']}] {r['reason']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
