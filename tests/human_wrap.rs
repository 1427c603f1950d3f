//! The human report on a narrow terminal (COLUMNS=40) wraps prose, never
//! the code quoted in help text that fits a line: each such backticked span
//! and `idem_scope::…(..)` call appears whole on one line; longer code is
//! broken at its spaces (a single token wider still is cut at the width),
//! so no help line is wider than the terminal.

use std::process::Command;

use serde_json::Value;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

fn idem_lint(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_idem-lint"))
        .args(args)
        .args(["--color", "never", "--no-cache"])
        .env("COLUMNS", "40")
        .current_dir(MANIFEST_DIR)
        .output()
        .expect("runs");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Backticked spans and `idem_scope::name(..)` calls in `help`.
fn code_in(help: &str) -> Vec<String> {
    let mut code: Vec<String> = help
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    let mut rest = help;
    while let Some(at) = rest.find("idem_scope::") {
        let call = &rest[at..];
        let path_end = call
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(call.len());
        let end = if call[path_end..].starts_with('(') {
            call.find(')').map_or(call.len(), |e| e + 1)
        } else {
            path_end
        };
        code.push(call[..end].to_string());
        rest = &call[end..];
    }
    code.retain(|c| c.contains(' '));
    code
}

#[test]
fn code_in_help_is_never_wrapped() {
    // Every fixture finding, `possible` ones too.
    let all = ["fixtures", "--confidence", "possible"];
    let doc: Value = serde_json::from_str(&idem_lint(&[&all[..], &["--format", "json"]].concat()))
        .expect("JSON");
    let human = idem_lint(&all);
    let mut checked = 0;
    for d in doc["diagnostics"].as_array().expect("array") {
        for code in code_in(d["help"].as_str().unwrap_or("")) {
            // Code wider than the help's lines (40 less the 8-column
            // indent) is broken between tokens instead (issue 25: no line
            // wider than the terminal).
            if code.chars().count() > 32 {
                continue;
            }
            assert!(human.contains(&code), "`{code}` was wrapped:\n{human}");
            checked += 1;
        }
    }
    assert!(checked > 10, "help texts quote code");
    for block in human.split("\n  help: ").skip(1) {
        let lines = block.lines().take_while(|l| !l.is_empty());
        for (i, line) in lines.enumerate() {
            let width = line.chars().count() + if i == 0 { 8 } else { 0 };
            assert!(width <= 40, "wider than 40: {line}");
        }
    }
}

/// Source lines wider than an 80-column terminal are cut with `…`, around
/// the spans labelled on them, so the labels still point at their columns
/// (tests/human_width.rs: every line of the report fits). The demo has 160-column handler signatures above findings:
/// shown whole, they wrapped under the gutter and broke the frame.
#[test]
fn wide_source_lines_are_cut_to_the_terminal() {
    let out = Command::new(env!("CARGO_BIN_EXE_idem-lint"))
        .args(["fixtures/demo", "--color", "never", "--no-cache"])
        .env("COLUMNS", "80")
        .current_dir(MANIFEST_DIR)
        .output()
        .expect("runs");
    let human = String::from_utf8(out.stdout).expect("UTF-8");
    let gutter: Vec<&str> = human.lines().filter(|l| l.contains(" │ ")).collect();
    assert!(gutter.len() > 20, "snippets rendered:\n{human}");
    let cut: Vec<&&str> = gutter.iter().filter(|l| l.ends_with('…')).collect();
    assert!(
        !cut.is_empty(),
        "the demo's wide signature is cut:\n{human}"
    );
    for line in &cut {
        assert!(line.chars().count() <= 80, "wider than 80 columns: {line}");
    }
    assert!(
        !human.contains("headers: HeaderMap) -> Result<Response, ApiError> {"),
        "a wide signature is shown whole:\n{human}"
    );
    // The label under a cut line's neighbour still marks `&key`.
    assert!(
        human.contains(
            "lookup(&key).await? {\n    ·                                            ──┬─"
        ),
        "label columns kept:\n{human}"
    );
}
