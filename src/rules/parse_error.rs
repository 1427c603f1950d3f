//! IDEM000: a file that could not be analysed (the docs are rules/parse-error.md).

use super::Rule;
use crate::diagnostic::Severity;

/// The rule.
pub const RULE: Rule = Rule {
    code: "IDEM000",
    name: "parse-error",
    level: Severity::Error,
    check: None,
    summary: "a file could not be analysed",
    docs: include_str!("../../rules/parse-error.md"),
    needs: &[super::Fact::Nothing],
};
