//! IDEM900: a suppression comment that suppresses nothing (the docs are
//! rules/unused-suppression.md). The check lives in `crate::suppress`,
//! because it needs every other rule's findings.

use super::Rule;
use crate::diagnostic::Severity;

/// The rule.
pub const RULE: Rule = Rule {
    code: "IDEM900",
    name: "unused-suppression",
    level: Severity::Warning,
    check: None,
    summary: "a suppression comment suppresses nothing",
    docs: include_str!("../../rules/unused-suppression.md"),
    needs: &[super::Fact::Suppressions],
};
