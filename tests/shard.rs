//! `--partition i/n` and `idem-lint merge`: for n = 1, 2, 3 the merge of the
//! n shards' JSON and SARIF reports is byte for byte the unpartitioned run's
//! report (and JSON shards merged as SARIF are the run's SARIF), on every fixture folder and on the ecosystem crates when present;
//! every file is linted by exactly one shard; bad values and mismatched
//! shards exit 2; merge's exit code follows the merged findings.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use idem_lint::merge::{merge, MergeFormat, Shard};
use idem_lint::report::{self, Format, RenderOptions};
use idem_lint::{lint_paths, LintOptions, LintResult};

/// Lints `paths` (one shard of them with `partition`), reporting every
/// finding, `possible` ones too, so that merges carry both tiers.
fn lint(paths: &[PathBuf], partition: Option<&str>) -> LintResult {
    let options = LintOptions {
        partition: partition.map(|p| p.parse().expect("partition")),
        confidence: idem_lint::diagnostic::Confidence::Possible,
        confidence_fixed: true,
        ..LintOptions::default()
    };
    lint_paths(paths, &options).expect("lint runs")
}

fn render(result: &LintResult, format: Format) -> String {
    let options = RenderOptions {
        color: false,
        width: report::NO_WRAP,
        quiet: false,
        statistics: false,
    };
    report::render(result, format, &options)
}

/// The first line where `a` and `b` differ, for a readable failure.
fn first_difference(a: &str, b: &str) -> String {
    let (mut left, mut right) = (a.lines(), b.lines());
    for line in 1.. {
        match (left.next(), right.next()) {
            (None, None) => return "no difference".to_string(),
            (l, r) if l != r => return format!("line {line}: {l:?} vs {r:?}"),
            _ => {}
        }
    }
    unreachable!()
}

/// Shards `paths` in 1, 2 and 3 and checks each merge against the single
/// run. Returns the single run's number of findings.
fn merged_equals_single(paths: &[PathBuf]) -> usize {
    let single = lint(paths, None);
    for n in 1..=3 {
        let shards: Vec<LintResult> = (1..=n)
            .map(|i| lint(paths, Some(&format!("hash:{i}/{n}"))))
            .collect();
        let mut linted = BTreeSet::new();
        for shard in &shards {
            for file in &shard.linted {
                assert!(linted.insert(file.clone()), "{file} in two of {n} shards");
            }
        }
        assert_eq!(linted, single.linted, "{paths:?}: {n} shards cover the run");
        for (format, name) in [(Format::Json, "json"), (Format::Sarif, "sarif")] {
            let reports: Vec<Shard> = (shards.iter().enumerate())
                .map(|(i, shard)| Shard {
                    name: format!("shard-{}.{name}", i + 1),
                    text: render(shard, format),
                })
                .collect();
            let merged = merge(&reports, None).expect("shards merge");
            let want = render(&single, format);
            assert!(
                merged.text == want,
                "{paths:?}, {n} shards, {name}: {}",
                first_difference(&merged.text, &want)
            );
            assert_eq!(merged.has_errors, single.has_errors());
        }
        // JSON shards written as SARIF: one artifact per shard in CI.
        let json: Vec<Shard> = (shards.iter())
            .map(|shard| Shard {
                name: "shard.json".to_string(),
                text: render(shard, Format::Json),
            })
            .collect();
        let converted = merge(&json, Some(MergeFormat::Sarif)).expect("JSON shards merge");
        let want = render(&single, Format::Sarif);
        assert!(
            converted.text == want,
            "{paths:?}, {n} JSON shards as SARIF: {}",
            first_difference(&converted.text, &want)
        );
    }
    single.diagnostics.len()
}

#[test]
fn merged_shards_equal_the_single_run_on_every_fixture_folder() {
    let root = Path::new("fixtures");
    let mut folders: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("fixtures dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut total = 0;
    for folder in &folders {
        total += merged_equals_single(std::slice::from_ref(folder));
    }
    assert_eq!(merged_equals_single(&[root.to_path_buf()]), total);
    assert!(total > 10, "the fixtures have findings: {total}");
}

#[test]
fn every_shard_gets_some_of_the_fixtures() {
    // The fixtures are ~60 loose files: a hash that sent everything to one
    // shard would pass the merge test without testing the merge.
    let root = [PathBuf::from("fixtures")];
    for i in 1..=3 {
        let shard = lint(&root, Some(&format!("{i}/3")));
        assert!(shard.files_analyzed > 5, "shard {i}/3 is nearly empty");
        assert!(!shard.diagnostics.is_empty(), "shard {i}/3 has no finding");
    }
}

#[test]
fn merged_shards_equal_the_single_run_on_the_ecosystem_crates() {
    let candidates = [
        std::env::var_os("ECO_DIR").map(PathBuf::from),
        Some(PathBuf::from("/work/golden/ecosystem")),
        Some(PathBuf::from("/work/main/target/ecosystem")),
    ];
    let Some(dir) = candidates.into_iter().flatten().find(|d| d.is_dir()) else {
        eprintln!("SKIPPED: ecosystem crates not found (set ECO_DIR, or /work/golden/ecosystem)");
        return;
    };
    let crates = common::crates_in(&dir);
    // All crates in one run: the same units as crate by crate, a quarter of
    // the runs.
    let findings = merged_equals_single(&crates);
    eprintln!("{}: {findings} findings", dir.display());
}

fn idem_lint(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_idem-lint"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run idem-lint");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_partitions_exit_2_with_a_reason() {
    for (bad, reason) in [
        ("0/3", "shards are numbered 1 to 3"),
        ("4/3", "shards are numbered 1 to 3"),
        ("x", "expected `i/n` or `hash:i/n`"),
        ("1/0", "at least 1"),
    ] {
        let (code, _, err) = idem_lint(&["--partition", bad, "--no-cache", "fixtures/demo"]);
        assert_eq!(code, 2, "--partition {bad}: {err}");
        assert!(err.contains(reason), "--partition {bad}: {err}");
    }
}

/// Writes the `--partition i/2` reports of `fixtures` in `format` to `dir`.
fn write_shards(dir: &Path, format: &str) -> Vec<String> {
    (1..=2)
        .map(|i| {
            let file = dir.join(format!("shard-{i}.{format}"));
            let file = file.to_string_lossy().into_owned();
            let (code, _, err) = idem_lint(&[
                "--no-cache",
                "--format",
                format,
                "--partition",
                &format!("hash:{i}/2"),
                "--output",
                &file,
                "fixtures",
            ]);
            assert!(code == 0 || code == 1, "{err}");
            file
        })
        .collect()
}

#[test]
fn merge_exits_as_the_merged_findings_say() {
    let dir = tempfile::tempdir().expect("tempdir");
    let shards = write_shards(dir.path(), "json");
    let (single_code, single, _) = idem_lint(&["--no-cache", "--format", "json", "fixtures"]);
    let out = dir.path().join("merged.json");
    let out = out.to_string_lossy().into_owned();
    let mut args = vec!["merge", "--output", &out];
    args.extend(shards.iter().map(String::as_str));
    let (code, stdout, err) = idem_lint(&args);
    assert_eq!((code, single_code), (1, 1), "{err}");
    assert!(stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&out).expect("merged"), single);
    args.push("--exit-zero");
    assert_eq!(idem_lint(&args).0, 0);
    // A clean folder's shards merge to exit 0.
    let clean = dir.path().join("clean.json");
    std::fs::write(
        &clean,
        r#"{"version":1,"tool":{"name":"idem-lint","version":"0.1.0"},"diagnostics":[],
            "summary":{"files_analyzed":1,"files_with_errors":0,"diagnostics":0}}"#,
    )
    .expect("write");
    assert_eq!(idem_lint(&["merge", &clean.to_string_lossy()]).0, 0);
}

#[test]
fn mismatched_shards_exit_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let json = write_shards(dir.path(), "json");
    let sarif = write_shards(dir.path(), "sarif");
    let (code, _, err) = idem_lint(&["merge", &json[0], &sarif[1]]);
    assert_eq!(code, 2);
    assert!(err.contains("SARIF report, but JSON was expected"), "{err}");
    let (code, _, err) = idem_lint(&["merge", "--format", "json", &sarif[0], &sarif[1]]);
    assert_eq!(code, 2);
    assert!(err.contains("can only be merged into SARIF"), "{err}");
    // Another idem-lint version.
    let other = dir.path().join("other.json");
    let text = std::fs::read_to_string(&json[1]).expect("read");
    let text = text.replacen(
        &format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION")),
        "\"version\": \"0.0.1\"",
        1,
    );
    std::fs::write(&other, text).expect("write");
    let (code, _, err) = idem_lint(&["merge", &json[0], &other.to_string_lossy()]);
    assert_eq!(code, 2);
    assert!(err.contains("0.0.1"), "{err}");
    // The same shard twice would double its findings.
    let (code, _, err) = idem_lint(&["merge", &json[0], &json[0]]);
    assert_eq!(code, 2);
    assert!(err.contains("both report"), "{err}");
    let (code, _, err) = idem_lint(&["merge", &sarif[0], &sarif[0]]);
    assert_eq!(code, 2, "{err}");
    // Not a report at all.
    let (code, _, err) = idem_lint(&["merge", "Cargo.toml"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not an idem-lint"), "{err}");
}
