//! Suppression comments through the command line: used ones hide findings
//! and change the exit code, unused ones become IDEM900, ones without a reason
//! IDEM901, and both follow configuration like any rule. The exhaustive cases
//! (look-alikes in literals, stacking, malformed comments) are fixtures in
//! fixtures/unused-suppression/ and fixtures/suppression-without-reason/.

use std::path::Path;
use std::process::Command;

fn run(dir: &Path, args: &[&str]) -> (i32, Vec<(usize, String)>) {
    let out = Command::new(env!("CARGO_BIN_EXE_idem-lint"))
        .args(args)
        .args(["--format", "json"])
        .current_dir(dir)
        .output()
        .expect("idem-lint runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&out.stderr));
    });
    let mut found: Vec<(usize, String)> = json["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .map(|d| {
            (
                d["span"]["start"]["line"].as_u64().unwrap_or(0) as usize,
                d["code"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    found.sort();
    (out.status.code().unwrap_or(-1), found)
}

/// A key read from its header and built with the tenant only, with
/// `comment` appended to line 5 (the findings' line), or, when `above` is
/// set, on a line of its own before it.
fn file_with(comment: &str, above: bool) -> String {
    let finding = "    let cache_key = format!(\"{}:{}\", ctx.tenant_id, idem_key);";
    let line = if comment.is_empty() {
        finding.to_string()
    } else if above {
        format!("    {comment}\n{finding}")
    } else {
        format!("{finding} {comment}")
    };
    format!(
        "use std::collections::HashMap;\npub struct Ctx {{ pub tenant_id: String }}\npub fn lookup(ctx: &Ctx, headers: &HeaderMap, cache: &HashMap<String, Vec<u8>>) -> Option<Vec<u8>> {{\n    let idem_key = headers.get(\"Idempotency-Key\")?.to_str().ok()?;\n{line}\n    cache.get(&cache_key).cloned()\n}}\n"
    )
}

fn lint(text: &str, extra: &[&str]) -> (i32, Vec<(usize, String)>) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("a.rs"), text).expect("write");
    let mut args = vec!["a.rs"];
    args.extend_from_slice(extra);
    run(dir.path(), &args)
}

fn at(line: usize, code: &str) -> (usize, String) {
    (line, code.to_string())
}

#[test]
fn unsuppressed_file_fails() {
    let (code, found) = lint(&file_with("", false), &[]);
    assert_eq!(code, 1);
    assert_eq!(found, vec![at(5, "IDEM001"), at(5, "IDEM002")]);
}

#[test]
fn used_suppression_by_code_on_the_line_passes_the_run() {
    let (code, found) = lint(
        &file_with(
            "// idem-lint: allow(IDEM001, IDEM002) -- legacy rows",
            false,
        ),
        &[],
    );
    assert_eq!(found, vec![]);
    assert_eq!(code, 0);
}

#[test]
fn used_suppression_by_name_on_the_line_above() {
    let (code, found) = lint(
        &file_with(
            "// idem-lint: allow(adhoc-key-concat, missing-scope-component) -- legacy rows",
            true,
        ),
        &[],
    );
    assert_eq!(found, vec![]);
    assert_eq!(code, 0);
}

#[test]
fn partial_suppression_keeps_the_other_finding() {
    let (code, found) = lint(
        &file_with("// idem-lint: allow(IDEM001) -- legacy rows", false),
        &[],
    );
    assert_eq!(found, vec![at(5, "IDEM002")]);
    assert_eq!(code, 1);
}

#[test]
fn file_suppression() {
    let text = format!(
        "// idem-lint: allow-file(IDEM001, IDEM002) -- generated\n{}",
        file_with("", false)
    );
    let (code, found) = lint(&text, &[]);
    assert_eq!(found, vec![]);
    assert_eq!(code, 0);
}

#[test]
fn unused_suppression_is_a_warning_that_does_not_fail() {
    let text = "pub fn clean() {} // idem-lint: allow(IDEM001) -- nothing to excuse\n";
    let (code, found) = lint(text, &[]);
    assert_eq!(found, vec![at(1, "IDEM900")]);
    assert_eq!(code, 0);
}

#[test]
fn suppression_without_reason_is_reported_even_when_used() {
    let (code, found) = lint(
        &file_with("// idem-lint: allow(IDEM001, IDEM002)", false),
        &[],
    );
    assert_eq!(found, vec![at(5, "IDEM901")]);
    assert_eq!(code, 0);
    let (_, found) = lint(
        &file_with("// idem-lint: allow(IDEM001, IDEM002)", true),
        &[],
    );
    assert_eq!(
        found,
        vec![at(5, "IDEM901")],
        "reported on the comment's line"
    );
}

#[test]
fn suppression_findings_follow_levels_and_select() {
    let text = "pub fn clean() {} // idem-lint: allow(IDEM001)\n";
    let (_, found) = lint(text, &["--select", "IDEM001"]);
    assert_eq!(found, vec![], "not selected");
    let (_, found) = lint(text, &["--ignore", "unused-suppression"]);
    assert_eq!(found, vec![at(1, "IDEM901")]);
    // A suppression of a rule that is off is still checked against what
    // the rule finds, so turning a rule off does not make it "unused".
    let (code, found) = lint(
        &file_with(
            "// idem-lint: allow(IDEM001, IDEM002) -- legacy rows",
            false,
        ),
        &["--select", "IDEM001,IDEM900"],
    );
    assert_eq!(found, vec![]);
    assert_eq!(code, 0);
}

#[test]
fn suppressing_the_suppression_findings() {
    let text = "// idem-lint: allow-file(IDEM900, IDEM901) -- experimenting\npub fn clean() {} // idem-lint: allow(IDEM001)\n";
    let (code, found) = lint(text, &[]);
    assert_eq!(found, vec![]);
    assert_eq!(code, 0);
}

/// A suppression of a `possible` finding (its key known only by a name) is
/// used whether or not `--confidence possible` shows that tier: hiding the
/// tier by default never turns the comment into IDEM900.
#[test]
fn suppressing_a_possible_finding_is_used_at_either_confidence() {
    let text = "pub fn remember(cache: &mut Cache, idem_key: &str) {\n    cache.insert(idem_key, 1); // idem-lint: allow(IDEM002) -- one tenant\n}\n";
    let (code, found) = lint(text, &[]);
    assert_eq!(found, vec![]);
    assert_eq!(code, 0);
    let (code, found) = lint(text, &["--confidence", "possible"]);
    assert_eq!(found, vec![]);
    assert_eq!(code, 0);
    // Without the comment, the finding is there, in the `possible` tier only.
    let bare = text.replace(" // idem-lint: allow(IDEM002) -- one tenant", "");
    assert_eq!(lint(&bare, &[]), (0, vec![]));
    assert_eq!(
        lint(&bare, &["--confidence", "possible"]),
        (1, vec![at(2, "IDEM002")])
    );
}
