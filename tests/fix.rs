//! Suggested fixes (issue 16, "fixes that compile"): the `fix` object in
//! JSON and `fixes` in SARIF.

use std::path::Path;
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
