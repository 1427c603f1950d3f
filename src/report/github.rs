//! GitHub Actions workflow commands: one `::error` / `::warning` annotation
//! per finding, then a plain summary line.
//!
//! GitHub turns only the first 10 error and 10 warning annotations of a step
//! into annotations on the pull request, so the summary says how many there
//! are in all; every one of them is still printed in the step's log.

use super::paths::{rooted, RootedPath};
use super::{summary_line, RenderOptions};
use crate::model::{Diagnostic, LintResult, Severity};

/// Annotations of one level that GitHub shows per step.
pub const SHOWN_PER_STEP: usize = 10;

/// Renders the findings as workflow commands.
pub fn render(result: &LintResult, options: &RenderOptions) -> String {
    let root = std::env::current_dir().ok();
    let mut out = String::new();
    for d in &result.diagnostics {
        let file = match rooted(&d.path, root.as_deref()) {
            RootedPath::Relative(rel) => rel,
            RootedPath::Absolute(path) => path.to_string_lossy().into_owned(),
        };
        out.push_str(&annotation(d, &file));
        out.push('\n');
    }
    if !options.quiet {
        out.push_str(&summary(result));
        out.push('\n');
    }
    out
}

/// `::error file=..,line=..,endLine=..,col=..,endColumn=..,title=..::message`.
/// `endColumn` is the column just after the span, as in the JSON format.
pub fn annotation(d: &Diagnostic, file: &str) -> String {
    let command = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut text = d.message.clone();
    if let Some(help) = &d.help {
        text.push_str("\nhelp: ");
        text.push_str(help);
    }
    format!(
        "::{command} file={},line={},endLine={},col={},endColumn={},title={}::{}",
        escape_property(file),
        d.span.start.line,
        d.span.end.line.max(d.span.start.line),
        d.span.start.column,
        d.span.end.column,
        escape_property(&format!("{} {}", d.code, d.name)),
        escape_data(&text),
    )
}

fn summary(result: &LintResult) -> String {
    let count = |s: Severity| {
        result
            .diagnostics
            .iter()
            .filter(|d| d.severity == s)
            .count()
    };
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    let mut line = format!("idem-lint: {}", summary_line(result));
    if errors > SHOWN_PER_STEP || warnings > SHOWN_PER_STEP {
        line.push_str(&format!(
            ". GitHub shows only the first {SHOWN_PER_STEP} errors and {SHOWN_PER_STEP} warnings of a step as annotations: all {} findings are in this log",
            result.diagnostics.len()
        ));
    }
    line
}

/// The toolkit's `escapeData`: the message after `::`.
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// The toolkit's `escapeProperty`: a `key=value` before `::`.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Position, Span};

    #[test]
    fn escaping_follows_the_actions_toolkit() {
        assert_eq!(escape_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }

    #[test]
    fn one_annotation_per_finding() {
        let d = Diagnostic {
            code: "IDEM001",
            name: "adhoc-key-concat",
            severity: Severity::Warning,
            message: "key: a, b".into(),
            path: "src/a,b.rs".into(),
            span: Span {
                start: Position { line: 3, column: 5 },
                end: Position { line: 4, column: 2 },
            },
            labels: Vec::new(),
            help: Some("use 100% scoped keys".into()),
            fix: None,
            confidence: Default::default(),
            trace: Vec::new(),
        };
        assert_eq!(
            annotation(&d, "src/a,b.rs"),
            "::warning file=src/a%2Cb.rs,line=3,endLine=4,col=5,endColumn=2,title=IDEM001 adhoc-key-concat::key: a, b%0Ahelp: use 100%25 scoped keys"
        );
    }
}
