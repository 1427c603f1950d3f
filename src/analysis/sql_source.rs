//! Where each char of a SQL text is in its file: the mapping from char
//! offsets of the SQL (what the SQL analysis in [`super::sql`] reports) back
//! to file positions, for `*.sql` files and for DDL string literals
//! ([`super::sql_literals`]) alike.

use crate::diagnostic::{Position, Span};

/// Where each char of a SQL text is in its file.
#[derive(Debug, Clone)]
pub enum SqlSource {
    /// The SQL is the file itself: offsets map through line starts.
    File {
        /// Char offset of each line's first char.
        line_starts: Vec<usize>,
    },
    /// The SQL is the value of a string literal: one entry per value char.
    Literal {
        /// File position of the source text that produced each char, plus
        /// one entry for the end.
        starts: Vec<Position>,
        /// File position just after each char's source text.
        ends: Vec<Position>,
    },
}

impl SqlSource {
    /// The mapping for a whole file.
    pub fn file(text: &str) -> Self {
        SqlSource::File {
            line_starts: char_line_starts(text),
        }
    }

    fn position(&self, offset: usize, end: bool) -> Position {
        match self {
            SqlSource::File { line_starts } => {
                let line = line_starts.partition_point(|&s| s <= offset).max(1);
                Position {
                    line,
                    column: offset - line_starts[line - 1] + 1,
                }
            }
            SqlSource::Literal { starts, ends } => {
                if end && offset > 0 {
                    ends.get(offset - 1)
                        .or(ends.last())
                        .copied()
                        .unwrap_or_default()
                } else {
                    starts
                        .get(offset)
                        .or(starts.last())
                        .copied()
                        .unwrap_or_default()
                }
            }
        }
    }

    /// The file span of the char range `[start, end)`.
    pub fn span(&self, range: CharRange) -> Span {
        let start = self.position(range.start, false);
        let end = if range.end > range.start {
            self.position(range.end, true)
        } else {
            start
        };
        Span { start, end }
    }
}

/// A half-open range of char offsets into a SQL text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CharRange {
    /// First char.
    pub start: usize,
    /// Just after the last char.
    pub end: usize,
}

/// Char offset of the first char of each line.
pub(super) fn char_line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    for (i, ch) in text.chars().enumerate() {
        if ch == '\n' {
            starts.push(i + 1);
        }
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_map_through_a_file() {
        let source = SqlSource::file("ab\ncdé\nf");
        let span = source.span(CharRange { start: 4, end: 7 });
        assert_eq!(span.start, Position { line: 2, column: 2 });
        assert_eq!(span.end, Position { line: 3, column: 1 });
    }
}
