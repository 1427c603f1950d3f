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
    let (_, one, _) = run(&["fixtures", "--format", "json", "--jobs", "1"]);
    let (_, two, _) = run(&["fixtures", "--format", "json", "--jobs", "2"]);
    let (_, many, _) = run(&["fixtures", "--format", "json", "--jobs", "7"]);
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
