//! `.pre-commit-hooks.yaml`, run by the real pre-commit framework (PyPI
//! `pre-commit`, which `.ci/run` installs into `.tools/venv`). The test fails,
//! never skips, when pre-commit is missing.

mod common;
use common::copy_dir;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// `PRE_COMMIT`, or the copy `.ci/run` installs, or one on PATH.
fn pre_commit() -> PathBuf {
    if let Some(path) = std::env::var_os("PRE_COMMIT") {
        let path = PathBuf::from(path);
        assert!(
            path.is_file(),
            "PRE_COMMIT={} is not a file",
            path.display()
        );
        return path;
    }
    let bin = if cfg!(windows) { "Scripts" } else { "bin" };
    let local = Path::new(MANIFEST_DIR)
        .join(".tools/venv")
        .join(bin)
        .join("pre-commit");
    if local.is_file() {
        return local;
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("pre-commit"))
            .find(|p| p.is_file())
    });
    on_path.unwrap_or_else(|| {
        panic!(
            "the pre-commit framework is not installed at {} nor on PATH.\n\
             Install it with `python3 -m venv .tools/venv && .tools/venv/bin/pip install pre-commit` \
             (.ci/run does this), or point PRE_COMMIT at its executable.",
            local.display()
        )
    })
}

/// A sandbox: its own HOME, pre-commit cache and git identity, and the
/// freshly built `idem-lint` first on PATH (what `language: system` runs).
struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Self {
        Sandbox {
            dir: tempfile::tempdir().expect("tempdir"),
        }
    }

    fn command(&self, program: impl AsRef<std::ffi::OsStr>, cwd: &Path) -> Command {
        let bin_dir = Path::new(env!("CARGO_BIN_EXE_idem-lint"))
            .parent()
            .expect("bin dir")
            .to_path_buf();
        let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )))
        .expect("PATH");
        let mut cmd = Command::new(program);
        cmd.current_dir(cwd)
            .env("PATH", path)
            .env("HOME", self.dir.path())
            .env("PRE_COMMIT_HOME", self.dir.path().join("pre-commit-cache"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Test")
            .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
            .env("GIT_COMMITTER_NAME", "Test")
            .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
            .env_remove("NO_COLOR")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE");
        cmd
    }

    fn git(&self, cwd: &Path, args: &[&str]) -> Output {
        self.command("git", cwd)
            .args(args)
            .output()
            .expect("git runs")
    }

    fn git_ok(&self, cwd: &Path, args: &[&str]) -> String {
        let out = self.git(cwd, args);
        assert!(out.status.success(), "git {args:?}: {}", text(&out));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn fixture(path: &str) -> String {
    std::fs::read_to_string(Path::new(MANIFEST_DIR).join(path)).expect("fixture")
}

#[test]
fn the_hook_manifest_is_valid() {
    let manifest = Path::new(MANIFEST_DIR).join(".pre-commit-hooks.yaml");
    let out = Command::new(pre_commit())
        .arg("validate-manifest")
        .arg(&manifest)
        .output()
        .expect("pre-commit runs");
    assert!(out.status.success(), "{}", text(&out));
    let yaml = std::fs::read_to_string(&manifest).expect("manifest");
    for needle in [
        "id: idem-lint\n",
        "language: rust\n",
        "id: idem-lint-system\n",
        "language: system\n",
    ] {
        assert!(yaml.contains(needle), "{needle:?} in {yaml}");
    }
    assert_eq!(yaml.matches("types_or: [rust, sql]").count(), 2);
}

#[test]
fn the_system_hook_blocks_a_bad_commit_and_passes_a_clean_one() {
    let sandbox = Sandbox::new();
    let root = sandbox.dir.path();

    // A hook repository holding this repository's manifest, as pre-commit
    // clones it from `repo:` at `rev:`.
    let hooks = root.join("hooks");
    std::fs::create_dir_all(&hooks).expect("mkdir");
    sandbox.git_ok(&hooks, &["init", "-q"]);
    std::fs::copy(
        Path::new(MANIFEST_DIR).join(".pre-commit-hooks.yaml"),
        hooks.join(".pre-commit-hooks.yaml"),
    )
    .expect("copy manifest");
    sandbox.git_ok(&hooks, &["add", "."]);
    sandbox.git_ok(&hooks, &["commit", "-q", "-m", "hooks"]);
    let rev = sandbox.git_ok(&hooks, &["rev-parse", "HEAD"]);

    let project = root.join("project");
    std::fs::create_dir_all(&project).expect("mkdir");
    sandbox.git_ok(&project, &["init", "-q"]);
    std::fs::write(
        project.join(".pre-commit-config.yaml"),
        format!(
            "repos:\n  - repo: {}\n    rev: {rev}\n    hooks:\n      - id: idem-lint-system\n",
            hooks.display()
        ),
    )
    .expect("config");
    let out = sandbox
        .command(pre_commit(), &project)
        .arg("install")
        .output()
        .expect("pre-commit runs");
    assert!(out.status.success(), "pre-commit install: {}", text(&out));
    sandbox.git_ok(&project, &["add", ".pre-commit-config.yaml"]);
    sandbox.git_ok(&project, &["commit", "-q", "-m", "config"]);

    // A staged file with an ad-hoc key blocks the commit.
    std::fs::write(
        project.join("handler.rs"),
        fixture("fixtures/adhoc-key-concat/format_macro_forms.rs"),
    )
    .expect("write");
    sandbox.git_ok(&project, &["add", "handler.rs"]);
    let out = sandbox.git(&project, &["commit", "-m", "bad"]);
    let output = text(&out);
    assert!(
        !out.status.success(),
        "the commit must be blocked:\n{output}"
    );
    assert!(output.contains("idem-lint (binary on PATH)"), "{output}");
    assert!(output.contains("Failed"), "{output}");
    assert!(output.contains("IDEM001(adhoc-key-concat)"), "{output}");
    assert_eq!(
        sandbox.git_ok(&project, &["rev-list", "--count", "HEAD"]),
        "1",
        "nothing was committed"
    );

    // Unstage it; a clean Rust file and an SQL file pass.
    sandbox.git_ok(&project, &["rm", "-q", "--cached", "handler.rs"]);
    std::fs::write(
        project.join("logging.rs"),
        fixture("fixtures/adhoc-key-concat/only_logged.rs"),
    )
    .expect("write");
    std::fs::write(
        project.join("schema.sql"),
        "CREATE TABLE jobs (id BIGINT PRIMARY KEY);\n",
    )
    .expect("write");
    sandbox.git_ok(&project, &["add", "logging.rs", "schema.sql"]);
    let out = sandbox.git(&project, &["commit", "-m", "clean"]);
    let output = text(&out);
    assert!(
        out.status.success(),
        "the clean commit must pass:\n{output}"
    );
    assert!(
        output.contains("idem-lint (binary on PATH)") && output.contains("Passed"),
        "the hook ran on the staged files:\n{output}"
    );
    assert_eq!(
        sandbox.git_ok(&project, &["rev-list", "--count", "HEAD"]),
        "2"
    );
}

#[test]
fn the_hook_finds_the_demo_bugs_with_only_handlers_staged() {
    let sandbox = Sandbox::new();
    let root = sandbox.dir.path();
    let hooks = root.join("hooks");
    std::fs::create_dir_all(&hooks).expect("mkdir");
    sandbox.git_ok(&hooks, &["init", "-q"]);
    std::fs::copy(
        Path::new(MANIFEST_DIR).join(".pre-commit-hooks.yaml"),
        hooks.join(".pre-commit-hooks.yaml"),
    )
    .expect("copy manifest");
    sandbox.git_ok(&hooks, &["add", "."]);
    sandbox.git_ok(&hooks, &["commit", "-q", "-m", "hooks"]);
    let rev = sandbox.git_ok(&hooks, &["rev-parse", "HEAD"]);

    // The demo crate, committed without its handlers (before the hook is
    // installed: keys.rs has a finding of its own).
    let project = root.join("project");
    copy_dir(&Path::new(MANIFEST_DIR).join("fixtures/demo"), &project);
    let handlers = std::fs::read(project.join("src/handlers.rs")).expect("handlers");
    std::fs::remove_file(project.join("src/handlers.rs")).expect("rm");
    sandbox.git_ok(&project, &["init", "-q"]);
    std::fs::write(
        project.join(".pre-commit-config.yaml"),
        format!(
            "repos:\n  - repo: {}\n    rev: {rev}\n    hooks:\n      - id: idem-lint-system\n",
            hooks.display()
        ),
    )
    .expect("config");
    sandbox.git_ok(&project, &["add", "."]);
    sandbox.git_ok(&project, &["commit", "-q", "-m", "crate"]);
    let out = sandbox
        .command(pre_commit(), &project)
        .arg("install")
        .output()
        .expect("pre-commit runs");
    assert!(out.status.success(), "pre-commit install: {}", text(&out));

    // Only handlers.rs is staged: pre-commit passes just that file, and the
    // key-reading helper it calls lives in keys.rs.
    std::fs::write(project.join("src/handlers.rs"), handlers).expect("write");
    sandbox.git_ok(&project, &["add", "src/handlers.rs"]);
    let out = sandbox.git(&project, &["commit", "-m", "handlers"]);
    let output = text(&out);
    assert!(
        !out.status.success(),
        "the commit must be blocked:\n{output}"
    );
    assert!(output.contains("Failed"), "{output}");
    assert!(
        output.contains("src/handlers.rs:")
            && output.matches("IDEM002(missing-scope-component)").count() >= 3,
        "the raw key read through keys.rs is found:\n{output}"
    );
    // keys.rs is context: what is found there is not reported, even where a
    // staged handler's client key reaches it (`invoice_send_key` builds the
    // key of `send_invoice`'s, reported where it is built: rules.md, "Key
    // position" 2). The raw key the helper `idempotency_key` reads is
    // reported in handlers.rs, at the key the handler stores.
    assert!(
        !output.contains("─[src/keys.rs") && !output.contains("\nsrc/keys.rs:"),
        "the context file is not reported:\n{output}"
    );
    assert!(
        output.contains("─[src/handlers.rs:82:44]")
            && output.contains("╰── client key from the Idempotency-Key header"),
        "the raw key read through keys.rs is labelled at the handler's call:\n{output}"
    );
}
