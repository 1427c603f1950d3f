//! Suggested fixes (issue 16, "fixes that compile"): the `fix` object in
//! JSON, `fixes` in SARIF, `--fix`, and a fixed file that `cargo check`
//! accepts against idem-scope.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// A handler whose key has every component in scope (IDEM001,
/// machine-applicable) and one using the raw key (IDEM002, placeholders);
/// both read the key from the request's headers (a map, so that the crate
/// builds with idem-scope alone).
const HANDLER: &str = r#"use std::collections::HashMap;

pub struct Store {
    pub idem_store: HashMap<String, Vec<u8>>,
}

pub fn lookup(store: &Store, tenant_id: &str, user_id: &str, headers: &HashMap<String, String>) -> Result<Option<Vec<u8>>, Box<dyn std::error::Error>> {
    let idem_key = headers.get("Idempotency-Key").ok_or("no idempotency key")?;
    let storage_key = format!("{}:{}:{}:{}", tenant_id, user_id, "refund", idem_key);
    Ok(store.idem_store.get(&storage_key).cloned())
}

pub fn unscoped(store: &Store, headers: &HashMap<String, String>) -> Option<Vec<u8>> {
    let idem_key = headers.get("Idempotency-Key")?;
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

pub fn many(store: &Store, tenant_id: &str, user_id: &str, requests: &[HashMap<String, String>]) -> Result<Vec<Option<Vec<u8>>>, Box<dyn std::error::Error>> {
    Ok(requests.iter().filter_map(|headers| headers.get("Idempotency-Key")).map(|idem_key| store.idem_store.get(&format!("{}:{}:{}:{}", tenant_id, user_id, "refund", idem_key)).cloned()).collect())
}

pub fn one(store: &Store, tenant_id: &str, user_id: &str, headers: &HashMap<String, String>) -> Result<Option<Vec<u8>>, Box<dyn std::error::Error>> {
    Ok(match headers.get("Idempotency-Key") {
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

/// The key expression a fix replaces, as written: `span` of `text`.
fn span_text(text: &str, span: &Value) -> String {
    let line = |p: &Value| p["line"].as_u64().unwrap_or(0) as usize;
    let column = |p: &Value| p["column"].as_u64().unwrap_or(0) as usize;
    let offset = |p: &Value| {
        let start: usize = text
            .split_inclusive('\n')
            .take(line(p).saturating_sub(1))
            .map(str::len)
            .sum();
        let rest = &text[start..];
        start
            + rest
                .char_indices()
                .nth(column(p).saturating_sub(1))
                .map_or(rest.len(), |(i, _)| i)
    };
    text[offset(&span["start"])..offset(&span["end"])].to_string()
}

/// The four arguments of the `scoped(..)` call a fix inserts.
fn scoped_args(insertion: &str) -> Vec<String> {
    let call = insertion
        .trim()
        .strip_prefix("let scoped_key = ")
        .and_then(|c| c.strip_suffix("?;"))
        .unwrap_or_else(|| panic!("not a scoped binding: {insertion}"));
    let expr: syn::ExprCall = syn::parse_str(call).expect("the call parses");
    expr.args
        .iter()
        .map(|a| quote::ToTokens::to_token_stream(a).to_string())
        .collect()
}

/// The property behind `--fix` never changing meaning: every argument of a
/// machine-applicable fix is an expression the key already contains (a
/// name, a field, or the route's word of a literal), so the scoped key has
/// the same components as the key it replaces. The one exception is the
/// constant passed for a component the service does not have (`[scope]
/// tenant = false`), in that component's place: it is the same for every
/// key, so it separates nothing the key did not.
fn keeps_each_component(key: &str, args: &[String]) -> Result<(), String> {
    let words: Vec<&str> = key
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .filter(|w| !w.is_empty())
        .collect();
    let absent = ["\"single-tenant\"", "\"single-principal\""];
    for (i, arg) in args.iter().enumerate() {
        if absent.get(i) == Some(&arg.as_str()) {
            continue;
        }
        let bare = arg.trim_start_matches('&').trim().trim_matches('"');
        let bare = bare.replace(' ', "");
        if !words.iter().any(|w| *w == bare) && !key.replace(' ', "").contains(&bare) {
            return Err(format!("argument `{arg}` is not in the key `{key}`"));
        }
        if arg.starts_with('"') && (arg.contains([':', '{', '|', '/']) || bare.is_empty()) {
            return Err(format!("route `{arg}` is not one segment of `{key}`"));
        }
    }
    Ok(())
}

/// Every fixture's fixes: the fixed text still parses, and each
/// machine-applicable fix keeps each component's expression.
#[test]
fn every_fixture_fix_parses_and_machine_applicable_ones_keep_each_component() {
    use idem_lint::diagnostic::Applicability;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Every finding of the fixtures, `possible` ones too (as the harness).
    let options = idem_lint::LintOptions {
        confidence: idem_lint::diagnostic::Confidence::Possible,
        confidence_fixed: true,
        ..Default::default()
    };
    let result = idem_lint::lint_paths(&[root.join("fixtures")], &options).expect("lint runs");
    let mut checked = 0;
    let mut machine_applicable = 0;
    let mut failures = Vec::new();
    for d in &result.diagnostics {
        let Some(fix) = &d.fix else { continue };
        let path = Path::new(&d.path);
        let text = std::fs::read_to_string(path).expect("fixture");
        let (fixed, applied) = idem_lint::fix::apply_to_text(&text, &[fix]);
        assert_eq!(applied.applied, 1, "{}:{}", d.path, d.span.start.line);
        if let Err(err) = syn::parse_file(&fixed) {
            failures.push(format!(
                "{}:{}: fixed text does not parse: {err}",
                d.path, d.span.start.line
            ));
        }
        checked += 1;
        // Every argument of these is the key's own (maybe-incorrect ones
        // without a guess lack only a `Result` for `?`).
        let own_args = match fix.applicability {
            Applicability::MachineApplicable => true,
            Applicability::MaybeIncorrect => !fix.description.contains("guessed"),
            _ => false,
        };
        if !own_args {
            continue;
        }
        machine_applicable += 1;
        let span = serde_json::to_value(d.span).expect("span");
        let key = span_text(&text, &span);
        let args = scoped_args(&fix.edits[0].replacement);
        if let Err(err) = keeps_each_component(&key, &args) {
            failures.push(format!("{}:{}: {err}", d.path, d.span.start.line));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        checked > 100 && machine_applicable >= 5,
        "{checked} fixes, {machine_applicable} with the key's own arguments"
    );
}

/// The property checked by compilation: every way the issue wrote a key
/// (named and positional `format!`, `+`, a route variable), each separator
/// and route, becomes one crate; `--fix` must apply every fix, each with
/// exactly the key's tenant, principal, route and key, and the crate must
/// build against idem-scope.
#[test]
fn every_key_form_is_fixed_with_its_own_components_and_compiles() {
    const SIG: &str = "(store: &mut Store, tenant_id: &str, user_id: &str, headers: &HashMap<String, String>) -> Result<(), Box<dyn std::error::Error>>";
    const READ: &str =
        "    let idempotency_key = headers.get(\"Idempotency-Key\").ok_or(\"no idempotency key\")?;\n";
    let mut lib = String::from(
        "use std::collections::HashMap;\n\npub struct Store {\n    pub idem_store: HashMap<String, Vec<u8>>,\n}\n\n\
         impl Store {\n    pub fn set(&mut self, key: String, v: Vec<u8>) {\n        self.idem_store.insert(key, v);\n    }\n}\n",
    );
    let mut expected = Vec::new();
    let mut n = 0;
    for sep in [":", "/"] {
        for route in ["refund", "payments"] {
            let forms = [
                (format!("format!(\"{{tenant_id}}{sep}{{user_id}}{sep}{route}{sep}{{idempotency_key}}\")"), None, format!("\"{route}\"")),
                (format!("format!(\"{{}}{sep}{{}}{sep}{route}{sep}{{}}\", tenant_id, user_id, idempotency_key)"), None, format!("\"{route}\"")),
                (format!("tenant_id.to_string() + \"{sep}\" + user_id + \"{sep}{route}{sep}\" + idempotency_key"), None, format!("\"{route}\"")),
                (format!("format!(\"{{}}{sep}{{}}{sep}{{}}{sep}{{}}\", tenant_id, user_id, route, idempotency_key)"), Some(route), "&route".to_string()),
            ];
            for (key, route_var, route_arg) in forms {
                n += 1;
                let bind =
                    route_var.map_or(String::new(), |r| format!("    let route = \"{r}\";\n"));
                lib.push_str(&format!(
                    "\npub fn case_{n}{SIG} {{\n{READ}{bind}    store.set({key}, vec![]);\n    Ok(())\n}}\n"
                ));
                expected.push(format!(
                    "let scoped_key = idem_scope::scoped(&tenant_id, &user_id, {route_arg}, &idempotency_key)?;"
                ));
            }
        }
    }
    let dir = crate_with(&lib);
    let report = json(dir.path());
    let fixes: Vec<String> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] == "IDEM001")
        .map(|d| {
            assert_eq!(d["fix"]["applicability"], "machine-applicable", "{d:#}");
            d["fix"]["edits"][0]["replacement"]
                .as_str()
                .unwrap_or("")
                .trim()
                .to_string()
        })
        .collect();
    assert_eq!(fixes, expected);
    let (_, _, stderr) = lint(dir.path(), &["--fix", "."]);
    assert!(stderr.contains(&format!("fixed: {n} applied")), "{stderr}");
    let (ok, errors) = cargo_check(dir.path());
    assert!(ok, "the fixed crate does not compile:\n{errors}");
}

/// A key whose components are not all in scope as the key names them gets
/// no machine-applicable fix: a helper's parameter is not in scope at its
/// caller, and a literal route with two words is for a human to split.
#[test]
fn components_out_of_scope_or_ambiguous_are_never_machine_applicable() {
    let lib = r#"use std::collections::HashMap;

pub struct Store {
    pub idem_store: HashMap<String, Vec<u8>>,
}

pub struct AuthContext {
    pub tenant_id: String,
    pub user_id: String,
}

pub fn two_words(store: &Store, tenant_id: &str, user_id: &str, headers: &HashMap<String, String>) -> Result<Option<Vec<u8>>, Box<dyn std::error::Error>> {
    let idem_key = headers.get("Idempotency-Key").ok_or("no idempotency key")?;
    Ok(store.idem_store.get(&format!("{tenant_id}:{user_id}:v1:refund:{idem_key}")).cloned())
}

pub fn raw(store: &Store, ctx: &AuthContext, headers: &HashMap<String, String>) -> Result<Option<Vec<u8>>, Box<dyn std::error::Error>> {
    let idem_key = headers.get("Idempotency-Key").ok_or("no idempotency key")?;
    Ok(store.idem_store.get(idem_key).cloned())
}
"#;
    let dir = crate_with(lib);
    let report = json(dir.path());
    let fixes: Vec<(String, String)> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| {
            let fix = d.get("fix")?;
            Some((
                fix["applicability"].as_str()?.to_string(),
                fix["edits"][0]["replacement"].as_str()?.trim().to_string(),
            ))
        })
        .collect();
    assert_eq!(
        fixes,
        [
            (
                "has-placeholders".to_string(),
                "let scoped_key = idem_scope::scoped(&tenant_id, &user_id, \"route\", &idem_key)?;".to_string()
            ),
            (
                "has-placeholders".to_string(),
                "let scoped_key = idem_scope::scoped(&ctx.tenant_id, &ctx.user_id, \"route\", &idem_key)?;".to_string()
            ),
        ],
        "{report:#}"
    );
}
