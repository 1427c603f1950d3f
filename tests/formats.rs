//! The CI-facing formats (SARIF, GitHub annotations) and the options around
//! them, run as a user or a CI job would. SARIF is checked by Microsoft's
//! SARIF validator (`@microsoft/sarif-multitool`), which `.ci/run` installs
//! into `.tools/`; these tests fail, never skip, when it is missing.

mod common;
use common::copy_dir;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

fn idem_lint() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_idem-lint"));
    cmd.env_remove("NO_COLOR")
        .env("COLUMNS", "100")
        .current_dir(MANIFEST_DIR);
    cmd
}

fn finish(out: Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn run(args: &[&str]) -> (i32, String, String) {
    finish(idem_lint().args(args).output().expect("idem-lint runs"))
}

fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    finish(
        idem_lint()
            .current_dir(dir)
            .args(args)
            .output()
            .expect("idem-lint runs"),
    )
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

fn results(sarif: &Value) -> &Vec<Value> {
    sarif["runs"][0]["results"]
        .as_array()
        .expect("runs[0].results is an array")
}

// ---------------------------------------------------------------- SARIF

#[test]
fn sarif_on_the_demo() {
    let (code, stdout, _) = run(&["fixtures/demo", "--format", "sarif"]);
    assert_eq!(code, 1, "errors found → exit 1");
    let sarif = json(&stdout);
    assert_eq!(sarif["version"], "2.1.0");
    let run = &sarif["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "idem-lint");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert!(driver["informationUri"]
        .as_str()
        .is_some_and(|u| u.starts_with("https://")));

    // Every rule is described, with its documentation from rules/*.md.
    let rules = driver["rules"].as_array().expect("rules array");
    assert_eq!(rules.len(), idem_lint::rules::ALL.len());
    for (descriptor, rule) in rules.iter().zip(idem_lint::rules::ALL) {
        assert_eq!(descriptor["id"], rule.code);
        assert_eq!(descriptor["name"], rule.name);
        assert!(descriptor["shortDescription"]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with(rule.summary)));
        assert_eq!(
            descriptor["fullDescription"]["markdown"],
            rule.section("What it does").expect("documented")
        );
        assert!(descriptor["fullDescription"]["text"].is_string());
        assert_eq!(descriptor["help"]["markdown"], rule.docs);
        let help_text = descriptor["help"]["text"].as_str().expect("help.text");
        assert!(
            help_text.contains("Why is this bad?\n----------------"),
            "{help_text}"
        );
        assert!(!help_text.contains("```"), "help.text is plain text");
        assert_eq!(
            descriptor["defaultConfiguration"]["level"],
            rule.level.to_string()
        );
    }

    // The results are snapshotted without the rule catalogue, which every
    // new rule extends.
    let results = results(&sarif);
    assert_eq!(results.len(), demo_findings());
    for r in results {
        let location = &r["locations"][0]["physicalLocation"];
        assert_eq!(r["locations"].as_array().map(Vec::len), Some(1));
        let uri = location["artifactLocation"]["uri"].as_str().expect("uri");
        assert!(uri.starts_with("fixtures/demo/"), "{uri}");
        assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        for key in ["startLine", "startColumn", "endLine", "endColumn"] {
            assert!(
                location["region"][key].as_u64().is_some_and(|n| n >= 1),
                "{key}: {r}"
            );
        }
        let index = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], r["ruleId"]);
    }
    let fingerprints: std::collections::BTreeSet<&str> = results
        .iter()
        .map(|r| {
            r["partialFingerprints"]["idemLintFinding/v1"]
                .as_str()
                .expect("fingerprint")
        })
        .collect();
    assert_eq!(fingerprints.len(), results.len(), "fingerprints are unique");
    insta::assert_snapshot!(
        "demo_sarif_results",
        format!(
            "exit code {code}\n{}",
            serde_json::to_string_pretty(results).expect("serialisable")
        )
    );
}

#[test]
fn sarif_invocation_reports_success_and_failure() {
    let (code, stdout, _) = run(&[
        "fixtures/adhoc-key-concat/only_logged.rs",
        "--format",
        "sarif",
    ]);
    assert_eq!(code, 0);
    let sarif = json(&stdout);
    assert_eq!(results(&sarif).len(), 0);
    assert_eq!(
        sarif["runs"][0]["invocations"][0]["executionSuccessful"],
        true
    );

    let (code, stdout, _) = run(&["fixtures/demo", "--format", "sarif", "--exit-zero"]);
    assert_eq!(code, 0, "--exit-zero");
    assert_eq!(results(&json(&stdout)).len(), demo_findings());

    let (code, stdout, stderr) = run(&["no/such/dir", "fixtures/demo", "--format", "sarif"]);
    assert_eq!(code, 2, "{stderr}");
    let sarif = json(&stdout);
    let invocation = &sarif["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let note = invocation["toolExecutionNotifications"][0]["message"]["text"]
        .as_str()
        .expect("notification");
    assert!(note.contains("no/such/dir"), "{note}");
    assert_eq!(
        results(&sarif).len(),
        demo_findings(),
        "the other path is still reported"
    );
}

#[test]
fn sarif_statistics_keep_the_document_valid() {
    let (_, stdout, _) = run(&["fixtures/demo", "--format", "sarif", "--statistics"]);
    json(&stdout);
}

/// A scratch project: a copy of the demo service, a file that does not
/// parse, one that is not UTF-8, and a finding in a path that needs URI
/// escaping.
fn scratch_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(
        &Path::new(MANIFEST_DIR).join("fixtures/demo"),
        &dir.path().join("demo"),
    );
    // It mentions the key, so the pre-filter parses it (files it rules out
    // are never parsed, so their syntax errors are not reported).
    std::fs::write(
        dir.path().join("broken.rs"),
        "fn main(idempotency_key: &str {\n",
    )
    .expect("write");
    // Parse errors are errors by default; lowered here so the outputs show
    // both levels (and the level of IDEM000 is configurable like any rule's).
    std::fs::write(
        dir.path().join("idem-lint.toml"),
        "[rules]\nparse-error = \"warn\"\n",
    )
    .expect("write");
    std::fs::write(dir.path().join("latin1.rs"), b"// caf\xe9\nfn f() {}\n").expect("write");
    let odd = dir.path().join("odd dir #1");
    std::fs::create_dir_all(&odd).expect("mkdir");
    let firing = Path::new(MANIFEST_DIR).join("fixtures/adhoc-key-concat/format_macro_forms.rs");
    let firing = std::fs::read_to_string(firing).expect("fixture");
    std::fs::write(odd.join("clé,keys.rs"), format!("// ключ ✓\n{firing}")).expect("write");
    dir
}

/// The validator's native executable: `SARIF_MULTITOOL`, or the copy that
/// `npm install --prefix .tools @microsoft/sarif-multitool` put in `.tools/`.
/// (Its `bin.js` wrapper runs through a shell, which splits `Error;Warning`.)
fn sarif_multitool() -> PathBuf {
    if let Some(path) = std::env::var_os("SARIF_MULTITOOL") {
        let path = PathBuf::from(path);
        assert!(
            path.is_file(),
            "SARIF_MULTITOOL={} is not a file",
            path.display()
        );
        return path;
    }
    let platform = match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        other => other,
    };
    let exe = if cfg!(windows) {
        "Sarif.Multitool.exe"
    } else {
        "Sarif.Multitool"
    };
    let path = Path::new(MANIFEST_DIR)
        .join(".tools/node_modules/@microsoft")
        .join(format!("sarif-multitool-{platform}"))
        .join(exe);
    assert!(
        path.is_file(),
        "Microsoft's SARIF validator is not installed at {}.\n\
         Install it with `npm install --prefix .tools @microsoft/sarif-multitool` \
         (.ci/run does this), or point SARIF_MULTITOOL at its Sarif.Multitool executable.",
        path.display()
    );
    path
}

/// Runs `sarif-multitool validate` and returns (rule id, level) of every
/// problem it reports, notes included.
fn validate(file: &Path, rule_kind: Option<&str>) -> Vec<(String, String)> {
    let report = file.with_extension("validation.sarif");
    let mut cmd = Command::new(sarif_multitool());
    cmd.arg("validate")
        .arg(file)
        .arg("--output")
        .arg(&report)
        .args(["--log", "ForceOverwrite", "--level", "Error;Warning;Note"]);
    if let Some(kind) = rule_kind {
        cmd.args(["--rule-kind", kind]);
    }
    let out = cmd.output().expect("the SARIF validator runs");
    let console = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "validator failed:\n{console}");
    let text = std::fs::read_to_string(&report)
        .unwrap_or_else(|e| panic!("validator wrote no report ({e}):\n{console}"));
    let log = json(&text);
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    results(&log)
        .iter()
        .map(|r| {
            let default = r["ruleIndex"]
                .as_u64()
                .and_then(|i| rules.get(i as usize))
                .and_then(|rule| rule["defaultConfiguration"]["level"].as_str());
            let level = r["level"].as_str().or(default).unwrap_or("warning");
            (
                r["ruleId"].as_str().unwrap_or("?").to_string(),
                level.to_string(),
            )
        })
        .collect()
}

fn problems(found: &[(String, String)], level: &str) -> Vec<String> {
    found
        .iter()
        .filter(|(_, l)| l == level)
        .map(|(id, _)| id.clone())
        .collect()
}

#[test]
fn sarif_passes_microsofts_validator() {
    let dir = scratch_project();
    // Both tiers, so that the validator sees `precision` high and medium.
    let (code, stdout, stderr) = run_in(
        dir.path(),
        &["--format", "sarif", "--confidence", "possible"],
    );
    assert_eq!(code, 1, "{stderr}");
    let sarif = json(&stdout);
    let precisions: Vec<&str> = results(&sarif)
        .iter()
        .filter_map(|r| r["properties"]["precision"].as_str())
        .collect();
    assert!(
        precisions.contains(&"high") && precisions.contains(&"medium"),
        "{precisions:?}"
    );
    let levels: Vec<&str> = results(&sarif)
        .iter()
        .filter_map(|r| r["level"].as_str())
        .collect();
    assert!(
        levels.contains(&"warning") && levels.contains(&"error"),
        "{levels:?}"
    );
    let uris: Vec<&str> = results(&sarif)
        .iter()
        .filter_map(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str())
        .collect();
    assert!(
        uris.contains(&"odd%20dir%20%231/cl%C3%A9,keys.rs"),
        "{uris:?}"
    );
    assert!(uris.contains(&"broken.rs"), "{uris:?}");
    let file = dir.path().join("idem-lint.sarif");
    std::fs::write(&file, &stdout).expect("write");

    for kind in [None, Some("Gh")] {
        let found = validate(&file, kind);
        assert_eq!(
            problems(&found, "error"),
            Vec::<String>::new(),
            "rule kind {kind:?}"
        );
        assert_eq!(
            problems(&found, "warning"),
            Vec::<String>::new(),
            "rule kind {kind:?}"
        );
        if kind.is_none() {
            // Notes prove that the validator read the whole document: it
            // silently skips a log it cannot deserialise.
            assert!(!problems(&found, "note").is_empty(), "{found:?}");
        }
    }

    // The validator rejects the same log without what GitHub requires.
    let mut broken = sarif.clone();
    if let Some(root) = broken.as_object_mut() {
        root.remove("$schema");
    }
    if let Some(driver) = broken["runs"][0]["tool"]["driver"].as_object_mut() {
        driver.remove("rules");
    }
    let file = dir.path().join("broken.sarif");
    std::fs::write(&file, broken.to_string()).expect("write");
    let errors = problems(&validate(&file, Some("Gh")), "error");
    assert!(
        errors.contains(&"GH1013".to_string()) && errors.contains(&"GH1018".to_string()),
        "the validator must catch a missing $schema and rules: {errors:?}"
    );
}

/// The demo's findings by code, as `fixtures/demo/expected.txt` states them
/// (`path:line CODE` rows), so these tests follow the demo as rules are added.
fn demo_marker_codes() -> Vec<String> {
    let path = Path::new(MANIFEST_DIR).join("fixtures/demo/expected.txt");
    let text = std::fs::read_to_string(path).expect("fixtures/demo/expected.txt");
    text.lines()
        .map(str::trim)
        .filter(|row| !row.is_empty() && !row.starts_with('#'))
        .filter_map(|row| row.split_whitespace().nth(1).map(str::to_string))
        .collect()
}

fn demo_findings() -> usize {
    demo_marker_codes().len()
}

/// `N errors, 0 warnings in F of K files` for the demo.
fn demo_summary() -> String {
    let mut files = 0;
    let mut stack = vec![Path::new(MANIFEST_DIR).join("fixtures/demo")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("demo dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs" || x == "sql") {
                files += 1;
            }
        }
    }
    // The files with findings are the paths of `expected.txt`'s rows.
    let expected =
        std::fs::read_to_string(Path::new(MANIFEST_DIR).join("fixtures/demo/expected.txt"))
            .expect("expected.txt");
    let with_findings: BTreeSet<&str> = expected
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split(':').next())
        .collect();
    format!(
        "{} errors, 0 warnings in {} of {files} files",
        demo_findings(),
        with_findings.len()
    )
}

fn fingerprints_of(dir: &Path) -> BTreeMap<String, (u64, String)> {
    let (_, stdout, _) = run_in(dir, &["--format", "sarif", "."]);
    results(&json(&stdout))
        .iter()
        .map(|r| {
            (
                r["partialFingerprints"]["idemLintFinding/v1"]
                    .as_str()
                    .expect("fingerprint")
                    .to_string(),
                (
                    r["locations"][0]["physicalLocation"]["region"]["startLine"]
                        .as_u64()
                        .expect("line"),
                    r["ruleId"].as_str().expect("rule").to_string(),
                ),
            )
        })
        .collect()
}

#[test]
fn fingerprints_survive_edits_elsewhere_in_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&Path::new(MANIFEST_DIR).join("fixtures/demo"), dir.path());
    let before = fingerprints_of(dir.path());
    assert!(before.len() >= 8, "{before:?}");

    // Insert lines at the top of every file and add a function in the middle.
    let handlers = dir.path().join("src/handlers.rs");
    let text = std::fs::read_to_string(&handlers).expect("read");
    let edited = format!(
        "// A new header comment.\n//\n// More text.\n\n{}",
        text.replacen(
            "\nasync fn ",
            "\nfn added_helper() -> u32 {\n    41 + 1\n}\n\nasync fn ",
            1
        )
    );
    std::fs::write(&handlers, edited).expect("write");
    let keys = dir.path().join("src/keys.rs");
    let text = std::fs::read_to_string(&keys).expect("read");
    std::fs::write(&keys, format!("\n\n{text}")).expect("write");

    let after = fingerprints_of(dir.path());
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>(),
        "same findings, same fingerprints"
    );
    for (fp, (line, rule)) in &before {
        let (new_line, new_rule) = &after[fp];
        assert_eq!(rule, new_rule);
        if rule == "IDEM008" {
            // The migration was not edited.
            assert_eq!(new_line, line, "{fp}");
        } else {
            assert!(new_line > line, "{fp} moved down from {line} to {new_line}");
        }
    }
}

// ---------------------------------------------------------------- GitHub

#[test]
fn github_annotations_on_the_demo() {
    let (code, stdout, _) = run(&["fixtures/demo", "--format", "github"]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("demo_github", format!("exit code {code}\n{stdout}"));
    let lines: Vec<&str> = stdout.lines().collect();
    let n = demo_findings();
    assert_eq!(lines.len(), n + 1, "{stdout}");
    for line in &lines[..n] {
        assert!(line.starts_with("::error file=fixtures/demo/"), "{line}");
        assert!(line.contains(",title=IDEM00"), "{line}");
    }
    assert_eq!(lines[n], format!("idem-lint: {}", demo_summary()));
    let (code, stdout, _) = run(&["fixtures/demo", "--format", "github", "--quiet"]);
    assert_eq!(code, 1);
    assert_eq!(stdout.lines().count(), n, "--quiet drops the summary");
}

#[test]
fn github_summary_counts_what_github_hides() {
    let (_, all, _) = run(&["fixtures", "--format", "json", "--confidence", "possible"]);
    let total = json(&all)["diagnostics"].as_array().expect("array").len();
    assert!(
        total > 10,
        "the fixtures have more findings than GitHub shows"
    );
    let (code, stdout, _) = run(&["fixtures", "--format", "github", "--confidence", "possible"]);
    assert_eq!(code, 1);
    let annotations = stdout.lines().filter(|l| l.starts_with("::")).count();
    assert_eq!(annotations, total);
    let summary = stdout.lines().last().expect("summary");
    assert!(
        summary.contains("GitHub shows only the first 10 errors and 10 warnings")
            && summary.contains(&format!("all {total} findings")),
        "{summary}"
    );
}

#[test]
fn github_escapes_properties_and_data() {
    let dir = scratch_project();
    let (code, stdout, _) = run_in(dir.path(), &["--format", "github"]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("::error file=odd dir #1/clé%2Ckeys.rs,line="),
        "commas in properties are escaped:\n{stdout}"
    );
    let warning = stdout
        .lines()
        .find(|l| l.starts_with("::warning file=broken.rs,"))
        .unwrap_or_else(|| panic!("parse error as a warning:\n{stdout}"));
    assert!(warning.contains("title=IDEM000 parse-error::"), "{warning}");
    for line in stdout.lines().filter(|l| l.starts_with("::")) {
        let (props, data) = line[2..].split_once("::").expect("command::data");
        assert!(!data.contains('\n') && !data.contains('\r'));
        let props = props.split_once(' ').expect("command props").1;
        for prop in props.split(',') {
            let (key, _) = prop.split_once('=').expect("key=value");
            assert!(
                ["file", "line", "endLine", "col", "endColumn", "title"].contains(&key),
                "{line}"
            );
        }
    }
    // Multi-line help is one annotation with escaped newlines.
    assert!(stdout.contains("%0Ahelp: "), "{stdout}");
}

// ---------------------------------------------------------------- options

#[test]
fn output_file_receives_the_report() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("report.sarif");
    let file_arg = file.to_str().expect("utf-8 temp path");
    let (code, stdout, _) = run(&["fixtures/demo", "--format", "sarif", "--output", file_arg]);
    assert_eq!(
        code, 1,
        "the exit code does not depend on where the report goes"
    );
    assert_eq!(stdout, "");
    let written = std::fs::read_to_string(&file).expect("report written");
    assert_eq!(results(&json(&written)).len(), demo_findings());

    let (code, _, stderr) = run(&[
        "fixtures/demo",
        "--output",
        dir.path()
            .join("missing/dir/report.txt")
            .to_str()
            .expect("utf-8"),
    ]);
    assert_eq!(code, 2, "an unwritable report is a failed run");
    assert!(stderr.contains("cannot write"), "{stderr}");
}

#[test]
fn quiet_drops_only_the_summary() {
    let (_, loud, _) = run(&["fixtures/demo", "--format", "short"]);
    let (code, quiet, _) = run(&["fixtures/demo", "--format", "short", "--quiet"]);
    assert_eq!(code, 1);
    let summary = demo_summary();
    assert!(loud.ends_with(&format!("{summary}\n")), "{loud}");
    assert_eq!(format!("{quiet}{summary}\n"), loud);
    let (_, human, _) = run(&["fixtures/demo", "-q"]);
    assert!(!human.contains("errors, 0 warnings"), "{human}");
    assert!(human.contains("IDEM001(adhoc-key-concat)"), "{human}");
}

#[test]
fn statistics_count_findings_per_rule() {
    let (code, stdout, _) = run(&["fixtures/demo", "--format", "short", "--statistics"]);
    assert_eq!(code, 1);
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    for code in demo_marker_codes() {
        *counts.entry(code).or_default() += 1;
    }
    let mut expected: Vec<(String, usize)> = counts.into_iter().collect();
    expected.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let expected: Vec<String> = expected
        .iter()
        .map(|(code, n)| {
            let name = idem_lint::rules::find(code).expect("rule").name;
            format!("{n:>5}  {code}  {name}")
        })
        .collect();
    let tail: Vec<&str> = stdout.lines().rev().take(expected.len()).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    assert_eq!(tail, expected, "{stdout}");
    let (_, stdout, _) = run(&["fixtures/demo", "--format", "json", "--statistics"]);
    json(&stdout);
}

/// Runs `command` on a pseudo-terminal (util-linux `script`), so that
/// `--color auto` sees a TTY.
fn on_a_tty(command: &str, no_color: bool) -> String {
    let mut cmd = Command::new("script");
    cmd.args(["-qec", command, "/dev/null"])
        .current_dir(MANIFEST_DIR)
        .env("COLUMNS", "100");
    if no_color {
        cmd.env("NO_COLOR", "1");
    } else {
        cmd.env_remove("NO_COLOR");
    }
    let out = cmd.output().unwrap_or_else(|e| {
        panic!("`script` (util-linux) is needed to run idem-lint on a terminal: {e}")
    });
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn colour_follows_the_terminal_no_color_and_the_flag() {
    let bin = env!("CARGO_BIN_EXE_idem-lint");
    let tty = on_a_tty(&format!("'{bin}' fixtures/demo"), false);
    assert!(tty.contains("IDEM001"), "{tty}");
    assert!(tty.contains('\u{1b}'), "colour on a terminal");
    let tty = on_a_tty(&format!("'{bin}' fixtures/demo"), true);
    assert!(
        tty.contains("IDEM001") && !tty.contains('\u{1b}'),
        "NO_COLOR is honoured"
    );
    let tty = on_a_tty(&format!("'{bin}' fixtures/demo --color never"), false);
    assert!(
        tty.contains("IDEM001") && !tty.contains('\u{1b}'),
        "--color never"
    );
    // rustc's short format is coloured too (issue 25).
    let (_, piped, _) = run(&["fixtures/demo", "--color", "always", "--format", "short"]);
    assert!(piped.contains('\u{1b}'), "the short format is coloured");
    // A dumb terminal gets none (issue 25).
    let tty = on_a_tty(&format!("TERM=dumb '{bin}' fixtures/demo"), false);
    assert!(
        tty.contains("IDEM001") && !tty.contains('\u{1b}'),
        "TERM=dumb: {tty}"
    );

    let explain = on_a_tty(&format!("'{bin}' explain IDEM001"), false);
    assert!(
        explain.contains('\u{1b}'),
        "explain is coloured on a terminal"
    );
    let explain = on_a_tty(&format!("'{bin}' explain IDEM001"), true);
    assert!(explain.contains("What it does") && !explain.contains('\u{1b}'));
    let (_, explain, _) = run(&["explain", "IDEM001", "--color", "always"]);
    assert!(explain.contains('\u{1b}'));
}

#[test]
fn explain_renders_markdown_for_the_terminal() {
    for rule in idem_lint::rules::ALL {
        for query in [rule.code, rule.name, &rule.code.to_ascii_lowercase()] {
            let (code, stdout, _) = run(&["explain", query]);
            assert_eq!(code, 0);
            let title = format!("{} ({})", rule.name, rule.code);
            assert!(
                stdout.starts_with(&format!("{title}\n{}\n", "=".repeat(title.chars().count())))
            );
            assert!(stdout.contains(&format!("Default level: {}", rule.level)));
            for section in [
                "What it does",
                "Why is this bad?",
                "Example",
                "Use instead",
                "Options",
                "References",
            ] {
                assert!(
                    stdout.contains(&format!("\n{section}\n{}\n", "-".repeat(section.len()))),
                    "{section} in {stdout}"
                );
            }
            assert!(
                !stdout.contains("```") && !stdout.contains("\n## "),
                "{stdout}"
            );
            assert!(!stdout.contains('\u{1b}'), "no colour when piped");
        }
    }
    let (_, stdout, _) = run(&["explain", "IDEM001"]);
    assert!(stdout.contains("\n    "), "code blocks are indented");
    insta::assert_snapshot!("explain_idem002", run(&["explain", "IDEM002"]).1);
}

#[test]
fn rules_as_json() {
    let (code, stdout, _) = run(&["rules", "--format", "json"]);
    assert_eq!(code, 0);
    let list = json(&stdout);
    let list = list.as_array().expect("array");
    assert_eq!(list.len(), idem_lint::rules::ALL.len());
    for (entry, rule) in list.iter().zip(idem_lint::rules::ALL) {
        assert_eq!(entry["code"], rule.code);
        assert_eq!(entry["name"], rule.name);
        // Spelt as configuration spells levels.
        let level = match rule.level {
            idem_lint::diagnostic::Severity::Error => "error",
            idem_lint::diagnostic::Severity::Warning => "warn",
        };
        assert_eq!(entry["level"], level);
        assert_eq!(entry["summary"], rule.summary);
    }
}

#[test]
fn cargo_runs_the_subcommand_from_path() {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_cargo-idem-lint"))
        .parent()
        .expect("bin dir")
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("PATH");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["idem-lint", "fixtures/demo", "--format", "short"])
        .current_dir(MANIFEST_DIR)
        .env("PATH", path)
        .output()
        .expect("cargo runs");
    let (code, stdout, stderr) = finish(out);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stdout.contains("IDEM001") && stdout.ends_with(&format!("{}\n", demo_summary())),
        "{stdout}"
    );
}
