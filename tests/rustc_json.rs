//! `--format rustc-json` and `cargo idem-lint --message-format=json`, read
//! the way rust-analyzer reads `check.overrideCommand` output: every line
//! parsed as a cargo `Message` by the `cargo_metadata` crate.

use std::path::{Path, PathBuf};
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
                // cargo names files from the workspace root, not from here.
                let root = workspace_root(msg.target.src_path.as_std_path());
                check_bytes(&root, primary);
                let file = root.join(&primary.file_name);
                let file = file
                    .strip_prefix(MANIFEST_DIR)
                    .unwrap_or(&file)
                    .to_string_lossy()
                    .into_owned();
                let level = match d.level {
                    DiagnosticLevel::Error => "error",
                    DiagnosticLevel::Warning => "warning",
                    other => panic!("unexpected level {other:?}"),
                };
                seen.push((
                    file,
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

/// The nearest directory above a target's source whose `Cargo.toml` has a
/// `[workspace]` table (the package's own directory when none has).
fn workspace_root(src_path: &Path) -> PathBuf {
    let dir = src_path
        .ancestors()
        .find(|d| d.join("Cargo.toml").is_file())
        .expect("a package");
    dir.ancestors()
        .find(|d| {
            std::fs::read_to_string(d.join("Cargo.toml"))
                .is_ok_and(|t| t.lines().any(|l| l.trim() == "[workspace]"))
        })
        .unwrap_or(dir)
        .to_path_buf()
}

/// The bytes a single-line span names are the characters its text highlights.
fn check_bytes(root: &Path, span: &cargo_metadata::diagnostic::DiagnosticSpan) {
    if span.line_start != span.line_end {
        return;
    }
    let text = std::fs::read_to_string(root.join(&span.file_name)).expect("source readable");
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
    // Every fixture finding, `possible` ones too.
    let all = ["fixtures", "--confidence", "possible"];
    let expected = from_json(&idem_lint(&[&all[..], &["--format", "json"]].concat()));
    assert!(expected.len() > 20, "the fixtures have findings");
    let (seen, success) = from_messages(&idem_lint(
        &[&all[..], &["--format", "rustc-json"]].concat(),
    ));
    assert_eq!(seen, expected);
    assert!(!success, "error findings: the build did not succeed");
}

#[test]
fn cargo_message_format_json_is_rustc_json() {
    let rustc_json = idem_lint(&["fixtures/demo", "--format", "rustc-json"]);
    assert_eq!(
        cargo_idem_lint(&["fixtures/demo", "--message-format=json"]),
        rustc_json
    );
}

/// The `rendered` text of the first compiler message.
fn first_rendered(stdout: &str) -> String {
    let first: Value = serde_json::from_str(stdout.lines().next().expect("a line")).expect("JSON");
    first["message"]["rendered"]
        .as_str()
        .expect("rendered")
        .to_string()
}

#[test]
fn message_format_flavours_behave_as_cargo_does() {
    let plain = first_rendered(&cargo_idem_lint(&[
        "fixtures/demo",
        "--message-format=json",
    ]));
    assert!(
        plain.starts_with("error[IDEM008]: idempotency table `refund_dedup` has a PRIMARY KEY"),
        "{plain}"
    );
    let short = first_rendered(&cargo_idem_lint(&[
        "fixtures/demo",
        "--message-format=json-diagnostic-short",
    ]));
    assert_eq!(short, "fixtures/demo/migrations/0002_refund_dedup.sql:5:5: error[IDEM008]: idempotency table `refund_dedup` has a PRIMARY KEY on `idempotency_key` that lacks tenant, principal and route columns\n");
    let ansi = first_rendered(&cargo_idem_lint(&[
        "fixtures/demo",
        "--message-format=json-diagnostic-rendered-ansi",
    ]));
    assert!(
        ansi.starts_with("\u{1b}[1;31merror[IDEM008]\u{1b}[0m\u{1b}[1m: idempotency table"),
        "{ansi:?}"
    );
    // Rendered on stderr by "cargo"; the JSON keeps only what is not a
    // diagnostic.
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-idem-lint"))
        .args([
            "idem-lint",
            "fixtures/demo",
            "--message-format=json-diagnostic-short,json-render-diagnostics",
        ])
        .current_dir(MANIFEST_DIR)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stdout,
        "{\"reason\":\"build-finished\",\"success\":false}\n"
    );
    assert!(
        stderr.starts_with("fixtures/demo/migrations/0002_refund_dedup.sql:5:5: error[IDEM008]: "),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 9, "{stderr}");
}

#[test]
fn file_names_are_relative_to_the_workspace_root_and_a_binary_crate_is_a_bin() {
    // The demo is a workspace of its own with only `src/main.rs`.
    let from_here = idem_lint(&["fixtures/demo", "--format", "rustc-json"]);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_idem-lint"));
    cmd.args(["demo", "--format", "rustc-json", "--no-cache"])
        .current_dir(Path::new(MANIFEST_DIR).join("fixtures"));
    let from_src = String::from_utf8(cmd.output().expect("runs").stdout).expect("UTF-8");
    let handlers = |stdout: &str| -> Value {
        stdout
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).expect("JSON"))
            .find(|m| m["message"]["spans"][0]["file_name"] == "src/handlers.rs")
            .unwrap_or_else(|| panic!("no src/handlers.rs finding in {stdout}"))
    };
    for stdout in [&from_here, &from_src] {
        let message = handlers(stdout);
        assert_eq!(message["target"]["kind"], serde_json::json!(["bin"]));
        assert_eq!(message["target"]["crate_types"], serde_json::json!(["bin"]));
    }
}

#[test]
fn machine_applicable_fixes_fill_suggested_replacement() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"handler\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .expect("manifest");
    std::fs::create_dir(dir.path().join("src")).expect("src");
    std::fs::write(
        dir.path().join("src/lib.rs"),
        "use std::collections::HashMap;\n\npub fn lookup(store: &HashMap<String, Vec<u8>>, tenant_id: &str, user_id: &str, headers: &HashMap<String, String>) -> Result<Option<Vec<u8>>, Box<dyn std::error::Error>> {\n    let idem_key = headers.get(\"Idempotency-Key\").ok_or(\"no idempotency key\")?;\n    let idem_store = store;\n    Ok(idem_store.get(&format!(\"{tenant_id}:{user_id}:refund:{idem_key}\")).cloned())\n}\n",
    )
    .expect("lib.rs");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_idem-lint"));
    cmd.args([".", "--format", "rustc-json", "--no-cache"])
        .current_dir(dir.path());
    let stdout = String::from_utf8(cmd.output().expect("runs").stdout).expect("UTF-8");
    let suggestions: Vec<(String, String)> = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Message>(l).ok())
        .filter_map(|m| match m {
            Message::CompilerMessage(msg) => Some(msg.message),
            _ => None,
        })
        .flat_map(|d| d.children)
        .flat_map(|c| c.spans)
        .filter_map(|s| {
            Some((
                s.suggested_replacement?,
                format!("{:?}", s.suggestion_applicability?),
            ))
        })
        .collect();
    assert_eq!(
        suggestions,
        [
            (
                "let scoped_key = idem_scope::scoped(&tenant_id, &user_id, \"refund\", &idem_key)?;\n    ".to_string(),
                "MachineApplicable".to_string()
            ),
            (
                "scoped_key.storage_key().to_owned()".to_string(),
                "MachineApplicable".to_string()
            ),
        ],
        "{stdout}"
    );
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
