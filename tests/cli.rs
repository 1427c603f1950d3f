//! The command line: exit codes, formats and errors, run as a user would.

use std::process::Command;

fn idem_lint() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_idem-lint"));
    cmd.env_remove("NO_COLOR").env("COLUMNS", "100");
    cmd
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = idem_lint().args(args).output().expect("idem-lint runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn json_output_on_the_demo() {
    let (code, stdout, _) = run(&["fixtures/demo", "--format", "json"]);
    assert_eq!(code, 1, "errors found → exit 1");
    insta::assert_snapshot!("demo_json", stdout);
    let parsed: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    assert_eq!(parsed["version"], 1);
    assert_eq!(parsed["tool"]["name"], "idem-lint");
    let diagnostics = parsed["diagnostics"].as_array().expect("array");
    assert_eq!(parsed["summary"]["diagnostics"], diagnostics.len());
    for d in diagnostics {
        for key in [
            "code", "name", "severity", "message", "path", "span", "labels", "help",
        ] {
            assert!(d.get(key).is_some(), "diagnostic lacks `{key}`: {d}");
        }
        assert!(
            !d["path"].as_str().unwrap_or("/").starts_with('/'),
            "relative paths"
        );
    }
}

#[test]
fn short_output_on_the_demo() {
    let (code, stdout, _) = run(&["fixtures/demo", "--format", "short"]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("demo_short", stdout);
}

#[test]
fn output_is_identical_for_any_number_of_jobs() {
    // Every fixture finding, `possible` ones too.
    let all = ["fixtures", "--format", "json", "--confidence", "possible"];
    let (_, one, _) = run(&[&all[..], &["--jobs", "1"]].concat());
    let (_, two, _) = run(&[&all[..], &["--jobs", "2"]].concat());
    let (_, many, _) = run(&[&all[..], &["--jobs", "7"]].concat());
    assert_eq!(one, two);
    assert_eq!(one, many);
}

#[test]
fn exit_zero_and_clean_code() {
    let (code, _, _) = run(&["fixtures/demo", "--exit-zero", "--format", "short"]);
    assert_eq!(code, 0);
    let (code, stdout, _) = run(&[
        "fixtures/adhoc-key-concat/only_logged.rs",
        "--format",
        "short",
    ]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.starts_with("0 errors, 0 warnings in 1 file"),
        "{stdout}"
    );
}

#[test]
fn missing_path_is_exit_2_and_others_still_analysed() {
    let (code, stdout, stderr) = run(&["does/not/exist.rs", "fixtures/demo", "--format", "short"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("does/not/exist.rs: no such file or directory"),
        "{stderr}"
    );
    assert!(
        stdout.contains("IDEM001"),
        "the other path was still linted: {stdout}"
    );
}

#[test]
fn bad_arguments_are_exit_2() {
    let (code, _, stderr) = run(&["--format", "yaml"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("yaml"), "{stderr}");
    let (code, _, stderr) = run(&["--select", "IDEM999", "fixtures/demo"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("IDEM999"), "{stderr}");
}

#[test]
fn select_and_ignore_filter_codes() {
    let (_, stdout, _) = run(&["fixtures/demo", "--format", "short", "--select", "IDEM001"]);
    assert!(
        stdout.contains("IDEM001") && !stdout.contains("IDEM002"),
        "{stdout}"
    );
    let (_, stdout, _) = run(&[
        "fixtures/demo",
        "--format",
        "short",
        "--ignore",
        "missing-scope-component",
    ]);
    assert!(
        stdout.contains("IDEM001") && !stdout.contains("IDEM002"),
        "{stdout}"
    );
}

#[test]
fn explain_and_rules() {
    let (code, stdout, _) = run(&["explain", "IDEM001"]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("Why is this bad?\n----------------"),
        "{stdout}"
    );
    let (code, stdout2, _) = run(&["explain", "adhoc-key-concat"]);
    assert_eq!(code, 0);
    assert_eq!(stdout, stdout2);
    let (code, _, stderr) = run(&["explain", "IDEM999"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown rule"), "{stderr}");
    let (code, stdout, _) = run(&["rules"]);
    assert_eq!(code, 0);
    for rule in idem_lint::rules::ALL {
        assert!(
            stdout.contains(rule.code) && stdout.contains(rule.name),
            "{stdout}"
        );
    }
}

#[test]
fn human_output_has_no_colour_when_piped() {
    let (_, stdout, _) = run(&["fixtures/demo"]);
    assert!(!stdout.contains('\u{1b}'), "no ANSI escapes when not a TTY");
    assert!(stdout.contains("IDEM001(adhoc-key-concat)"), "{stdout}");
    let (_, coloured, _) = run(&["fixtures/demo", "--color", "always"]);
    assert!(coloured.contains('\u{1b}'));
}

#[test]
fn cargo_subcommand_strips_its_name() {
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-idem-lint"))
        .args(["idem-lint", "fixtures/demo", "--format", "short"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("IDEM001"));
}

/// A pipe whose only read end is already closed: the state `| head -1`
/// leaves behind. The read end lives in a child that has exited, so the
/// first write fails with EPIPE whatever the timing.
fn closed_pipe() -> std::process::ChildStdin {
    let mut reader = idem_lint()
        .arg("--version")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("reader runs");
    let write_end = reader.stdin.take().expect("piped stdin");
    reader.wait().expect("reader exits");
    write_end
}

#[test]
fn closed_pipe_is_quiet() {
    // Lint: no "Broken pipe" message, and the usual exit code (1: the demo
    // has errors), not 2 as for a failed run.
    let out = idem_lint()
        .args(["fixtures/demo", "--format", "short"])
        .stdout(closed_pipe())
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    // Subcommands: no panic from `println!`.
    for args in [
        &["rules"][..],
        &["explain", "IDEM001"],
        &["config", "fixtures/demo"],
    ] {
        let out = idem_lint()
            .args(args)
            .stdout(closed_pipe())
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

#[test]
fn short_format_keeps_severity_and_rule_name() {
    let (_, stdout, _) = run(&["fixtures/demo", "--format", "short", "--quiet"]);
    let line = stdout
        .lines()
        .find(|l| l.contains("IDEM002"))
        .expect("an IDEM002 finding");
    assert!(
        line.starts_with("fixtures/demo/src/handlers.rs:")
            && line.contains(": error[IDEM002] missing-scope-component: "),
        "{line}"
    );
    // Warnings say so too.
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("idem-lint.toml");
    std::fs::write(&config, "[rules]\nadhoc-key-concat = \"warn\"\n").expect("write");
    let config = config.to_str().expect("UTF-8 path");
    let (_, stdout, _) = run(&[
        "fixtures/demo",
        "--format",
        "short",
        "--quiet",
        "--config",
        config,
    ]);
    assert!(
        stdout.contains(": warning[IDEM001] adhoc-key-concat: "),
        "{stdout}"
    );
}

#[test]
fn rules_lists_levels_as_configuration_spells_them_in_code_order() {
    let (_, stdout, _) = run(&["rules"]);
    let rows: Vec<Vec<&str>> = stdout
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let codes: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    let mut sorted = codes.clone();
    sorted.sort_unstable();
    assert_eq!(codes, sorted, "code order");
    for row in &rows {
        assert!(
            ["error", "warn", "off"].contains(&row[2]),
            "a level `[rules]` accepts: {row:?}"
        );
    }
}

#[test]
fn config_output_is_a_config_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let original = dir.path().join("idem-lint.toml");
    std::fs::write(
        &original,
        "max-file-size = 1000\nexclude = [\"gen\"]\n[rules]\nIDEM001 = \"warn\"\n\
         [per-file-ignores]\n\"src/legacy/*.rs\" = [\"IDEM002\"]\n\
         [vocabulary]\ntenant = [\"shop_id\"]\n",
    )
    .expect("write");
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo");
    let demo = demo.to_str().expect("UTF-8 path");
    let original = original.to_str().expect("UTF-8 path");
    let (code, shown, stderr) = run(&["config", demo, "--config", original]);
    assert_eq!(code, 0, "{stderr}");
    let copy = dir.path().join("shown.toml");
    std::fs::write(&copy, &shown).expect("write");
    let copy = copy.to_str().expect("UTF-8 path");
    // Accepted by --config, and it resolves to the same settings.
    let (code, again, stderr) = run(&["config", demo, "--config", copy]);
    assert_eq!(code, 0, "{stderr}");
    let settings = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("# from:"))
            .map(String::from)
            .collect()
    };
    assert_eq!(settings(&shown), settings(&again));
    let lint = |config: &str| run(&[demo, "--format", "json", "--config", config]);
    assert_eq!(lint(original), lint(copy));
}

#[test]
fn parse_errors_fail_the_run_unless_lowered() {
    // A file idem-lint cannot read has not been checked: exit 1, like ruff's
    // syntax errors, not a warning that passes.
    let broken = "fixtures/parse-error/missing_expression.rs";
    let (code, stdout, _) = run(&[broken, "--format", "short", "--quiet"]);
    assert!(
        stdout.contains("error[IDEM000] parse-error: cannot parse Rust"),
        "{stdout}"
    );
    assert_eq!(code, 1, "{stdout}");
    // Oversized files too.
    let (code, stdout, _) = run(&[
        "fixtures/adhoc-key-concat/only_logged.rs",
        "--format",
        "short",
        "--max-file-size",
        "10",
    ]);
    assert!(stdout.contains("error[IDEM000]"), "{stdout}");
    assert_eq!(code, 1, "{stdout}");
    // The level is configurable like any rule's.
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("idem-lint.toml");
    std::fs::write(&config, "[rules]\nparse-error = \"warn\"\n").expect("write");
    let config = config.to_str().expect("UTF-8 path");
    let (code, stdout, _) = run(&[broken, "--format", "short", "--config", config]);
    assert!(stdout.contains("warning[IDEM000]"), "{stdout}");
    assert_eq!(code, 0, "{stdout}");
}

#[test]
fn cargo_subcommand_usage_says_cargo_idem_lint() {
    let cargo = || Command::new(env!("CARGO_BIN_EXE_cargo-idem-lint"));
    let out = cargo()
        .args(["idem-lint", "--help"])
        .output()
        .expect("runs");
    let help = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(help.contains("Usage: cargo idem-lint [OPTIONS]"), "{help}");
    assert!(!help.contains("cargo-idem-lint"), "{help}");
    // Errors too, subcommands included.
    let out = cargo()
        .args(["idem-lint", "rules", "--bogus"])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("Usage: cargo idem-lint rules"), "{stderr}");
    // The plain binary keeps its own name.
    let (_, help, _) = run(&["--help"]);
    assert!(help.contains("Usage: idem-lint [OPTIONS]"), "{help}");
}
