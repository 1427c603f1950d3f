//! `path:line:col: CODE message`, one finding per line.

use super::{summary_line, RenderOptions};
use crate::model::LintResult;

/// Renders the short format.
pub fn render(result: &LintResult, options: &RenderOptions) -> String {
    let mut out = String::new();
    for d in &result.diagnostics {
        out.push_str(&format!(
            "{}:{}:{}: {} {}\n",
            d.path, d.span.start.line, d.span.start.column, d.code, d.message
        ));
    }
    if !options.quiet {
        out.push_str(&summary_line(result));
        out.push('\n');
    }
    out
}
