//! `--format rustc-json` and `cargo idem-lint --message-format=json`, read
//! the way rust-analyzer reads `check.overrideCommand` output: every line
//! parsed as a cargo `Message` by the `cargo_metadata` crate.

use std::process::Command;

use cargo_metadata::diagnostic::DiagnosticLevel;
use cargo_metadata::Message;
use serde_json::Value;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

fn stdout_of(mut cmd: Command, args: &[&str]) -> String {
    let out = cmd
        .args(args)
        .current_dir(MANIFEST_DIR)
        .env_remove("NO_COLOR")
        .output()
        .expect("runs");
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn idem_lint(args: &[&str]) -> String {
    stdout_of(Command::new(env!("CARGO_BIN_EXE_idem-lint")), args)
}

fn cargo_idem_lint(args: &[&str]) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-idem-lint"));
    cmd.arg("idem-lint");
    stdout_of(cmd, args)
}

/// (file, line, column, code, level) of each finding, as rust-analyzer sees them;
/// also checks the stream ends with `build-finished` and that byte offsets
/// point at the highlighted text.
type Seen = (String, usize, usize, String, String);

fn from_messages(stdout: &str) -> (Vec<Seen>, bool) {
    let mut seen = Vec::new();
    let mut finished = None;
    for line in stdout.lines() {
        let message: Message = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("not a cargo message ({e}): {line}"));
        match message {
            Message::CompilerMessage(msg) => {
                assert!(finished.is_none(), "message after build-finished");
                let d = msg.message;
                let primary = d.spans.iter().find(|s| s.is_primary).expect("primary span");
                check_bytes(primary);
                let level = match d.level {
                    DiagnosticLevel::Error => "error",
                    DiagnosticLevel::Warning => "warning",
                    other => panic!("unexpected level {other:?}"),
                };
                seen.push((
                    primary.file_name.clone(),
                    primary.line_start,
                    primary.column_start,
                    d.code.expect("code").code,
                    level.to_string(),
                ));
            }
            Message::BuildFinished(done) => finished = Some(done.success),
            other => panic!("unexpected message {other:?}"),
        }
    }
    (seen, finished.expect("a build-finished line"))
}

/// The bytes a single-line span names are the characters its text highlights.
fn check_bytes(span: &cargo_metadata::diagnostic::DiagnosticSpan) {
    if span.line_start != span.line_end {
        return;
    }
    let text = std::fs::read_to_string(std::path::Path::new(MANIFEST_DIR).join(&span.file_name))
        .expect("source readable");
    let line = &span.text[0];
    let highlighted: String = line
        .text
        .chars()
        .skip(line.highlight_start - 1)
        .take(line.highlight_end - line.highlight_start)
        .collect();
    assert_eq!(
        &text[span.byte_start as usize..span.byte_end as usize],
        highlighted
    );
}

fn from_json(stdout: &str) -> Vec<Seen> {
    let doc: Value = serde_json::from_str(stdout).expect("JSON");
    doc["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .map(|d| {
            let start = &d["span"]["start"];
            (
                d["path"].as_str().expect("path").to_string(),
                start["line"].as_u64().expect("line") as usize,
                start["column"].as_u64().expect("column") as usize,
                d["code"].as_str().expect("code").to_string(),
                d["severity"].as_str().expect("severity").to_string(),
            )
        })
        .collect()
}

#[test]
fn rustc_json_is_what_cargo_metadata_reads_and_matches_json() {
    let expected = from_json(&idem_lint(&["fixtures", "--format", "json"]));
    assert!(expected.len() > 20, "the fixtures have findings");
    let (seen, success) = from_messages(&idem_lint(&["fixtures", "--format", "rustc-json"]));
    assert_eq!(seen, expected);
    assert!(!success, "error findings: the build did not succeed");
}

#[test]
fn cargo_message_format_json_variants_are_rustc_json() {
    let rustc_json = idem_lint(&["fixtures/demo", "--format", "rustc-json"]);
    for format in [
        "--message-format=json",
        "--message-format=json-diagnostic-rendered-ansi",
        "--message-format=json-diagnostic-short,json-render-diagnostics",
    ] {
        assert_eq!(
            cargo_idem_lint(&["fixtures/demo", format]),
            rustc_json,
            "{format}"
        );
    }
}

#[test]
fn a_clean_run_finishes_with_success() {
    let (seen, success) = from_messages(&idem_lint(&[
        "idem-scope/src",
        "--format",
        "rustc-json",
        "--no-cache",
    ]));
    assert!(seen.iter().all(|s| s.4 != "error"));
    assert!(success);
}
