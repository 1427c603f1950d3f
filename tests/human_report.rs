//! The human report's snippets stay short: a label far from the primary span
//! is named in a `note:` line instead of stretching the snippet over every
//! line between them.

use idem_lint::report::{self, Format, RenderOptions};
use idem_lint::{lint_paths, LintOptions};

/// Lines between where the key is read and where it is stored.
const GAP: usize = 150;

#[test]
fn a_label_150_lines_away_gives_a_short_report() {
    let mut text = String::from(
        "use axum::http::HeaderMap;\n\n\
         fn handler(s: &Store, h: &HeaderMap, tenant: &str) {\n    \
         let k = h.get(\"Idempotency-Key\").unwrap().to_str().unwrap();\n",
    );
    for i in 0..GAP {
        text.push_str(&format!("    let step{i} = {i};\n"));
    }
    text.push_str("    s.set(format!(\"{}:{}\", tenant, k), 1);\n}\n");
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("far.rs");
    std::fs::write(&file, text).expect("write");
    let result = lint_paths(&[file], &LintOptions::default()).expect("lint");
    let codes: Vec<&str> = result.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["IDEM001", "IDEM002"]);
    // The finding does have a label at the header read, 150 lines up.
    let far_label = result.diagnostics[0]
        .labels
        .iter()
        .find(|l| l.span.start.line == 4)
        .expect("a label where the key is read");
    assert_eq!(far_label.message, "client key comes from here");

    let human = report::render(
        &result,
        Format::Human,
        &RenderOptions {
            color: false,
            width: 100,
            quiet: true,
            statistics: false,
        },
    );
    let lines = human.lines().count();
    assert!(
        lines <= 40,
        "{lines} lines for two findings; the snippets span the gap:\n{human}"
    );
    assert!(
        human.contains("note: client key comes from here at "),
        "{human}"
    );
    assert!(human.contains("far.rs:4:13\n"), "{human}");
    // The primary span is still shown with its own line.
    assert!(human.contains(&format!("{} │ ", 4 + GAP + 1)), "{human}");
}

/// Output that is not to a terminal (a pipe here, as in CI logs) is not
/// wrapped at all: long messages and help stay on one line each.
#[test]
fn piped_output_is_not_wrapped() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_idem-lint"))
        .args(["--no-cache", "--color", "never", "fixtures/demo"])
        .env_remove("COLUMNS")
        .output()
        .expect("run idem-lint");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let message = "× idempotency key built by ad-hoc concatenation of the client key: \
                   components can collide across the separator";
    assert!(
        stdout.lines().any(|l| l.trim_start() == message),
        "the message is wrapped:\n{stdout}"
    );
    assert!(
        stdout
            .lines()
            .all(|l| !l.trim_start().starts_with("│ the separator")),
        "{stdout}"
    );
}
