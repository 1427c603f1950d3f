//! Evidence in every format (rules.md "Evidence and confidence"): each
//! finding carries its confidence and its path, JSON as `trace`, SARIF as
//! `codeFlows` and `properties.precision`. Only findings whose source is a
//! flow (`certain`) are reported by default; `--confidence possible` or the
//! configuration's `confidence = "possible"` adds those whose source is a
//! name, and the command line wins over the configuration.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// One key read from the header (a flow), one known only by its name.
const SOURCE: &str = r#"fn from_header(headers: &HeaderMap, cache: &Cache) {
    let k = headers.get("Idempotency-Key").unwrap();
    cache.set(k, 1);
}

fn by_name(idempotency_key: &str, cache: &Cache) {
    cache.set(idempotency_key, 1);
}
"#;

fn lint(dir: &Path, args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_idem-lint"))
        .current_dir(dir)
        .args(["--no-cache", "a.rs"])
        .args(args)
        .output()
        .expect("idem-lint runs");
    serde_json::from_slice(&out.stdout).expect("a JSON document")
}

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("a.rs"), SOURCE).expect("write");
    dir
}

fn found(json: &Value) -> Vec<(u64, String, String)> {
    (json["diagnostics"].as_array().expect("diagnostics").iter())
        .map(|d| {
            (
                d["span"]["start"]["line"].as_u64().unwrap_or(0),
                d["code"].as_str().unwrap_or("").to_string(),
                d["confidence"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn json_findings_carry_confidence_and_a_trace_from_source_to_sink() {
    let dir = setup();
    let json = lint(
        dir.path(),
        &["--format", "json", "--confidence", "possible"],
    );
    assert_eq!(
        found(&json),
        [
            (3, "IDEM002".to_string(), "certain".to_string()),
            (7, "IDEM002".to_string(), "possible".to_string()),
        ]
    );
    let first = &json["diagnostics"][0];
    let trace = first["trace"].as_array().expect("a trace");
    let steps: Vec<(u64, &str)> = trace
        .iter()
        .map(|s| {
            (
                s["span"]["start"]["line"].as_u64().unwrap_or(0),
                s["path"].as_str().unwrap_or(""),
            )
        })
        .collect();
    // The source (the header read) first, the sink last.
    assert_eq!(steps, [(2, "a.rs"), (3, "a.rs")], "{first}");
    assert!(trace[0]["message"]
        .as_str()
        .is_some_and(|m| m.contains("Idempotency-Key")));
}

#[test]
fn certain_keeps_only_flows_and_is_the_default() {
    let dir = setup();
    let certain = [(3, "IDEM002".to_string(), "certain".to_string())];
    let json = lint(dir.path(), &["--format", "json", "--confidence", "certain"]);
    assert_eq!(found(&json), certain);
    let json = lint(dir.path(), &["--format", "json"]);
    assert_eq!(found(&json), certain);
}

#[test]
fn configuration_chooses_the_tier_and_the_command_line_wins() {
    let dir = setup();
    let both = [
        (3, "IDEM002".to_string(), "certain".to_string()),
        (7, "IDEM002".to_string(), "possible".to_string()),
    ];
    let certain = &both[..1];
    std::fs::write(
        dir.path().join("idem-lint.toml"),
        "confidence = \"possible\"\n",
    )
    .expect("write");
    assert_eq!(found(&lint(dir.path(), &["--format", "json"])), both);
    let json = lint(dir.path(), &["--format", "json", "--confidence", "certain"]);
    assert_eq!(found(&json), certain);
    std::fs::write(
        dir.path().join("idem-lint.toml"),
        "confidence = \"certain\"\n",
    )
    .expect("write");
    assert_eq!(found(&lint(dir.path(), &["--format", "json"])), certain);
    let json = lint(
        dir.path(),
        &["--format", "json", "--confidence", "possible"],
    );
    assert_eq!(found(&json), both);
}

#[test]
fn sarif_results_have_code_flows_and_precision() {
    let dir = setup();
    let sarif = lint(
        dir.path(),
        &["--format", "sarif", "--confidence", "possible"],
    );
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let precisions: Vec<&str> = results
        .iter()
        .map(|r| r["properties"]["precision"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(precisions, ["high", "medium"]);
    for result in results {
        let steps = result["codeFlows"][0]["threadFlows"][0]["locations"]
            .as_array()
            .expect("a thread flow");
        assert_eq!(steps.len(), 2, "{result}");
        let uri = &steps[0]["location"]["physicalLocation"]["artifactLocation"]["uri"];
        assert_eq!(uri, "a.rs");
    }
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    assert!(rules.iter().all(|r| r["properties"]["precision"] == "high"));
}
