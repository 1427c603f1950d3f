//! IDEM006: a scope component or client key stripped of the key separator
//! instead of being rejected (the docs are rules/separator-sanitized.md).

use super::{Finding, Rule, Sink};
use crate::analysis::UnitFacts;
use crate::diagnostic::Severity;

/// The rule.
pub const RULE: Rule = Rule {
    code: "IDEM006",
    name: "separator-sanitized",
    level: Severity::Error,
    check: Some(check),
    summary: "key component stripped of the separator instead of being rejected",
    docs: include_str!("../../rules/separator-sanitized.md"),
    // Sanitisers count inside client keys and `scoped(..)` keys.
    needs: &[super::Fact::KeyEvents],
};

/// Reports every sanitising call whose result is built into a key that
/// reaches storage.
pub fn check(facts: &UnitFacts, sink: &mut Sink<'_>) {
    for event in facts.component_events() {
        let value = &event.value;
        for sanitized in value.resolved_sanitized() {
            let mut labels = vec![(
                "the sanitised value is built into an idempotency key here".to_string(),
                value.construct.map_or(event.site, |c| c.site),
            )];
            if value
                .construct
                .is_some_and(|c| c.site.span.start.line != event.site.span.start.line)
            {
                labels.push(("the key reaches storage here".to_string(), event.site));
            }
            let what = if sanitized.separator.starts_with("is_") {
                format!(
                    "drops every key separator (`{}` keeps only letters and digits)",
                    sanitized.separator
                )
            } else {
                format!("strips the key separator {}", sanitized.separator)
            };
            let message = format!(
                "`{}` {what} from a key component instead of rejecting it: two different components collapse onto one key",
                sanitized.origin.text
            );
            let help = "reject a component that contains the separator (400/401) and build the key with idem_scope::scoped(..), which refuses separators instead of stripping them";
            sink.add(
                Finding::new(&RULE, sanitized.origin.site, message)
                    .labels(labels)
                    .help(help)
                    .confidence(event.confidence()),
            );
        }
    }
}
