//! The fixture harness: every `fixtures/<folder>` is linted (at
//! `--confidence possible`, so every finding counts) and the exact set of
//! (file, line, code, confidence) findings must equal the `//~ CODE`
//! markers (for the demo: the rows of `fixtures/demo/expected.txt`). A
//! marker `//~ IDEM002 possible` expects a finding whose client key is known
//! only by a name; a bare code expects a `certain` one, which the default
//! `--confidence certain` reports.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use idem_lint::model::diagnostic::Confidence;
use idem_lint::{lint_paths, Diagnostic, LintOptions};

/// The file beside a folder's code that lists its expected findings, for
/// folders users read (the demo): `path:line CODE` rows (`path:line CODE
/// possible` for the `possible` tier), paths relative to the folder, `#`
/// comments.
const EXPECTED_FILE: &str = "expected.txt";

/// The word after a code that expects the `possible` tier.
const POSSIBLE: &str = "possible";

/// One expected finding: file, line, code and tier.
type Expected = (String, usize, String, Confidence);

/// Expected findings from the folder's [`EXPECTED_FILE`] when it has one,
/// else from `//~ IDEM001 IDEM002 possible` markers (or `--~ IDEM008` in
/// SQL): each code, followed by `possible` when that is its tier.
fn markers(folder: &Path) -> BTreeSet<Expected> {
    if let Ok(text) = std::fs::read_to_string(folder.join(EXPECTED_FILE)) {
        return expected_rows(folder, &text);
    }
    let mut out = BTreeSet::new();
    for entry in walk(folder) {
        let Ok(text) = std::fs::read_to_string(&entry) else {
            continue;
        };
        let display = entry.to_string_lossy().replace('\\', "/");
        for (i, line) in text.lines().enumerate() {
            let marker = line.find("//~").or_else(|| line.find("--~"));
            let Some(pos) = marker else {
                continue;
            };
            let mut codes: Vec<(String, Confidence)> = Vec::new();
            for word in line[pos + 3..].split_whitespace() {
                if word.starts_with("IDEM") {
                    codes.push((word.to_string(), Confidence::Certain));
                    continue;
                }
                match codes.last_mut() {
                    Some((_, tier)) if word == POSSIBLE => *tier = Confidence::Possible,
                    _ => break,
                }
            }
            for (code, tier) in codes {
                out.insert((display.clone(), i + 1, code, tier));
            }
        }
    }
    out
}

/// The rows of an [`EXPECTED_FILE`]; a malformed row fails the test.
fn expected_rows(folder: &Path, text: &str) -> BTreeSet<Expected> {
    let mut out = BTreeSet::new();
    for (i, row) in text.lines().enumerate() {
        let row = row.trim();
        if row.is_empty() || row.starts_with('#') {
            continue;
        }
        let parsed = row.split_once(' ').and_then(|(place, rest)| {
            let (path, line) = place.rsplit_once(':')?;
            let (code, tier) = match rest.trim().split_once(' ') {
                Some((code, tier)) if tier.trim() == POSSIBLE => (code, Confidence::Possible),
                Some(_) => return None,
                None => (rest.trim(), Confidence::Certain),
            };
            Some((path, line.parse::<usize>().ok()?, code, tier))
        });
        let Some((path, line, code, tier)) = parsed.filter(|(_, _, c, _)| c.starts_with("IDEM"))
        else {
            panic!(
                "{}:{}: expected `path:line CODE` or `path:line CODE possible`, found {row:?}",
                folder.join(EXPECTED_FILE).display(),
                i + 1
            );
        };
        let display = folder.join(path).to_string_lossy().replace('\\', "/");
        out.insert((display, line, code.to_string(), tier));
    }
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs" || x == "sql") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// What a folder's findings say against its markers.
#[derive(Debug, Default)]
struct Mismatches {
    /// Markers without a finding.
    missing: Vec<String>,
    /// Findings without a marker.
    extra: Vec<String>,
    /// Findings whose marker expects the other tier.
    tier: Vec<String>,
}

/// Pairs findings with markers: a finding matches a marker of the same file
/// and code whose line lies within its primary span (start line first);
/// a matched pair whose tiers differ is a mismatch of its own.
fn compare(expected: &BTreeSet<Expected>, found: &[Diagnostic]) -> Mismatches {
    let mut unmatched: Vec<&Expected> = expected.iter().collect();
    let mut out = Mismatches::default();
    let mut order: Vec<&Diagnostic> = found.iter().collect();
    // Single-line spans first so multi-line ones cannot steal their markers.
    order.sort_by_key(|d| d.span.end.line - d.span.start.line);
    for d in order {
        let place = |e: &Expected| e.0 == d.path && e.2 == d.code;
        let at_start = |e: &Expected| e.1 == d.span.start.line;
        let within = |e: &Expected| d.span.contains_line(e.1);
        let same_tier = |e: &Expected| e.3 == d.confidence;
        let find =
            |fits: &dyn Fn(&Expected) -> bool| unmatched.iter().position(|e| place(e) && fits(e));
        // A marker of the finding's own tier first, so that two findings
        // on one line are paired by tier.
        let pick = find(&|e| at_start(e) && same_tier(e))
            .or_else(|| find(&at_start))
            .or_else(|| find(&|e| within(e) && same_tier(e)))
            .or_else(|| find(&within));
        let shown = format!(
            "{}:{}:{}: {} {}",
            d.path, d.span.start.line, d.span.start.column, d.code, d.message
        );
        match pick {
            Some(i) => {
                let marker = unmatched.remove(i);
                if marker.3 != d.confidence {
                    out.tier.push(format!(
                        "{shown}\n    is {}, its marker expects {}",
                        d.confidence.as_str(),
                        marker.3.as_str()
                    ));
                }
            }
            None => out
                .extra
                .push(format!("{shown} ({})", d.confidence.as_str())),
        }
    }
    out.missing = unmatched
        .into_iter()
        .map(|(p, l, c, t)| match t {
            Confidence::Possible => format!("{p}:{l}: {c} {POSSIBLE}"),
            Confidence::Certain => format!("{p}:{l}: {c}"),
        })
        .collect();
    out
}

/// Lints `fixtures/<name>` at `--confidence possible` and compares its
/// findings with its markers.
fn check_folder(name: &str) -> Result<(), String> {
    let folder = PathBuf::from("fixtures").join(name);
    let options = LintOptions {
        confidence: Confidence::Possible,
        confidence_fixed: true,
        ..LintOptions::default()
    };
    let result = lint_paths(std::slice::from_ref(&folder), &options).expect("lint runs");
    if !result.fatal.is_empty() {
        return Err(format!("fixtures/{name}: fatal: {:?}", result.fatal));
    }
    let expected = markers(&folder);
    let Mismatches {
        missing,
        extra,
        tier,
    } = compare(&expected, &result.diagnostics);
    if missing.is_empty() && extra.is_empty() && tier.is_empty() {
        return Ok(());
    }
    Err(format!(
        "fixtures/{name}: {} expected finding(s) missing, {} unexpected, {} of the other tier\n\nMISSING (marker without finding):\n  {}\n\nUNEXPECTED (finding without marker):\n  {}\n\nTIER (`//~ CODE` expects certain, `//~ CODE possible` possible):\n  {}\n",
        missing.len(),
        extra.len(),
        tier.len(),
        missing.join("\n  "),
        extra.join("\n  "),
        tier.join("\n  ")
    ))
}

/// Fixture folders that belong to no rule.
const EXTRA_FOLDERS: &[&str] = &["demo"];

/// Every rule's fixtures, `fixtures/<name>/`, found through the registry:
/// a rule without a fixture folder fails here.
#[test]
fn every_rule_has_fixtures() {
    let missing: Vec<&str> = idem_lint::rules::ALL
        .iter()
        .map(|rule| rule.name)
        .filter(|name| !Path::new("fixtures").join(name).is_dir())
        .collect();
    assert!(
        missing.is_empty(),
        "rules without a fixtures/<name>/ folder: {missing:?}"
    );
}

/// Every rule's fixture folder matches its markers.
#[test]
fn rule_fixtures() {
    let failures: Vec<String> = idem_lint::rules::ALL
        .iter()
        .filter_map(|rule| check_folder(rule.name).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn demo() {
    check_folder("demo").unwrap_or_else(|failure| panic!("{failure}"));
}

/// The demo is what a newcomer reads first, in every snippet: no test
/// markers in its code (its expectations are in `fixtures/demo/expected.txt`).
#[test]
fn demo_code_has_no_test_markers() {
    let folder = Path::new("fixtures/demo");
    assert!(folder.join(EXPECTED_FILE).is_file());
    let files = walk(folder);
    assert!(!files.is_empty());
    let marked: Vec<String> = files
        .iter()
        .filter(|f| {
            std::fs::read_to_string(f).is_ok_and(|t| t.contains("//~") || t.contains("--~"))
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(marked.is_empty(), "test markers in the demo: {marked:?}");
}

/// No fixture folder goes unchecked: each is a rule's or listed in
/// [`EXTRA_FOLDERS`].
#[test]
fn every_folder_is_checked() {
    let mut unchecked = Vec::new();
    for entry in std::fs::read_dir("fixtures").expect("fixtures/").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let known = idem_lint::rules::ALL.iter().any(|rule| rule.name == name)
            || EXTRA_FOLDERS.contains(&name.as_str());
        if entry.path().is_dir() && !known {
            unchecked.push(name);
        }
    }
    assert!(
        unchecked.is_empty(),
        "fixture folders no test checks: {unchecked:?}"
    );
}

/// The harness itself must be able to fail: a marker on a silent line, a
/// finding without a marker and a finding of the other tier are all reported.
#[test]
fn harness_detects_missing_extra_and_tier() {
    let expected: BTreeSet<Expected> = [
        (
            "a.rs".to_string(),
            3,
            "IDEM001".to_string(),
            Confidence::Certain,
        ),
        (
            "a.rs".to_string(),
            7,
            "IDEM002".to_string(),
            Confidence::Certain,
        ),
        (
            "a.rs".to_string(),
            9,
            "IDEM002".to_string(),
            Confidence::Possible,
        ),
    ]
    .into();
    let finding = |line: usize, confidence: Confidence| Diagnostic {
        code: "IDEM002",
        name: "missing-scope-component",
        severity: idem_lint::Severity::Error,
        message: "m".into(),
        path: "a.rs".into(),
        span: idem_lint::Span {
            start: idem_lint::Position { line, column: 1 },
            end: idem_lint::Position { line, column: 5 },
        },
        labels: vec![],
        help: None,
        fix: None,
        confidence,
        trace: Vec::new(),
    };
    let found = vec![
        finding(3, Confidence::Certain),
        finding(7, Confidence::Possible),
        finding(9, Confidence::Possible),
    ];
    let out = compare(&expected, &found);
    assert_eq!(out.missing, vec!["a.rs:3: IDEM001"]);
    assert_eq!(out.extra.len(), 1);
    assert_eq!(out.tier.len(), 1, "{out:?}");
    assert!(out.tier[0].starts_with("a.rs:7:1: IDEM002"), "{out:?}");
}

/// `possible` after a code sets that code's tier only.
#[test]
fn markers_read_the_tier_of_each_code() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text =
        "fn a() {} //~ IDEM001 IDEM002 possible\nfn b() {} //~ IDEM002 possible IDEM001 why\n";
    std::fs::write(dir.path().join("a.rs"), text).expect("write");
    let found: Vec<(usize, String, Confidence)> = markers(dir.path())
        .into_iter()
        .map(|(_, line, code, tier)| (line, code, tier))
        .collect();
    assert_eq!(
        found,
        [
            (1, "IDEM001".to_string(), Confidence::Certain),
            (1, "IDEM002".to_string(), Confidence::Possible),
            (2, "IDEM001".to_string(), Confidence::Certain),
            (2, "IDEM002".to_string(), Confidence::Possible),
        ]
    );
}
