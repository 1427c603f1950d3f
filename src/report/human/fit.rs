//! Fitting snippets into the terminal's width (issue 25: at 80 columns,
//! label lines reached 102 columns, and one source line was cut in one
//! snippet and not in the next).
//!
//! miette draws a snippet's source lines after a gutter (` NNN │ `, then
//! the bars of labels that span several lines), each label's text right of
//! the `┬` under its span, and nothing of it can be moved or cut. So what
//! fits is decided here, before miette draws:
//!
//! - A source line wider than the room after the gutter is cut with `…` on
//!   each cut side: from the right, and from the left too when a span on it
//!   ends past the room or a label's text needs room right of its bar (at
//!   least [`LABEL_ROOM`] columns). The cut of a line depends only on the
//!   line, the width and every span that any finding of the report labels
//!   on it, never on the snippet: the same line is shown the same way in
//!   every snippet. For the same reason the room of a line is what the
//!   widest gutter of any snippet showing it leaves (line numbers as wide
//!   as that snippet's last, the bars of its multi-line labels).
//! - A label's text is wrapped into the room right of its bar, which miette
//!   draws as `╰─┤ first line` and `  │ next line`. A label with less than
//!   [`LABEL_MIN`] columns there (miette stacks the bars of labels inside a
//!   wider span after that span's end) is named in a `note:` line instead,
//!   as labels far from the primary span are.
//!
//! Columns are counted as miette counts them: tabs to the next multiple of
//! four, other characters by their Unicode width.

use rustc_hash::FxHashMap as HashMap;
use unicode_width::UnicodeWidthChar;

use super::LineIndex;
use crate::model::{Position, Span};

/// Columns a label's text keeps right of its bar (`╰── `) before its line
/// is cut further from the left to make room (every rule's name fits); a
/// longer text wraps.
pub const LABEL_ROOM: usize = 26;

/// Columns below which a label is not drawn but becomes a note.
pub const LABEL_MIN: usize = 12;

/// `╰── ` before a label's text, `  │ ` before its next lines.
const BAR: usize = 4;

/// miette's tab stops.
const TAB: usize = 4;

/// One span of a snippet and its label's text.
pub struct Mark<'a> {
    /// Where it is in the file.
    pub span: &'a Span,
    /// The label's text.
    pub text: &'a str,
}

/// The lines and marks of one finding's snippet.
pub struct Snippet<'a> {
    /// First and last line shown (1-based, context included).
    pub lines: (usize, usize),
    /// The primary span first, then the near labels.
    pub marks: Vec<Mark<'a>>,
}

impl Snippet<'_> {
    /// Columns of miette's gutter before each line's text: ` NNN │ ` (as
    /// wide as the last line's number) and, with multi-line spans, their
    /// bars.
    fn gutter(&self) -> usize {
        let numbers = (self.lines.1 + 1).to_string().len() + 4;
        let bars = (self.marks.iter())
            .filter(|m| m.span.start.line != m.span.end.line)
            .count();
        numbers + if bars == 0 { 0 } else { bars + 3 }
    }
}

/// One character of a line as miette lays it out.
#[derive(Debug, Clone, Copy)]
struct Cell {
    byte: usize,
    col: usize,
    width: usize,
}

/// The cells of `line` (no line ending), as miette counts columns: tabs
/// to the next multiple of [`TAB`], ANSI escapes as nothing, other
/// characters by their Unicode width.
fn cells(line: &str) -> Vec<Cell> {
    let mut col = 0;
    let mut escaped = false;
    line.char_indices()
        .map(|(byte, c)| {
            let width = match (escaped, c) {
                (false, '\t') => TAB - col % TAB,
                (false, '\x1b') => {
                    escaped = true;
                    0
                }
                (false, c) => c.width().unwrap_or(0),
                (true, 'm') => {
                    escaped = false;
                    0
                }
                (true, _) => 0,
            };
            let cell = Cell { byte, col, width };
            col += width;
            cell
        })
        .collect()
}

/// Display width of a whole line laid out by [`cells`].
fn line_width(cells: &[Cell]) -> usize {
    cells.last().map_or(0, |c| c.col + c.width)
}

/// Display width of a label's widest line.
fn text_width(text: &str) -> usize {
    text.lines()
        .map(textwrap::core::display_width)
        .max()
        .unwrap_or(0)
}

/// Where the bars (`┬`) of single-line spans on one line go: miette draws
/// the spans in the order of their offsets, each starting no earlier than
/// the previous one ends, and puts the bar in the middle. `spans` are
/// display columns `[start, end)` in that order.
fn bars_at(spans: &[(usize, usize)]) -> Vec<usize> {
    let mut highest = 0;
    spans
        .iter()
        .map(|&(start, end)| {
            let start = start.max(highest);
            let end = end.max(start + 1);
            highest = highest.max(end);
            (start + end) / 2
        })
        .collect()
}

/// How far what some spans on a line need reaches, in display columns of
/// the whole line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
    /// Where the first span starts.
    pub start: usize,
    /// Where the last span ends.
    pub end: usize,
    /// How far right label texts reach, each given up to [`LABEL_ROOM`]
    /// columns right of its bar.
    pub labels: usize,
}

impl Reach {
    fn join(self, other: Reach) -> Reach {
        Reach {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
            labels: self.labels.max(other.labels),
        }
    }
}

/// What must stay visible of one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Focus {
    /// Every span any snippet marks on the line.
    pub all: Reach,
    /// The primary spans alone (their labels can become notes).
    pub primary: Option<Reach>,
}

impl Focus {
    fn join(self, other: Focus) -> Focus {
        Focus {
            all: self.all.join(other.all),
            primary: match (self.primary, other.primary) {
                (Some(a), Some(b)) => Some(a.join(b)),
                (a, b) => a.or(b),
            },
        }
    }
}

impl Reach {
    /// The least column to cut a line `len` columns wide from on the left
    /// (0: none) so that in `room` columns these spans show to their ends
    /// and their labels get their room: after a left cut, `…` then the
    /// columns from the cut, so column `c` lands at `c - left + 1`.
    fn cut_needed(&self, len: usize, room: usize) -> usize {
        if self.labels <= room && (len <= room || self.end < room) {
            return 0;
        }
        let for_labels = (self.labels + 1).saturating_sub(room);
        let rest_fits = (len + 1).saturating_sub(room);
        let for_spans = (self.end + 2).saturating_sub(room);
        for_labels.max(rest_fits.min(for_spans)).max(1)
    }
}

/// The visible columns `[left, right)` of a line `len` columns wide shown
/// in `room` columns, `None` when it is shown whole. A `…` on each cut side
/// takes a column. The line is cut from the right unless a span on it would
/// be cut or a label's text would not get its room; then it is cut from the
/// left as little as needed, never past the first span's start, unless a
/// primary span needs it (the labels left of it then become notes).
pub fn cut(len: usize, room: usize, focus: Option<Focus>) -> Option<(usize, usize)> {
    let left = focus.map_or(0, |focus| {
        let all = focus.all.cut_needed(len, room);
        if all <= focus.all.start {
            return all;
        }
        let primary = (focus.primary).map_or(0, |p| p.cut_needed(len, room).min(p.start));
        primary.max(focus.all.start)
    });
    if left == 0 {
        return (len > room).then(|| (0, room.saturating_sub(1)));
    }
    let right = if len + 1 - left <= room {
        len
    } else {
        left + room.saturating_sub(2)
    };
    Some((left, right))
}

/// One line as a snippet shows it.
struct Shown {
    text: String,
    /// Byte offset in `text` of each char index of the line (and its end).
    at: Vec<usize>,
    cut: bool,
}

/// `line` cut to the columns `[left, right)`: `…` for each cut side, tabs
/// as the spaces they took; a span's end past the cut lands at the cut.
fn shown(line: &str, cells: &[Cell], (left, right): (usize, usize)) -> Shown {
    let mut text = String::new();
    if left > 0 {
        text.push('…');
    }
    let mut at = Vec::with_capacity(cells.len() + 1);
    for (cell, c) in cells.iter().zip(line.chars()) {
        at.push(text.len());
        if cell.col >= left && cell.col + cell.width <= right {
            if c == '\t' {
                text.extend(std::iter::repeat_n(' ', cell.width));
            } else {
                text.push(c);
            }
        }
    }
    at.push(text.len());
    if right < line_width(cells) {
        text.push('…');
    }
    Shown {
        text,
        at,
        cut: true,
    }
}

/// `line` shown whole.
fn whole(line: &str) -> Shown {
    let mut at: Vec<usize> = line.char_indices().map(|(b, _)| b).collect();
    at.push(line.len());
    Shown {
        text: line.to_string(),
        at,
        cut: false,
    }
}

/// How one file's snippets are shown at one width: built from every
/// snippet of the file, so that each line is cut one way.
pub struct FileFit<'t> {
    text: &'t str,
    lines: &'t LineIndex,
    width: usize,
    /// The widest gutter of the snippets showing each line.
    gutter: HashMap<usize, usize>,
    focus: HashMap<usize, Focus>,
}

/// A snippet fitted to the width.
pub struct Fitted {
    /// The snippet's lines as shown, when one of them is cut (else the
    /// file's own lines are shown).
    pub text: Option<String>,
    /// Byte range of each mark in the snippet's text (the file's lines
    /// from the snippet's first, or [`Fitted::text`]).
    pub spans: Vec<(usize, usize)>,
    /// Each mark's label text, wrapped into its room; `None` for a label
    /// without room, to be named in a note (never the primary span's).
    pub labels: Vec<Option<String>>,
}

impl<'t> FileFit<'t> {
    /// The layout of `text` (indexed by `lines`) at `width` columns for `snippets`.
    pub fn new(
        text: &'t str,
        lines: &'t LineIndex,
        width: usize,
        snippets: &[Snippet],
    ) -> FileFit<'t> {
        let mut fit = FileFit {
            text,
            lines,
            width,
            gutter: HashMap::default(),
            focus: HashMap::default(),
        };
        for snippet in snippets {
            let gutter = snippet.gutter();
            for line in snippet.lines.0..=snippet.lines.1 + 1 {
                let widest = fit.gutter.entry(line).or_default();
                *widest = (*widest).max(gutter);
            }
            for (line, focus) in fit.focus_of(snippet) {
                fit.focus
                    .entry(line)
                    .and_modify(|f| *f = f.join(focus))
                    .or_insert(focus);
            }
        }
        fit
    }

    /// The text of 1-based `line` without its line ending; `None` past the end.
    fn body(&self, line: usize) -> Option<&'t str> {
        let start = self.lines.line_start(self.text, line);
        let end = self.lines.line_start(self.text, line + 1);
        (start < end).then(|| self.text[start..end].trim_end_matches(['\n', '\r']))
    }

    /// Columns for the text of `line` after miette's gutter.
    fn room(&self, line: usize) -> usize {
        let gutter = self.gutter.get(&line).copied().unwrap_or(0);
        self.width.saturating_sub(gutter)
    }

    /// The marks of `snippet` on one line each, by line, in miette's order
    /// (by offset): indices into its marks.
    fn single_lines(snippet: &Snippet) -> Vec<(usize, Vec<usize>)> {
        let mut by_line: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut order: Vec<usize> = (0..snippet.marks.len()).collect();
        order.sort_by_key(|&i| {
            let s = snippet.marks[i].span.start;
            (s.line, s.column)
        });
        for i in order {
            let span = snippet.marks[i].span;
            if span.start.line != span.end.line {
                continue;
            }
            match by_line.iter_mut().find(|(l, _)| *l == span.start.line) {
                Some((_, marks)) => marks.push(i),
                None => by_line.push((span.start.line, vec![i])),
            }
        }
        by_line
    }

    /// What `snippet` needs visible of each line it marks.
    fn focus_of(&self, snippet: &Snippet) -> Vec<(usize, Focus)> {
        let mut out = Vec::new();
        for (line, marks) in Self::single_lines(snippet) {
            let Some(body) = self.body(line) else {
                continue;
            };
            let cells = cells(body);
            let col =
                |char_index: usize| cells.get(char_index).map_or(line_width(&cells), |c| c.col);
            let spans: Vec<(usize, usize)> = (marks.iter())
                .map(|&i| {
                    let span = snippet.marks[i].span;
                    let start = span.start.column.saturating_sub(1);
                    (
                        col(start),
                        col(span.end.column.saturating_sub(1).max(start)),
                    )
                })
                .collect();
            let labels = (bars_at(&spans).iter().zip(&marks))
                .map(|(bar, &i)| bar + BAR + text_width(snippet.marks[i].text).min(LABEL_ROOM))
                .max()
                .unwrap_or(0);
            let all = Reach {
                start: spans.iter().map(|s| s.0).min().unwrap_or(0),
                end: spans.iter().map(|s| s.1).max().unwrap_or(0),
                labels,
            };
            // The primary span as if alone on its line: labels drawn before
            // it can leave for notes.
            let primary =
                (marks.iter().zip(&spans))
                    .find(|(&i, _)| i == 0)
                    .map(|(_, &(start, end))| Reach {
                        start,
                        end,
                        labels: bars_at(&[(start, end)])[0]
                            + BAR
                            + text_width(snippet.marks[0].text).min(LABEL_ROOM),
                    });
            let focus = Focus { all, primary };
            out.push((line, focus));
        }
        out
    }

    /// `line` as every snippet shows it.
    fn shown(&self, line: usize) -> Option<Shown> {
        let body = self.body(line)?;
        let cells = cells(body);
        let columns = cut(
            line_width(&cells),
            self.room(line),
            self.focus.get(&line).copied(),
        );
        Some(match columns {
            Some(columns) => shown(body, &cells, columns),
            None => whole(body),
        })
    }

    /// `path` as `snippet`'s header (`╭─[path:line:col]`, at `start`) can
    /// show it: whole when it fits the width, else its last components
    /// after `…/` (at least the file's name).
    pub fn header_path(&self, path: &str, snippet: &Snippet, start: Position) -> String {
        let numbers = (snippet.lines.1 + 1).to_string().len();
        let location = format!(":{}:{}", start.line, start.column).len();
        // `{numbers + 2 spaces}╭─[` path location `]`
        let room = (self.width).saturating_sub(numbers + 2 + 3 + location + 1);
        if text_width(path) <= room {
            return path.to_string();
        }
        let mut tail = path.len();
        for (at, _) in path.rmatch_indices('/') {
            if text_width(&path[at..]) + 1 > room {
                break;
            }
            tail = at;
        }
        if tail == path.len() {
            // Not even the file's name fits after `…/`: the name alone.
            tail = path.rfind('/').map_or(0, |at| at);
        }
        format!("…{}", &path[tail..])
    }

    /// `snippet` fitted: its lines cut where they must be, its spans found
    /// in them, and its labels wrapped.
    pub fn fit(&self, snippet: &Snippet) -> Fitted {
        let (first, last) = snippet.lines;
        let mut shown: Vec<(usize, Shown)> = Vec::new();
        for line in first..=last + 1 {
            match self.shown(line) {
                Some(s) => shown.push((line, s)),
                None => break,
            }
        }
        let any_cut = shown.iter().any(|(_, s)| s.cut);
        // Byte offset of each shown line in the snippet's text.
        let mut starts = HashMap::default();
        let mut offset = 0;
        for (line, s) in &shown {
            starts.insert(*line, offset);
            offset = if any_cut {
                offset + s.text.len() + 1
            } else {
                self.lines.line_start(self.text, line + 1) - self.lines.line_start(self.text, first)
            };
        }
        let at = |p: Position| -> usize {
            match shown.iter().find(|(l, _)| *l == p.line) {
                Some((line, s)) => {
                    starts[line] + s.at[p.column.saturating_sub(1).min(s.at.len() - 1)]
                }
                None => offset,
            }
        };
        let spans: Vec<(usize, usize)> = (snippet.marks.iter())
            .map(|m| {
                let start = at(m.span.start);
                (start, at(m.span.end).max(start))
            })
            .collect();
        let mut labels: Vec<Option<String>> = (snippet.marks.iter())
            .map(|m| Some(m.text.to_string()))
            .collect();
        for (line, marks) in Self::single_lines(snippet) {
            let Some((_, s)) = shown.iter().find(|(l, _)| *l == line) else {
                continue;
            };
            let cells = cells(&s.text);
            let col = |byte: usize| {
                (cells.iter())
                    .find(|c| c.byte >= byte)
                    .map_or(line_width(&cells), |c| c.col)
            };
            let columns = |i: usize| {
                let (start, end) = spans[i];
                (col(start - starts[&line]), col(end - starts[&line]))
            };
            let room = self.room(line);
            let text_room = |bar: usize| room.saturating_sub(bar + BAR);
            // Labels without room leave, and so do those drawn before the
            // primary span's when it has none (miette puts its bar after
            // theirs); the bars of the others can only move left.
            // A span the cut left out entirely (it maps to no text) has
            // nothing to draw its label under: it is named in a note.
            let cut_off = |i: usize| {
                let m = &snippet.marks[i];
                spans[i].0 == spans[i].1 && m.span.start != m.span.end
            };
            let mut kept: Vec<usize> = marks
                .iter()
                .copied()
                .filter(|&i| i == 0 || !cut_off(i))
                .collect();
            loop {
                let spans: Vec<(usize, usize)> = kept.iter().map(|&i| columns(i)).collect();
                let fits = |bar: usize, i: usize| {
                    text_room(bar) >= text_width(snippet.marks[i].text).min(LABEL_MIN)
                };
                let bars = bars_at(&spans);
                let primary = kept.iter().position(|&i| i == 0);
                let leave: Vec<usize> = (kept.iter().zip(&bars).enumerate())
                    .filter(|&(at, (&i, &bar))| {
                        i != 0
                            && (!fits(bar, i)
                                || primary.is_some_and(|p| at < p && !fits(bars[p], 0)))
                    })
                    .map(|(_, (&i, _))| i)
                    .collect();
                if leave.is_empty() {
                    break;
                }
                kept.retain(|i| !leave.contains(i));
            }
            let spans: Vec<(usize, usize)> = kept.iter().map(|&i| columns(i)).collect();
            for &i in &marks {
                labels[i] = None;
            }
            for (bar, &i) in bars_at(&spans).iter().zip(&kept) {
                labels[i] = Some(wrap(snippet.marks[i].text, text_room(*bar)));
            }
        }
        for (i, mark) in snippet.marks.iter().enumerate() {
            if mark.span.start.line != mark.span.end.line {
                // `╰──── ` then the text, after the gutter.
                let room = self.room(mark.span.end.line).saturating_sub(2);
                labels[i] = Some(wrap(mark.text, room));
            }
        }
        Fitted {
            text: any_cut.then(|| {
                shown
                    .iter()
                    .flat_map(|(_, s)| [s.text.as_str(), "\n"])
                    .collect()
            }),
            spans,
            labels,
        }
    }
}

/// A label's `text` wrapped into `room` columns (at least a few: a label
/// squeezed into less would be unreadable), at spaces or after the hyphens
/// of a rule's name.
fn wrap(text: &str, room: usize) -> String {
    if text_width(text) <= room {
        return text.to_string();
    }
    let options = textwrap::Options::new(room.max(8))
        .break_words(true)
        .word_splitter(textwrap::WordSplitter::HyphenSplitter);
    textwrap::wrap(text, options).join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn focus(start: usize, end: usize, labels: usize) -> Option<Focus> {
        let all = Reach { start, end, labels };
        Some(Focus { all, primary: None })
    }

    #[test]
    fn lines_that_fit_are_shown_whole() {
        assert_eq!(cut(60, 72, None), None);
        assert_eq!(cut(60, 72, focus(10, 20, 50)), None);
    }

    #[test]
    fn wide_lines_are_cut_from_the_right_when_their_spans_fit() {
        assert_eq!(cut(160, 72, None), Some((0, 71)));
        assert_eq!(cut(160, 72, focus(10, 30, 60)), Some((0, 71)));
    }

    #[test]
    fn a_span_past_the_room_cuts_from_the_left() {
        // `    let send_key = keys::invoice_send_key(..);` with the call marked.
        assert_eq!(cut(78, 72, focus(19, 77, 72)), Some((7, 78)));
        // The line goes on after the span: `…` on both sides.
        assert_eq!(cut(200, 72, focus(100, 120, 130)), Some((59, 129)));
    }

    #[test]
    fn a_label_without_room_cuts_a_line_that_fits() {
        assert_eq!(cut(62, 72, focus(20, 62, 81)), Some((10, 62)));
    }

    #[test]
    fn the_first_span_is_never_cut_off() {
        assert_eq!(cut(300, 72, focus(5, 200, 210)), Some((5, 75)));
        assert_eq!(cut(300, 72, focus(0, 200, 210)), Some((0, 71)));
    }

    #[test]
    fn the_primary_spans_decide_when_not_every_span_fits() {
        let all = Reach {
            start: 20,
            end: 90,
            labels: 100,
        };
        let primary = Reach {
            start: 70,
            end: 90,
            labels: 100,
        };
        let focus = Some(Focus {
            all,
            primary: Some(primary),
        });
        assert_eq!(cut(120, 50, focus), Some((51, 99)));
    }

    #[test]
    fn columns_count_as_miette_draws_them() {
        let line = "\tlet é = '日';";
        let cells = cells(line);
        assert_eq!(cells[0].width, 4);
        assert_eq!(line_width(&cells), 4 + 12 + 1);
        // The tab straddles the cut: the text starts after it.
        let s = shown(line, &cells, (2, 12));
        assert_eq!(s.text, "…let é = …");
        assert_eq!(s.at[1], "…".len());
    }

    #[test]
    fn overlapping_spans_put_their_bars_after_each_other() {
        // `format!("idem:{}:{}", ctx.tenant_id, key)` and `ctx.tenant_id`.
        assert_eq!(bars_at(&[(20, 61), (42, 55)]), [40, 61]);
    }

    #[test]
    fn labels_wrap_into_their_room() {
        assert_eq!(wrap("tenant component", 20), "tenant component");
        assert_eq!(wrap("tenant component", 12), "tenant\ncomponent");
        assert_eq!(
            wrap("missing-scope-component", 16),
            "missing-scope-\ncomponent"
        );
    }
}
