//! Many findings in one file: every finding is kept (none lost to
//! deduplication) and every report format renders each one. The work per
//! finding must not grow with the number of findings; this test runs 20,000
//! of them through the pipeline and the renderers, and asserts counts, never
//! times (the timings are in `bench/run.sh`).

use idem_lint::report::{self, Format, RenderOptions};
use idem_lint::{lint_paths, LintOptions};

/// Functions in the generated file; each gives two findings (IDEM001 and
/// IDEM002: a client key concatenated into a key scoped by tenant only).
const FUNCTIONS: usize = 10_000;

fn generated() -> String {
    let mut text = String::from("use axum::http::HeaderMap;\n\n");
    for i in 0..FUNCTIONS {
        text.push_str(&format!(
            "fn h{i}(s: &Store, h: &HeaderMap, tenant: &str) {{\n    \
             let k = h.get(\"Idempotency-Key\").unwrap().to_str().unwrap();\n    \
             s.set(format!(\"{{}}:{{}}\", tenant, k), 1);\n}}\n"
        ));
    }
    text
}

#[test]
fn twenty_thousand_findings_in_one_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("many.rs");
    std::fs::write(&file, generated()).expect("write");
    // The default options use no cache.
    let options = LintOptions::default();
    let result = lint_paths(&[file], &options).expect("lint");
    let count = |code: &str| result.diagnostics.iter().filter(|d| d.code == code).count();
    assert_eq!(count("IDEM001"), FUNCTIONS);
    assert_eq!(count("IDEM002"), FUNCTIONS);
    assert_eq!(result.diagnostics.len(), 2 * FUNCTIONS);
    // The last function's finding is on its own line, with its own snippet.
    let last_line = 2 + 4 * FUNCTIONS - 1;
    assert_eq!(
        result.diagnostics.last().map(|d| d.span.start.line),
        Some(last_line)
    );

    let render = |format| {
        report::render(
            &result,
            format,
            &RenderOptions {
                color: false,
                width: 100,
                quiet: true,
                statistics: false,
            },
        )
    };
    let human = render(Format::Human);
    assert_eq!(
        human.matches("IDEM001(adhoc-key-concat)").count(),
        FUNCTIONS
    );
    assert!(human.contains(&format!("many.rs:{last_line}:11]")));
    let sarif: serde_json::Value = serde_json::from_str(&render(Format::Sarif)).expect("SARIF");
    assert_eq!(
        sarif["runs"][0]["results"].as_array().map(Vec::len),
        Some(2 * FUNCTIONS)
    );
    let json: serde_json::Value = serde_json::from_str(&render(Format::Json)).expect("JSON");
    assert_eq!(
        json["diagnostics"].as_array().map(Vec::len),
        Some(2 * FUNCTIONS)
    );
}
