//! miette graphical reports for people at a terminal.

use std::fmt;
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteSpanContents, SourceSpan};

use super::{summary_line, RenderOptions};
use crate::model::{Diagnostic, LintResult, Position, Severity, Span};

mod fit;

use fit::{FileFit, Mark, Snippet};

/// miette's `  help: ` before a help's text, and the indent of its next lines.
const HELP_INDENT: usize = 8;

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
    /// Offset of the primary span in a window of cut lines and its 0-based
    /// column in the file: the snippet's header names the file's column.
    primary: Option<(usize, usize)>,
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
        let column = match self.primary {
            Some((at, column)) if at == offset && context_lines_before == 0 => column,
            _ => inner.column(),
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            SourceSpan::new(
                (inner.span().offset() + self.start).into(),
                inner.span().len(),
            ),
            inner.line() + self.first_line,
            column,
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

/// Byte ranges of `marks` in `text`.
fn byte_spans(marks: &[Mark], text: &str, lines: &LineIndex) -> Vec<(usize, usize)> {
    (marks.iter())
        .map(|m| {
            let start = lines.offset(text, m.span.start);
            (start, lines.offset(text, m.span.end).max(start))
        })
        .collect()
}

/// The snippet of `d` in its file (indexed by `lines`): the primary span
/// and the labels near it, with a line of context either side.
fn snippet_of<'d>(d: &'d Diagnostic, lines: &LineIndex) -> Snippet<'d> {
    let mut marks = vec![Mark {
        span: &d.span,
        text: d.name,
    }];
    marks.extend(
        (d.labels.iter())
            .filter(|l| distance(&d.span, &l.span) <= NEAR_LINES)
            .map(|l| Mark {
                span: &l.span,
                text: &l.message,
            }),
    );
    let count = lines.starts.len();
    let first = (marks.iter().map(|m| m.span.start.line).min())
        .unwrap_or(1)
        .clamp(1, count);
    let last = (marks.iter().map(|m| m.span.end.line).max())
        .unwrap_or(1)
        .clamp(first, count);
    // One line of context either side, as the handler is configured (the
    // line after `last` is shown when there is one).
    Snippet {
        lines: (first.saturating_sub(1).max(1), last),
        marks,
    }
}

/// A finding's file: its text, line index, the finding's snippet and how
/// the file's snippets fit the width (none when output is not wrapped).
type SourceOf<'a> = (
    &'a Arc<String>,
    &'a LineIndex,
    &'a Snippet<'a>,
    Option<&'a FileFit<'a>>,
);

fn report_of(d: &Diagnostic, source: Option<SourceOf>, width: usize) -> Report {
    let mut notes = String::new();
    let (labels, source) = match source {
        Some((text, lines, snippet, fit)) => {
            let (first, last) = snippet.lines;
            let name = match fit {
                Some(fit) => fit.header_path(&d.path, snippet, d.span.start),
                None => d.path.clone(),
            };
            let mut window = Window {
                name,
                text: text.clone(),
                start: lines.line_start(text, first),
                end: lines.line_start(text, last + 2),
                first_line: first - 1,
                primary: None,
            };
            let (spans, texts) = match fit.map(|fit| fit.fit(snippet)) {
                Some(fitted) => {
                    if let Some(shown) = fitted.text {
                        // Lines cut to the width: the snippet's own text.
                        window.end = shown.len();
                        window.start = 0;
                        window.text = Arc::new(shown);
                        window.primary = (fitted.spans.first())
                            .map(|&(start, _)| (start, d.span.start.column.saturating_sub(1)));
                    }
                    let base = window.start;
                    let spans = (fitted.spans.iter())
                        .map(|&(start, end)| (base + start, base + end))
                        .collect();
                    (spans, fitted.labels)
                }
                None => (
                    byte_spans(&snippet.marks, text, lines),
                    (snippet.marks.iter())
                        .map(|m| Some(m.text.to_string()))
                        .collect(),
                ),
            };
            // Labels far from the primary span, or without room beside
            // their span, are named in notes. Marks are the primary span,
            // then the near labels in order.
            let mut near = 0;
            for label in &d.labels {
                let drawn = distance(&d.span, &label.span) <= NEAR_LINES && {
                    near += 1;
                    texts[near].is_some()
                };
                if !drawn {
                    notes.push_str(&format!(
                        "  note: {} at {}:{}:{}\n",
                        label.message, d.path, label.span.start.line, label.span.start.column
                    ));
                }
            }
            // In miette's order (by offset), so that equal offsets keep
            // the order the fitting assumed.
            let mut labels: Vec<(usize, LabeledSpan)> = (spans.into_iter().zip(texts))
                .enumerate()
                .filter_map(|(i, (span, text))| Some((i, (span, text?))))
                .map(|(i, ((start, end), text))| {
                    let span = SourceSpan::new(start.into(), end - start);
                    let label = if i == 0 {
                        LabeledSpan::new_primary_with_span(Some(text), span)
                    } else {
                        LabeledSpan::new_with_span(Some(text), span)
                    };
                    (start, label)
                })
                .collect();
            labels.sort_by_key(|(start, _)| *start);
            (
                labels.into_iter().map(|(_, label)| label).collect(),
                Some(window),
            )
        }
        None => (Vec::new(), None),
    };
    // A help's `note: ..` lines (IDEM008's) are notes: rendered after the
    // help as rustc does, not indented inside it.
    let (help, help_notes) = match d.help.as_deref().map(|h| h.split_once("\nnote: ")) {
        Some(Some((help, rest))) => (Some(help.to_string()), Some(rest)),
        _ => (d.help.clone(), None),
    };
    // Code wider than the help's lines breaks at its spaces, not inside a
    // token (miette's wrap would cut it at the width).
    let help = help.map(|help| match width {
        super::NO_WRAP => help,
        _ => super::code_words::wrap(&help, width.saturating_sub(HELP_INDENT + 2)),
    });
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
        // Code in help text stays on one line (see `code_words`); code wider
        // than the help's lines was broken at its spaces (`report_of`), and
        // a single token wider still is cut at the width, so no line is
        // wider than the terminal.
        .with_break_words(true)
        .with_word_splitter(textwrap::WordSplitter::NoHyphenation)
        .with_word_separator(textwrap::WordSeparator::Custom(super::code_words::words))
        .with_context_lines(1);
    let mut out = String::new();
    let mut render_one = |d: &Diagnostic, source: Option<SourceOf>| {
        let report = report_of(d, source, options.width);
        if handler.render_report(&mut out, &report).is_err() {
            out.push_str(&format!("{}: {}\n", d.code, d.message));
        }
        out.push_str(&wrap_notes(&report.notes, options.width));
        out.push('\n');
    };
    // Findings come sorted by path: one file's index and layout serve a run
    // of them, and every snippet of the file is known before one is drawn.
    for run in result.diagnostics.chunk_by(|a, b| a.path == b.path) {
        let Some(text) = result.sources.get(&run[0].path) else {
            run.iter().for_each(|d| render_one(d, None));
            continue;
        };
        let lines = LineIndex::new(text);
        let snippets: Vec<Snippet> = run.iter().map(|d| snippet_of(d, &lines)).collect();
        let fit = (options.width != super::NO_WRAP)
            .then(|| FileFit::new(text, &lines, options.width, &snippets));
        for (d, snippet) in run.iter().zip(&snippets) {
            render_one(d, Some((text, &lines, snippet, fit.as_ref())));
        }
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
