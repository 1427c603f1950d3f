//! `path:line:col: error[IDEM002] missing-scope-component: message`, one
//! finding per line: rustc's `severity[CODE]` shape, so editors' and CI's
//! problem matchers and `grep error` see the level, and the rule name is
//! there for `--ignore`/`allow(..)` without a trip to `idem-lint rules`.

use super::{summary_line, RenderOptions};
use crate::model::LintResult;

/// Renders the short format.
pub fn render(result: &LintResult, options: &RenderOptions) -> String {
    let mut out = String::new();
    for d in &result.diagnostics {
        out.push_str(&format!(
            "{}:{}:{}: {}[{}] {}: {}\n",
            d.path, d.span.start.line, d.span.start.column, d.severity, d.code, d.name, d.message
        ));
    }
    if !options.quiet {
        out.push_str(&summary_line(result));
        out.push('\n');
    }
    out
}
