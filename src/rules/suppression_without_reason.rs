//! IDEM901: a suppression comment without a reason (the docs are
//! rules/suppression-without-reason.md). The check lives in `crate::suppress`.

use super::Rule;
use crate::diagnostic::Severity;

/// The rule.
pub const RULE: Rule = Rule {
    code: "IDEM901",
    name: "suppression-without-reason",
    level: Severity::Warning,
    check: None,
    summary: "a suppression comment does not say why",
    docs: include_str!("../../rules/suppression-without-reason.md"),
    needs: &[super::Fact::Suppressions],
};
