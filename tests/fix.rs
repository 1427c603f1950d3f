//! Suggested fixes (issue 16, "fixes that compile"): the `fix` object in
//! JSON, `fixes` in SARIF, `--fix`, and a fixed file that `cargo check`
//! accepts against idem-scope.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// A handler whose key has every component in scope (IDEM001,
/// machine-applicable) and one using the raw key (IDEM002, placeholders).
const HANDLER: &str = r#"use std::collections::HashMap;

pub struct Store {
    pub idem_store: HashMap<String, Vec<u8>>,
}

pub fn lookup(store: &Store, tenant_id: &str, user_id: &str, idem_key: &str) -> Result<Option<Vec<u8>>, Box<dyn std::error::Error>> {
    let storage_key = format!("{}:{}:{}:{}", tenant_id, user_id, "refund", idem_key);
    Ok(store.idem_store.get(&storage_key).cloned())
}

pub fn unscoped(store: &Store, idem_key: &str) -> Option<Vec<u8>> {
    store.idem_store.get(idem_key).cloned()
}
"#;

/// What the help text used to suggest, verbatim: a `&str` borrowed from a
/// temporary `ScopedKey` that is dropped at the end of the `let` (E0716).
const OLD_SUGGESTION: &str = r#"use std::collections::HashMap;

pub fn lookup(map: &HashMap<String, Vec<u8>>, tenant_id: &str, user_id: &str, idem_key: &str) -> Result<Option<Vec<u8>>, Box<dyn std::error::Error>> {
    let storage_key = idem_scope::scoped(tenant_id, user_id, "refund", idem_key)?.storage_key();
    Ok(map.get(storage_key).cloned())
}
"#;

/// A crate in a temporary directory with `lib` as its `src/lib.rs`; a
/// lockfile copied from the workspace keeps `cargo check` offline.
fn crate_with(lib: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let scope = Path::new(env!("CARGO_MANIFEST_DIR")).join("idem-scope");
    let manifest = format!(
        "[package]\nname = \"fixed-handler\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [dependencies]\nidem-scope = {{ path = {:?} }}\n\n[workspace]\n",
        scope.display().to_string()
    );
    std::fs::write(dir.path().join("Cargo.toml"), manifest).expect("manifest");
    std::fs::create_dir(dir.path().join("src")).expect("src");
    std::fs::write(dir.path().join("src/lib.rs"), lib).expect("lib.rs");
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock");
    std::fs::copy(lock, dir.path().join("Cargo.lock")).expect("lockfile");
    dir
}

fn lint(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_idem-lint"))
        .args(args)
        .arg("--no-cache")
        .current_dir(dir)
        .output()
        .expect("run idem-lint");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(dir: &Path) -> Value {
    let (_, stdout, _) = lint(dir, &["--format", "json", "."]);
    serde_json::from_str(&stdout).expect("JSON report")
}

fn finding<'a>(report: &'a Value, code: &str) -> &'a Value {
    report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("no {code} in {report:#}"))
}

#[test]
fn json_fix_binds_the_scoped_key_with_the_values_in_scope() {
    let dir = crate_with(HANDLER);
    let report = json(dir.path());
    assert_eq!(report["version"], 1);
    let concat = finding(&report, "IDEM001");
    let fix = &concat["fix"];
    assert_eq!(fix["applicability"], "machine-applicable", "{concat:#}");
    let edits = fix["edits"].as_array().expect("edits");
    assert_eq!(edits.len(), 2, "{fix:#}");
    assert_eq!(
        edits[0]["replacement"],
        "let scoped_key = idem_scope::scoped(&tenant_id, &user_id, \"refund\", &idem_key)?;\n    "
    );
    // The insertion is empty and starts the statement; the key expression
    // (the primary span) becomes the scoped key.
    assert_eq!(edits[0]["span"]["start"], edits[0]["span"]["end"]);
    assert_eq!(edits[0]["span"]["start"]["column"], 5);
    assert_eq!(edits[1]["span"], concat["span"]);
    assert_eq!(
        edits[1]["replacement"],
        "scoped_key.storage_key().to_owned()"
    );
    let help = concat["help"].as_str().expect("help");
    assert!(
        help.contains(
            "`let scoped_key = idem_scope::scoped(&tenant_id, &user_id, \"refund\", &idem_key)?;`"
        ),
        "{help}"
    );
    assert!(!help.contains(")?.storage_key()"), "E0716 form in {help}");

    let raw = finding(&report, "IDEM002");
    assert_eq!(raw["fix"]["applicability"], "has-placeholders", "{raw:#}");
}

#[test]
fn sarif_results_carry_fixes_as_artifact_changes() {
    let dir = crate_with(HANDLER);
    let (_, stdout, _) = lint(dir.path(), &["--format", "sarif", "."]);
    let log: Value = serde_json::from_str(&stdout).expect("SARIF");
    let results = log["runs"][0]["results"].as_array().expect("results");
    let concat = results
        .iter()
        .find(|r| r["ruleId"] == "IDEM001")
        .expect("IDEM001 result");
    let change = &concat["fixes"][0]["artifactChanges"][0];
    assert_eq!(change["artifactLocation"]["uri"], "src/lib.rs");
    let replacements = change["replacements"].as_array().expect("replacements");
    assert_eq!(replacements.len(), 2);
    assert_eq!(
        replacements[1]["deletedRegion"]["startLine"],
        concat["locations"][0]["physicalLocation"]["region"]["startLine"]
    );
    assert_eq!(
        replacements[1]["insertedContent"]["text"],
        "scoped_key.storage_key().to_owned()"
    );
    assert!(concat["fixes"][0]["description"]["text"].is_string());
}

#[test]
fn fix_applies_machine_applicable_fixes_only_and_the_rerun_is_clean() {
    let dir = crate_with(HANDLER);
    let (_, _, stderr) = lint(dir.path(), &["--fix", "--format", "json", "."]);
    assert!(stderr.contains("1 applied, 0 skipped"), "{stderr}");
    let fixed = std::fs::read_to_string(dir.path().join("src/lib.rs")).expect("read");
    assert!(fixed.contains("    let scoped_key = idem_scope::scoped(&tenant_id, &user_id, \"refund\", &idem_key)?;\n    let storage_key = scoped_key.storage_key().to_owned();\n"), "{fixed}");
    // The has-placeholders fix (raw key) is left for a human.
    assert!(
        fixed.contains("store.idem_store.get(idem_key).cloned()"),
        "{fixed}"
    );
    let report = json(dir.path());
    let codes: Vec<&Value> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| &d["code"])
        .collect();
    assert_eq!(codes, ["IDEM002"], "{report:#}");
}

fn cargo_check(dir: &Path) -> (bool, String) {
    // The workspace's target directory already holds idem-scope and its
    // dependencies: no cold build, no network.
    let target: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    let out = Command::new(env!("CARGO"))
        .args(["check", "--offline", "--quiet"])
        .env("CARGO_TARGET_DIR", target)
        .current_dir(dir)
        .output()
        .expect("run cargo check");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_fixed_file_compiles_against_idem_scope_and_the_old_suggestion_does_not() {
    let dir = crate_with(HANDLER);
    let (_, _, stderr) = lint(dir.path(), &["--fix", "."]);
    assert!(stderr.contains("1 applied"), "{stderr}");
    let (ok, errors) = cargo_check(dir.path());
    assert!(ok, "the fixed handler does not compile:\n{errors}");

    let old = crate_with(OLD_SUGGESTION);
    let (ok, errors) = cargo_check(old.path());
    assert!(!ok, "the old suggestion compiled");
    assert!(errors.contains("E0716"), "{errors}");
}

/// A key built inside a closure or match arm without a block uses names
/// bound there; a `let` before the enclosing statement could not see them,
/// so no edit is offered (the help text stays).
#[test]
fn keys_bound_by_a_closure_or_match_arm_get_no_edit() {
    let lib = r#"use std::collections::HashMap;

pub struct Store {
    pub idem_store: HashMap<String, Vec<u8>>,
}

pub fn many(store: &Store, tenant_id: &str, user_id: &str, idem_keys: &[String]) -> Result<Vec<Option<Vec<u8>>>, Box<dyn std::error::Error>> {
    Ok(idem_keys.iter().map(|idem_key| store.idem_store.get(&format!("{}:{}:{}:{}", tenant_id, user_id, "refund", idem_key)).cloned()).collect())
}

pub fn one(store: &Store, tenant_id: &str, user_id: &str, idem_key: Option<&str>) -> Result<Option<Vec<u8>>, Box<dyn std::error::Error>> {
    Ok(match idem_key {
        Some(idem_key) => store.idem_store.get(&format!("{}:{}:{}:{}", tenant_id, user_id, "refund", idem_key)).cloned(),
        None => None,
    })
}
"#;
    let dir = crate_with(lib);
    let report = json(dir.path());
    let findings = report["diagnostics"].as_array().expect("diagnostics");
    let concat: Vec<&Value> = findings.iter().filter(|d| d["code"] == "IDEM001").collect();
    assert_eq!(concat.len(), 2, "{report:#}");
    for d in concat {
        assert!(d["fix"].is_null(), "an edit that cannot compile: {d:#}");
        assert!(d["help"].as_str().is_some_and(|h| h.contains("scoped_key")));
    }
    let before = std::fs::read_to_string(dir.path().join("src/lib.rs")).expect("lib.rs");
    lint(dir.path(), &["--fix", "."]);
    let after = std::fs::read_to_string(dir.path().join("src/lib.rs")).expect("lib.rs");
    assert_eq!(before, after, "--fix wrote an edit it should not have");
}
