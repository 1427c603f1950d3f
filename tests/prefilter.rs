//! The lexical pre-filter never changes a finding: every fixture, every
//! blind set and every ecosystem crate gives the same diagnostics with and
//! without it.

mod common;

use std::path::{Path, PathBuf};

use idem_lint::diagnostic::Confidence;
use idem_lint::lint::{lint_paths, LintOptions};
use idem_lint::Diagnostic;

fn key(d: &Diagnostic) -> String {
    format!(
        "{} {}:{}:{}-{}:{} {} ({})",
        d.code,
        d.path,
        d.span.start.line,
        d.span.start.column,
        d.span.end.line,
        d.span.end.column,
        d.message,
        d.confidence.as_str()
    )
}

/// Lints `paths` both ways and compares every finding, `possible` ones too,
/// with its tier; then again showing only `certain` findings, where the
/// analysis follows fewer calls (`analysis::DemandedCalls`). IDEM000 about
/// parsing can only be reported for parsed files, so the filtered run's
/// IDEM000 must be a subset; everything else must be identical. Returns
/// (findings, files) compared of the first.
fn compare(paths: &[PathBuf]) -> (usize, usize) {
    compare_shown(paths, true)
}

/// [`compare`]; `shown`: a difference names the findings (not for a held
/// blind set, whose lines the author must not see).
fn compare_shown(paths: &[PathBuf], shown: bool) -> (usize, usize) {
    let certain = compare_at(paths, Confidence::Certain, shown);
    let possible = compare_at(paths, Confidence::Possible, shown);
    assert!(certain.0 <= possible.0, "certain findings are some of all");
    possible
}

fn compare_at(paths: &[PathBuf], confidence: Confidence, shown: bool) -> (usize, usize) {
    let every = LintOptions {
        confidence,
        confidence_fixed: true,
        ..LintOptions::default()
    };
    let with = lint_paths(paths, &every).expect("lint runs");
    let without = lint_paths(
        paths,
        &LintOptions {
            prefilter: false,
            ..every.clone()
        },
    )
    .expect("lint runs");
    let split = |r: &idem_lint::LintResult| -> (Vec<String>, Vec<String>) {
        let (problems, findings): (Vec<&Diagnostic>, Vec<&Diagnostic>) =
            r.diagnostics.iter().partition(|d| d.code == "IDEM000");
        (
            findings.into_iter().map(key).collect(),
            problems.into_iter().map(key).collect(),
        )
    };
    let (with_findings, with_problems) = split(&with);
    let (without_findings, without_problems) = split(&without);
    if with_findings != without_findings {
        let only = |a: &[String], b: &[String]| -> Vec<String> {
            a.iter().filter(|f| !b.contains(f)).cloned().collect()
        };
        let with_only = only(&with_findings, &without_findings);
        let without_only = only(&without_findings, &with_findings);
        match shown {
            true => panic!(
                "findings differ for {paths:?} ({confidence:?}): only with the pre-filter {with_only:#?}, only without it {without_only:#?}"
            ),
            false => panic!(
                "findings differ for the held set {paths:?} ({confidence:?}): {} only with the pre-filter, {} only without it (lines hidden)",
                with_only.len(),
                without_only.len()
            ),
        }
    }
    for problem in &with_problems {
        assert!(without_problems.contains(problem), "extra {problem}");
    }
    assert_eq!(with.files_analyzed, without.files_analyzed);
    (with_findings.len(), with.files_analyzed)
}

#[test]
fn identical_findings_on_every_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures dir")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    let mut total = 0;
    for folder in &entries {
        // Each folder alone (loose files are their own units) and then each
        // loose file named explicitly, the way pre-commit calls the tool.
        total += compare(std::slice::from_ref(folder)).0;
        for file in std::fs::read_dir(folder).expect("folder").flatten() {
            if file.path().extension().is_some_and(|e| e == "rs") {
                compare(&[file.path()]);
            }
        }
    }
    let (all, _) = compare(&[root]);
    assert_eq!(all, total, "the whole tree gives what its folders give");
    assert!(total > 10, "the fixtures have findings to compare: {total}");
}

/// Every fixture's `//~ IDEM00N` marker holds `idem`, a word the
/// pre-filter's byte gate looks for (comments too), so the fixtures as
/// written always pass the gate: each loose file is compared again with its
/// markers taken out, where only its code can pass it.
#[test]
fn identical_findings_on_every_fixture_without_its_markers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut compared = 0;
    for folder in std::fs::read_dir(&root).expect("fixtures dir").flatten() {
        for file in std::fs::read_dir(folder.path()).expect("folder").flatten() {
            let path = file.path();
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("fixture text");
            let stripped: Vec<&str> = (text.lines())
                .map(|line| line.find("//~").map_or(line, |at| line[..at].trim_end()))
                .collect();
            let name = format!(
                "{}__{}",
                folder.file_name().to_string_lossy(),
                file.file_name().to_string_lossy()
            );
            let copy = dir.path().join(name);
            std::fs::write(&copy, stripped.join("\n")).expect("write copy");
            compare(&[copy]);
            compared += 1;
        }
    }
    assert!(
        compared > 100,
        "the loose fixtures were compared: {compared}"
    );
}

/// Every kept blind set (tests/blind/sNN/, each one unit of loose files)
/// gives the same findings with and without the pre-filter. The sets are
/// written in idioms no fixture uses, so they reach pre-filter paths the
/// fixtures do not (s55's helper reading the body, s70's trait method:
/// both found only here). Only equality is asserted: no labels are read,
/// so a held set stays held.
#[test]
fn identical_findings_on_every_blind_set() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/blind");
    let mut sets: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("blind sets dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    sets.sort();
    let held = std::fs::read_to_string(root.join("HELD")).unwrap_or_default();
    let held: Vec<&str> = (held.lines())
        .filter(|l| !l.starts_with('#'))
        .map(str::trim)
        .collect();
    for set in &sets {
        let name = set.file_name().map(|n| n.to_string_lossy().into_owned());
        let shown = !name.is_some_and(|n| held.contains(&n.as_str()));
        compare_shown(std::slice::from_ref(set), shown);
    }
    assert!(
        sets.len() > 20,
        "the blind sets were compared: {}",
        sets.len()
    );
}

#[test]
fn identical_findings_on_the_ecosystem_crates() {
    let dir = std::env::var_os("ECO_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/main/target/ecosystem"));
    if !dir.is_dir() {
        eprintln!(
            "SKIPPED: ecosystem crates not found at {} (set ECO_DIR or run scripts/ecosystem-check.sh)",
            dir.display()
        );
        return;
    }
    let crates = common::crates_in(&dir);
    for krate in &crates {
        let (findings, files) = compare(std::slice::from_ref(krate));
        eprintln!("{}: {findings} findings, {files} files", krate.display());
    }
}

#[test]
fn every_rule_declares_what_it_needs() {
    for rule in idem_lint::rules::ALL {
        assert!(
            !rule.needs.is_empty(),
            "{} needs no fact: list in `RULE.needs` the facts its findings cannot exist without \
             (`Fact::Nothing` if it reports before the pre-filter runs)",
            rule.code
        );
    }
}

/// Found by fuzzing (analyse_bytes): a syntax error inside an item the
/// pre-filter does not select. Without the filter the file is one IDEM000
/// parse error; with it, the error is blanked with its item and the claim
/// is still analysed. So the equivalence holds for files syn accepts, and
/// the fuzz oracle compares only those; this pins both sides.
#[test]
fn syntax_error_in_an_unselected_item() {
    use idem_lint::lint::lint_text;
    use idem_lint::prefilter::Prefilter;

    let claim = "pub async fn run_once(store: &Store, idem_key: &str) -> Result<Output, Error> {
    store.acquire(idem_key).await?;
    let out = step(idem_key).await?;
    store.finish(idem_key, &out).await?;
    Ok(out)
}
";
    let broken_elsewhere = format!(
        "{claim}
pub async fn bounded(permits: &Semaphore) -> Result<(), Error> {{
    le tr_pemit = permits.acquire().await?;
    Ok(())
}}
"
    );
    let options = LintOptions::default();
    let prefilter = Prefilter::new(&options.vocab);
    let lint = |text: &str, filter: Option<&Prefilter>| -> Vec<String> {
        lint_text("f.rs", text.as_bytes(), &options, filter)
            .iter()
            .map(|d| format!("{} {}:{}", d.code, d.span.start.line, d.span.start.column))
            .collect()
    };
    assert_eq!(lint(&broken_elsewhere, None), ["IDEM000 9:8"]);
    assert_eq!(
        lint(&broken_elsewhere, Some(&prefilter)),
        ["IDEM002 2:19", "IDEM004 2:5"]
    );
    // The same claim in a file that parses: identical either way.
    assert_eq!(lint(claim, None), ["IDEM002 2:19", "IDEM004 2:5"]);
    assert_eq!(
        lint(claim, Some(&prefilter)),
        ["IDEM002 2:19", "IDEM004 2:5"]
    );
    // A syntax error inside the selected item: a parse error either way.
    let broken_claim = claim.replace("let out", "le out");
    assert_eq!(lint(&broken_claim, None), ["IDEM000 3:8"]);
    assert_eq!(lint(&broken_claim, Some(&prefilter)), ["IDEM000 3:8"]);
}

/// Found by fuzzing (analyse_mutated_fixture): a client key read only
/// through an inline format capture. The pre-filter saw no key word outside
/// the literal and skipped the file, so both findings were lost.
#[test]
fn key_read_only_by_an_inline_capture() {
    use idem_lint::lint::lint_text;
    use idem_lint::prefilter::Prefilter;

    let text = "pub fn remember(cache: &mut Cache) {
    cache.insert(format!(\"{idempotency_key}\"), 1);
}
";
    let options = LintOptions::default();
    let prefilter = Prefilter::new(&options.vocab);
    for filter in [None, Some(&prefilter)] {
        let found: Vec<String> = lint_text("f.rs", text.as_bytes(), &options, filter)
            .iter()
            .map(|d| format!("{} {}:{}", d.code, d.span.start.line, d.span.start.column))
            .collect();
        assert_eq!(
            found,
            ["IDEM001 2:18", "IDEM002 2:18"],
            "{:?}",
            filter.is_some()
        );
    }
}
