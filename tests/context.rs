//! Named files keep their crate as context (`idem-lint FILE..`, pre-commit,
//! excluded and ignored siblings), `--diff-base`, empty runs and the forms
//! `--exclude` accepts.

mod common;
use common::copy_dir;
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

/// Runs git in `dir` with a fixed identity and no user or system config.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Appends a comment to line `line` (1-based) of `path`: a modified line
/// that changes no finding.
fn touch_line(path: &Path, line: usize) {
    let text = std::fs::read_to_string(path).expect("read");
    let edited: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i + 1 == line {
                format!("{l} // touched")
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(path, edited.join("\n") + "\n").expect("write");
}

/// Line of each finding in `file` of a `--format json` run.
fn lines_in(json: &str, file: &str) -> Vec<String> {
    findings(json)
        .into_iter()
        .filter(|f| f.starts_with(&format!("{file}:")))
        .collect()
}

#[test]
fn diff_base_keeps_only_findings_on_changed_lines() {
    let dir = demo();
    let root = dir.path();
    let all = demo_handler_findings(root);
    std::fs::write(root.join(".gitignore"), ".idem-lint-cache/\n").expect("write");
    let line_of =
        |f: &String| -> usize { f.split(':').nth(1).expect("line").parse().expect("number") };
    let (first, second, third) = (line_of(&all[0]), line_of(&all[1]), line_of(&all[2]));
    assert!(first < second && second < third, "{all:?}");

    // Commit 1 is the base; the branch edits the line of the first finding
    // and the base later edits the third (merge-base semantics: that edit
    // is not ours); the second is edited in the working tree, uncommitted.
    git(root, &["init", "-q"]);
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "-m", "base"]);
    git(root, &["branch", "base"]);
    git(root, &["checkout", "-q", "-b", "feature"]);
    touch_line(&root.join("src/handlers.rs"), first);
    git(root, &["commit", "-q", "-am", "feature"]);
    git(root, &["checkout", "-q", "base"]);
    touch_line(&root.join("src/handlers.rs"), third);
    git(root, &["commit", "-q", "-am", "base moves on"]);
    git(root, &["checkout", "-q", "feature"]);

    let (code, stdout, stderr) = run(root, &["--diff-base", "base", "--format", "json"]);
    assert_eq!(code, 1, "{stderr}");
    let kept = findings(&stdout);
    assert_eq!(
        kept,
        vec![all[0].clone()],
        "only the branch's line: {stderr}"
    );

    touch_line(&root.join("src/handlers.rs"), second);
    let (_, stdout, _) = run(root, &["--diff-base", "base", "--format", "json"]);
    assert_eq!(lines_in(&stdout, "src/handlers.rs"), all[..2].to_vec());
    assert!(lines_in(&stdout, "src/keys.rs").is_empty(), "{stdout}");

    // Every format is narrowed the same way.
    let (_, short, _) = run(root, &["--diff-base", "base", "--format", "short"]);
    assert_eq!(short.matches("src/handlers.rs:").count(), 2, "{short}");
    assert!(!short.contains("src/keys.rs"), "{short}");
    let (_, github, _) = run(root, &["--diff-base", "base", "--format", "github"]);
    assert_eq!(github.matches("::error file=").count(), 2, "{github}");

    // An untracked file counts whole.
    // (A copy of the handlers: their keys come from header reads in the
    // file itself, so the copy's findings are certain whichever copy of a
    // helper a call resolves to.)
    std::fs::copy(root.join("src/handlers.rs"), root.join("src/handlers2.rs")).expect("copy");
    let (_, stdout, _) = run(root, &["--diff-base", "base", "--format", "json"]);
    assert!(
        !lines_in(&stdout, "src/handlers2.rs").is_empty(),
        "{stdout}"
    );
    std::fs::remove_file(root.join("src/handlers2.rs")).expect("rm");

    // With a baseline holding everything, nothing is new and nothing stale.
    let (code, _, stderr) = run(root, &["--write-baseline", "baseline.json"]);
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) = run(
        root,
        &[
            "--diff-base",
            "base",
            "--baseline",
            "baseline.json",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(findings(&stdout).is_empty(), "{stdout}");
    assert!(!stderr.contains("stale"), "{stderr}");
}

#[test]
fn diff_base_fails_clearly_outside_git_or_on_an_unknown_revision() {
    let dir = demo();
    // Git must not find a repository above the temporary directory.
    let parent = dir.path().parent().expect("parent");
    let out = idem_lint(dir.path())
        .args(["--diff-base", "main"])
        .env("GIT_CEILING_DIRECTORIES", parent)
        .output()
        .expect("idem-lint runs");
    let (code, stderr) = (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("not in a git repository"), "{stderr}");

    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "one"]);
    let (code, _, stderr) = run(dir.path(), &["--diff-base", "no-such-rev"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("unknown revision `no-such-rev`"),
        "{stderr}"
    );
}

#[test]
fn a_path_without_rust_or_sql_files_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("docs")).expect("mkdir");
    std::fs::write(dir.path().join("docs/README.md"), "# docs\n").expect("write");
    let (code, stdout, stderr) = run(dir.path(), &["docs"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("no Rust or SQL files found in docs"),
        "{stderr}"
    );
    assert!(!stdout.contains("0 files"), "no empty summary: {stdout}");

    // Machine formats still get their document.
    let (code, stdout, stderr) = run(dir.path(), &["docs", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("no Rust or SQL files found in docs"));
    let parsed: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(parsed["summary"]["files_analyzed"], 0);
}

#[test]
fn exclude_accepts_dot_slash_absolute_paths_and_globs() {
    let dir = demo();
    let root = dir.path();
    let (_, stdout, _) = run(root, &[".", "--format", "json"]);
    let all = findings(&stdout);
    assert!(
        all.iter().any(|f| f.starts_with("migrations/")),
        "the demo has a finding in migrations/: {all:?}"
    );
    let without = |prefix: &str| -> Vec<String> {
        all.iter()
            .filter(|f| !f.starts_with(prefix))
            .cloned()
            .collect()
    };
    let absolute = root.join("migrations");
    for pattern in [
        "./migrations",
        "./migrations/",
        absolute.to_str().expect("utf-8"),
        "**/migrations/**",
        "migrations/*.sql",
    ] {
        let (_, stdout, stderr) = run(root, &[".", "--exclude", pattern, "--format", "json"]);
        assert_eq!(
            findings(&stdout),
            without("migrations/"),
            "--exclude {pattern}: {stderr}"
        );
    }
    // A glob over crate files: not reported, still context for handlers.rs.
    let (_, stdout, stderr) = run(root, &[".", "--exclude", "src/k*.rs", "--format", "json"]);
    assert_eq!(findings(&stdout), without("src/keys.rs"), "{stderr}");

    let (code, _, stderr) = run(root, &[".", "--exclude", "src/[a"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("invalid --exclude glob"), "{stderr}");
}
