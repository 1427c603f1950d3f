//! Baselines: a baselined finding stays hidden when lines are inserted
//! above it, when it is reformatted and when its function moves within the
//! file; a new finding is reported; a fixed one makes its entry stale.

use std::path::Path;
use std::process::Command;

const HANDLERS: &str = r#"use std::collections::HashMap;

pub struct Ctx {
    pub tenant_id: String,
}

pub fn create_charge(ctx: &Ctx, headers: &HeaderMap, cache: &HashMap<String, Vec<u8>>) -> Option<Vec<u8>> {
    let idem_key = headers.get("Idempotency-Key")?.to_str().ok()?;
    let cache_key = format!("{}:{}", ctx.tenant_id, idem_key);
    cache.get(&cache_key).cloned()
}

pub fn profile(user_id: &str, cache: &HashMap<String, Vec<u8>>) -> Option<Vec<u8>> {
    cache.get(&format!("user:{user_id}:profile")).cloned()
}
"#;

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_idem-lint"))
        .args(args)
        .current_dir(dir)
        .env("COLUMNS", "100")
        .output()
        .expect("idem-lint runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A directory with src/handlers.rs and a baseline of its findings.
fn baselined() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("src")).expect("mkdir");
    std::fs::write(dir.path().join("src/handlers.rs"), HANDLERS).expect("write");
    let (code, stdout, stderr) = run(dir.path(), &["src", "--write-baseline", "baseline.json"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains("wrote 2 findings (2 entries) to baseline.json"),
        "{stderr}"
    );
    dir
}

fn edit(dir: &Path, text: &str) {
    std::fs::write(dir.join("src/handlers.rs"), text).expect("write");
}

/// (exit code, codes found, stderr) of a run with the baseline.
fn check(dir: &Path) -> (i32, Vec<String>, String) {
    let (code, stdout, stderr) = run(
        dir,
        &["src", "--baseline", "baseline.json", "--format", "json"],
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    let codes = json["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .map(|d| {
            format!(
                "{}@{}",
                d["code"].as_str().unwrap_or(""),
                d["span"]["start"]["line"]
            )
        })
        .collect();
    (code, codes, stderr)
}

#[test]
fn the_file_is_versioned_sorted_and_deterministic() {
    let dir = baselined();
    let first = std::fs::read_to_string(dir.path().join("baseline.json")).expect("read");
    let json: serde_json::Value = serde_json::from_str(&first).expect("json");
    assert_eq!(json["version"], 1);
    let entries = json["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 2);
    for e in entries {
        assert_eq!(e["path"], "src/handlers.rs");
        assert_eq!(e["item"], "create_charge");
        assert_eq!(e["count"], 1);
        assert!(
            e["fingerprint"].as_str().is_some_and(|f| f.len() == 16),
            "{e}"
        );
        assert!(e.get("line").is_none(), "no line numbers: {e}");
    }
    assert_eq!(entries[0]["code"], "IDEM001");
    assert_eq!(entries[1]["code"], "IDEM002");
    // Written again from another directory and with another path spelling: same bytes.
    let (code, _, _) = run(
        &dir.path().join("src"),
        &[
            "handlers.rs",
            "--write-baseline",
            "../baseline.json",
            "--jobs",
            "1",
        ],
    );
    assert_eq!(code, 0);
    let second = std::fs::read_to_string(dir.path().join("baseline.json")).expect("read");
    assert_eq!(first, second);
}

#[test]
fn baselined_findings_are_hidden_and_the_run_passes() {
    let dir = baselined();
    let (code, codes, stderr) = check(dir.path());
    assert_eq!(codes, Vec::<String>::new());
    assert_eq!(code, 0);
    assert!(!stderr.contains("stale"), "{stderr}");
    let (_, stdout, _) = run(
        dir.path(),
        &["src", "--baseline", "baseline.json", "--format", "short"],
    );
    assert!(
        stdout.contains("0 errors, 0 warnings in 1 file (2 baselined, 0 stale baseline entries)"),
        "{stdout}"
    );
}

#[test]
fn inserting_lines_above_does_not_resurface() {
    let dir = baselined();
    edit(
        dir.path(),
        &format!("//! Charges.\n\nuse std::fmt;\n\n{HANDLERS}"),
    );
    let (code, codes, _) = check(dir.path());
    assert_eq!(codes, Vec::<String>::new());
    assert_eq!(code, 0);
}

#[test]
fn reformatting_does_not_resurface() {
    let dir = baselined();
    let reformatted = HANDLERS.replace(
        "    let cache_key = format!(\"{}:{}\", ctx.tenant_id, idem_key);",
        "    let cache_key = format!(\n        \"{}:{}\",\n        ctx.tenant_id,   // the tenant\n        idem_key,\n    );",
    );
    assert_ne!(reformatted, HANDLERS);
    edit(dir.path(), &reformatted);
    let (code, codes, _) = check(dir.path());
    assert_eq!(codes, Vec::<String>::new());
    assert_eq!(code, 0);
}

#[test]
fn moving_the_function_within_the_file_does_not_resurface() {
    let dir = baselined();
    let start = HANDLERS.find("pub fn create_charge").expect("fn");
    let end = HANDLERS.find("pub fn profile").expect("fn");
    let moved = format!(
        "{}{}\n{}",
        &HANDLERS[..start],
        &HANDLERS[end..],
        &HANDLERS[start..end]
    );
    edit(dir.path(), &moved);
    let (code, codes, _) = check(dir.path());
    assert_eq!(codes, Vec::<String>::new());
    assert_eq!(code, 0);
}

#[test]
fn a_new_finding_is_reported() {
    let dir = baselined();
    // The same code in another function is a new finding.
    let copy = HANDLERS.replace("create_charge", "create_refund");
    let both = format!(
        "{HANDLERS}\n{}",
        &copy[copy.find("pub fn create_refund").expect("fn")..]
    );
    edit(dir.path(), &both);
    let (code, codes, _) = check(dir.path());
    assert_eq!(
        codes,
        vec!["IDEM001@19".to_string(), "IDEM002@19".to_string()]
    );
    assert_eq!(code, 1);
}

#[test]
fn repeats_are_counted() {
    let dir = baselined();
    // A second identical key in the same function: one more than baselined.
    let twice = HANDLERS.replace(
        "    cache.get(&cache_key).cloned()\n}\n\npub fn profile",
        "    cache.get(&cache_key).cloned()?;\n    let cache_key = format!(\"{}:{}\", ctx.tenant_id, idem_key);\n    cache.get(&cache_key).cloned()\n}\n\npub fn profile",
    );
    edit(dir.path(), &twice);
    let (code, codes, _) = check(dir.path());
    assert_eq!(
        codes,
        vec!["IDEM001@11".to_string(), "IDEM002@11".to_string()]
    );
    assert_eq!(code, 1);
}

#[test]
fn fixing_a_finding_makes_its_entry_stale() {
    let dir = baselined();
    let fixed = HANDLERS.replace(
        "format!(\"{}:{}\", ctx.tenant_id, idem_key)",
        "idem_scope::scoped(&ctx.tenant_id, &ctx.user_id, \"charge\", idem_key).storage_key()",
    );
    edit(dir.path(), &fixed);
    let (code, codes, stderr) = check(dir.path());
    assert_eq!(codes, Vec::<String>::new());
    assert_eq!(code, 0, "stale entries are a note, not a failure");
    assert!(
        stderr.contains("note: 2 baselined findings no longer occur"),
        "{stderr}"
    );
    assert!(
        stderr.contains("src/handlers.rs IDEM001 in `create_charge`"),
        "{stderr}"
    );
    let (_, stdout, _) = run(
        dir.path(),
        &["src", "--baseline", "baseline.json", "--format", "json"],
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(json["summary"]["baseline"]["stale"], 2);
    assert_eq!(json["summary"]["baseline"]["suppressed"], 0);
    // Linting only another file does not call its entries stale.
    std::fs::write(dir.path().join("src/other.rs"), "pub fn f() {}\n").expect("write");
    let (_, _, stderr) = run(dir.path(), &["src/other.rs", "--baseline", "baseline.json"]);
    assert!(!stderr.contains("stale"), "{stderr}");
}

#[test]
fn bad_baselines_are_exit_2() {
    let dir = baselined();
    std::fs::write(
        dir.path().join("broken.json"),
        "{\"version\": 1, \"entries\": [\n  {\"oops\": 1}\n]}\n",
    )
    .expect("write");
    let (code, _, stderr) = run(dir.path(), &["src", "--baseline", "broken.json"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("broken.json:2:"), "{stderr}");
    std::fs::write(
        dir.path().join("future.json"),
        "{\"version\": 9, \"entries\": []}\n",
    )
    .expect("write");
    let (code, _, stderr) = run(dir.path(), &["src", "--baseline", "future.json"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("version 9"), "{stderr}");
    let (code, _, stderr) = run(dir.path(), &["src", "--baseline", "missing.json"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.json"), "{stderr}");
}
