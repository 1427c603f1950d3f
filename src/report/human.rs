//! miette graphical reports for people at a terminal.

use std::fmt;
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceSpan};

use super::{summary_line, RenderOptions};
use crate::model::{Diagnostic, LintResult, Position, Severity};

/// One finding adapted to miette.
#[derive(Debug)]
struct Report {
    code: String,
    message: String,
    severity: Severity,
    help: Option<String>,
    labels: Vec<LabeledSpan>,
    source: Option<NamedSource<Arc<String>>>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report {}

impl miette::Diagnostic for Report {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.source.is_none() || self.labels.is_empty() {
            return None;
        }
        Some(Box::new(self.labels.iter().cloned()))
    }
}

/// Byte offset of a 1-based (line, char column) position in `text`.
pub fn byte_offset(text: &str, pos: Position) -> usize {
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i + 1 == pos.line {
            let col = pos.column.saturating_sub(1);
            return offset
                + line
                    .char_indices()
                    .nth(col)
                    .map_or(line.trim_end_matches(['\n', '\r']).len(), |(b, _)| b);
        }
        offset += line.len();
    }
    text.len()
}

fn source_span(text: &str, d_start: Position, d_end: Position) -> SourceSpan {
    let start = byte_offset(text, d_start);
    let end = byte_offset(text, d_end).max(start);
    SourceSpan::new(start.into(), end - start)
}

fn report_of(d: &Diagnostic, source: Option<&Arc<String>>) -> Report {
    let (labels, source) = match source {
        Some(text) => {
            let mut labels = vec![LabeledSpan::new_primary_with_span(
                Some(d.name.to_string()),
                source_span(text, d.span.start, d.span.end),
            )];
            for label in &d.labels {
                labels.push(LabeledSpan::new_with_span(
                    Some(label.message.clone()),
                    source_span(text, label.span.start, label.span.end),
                ));
            }
            (labels, Some(NamedSource::new(&d.path, text.clone())))
        }
        None => (Vec::new(), None),
    };
    Report {
        code: format!("{}({})", d.code, d.name),
        message: if source.is_some() {
            d.message.clone()
        } else {
            format!(
                "{}:{}:{}: {}",
                d.path, d.span.start.line, d.span.start.column, d.message
            )
        },
        severity: d.severity,
        help: d.help.clone(),
        labels,
        source,
    }
}

/// Renders every finding and a summary line.
pub fn render(result: &LintResult, options: &RenderOptions) -> String {
    let theme = if options.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(options.width)
        .with_context_lines(1);
    let mut out = String::new();
    for d in &result.diagnostics {
        let report = report_of(d, result.sources.get(&d.path));
        if handler.render_report(&mut out, &report).is_err() {
            out.push_str(&format!("{}: {}\n", d.code, d.message));
        }
        out.push('\n');
    }
    if !options.quiet {
        out.push_str(&summary_line(result));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_count_chars() {
        let text = "aé\nxyz\n";
        assert_eq!(byte_offset(text, Position { line: 1, column: 3 }), 3);
        assert_eq!(byte_offset(text, Position { line: 2, column: 2 }), 5);
    }
}
