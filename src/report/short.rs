//! `path:line:col: error[IDEM002] missing-scope-component: message`, one
//! finding per line: rustc's `severity[CODE]` shape, so editors' and CI's
//! problem matchers and `grep error` see the level, and the rule name is
//! there for `--ignore`/`allow(..)` without a trip to `idem-lint rules`.

use owo_colors::{OwoColorize, Style};

use super::{summary_line, RenderOptions};
use crate::model::{LintResult, Severity};

/// Renders the short format; with colour, as rustc's short format: the
/// location bold, `error[..]` bold red, `warning[..]` bold yellow.
pub fn render(result: &LintResult, options: &RenderOptions) -> String {
    let mut out = String::new();
    for d in &result.diagnostics {
        let location = format!("{}:{}:{}:", d.path, d.span.start.line, d.span.start.column);
        let level = format!("{}[{}]", d.severity, d.code);
        let (location, level) = if options.color {
            let style = match d.severity {
                Severity::Error => Style::new().bold().red(),
                Severity::Warning => Style::new().bold().yellow(),
            };
            (
                location.style(Style::new().bold()).to_string(),
                level.style(style).to_string(),
            )
        } else {
            (location, level)
        };
        out.push_str(&format!("{location} {level} {}: {}\n", d.name, d.message));
    }
    if !options.quiet {
        out.push_str(&summary_line(result));
        out.push('\n');
    }
    out
}
