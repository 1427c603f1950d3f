//! `cargo idem-lint` as cargo users expect: the package in the current
//! directory, the whole workspace from its root, `--workspace`, `-p NAME`,
//! `--manifest-path`; on a temporary workspace of two members (each a copy
//! of the demo's `src/`), with the real `cargo metadata`.

mod common;
use common::copy_dir;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// A virtual workspace with members `alpha` and `beta`.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::write(
        root.join("Cargo.toml"),
        "[workspace]\nmembers = [\"alpha\", \"beta\"]\nresolver = \"2\"\n",
    )
    .expect("write");
    for name in ["alpha", "beta"] {
        std::fs::create_dir_all(root.join(name)).expect("mkdir");
        std::fs::write(
            root.join(name).join("Cargo.toml"),
            format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
        )
        .expect("write");
        copy_dir(
            &Path::new(MANIFEST_DIR).join("fixtures/demo/src"),
            &root.join(name).join("src"),
        );
    }
    dir
}

/// Runs `cargo idem-lint ARGS --format json` in `dir`: exit code, the
/// top directory of each finding's path, stderr.
fn cargo_idem_lint(dir: &Path, args: &[&str]) -> (i32, BTreeSet<String>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-idem-lint"))
        .arg("idem-lint")
        .args(args)
        .args(["--format", "json", "--no-cache"])
        .current_dir(dir)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let tops = serde_json::from_str::<Value>(&stdout)
        .ok()
        .and_then(|doc| doc["diagnostics"].as_array().cloned())
        .unwrap_or_default()
        .iter()
        .map(|d| {
            let path = d["path"].as_str().expect("path");
            path.split('/').next().unwrap_or(path).to_string()
        })
        .collect();
    (out.status.code().unwrap_or(-1), tops, stderr)
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| n.to_string()).collect()
}

#[test]
fn root_manifest_lints_the_workspace_and_a_member_dir_its_package() {
    let ws = workspace();
    let (code, tops, stderr) = cargo_idem_lint(ws.path(), &[]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(tops, set(&["alpha", "beta"]));
    // Inside a member, paths are relative to it: `src/...`.
    let (_, tops, stderr) = cargo_idem_lint(&ws.path().join("alpha"), &[]);
    assert_eq!(tops, set(&["src"]), "{stderr}");
}

#[test]
fn package_workspace_and_manifest_path_choose_members() {
    let ws = workspace();
    let (code, tops, stderr) = cargo_idem_lint(ws.path(), &["-p", "beta"]);
    assert_eq!((code, tops), (1, set(&["beta"])), "{stderr}");
    let (_, tops, _) = cargo_idem_lint(ws.path(), &["--package", "alpha", "-p", "beta"]);
    assert_eq!(tops, set(&["alpha", "beta"]));
    let (_, tops, stderr) = cargo_idem_lint(ws.path(), &["--manifest-path", "beta/Cargo.toml"]);
    assert_eq!(tops, set(&["beta"]), "{stderr}");
    let (_, tops, stderr) = cargo_idem_lint(&ws.path().join("alpha"), &["--workspace"]);
    assert_eq!(tops, set(&["src", ".."]), "{stderr}");
}

#[test]
fn unknown_package_exits_2_listing_members() {
    let ws = workspace();
    let (code, tops, stderr) = cargo_idem_lint(ws.path(), &["-p", "alpah"]);
    assert_eq!(code, 2);
    assert!(tops.is_empty());
    assert!(
        stderr.contains("package ID specification `alpah` did not match any packages"),
        "{stderr}"
    );
    assert!(stderr.contains("did you mean `alpha`"), "{stderr}");
    assert!(
        stderr.contains("workspace members: alpha, beta"),
        "{stderr}"
    );
}

#[test]
fn without_cargo_the_current_directory_is_linted() {
    let ws = workspace();
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-idem-lint"))
        .args(["idem-lint", "--format", "json", "--no-cache"])
        .env("CARGO", "/nonexistent/cargo")
        .current_dir(ws.path().join("beta"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(doc["summary"]["diagnostics"].as_u64().expect("count") > 0);
}

/// A package's directory, not only its `src/`: the demo's migration
/// (IDEM008 in `migrations/*.sql`) is reported as `idem-lint DIR` reports it.
#[test]
fn the_package_directory_is_covered_with_its_sql_migrations() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .expect("write");
    let demo = Path::new(MANIFEST_DIR).join("fixtures/demo");
    copy_dir(&demo.join("src"), &dir.path().join("src"));
    copy_dir(&demo.join("migrations"), &dir.path().join("migrations"));
    let (code, tops, stderr) = cargo_idem_lint(dir.path(), &[]);
    assert_eq!((code, tops), (1, set(&["migrations", "src"])), "{stderr}");
    assert!(!stderr.contains("skipped"), "{stderr}");
}

/// A crate with a manifest of its own inside the package (a fixture, a
/// member not selected) is no part of it: left out, and named on stderr.
#[test]
fn a_nested_package_is_skipped_and_named() {
    let ws = workspace();
    let nested = ws.path().join("alpha/fixtures/sample");
    std::fs::create_dir_all(&nested).expect("mkdir");
    std::fs::write(
        nested.join("Cargo.toml"),
        "[package]\nname = \"sample\"\nversion = \"0.1.0\"\n",
    )
    .expect("write");
    copy_dir(
        &Path::new(MANIFEST_DIR).join("fixtures/demo/src"),
        &nested.join("src"),
    );
    let (code, tops, stderr) = cargo_idem_lint(&ws.path().join("alpha"), &[]);
    assert_eq!((code, tops), (1, set(&["src"])), "{stderr}");
    assert_eq!(
        stderr,
        "note: skipped 1 package inside the linted ones (a `Cargo.toml` of their own): fixtures/sample/ (a workspace member with `-p NAME` or `--workspace`, any directory with `idem-lint DIR`)\n"
    );
}
