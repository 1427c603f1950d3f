//! Which delimiter a file leaves unclosed or closes wrongly, for the
//! IDEM000 of a file syn cannot even tokenize: proc-macro2 says only
//! "cannot parse string into token stream"; this says, as rustc does,
//! which delimiter opened where.

use crate::lex::{self, Token};

/// A delimiter problem: the message and the 1-based line and column of the
/// delimiter it is about (the opening one when one is left open).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DelimiterProblem {
    /// `unclosed delimiter: this `(` is never closed`.
    pub message: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// The first unbalanced delimiter of `text`, if any.
pub fn find(text: &str) -> Option<DelimiterProblem> {
    let lexed = lex::lex(text);
    let mut open: Vec<(u8, usize)> = Vec::new();
    for (token, span) in lexed.tokens.iter().zip(&lexed.spans) {
        let at = span.start as usize;
        match *token {
            Token::Open(b) => open.push((b, at)),
            Token::Close(b) => match open.pop() {
                Some((o, _)) if closer(o) == b => {}
                Some((o, opened)) => {
                    let (line, column) = line_column(text, at);
                    let (ol, oc) = line_column(text, opened);
                    return Some(DelimiterProblem {
                        message: format!(
                            "mismatched closing delimiter: `{}` does not close the `{}` opened at {ol}:{oc}",
                            b as char, o as char
                        ),
                        line,
                        column,
                    });
                }
                None => {
                    let (line, column) = line_column(text, at);
                    return Some(DelimiterProblem {
                        message: format!(
                            "unexpected closing delimiter: `{}` closes nothing",
                            b as char
                        ),
                        line,
                        column,
                    });
                }
            },
            _ => {}
        }
    }
    let (o, opened) = open.pop()?;
    let (line, column) = line_column(text, opened);
    Some(DelimiterProblem {
        message: format!("unclosed delimiter: this `{}` is never closed", o as char),
        line,
        column,
    })
}

fn closer(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

/// 1-based line and character column of byte `at`.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_delimiter_and_where_it_opened() {
        let problem = find("fn a() {\n    let x = (1, 2;\n}\n").expect("problem");
        assert_eq!(
            problem.message,
            "mismatched closing delimiter: `}` does not close the `(` opened at 2:13"
        );
        assert_eq!((problem.line, problem.column), (3, 1));
        let problem = find("fn a() {\n    b();\n").expect("problem");
        assert_eq!(
            problem.message,
            "unclosed delimiter: this `{` is never closed"
        );
        assert_eq!((problem.line, problem.column), (1, 8));
        assert_eq!(find("fn a() { \"(\" }"), None);
    }
}
