//! Named files keep their crate as context (`idem-lint FILE..`, pre-commit,
//! excluded and ignored siblings), `--diff-base`, empty runs and the forms
//! `--exclude` accepts.

use std::path::Path;
use std::process::Command;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

fn idem_lint(cwd: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_idem-lint"));
    cmd.current_dir(cwd).env("NO_COLOR", "1");
    cmd
}

/// Exit code, stdout, stderr.
fn run(cwd: &Path, args: &[&str]) -> (i32, String, String) {
    let out = idem_lint(cwd).args(args).output().expect("idem-lint runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// A copy of `fixtures/demo` in a temporary directory.
fn demo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&Path::new(MANIFEST_DIR).join("fixtures/demo"), dir.path());
    dir
}

/// `path:line:column: CODE` of each finding of a `--format json` run.
fn findings(json: &str) -> Vec<String> {
    let parsed: serde_json::Value = serde_json::from_str(json).expect("valid JSON");
    let list = parsed["diagnostics"].as_array().expect("diagnostics");
    list.iter()
        .map(|d| {
            format!(
                "{}:{}:{}: {}",
                d["path"].as_str().expect("path"),
                d["span"]["start"]["line"],
                d["span"]["start"]["column"],
                d["code"].as_str().expect("code"),
            )
        })
        .collect()
}

/// The demo's findings located in `src/handlers.rs`, from a run on the whole crate.
fn demo_handler_findings(dir: &Path) -> Vec<String> {
    let (_, stdout, stderr) = run(dir, &[".", "--format", "json"]);
    let all = findings(&stdout);
    assert!(
        all.iter().any(|f| f.starts_with("src/keys.rs:")),
        "the demo has findings outside handlers.rs: {all:?} {stderr}"
    );
    let handlers: Vec<String> = all
        .into_iter()
        .filter(|f| f.starts_with("src/handlers.rs:"))
        .collect();
    assert!(handlers.len() >= 5, "{handlers:?}");
    handlers
}

#[test]
fn a_named_file_is_analysed_with_its_crate_and_only_it_is_reported() {
    let dir = demo();
    let expected = demo_handler_findings(dir.path());
    let (code, stdout, stderr) = run(dir.path(), &["src/handlers.rs", "--format", "json"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(findings(&stdout), expected, "{stderr}");
    let parsed: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(
        parsed["summary"]["files_analyzed"], 1,
        "context is not counted"
    );

    // The same named by an absolute path (as editors and hooks may).
    let absolute = dir.path().join("src/handlers.rs");
    let (_, stdout, _) = run(
        dir.path(),
        &[absolute.to_str().expect("utf-8"), "--format", "json"],
    );
    let prefix = format!("{}/", dir.path().display());
    let found: Vec<String> = findings(&stdout)
        .into_iter()
        .map(|f| f.replacen(&prefix, "", 1))
        .collect();
    assert_eq!(found, expected);
}

#[test]
fn excluded_and_ignored_siblings_are_still_context() {
    let dir = demo();
    let expected = demo_handler_findings(dir.path());
    let (_, stdout, stderr) = run(
        dir.path(),
        &["src", "--exclude", "src/keys.rs", "--format", "json"],
    );
    assert_eq!(findings(&stdout), expected, "--exclude: {stderr}");

    std::fs::write(dir.path().join(".gitignore"), "src/keys.rs\n").expect("write");
    let (_, stdout, stderr) = run(dir.path(), &[".", "--format", "json"]);
    let found = findings(&stdout);
    assert!(
        found.iter().all(|f| !f.starts_with("src/keys.rs:")),
        "an ignored file is not reported: {found:?}"
    );
    let in_handlers: Vec<String> = found
        .into_iter()
        .filter(|f| f.starts_with("src/handlers.rs:"))
        .collect();
    assert_eq!(in_handlers, expected, ".gitignore: {stderr}");
    std::fs::remove_file(dir.path().join(".gitignore")).expect("rm");

    // An exclusion in the configuration.
    let manifest = dir.path().join("Cargo.toml");
    let mut text = std::fs::read_to_string(&manifest).expect("manifest");
    text.push_str("\n[package.metadata.idem-lint]\nexclude = [\"src/keys.rs\"]\n");
    std::fs::write(&manifest, text).expect("write");
    let (_, stdout, stderr) = run(dir.path(), &["src", "--format", "json"]);
    assert_eq!(findings(&stdout), expected, "configured exclude: {stderr}");
}
