//! miette graphical reports for people at a terminal.

use std::fmt;
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteSpanContents, SourceSpan};

use super::{summary_line, RenderOptions};
use crate::model::{Diagnostic, Label, LintResult, Position, Severity, Span};

/// One finding adapted to miette.
#[derive(Debug)]
struct Report {
    code: String,
    message: String,
    severity: Severity,
    help: Option<String>,
    labels: Vec<LabeledSpan>,
    source: Option<Window>,
    /// `note:` lines for labels too far from the primary span to share its
    /// snippet, printed after the report.
    notes: String,
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
    LineIndex::new(text).offset(text, pos)
}

/// Where each line of one text starts, built once per file: a finding's
/// offsets are then found without scanning the file from its start, which
/// made reports quadratic in the number of findings in a large file.
pub struct LineIndex {
    /// Byte offset of the start of each line; line 1 first.
    starts: Vec<usize>,
}

impl LineIndex {
    /// The index of `text`.
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// Byte offset of the start of 1-based `line`; `text.len()` past the end.
    pub fn line_start(&self, text: &str, line: usize) -> usize {
        match line.checked_sub(1).and_then(|i| self.starts.get(i)) {
            Some(&start) if start <= text.len() => start,
            _ => text.len(),
        }
    }

    /// Byte offset of a 1-based (line, char column) position in `text` (the
    /// text this index was built from); a column past the end of its line
    /// is the line's end.
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        let start = self.line_start(text, pos.line);
        if start >= text.len() {
            return text.len();
        }
        let end = self.line_start(text, pos.line + 1);
        let line = &text[start..end];
        start
            + line
                .char_indices()
                .nth(pos.column.saturating_sub(1))
                .map_or(line.trim_end_matches(['\n', '\r']).len(), |(b, _)| b)
    }
}

/// The lines of one file a snippet shows, as miette's source: only this
/// window is searched for line numbers, so rendering a finding costs the size
/// of its snippet, not of its file.
#[derive(Debug)]
struct Window {
    name: String,
    text: Arc<String>,
    /// Byte range of the window in `text`: whole lines.
    start: usize,
    end: usize,
    /// 0-based number of the window's first line in the file.
    first_line: usize,
}

impl miette::SourceCode for Window {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let offset = span.offset();
        if offset < self.start || offset + span.len() > self.end {
            return Err(miette::MietteError::OutOfBounds);
        }
        let local = SourceSpan::new((offset - self.start).into(), span.len());
        let window = &self.text.as_bytes()[self.start..self.end];
        let inner = window.read_span(&local, context_lines_before, context_lines_after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            SourceSpan::new(
                (inner.span().offset() + self.start).into(),
                inner.span().len(),
            ),
            inner.line() + self.first_line,
            inner.column(),
            // miette counts lines from the start of the source here (and
            // merges the snippets of all labels on that basis).
            inner.line_count() + self.first_line,
        )))
    }
}

/// Labels more than this many lines from the primary span are not drawn in
/// its snippet (which would show every line between them) but named in a
/// `note:` line, as rustc does with distant spans.
pub const NEAR_LINES: usize = 5;

/// Lines between `label` and `primary` (0 when they share a line).
fn distance(primary: &Span, label: &Span) -> usize {
    if label.end.line < primary.start.line {
        primary.start.line - label.end.line
    } else {
        label.start.line.saturating_sub(primary.end.line)
    }
}

/// Byte ranges of `d`'s primary span (no message) and of its `labels` in `text`.
fn byte_spans<'d>(
    d: &Diagnostic,
    labels: impl Iterator<Item = &'d Label>,
    text: &str,
    lines: &LineIndex,
) -> Vec<(Option<String>, SourceSpan)> {
    let span = |s: &Span| {
        let start = lines.offset(text, s.start);
        let end = lines.offset(text, s.end).max(start);
        SourceSpan::new(start.into(), end - start)
    };
    let mut spans = vec![(None, span(&d.span))];
    spans.extend(labels.map(|l| (Some(l.message.clone()), span(&l.span))));
    spans
}

/// Source lines longer than this many characters less than the width are
/// cut (the gutter, `NNN │ `, takes the rest).
const GUTTER: usize = 8;

/// The lines `first..=last` of `text`, each cut after `limit` characters
/// (but never before a label's end on it) with an ellipsis: a line wider
/// than the terminal would wrap under miette's gutter and break the frame.
fn clipped_lines(
    text: &str,
    lines: &LineIndex,
    (first, last): (usize, usize),
    spans: &[&Span],
    limit: usize,
) -> String {
    let mut out = String::new();
    for line in first..=last {
        let start = lines.line_start(text, line);
        let end = lines.line_start(text, line + 1);
        if start >= end {
            break;
        }
        let whole = &text[start..end];
        let body = whole.trim_end_matches(['\n', '\r']);
        // Keep every label that starts or ends on this line whole.
        let keep = spans
            .iter()
            .flat_map(|s| [s.start, s.end])
            .filter(|p| p.line == line)
            .map(|p| p.column)
            .max()
            .unwrap_or(0)
            .max(limit);
        match body.char_indices().nth(keep) {
            Some((cut, _)) => {
                out.push_str(&body[..cut]);
                out.push_str("…\n");
            }
            None => out.push_str(whole),
        }
    }
    out
}

fn report_of(d: &Diagnostic, source: Option<(&Arc<String>, &LineIndex)>, width: usize) -> Report {
    let mut notes = String::new();
    let (labels, source) = match source {
        Some((text, lines)) => {
            let (near, far): (Vec<&Label>, Vec<&Label>) = d
                .labels
                .iter()
                .partition(|l| distance(&d.span, &l.span) <= NEAR_LINES);
            notes = far
                .iter()
                .map(|l| {
                    format!(
                        "  note: {} at {}:{}:{}\n",
                        l.message, d.path, l.span.start.line, l.span.start.column
                    )
                })
                .collect();
            let mut spans = byte_spans(d, near.iter().copied(), text, lines);
            // 1-based line of a byte offset.
            let line = |offset: usize| lines.starts.partition_point(|&st| st <= offset);
            let first = spans
                .iter()
                .map(|(_, s)| line(s.offset()))
                .min()
                .unwrap_or(1);
            let last = spans
                .iter()
                .map(|(_, s)| line(s.offset() + s.len()))
                .max()
                .unwrap_or(1);
            // One line of context either side, as the handler is configured.
            let first = first.saturating_sub(1).max(1);
            let mut window = Window {
                name: d.path.clone(),
                text: text.clone(),
                start: lines.line_start(text, first),
                end: lines.line_start(text, last + 2),
                first_line: first - 1,
            };
            let limit = width.saturating_sub(GUTTER);
            let too_wide = text[window.start..window.end]
                .lines()
                .any(|l| l.chars().count() > limit);
            if width != super::NO_WRAP && too_wide {
                // The snippet's lines, cut to the terminal; the spans are
                // found again in the cut text (no cut is left of a label).
                let positions: Vec<&Span> = std::iter::once(&d.span)
                    .chain(near.iter().map(|l| &l.span))
                    .collect();
                let clipped = clipped_lines(text, lines, (first, last + 1), &positions, limit);
                let shift = |p: Position| Position {
                    line: p.line + 1 - first,
                    column: p.column,
                };
                let clipped_index = LineIndex::new(&clipped);
                for ((_, span), pos) in spans.iter_mut().zip(&positions) {
                    let start = clipped_index.offset(&clipped, shift(pos.start));
                    let end = clipped_index.offset(&clipped, shift(pos.end)).max(start);
                    *span = SourceSpan::new(start.into(), end - start);
                }
                let len = clipped.len();
                window = Window {
                    name: d.path.clone(),
                    text: Arc::new(clipped),
                    start: 0,
                    end: len,
                    first_line: first - 1,
                };
            }
            let labels = spans
                .into_iter()
                .map(|(message, span)| match message {
                    None => LabeledSpan::new_primary_with_span(Some(d.name.to_string()), span),
                    Some(message) => LabeledSpan::new_with_span(Some(message), span),
                })
                .collect();
            (labels, Some(window))
        }
        None => (Vec::new(), None),
    };
    // A help's `note: ..` lines (IDEM008's) are notes: rendered after the
    // help as rustc does, not indented inside it.
    let (help, help_notes) = match d.help.as_deref().map(|h| h.split_once("\nnote: ")) {
        Some(Some((help, rest))) => (Some(help.to_string()), Some(rest)),
        _ => (d.help.clone(), None),
    };
    for note in help_notes.into_iter().flat_map(|n| n.split("\nnote: ")) {
        notes.push_str(&format!("  note: {note}\n"));
    }
    // Steps of the path in other files (a helper that builds the key, the
    // extractor that reads it): labels show only the finding's own file.
    for step in d.trace.iter().filter(|step| step.path != d.path) {
        notes.push_str(&format!(
            "  note: via {}:{}:{}: {}\n",
            step.path, step.span.start.line, step.span.start.column, step.message
        ));
    }
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
        help,
        labels,
        source,
        notes,
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
        .with_wrap_lines(options.width != super::NO_WRAP)
        // Code in help text stays on one line (see `code_words`) unless it
        // is wider than the whole line: then it is cut at the width, so no
        // line is wider than the terminal.
        .with_break_words(true)
        .with_word_splitter(textwrap::WordSplitter::NoHyphenation)
        .with_word_separator(textwrap::WordSeparator::Custom(super::code_words::words))
        .with_context_lines(1);
    let mut out = String::new();
    // Findings come sorted by path: one file's index serves a run of them.
    let mut index: Option<(&str, LineIndex)> = None;
    for d in &result.diagnostics {
        let text = result.sources.get(&d.path);
        if let Some(text) = text {
            if index.as_ref().is_none_or(|(path, _)| *path != d.path) {
                index = Some((d.path.as_str(), LineIndex::new(text)));
            }
        }
        let lines = index.as_ref().map(|(_, lines)| lines);
        let report = report_of(d, text.zip(lines), options.width);
        if handler.render_report(&mut out, &report).is_err() {
            out.push_str(&format!("{}: {}\n", d.code, d.message));
        }
        out.push_str(&wrap_notes(&report.notes, options.width));
        out.push('\n');
    }
    if !options.quiet {
        out.push_str(&summary_line(result));
        out.push('\n');
    }
    out
}

/// `  note: ..` lines wrapped at `width`, continuations under the text.
fn wrap_notes(notes: &str, width: usize) -> String {
    if width == super::NO_WRAP {
        return notes.to_string();
    }
    let options = textwrap::Options::new(width)
        .subsequent_indent("        ")
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    notes
        .lines()
        .map(|line| format!("{}\n", textwrap::fill(line, &options)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_wrap_under_their_text() {
        let notes = "  note: the key also lacks a scope_version column and a namespace column\n";
        assert_eq!(
            wrap_notes(notes, 40),
            "  note: the key also lacks a\n        scope_version column and a\n        namespace column\n"
        );
        assert_eq!(wrap_notes(notes, super::super::NO_WRAP), notes);
    }

    #[test]
    fn offsets_count_chars() {
        let text = "aé\nxyz\n";
        assert_eq!(byte_offset(text, Position { line: 1, column: 3 }), 3);
        assert_eq!(byte_offset(text, Position { line: 2, column: 2 }), 5);
    }
}
