//! The stable, versioned JSON format (see the CLI contract).

use serde::Serialize;

use crate::model::{Diagnostic, LintResult};

#[derive(Serialize)]
struct Output<'a> {
    version: u32,
    tool: Tool,
    diagnostics: &'a [Diagnostic],
    summary: Summary,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Summary {
    files_analyzed: usize,
    files_with_errors: usize,
    diagnostics: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<BaselineSummary>,
}

/// Present only when `--baseline` was given.
#[derive(Serialize)]
struct BaselineSummary {
    suppressed: usize,
    stale: usize,
}

/// Renders the JSON document, followed by a newline.
pub fn render(result: &LintResult) -> String {
    let mut text = Vec::new();
    match write(result, &mut text) {
        Ok(()) => String::from_utf8(text).unwrap_or_default(),
        Err(e) => format!("{{\"error\": \"{e}\"}}\n"),
    }
}

/// Writes the JSON document, followed by a newline, straight into `out`:
/// no copy of the whole document is held (41 MB for 20k findings).
pub fn write(result: &LintResult, out: &mut impl std::io::Write) -> std::io::Result<()> {
    let output = Output {
        version: 1,
        tool: Tool {
            name: "idem-lint",
            version: crate::VERSION,
        },
        diagnostics: &result.diagnostics,
        summary: Summary {
            files_analyzed: result.files_analyzed,
            files_with_errors: result.files_with_errors(),
            diagnostics: result.diagnostics.len(),
            baseline: result.baseline.as_ref().map(|b| BaselineSummary {
                suppressed: b.suppressed,
                stale: b.stale.len(),
            }),
        },
    };
    serde_json::to_writer_pretty(&mut *out, &output)?;
    out.write_all(b"\n")
}
