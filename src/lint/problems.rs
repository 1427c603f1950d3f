//! IDEM000 findings the pipeline itself reports: files it could not read,
//! parse or analyse.

use crate::analysis::eval::span_of;
use crate::model::diagnostic::{Confidence, TraceStep};
use crate::model::{Diagnostic, Position, Span};
use crate::rules::parse_error;

/// IDEM000 at `line`:`column` of `path`.
pub(super) fn file_problem(path: &str, message: &str, line: usize, column: usize) -> Diagnostic {
    let pos = Position { line, column };
    Diagnostic {
        code: parse_error::RULE.code,
        name: parse_error::RULE.name,
        severity: parse_error::RULE.level,
        message: message.to_string(),
        path: path.to_string(),
        span: Span {
            start: pos,
            end: pos,
        },
        labels: Vec::new(),
        help: None,
        fix: None,
        confidence: Confidence::Certain,
        trace: TraceStep::here(
            path,
            Span {
                start: pos,
                end: pos,
            },
        ),
    }
}

/// IDEM000 where syn stopped.
pub(super) fn parse_problem(display: &str, err: &syn::Error) -> Diagnostic {
    let at = span_of(err.span()).start;
    file_problem(
        display,
        &format!("cannot parse Rust: {err}"),
        at.line,
        at.column,
    )
}
