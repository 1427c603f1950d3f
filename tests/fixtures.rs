//! The fixture harness: every `fixtures/<folder>` is linted and the exact
//! set of (file, line, code) findings must equal the `//~ CODE` markers (for
//! the demo: the rows of `fixtures/demo/expected.txt`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use idem_lint::{lint_paths, Diagnostic, LintOptions};

/// The file beside a folder's code that lists its expected findings, for
/// folders users read (the demo): `path:line CODE` rows, paths relative to
/// the folder, `#` comments.
const EXPECTED_FILE: &str = "expected.txt";

/// Expected findings: `(path, line, code)` from the folder's [`EXPECTED_FILE`]
/// when it has one, else from `//~ IDEM001 IDEM002` markers (or `--~ IDEM008`
/// in SQL).
fn markers(folder: &Path) -> BTreeSet<(String, usize, String)> {
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
            if let Some(pos) = marker {
                for code in line[pos + 3..].split_whitespace() {
                    if code.starts_with("IDEM") {
                        out.insert((display.clone(), i + 1, code.to_string()));
                    } else {
                        break;
                    }
                }
            }
        }
    }
    out
}

/// The rows of an [`EXPECTED_FILE`]; a malformed row fails the test.
fn expected_rows(folder: &Path, text: &str) -> BTreeSet<(String, usize, String)> {
    let mut out = BTreeSet::new();
    for (i, row) in text.lines().enumerate() {
        let row = row.trim();
        if row.is_empty() || row.starts_with('#') {
            continue;
        }
        let parsed = row.split_once(' ').and_then(|(place, code)| {
            let (path, line) = place.rsplit_once(':')?;
            Some((path, line.parse::<usize>().ok()?, code.trim()))
        });
        let Some((path, line, code)) = parsed.filter(|(_, _, c)| c.starts_with("IDEM")) else {
            panic!(
                "{}:{}: expected `path:line CODE`, found {row:?}",
                folder.join(EXPECTED_FILE).display(),
                i + 1
            );
        };
        let display = folder.join(path).to_string_lossy().replace('\\', "/");
        out.insert((display, line, code.to_string()));
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

/// Pairs findings with markers: a finding matches a marker of the same file
/// and code whose line lies within its primary span (start line first).
fn compare(
    expected: &BTreeSet<(String, usize, String)>,
    found: &[Diagnostic],
) -> (Vec<String>, Vec<String>) {
    let mut unmatched: Vec<&(String, usize, String)> = expected.iter().collect();
    let mut extra = Vec::new();
    let mut order: Vec<&Diagnostic> = found.iter().collect();
    // Single-line spans first so multi-line ones cannot steal their markers.
    order.sort_by_key(|d| d.span.end.line - d.span.start.line);
    for d in order {
        let pick = unmatched
            .iter()
            .position(|(p, l, c)| *p == d.path && c == d.code && *l == d.span.start.line)
            .or_else(|| {
                unmatched
                    .iter()
                    .position(|(p, l, c)| *p == d.path && c == d.code && d.span.contains_line(*l))
            });
        match pick {
            Some(i) => {
                unmatched.remove(i);
            }
            None => extra.push(format!(
                "{}:{}:{}: {} {}",
                d.path, d.span.start.line, d.span.start.column, d.code, d.message
            )),
        }
    }
    let missing = unmatched
        .into_iter()
        .map(|(p, l, c)| format!("{p}:{l}: {c}"))
        .collect();
    (missing, extra)
}

/// Lints `fixtures/<name>` and compares its findings with its markers.
fn check_folder(name: &str) -> Result<(), String> {
    let folder = PathBuf::from("fixtures").join(name);
    let result =
        lint_paths(std::slice::from_ref(&folder), &LintOptions::default()).expect("lint runs");
    if !result.fatal.is_empty() {
        return Err(format!("fixtures/{name}: fatal: {:?}", result.fatal));
    }
    let expected = markers(&folder);
    let (missing, extra) = compare(&expected, &result.diagnostics);
    if missing.is_empty() && extra.is_empty() {
        return Ok(());
    }
    Err(format!(
        "fixtures/{name}: {} expected finding(s) missing, {} unexpected\n\nMISSING (marker without finding):\n  {}\n\nUNEXPECTED (finding without marker):\n  {}\n",
        missing.len(),
        extra.len(),
        missing.join("\n  "),
        extra.join("\n  ")
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

/// The harness itself must be able to fail: a marker on a silent line and
/// a finding without a marker are both reported.
#[test]
fn harness_detects_missing_and_extra() {
    let expected: BTreeSet<_> = [("a.rs".to_string(), 3, "IDEM001".to_string())].into();
    let found = vec![Diagnostic {
        code: "IDEM002",
        name: "missing-scope-component",
        severity: idem_lint::Severity::Error,
        message: "m".into(),
        path: "a.rs".into(),
        span: idem_lint::Span {
            start: idem_lint::Position { line: 3, column: 1 },
            end: idem_lint::Position { line: 3, column: 5 },
        },
        labels: vec![],
        help: None,
        fix: None,
        confidence: Default::default(),
        trace: Vec::new(),
    }];
    let (missing, extra) = compare(&expected, &found);
    assert_eq!(missing, vec!["a.rs:3: IDEM001"]);
    assert_eq!(extra.len(), 1);
}
