//! IDEM005: a tenant or principal in an idempotency key that falls back to
//! a sentinel ("nobody in particular") when identity is missing
//! (the docs are rules/global-scope-fallback.md).

use super::{Finding, Rule, Sink};
use crate::analysis::vocab::Component;
use crate::analysis::UnitFacts;
use crate::diagnostic::Severity;

/// The rule.
pub const RULE: Rule = Rule {
    code: "IDEM005",
    name: "global-scope-fallback",
    level: Severity::Error,
    check: Some(check),
    summary: "tenant or principal of an idempotency key defaults to a shared sentinel when identity is missing",
    docs: include_str!("../../rules/global-scope-fallback.md"),
    // Defaults and sanitisers count inside client keys and `scoped(..)` keys.
    needs: &[super::Fact::KeyEvents],
};

/// Reports every defaulting expression whose sentinel becomes the tenant or
/// principal of a key that reaches storage.
pub fn check(facts: &UnitFacts, sink: &mut Sink<'_>) {
    for event in facts.component_events() {
        let value = &event.value;
        for fallback in &value.fallbacks {
            let Some(component) = fallback.component else {
                continue;
            };
            if !matches!(component, Component::Tenant | Component::Principal) {
                continue;
            }
            // A service without tenants (`[scope] tenant = false`) has no
            // tenant to default: its shared value is the only one there is.
            if !sink.scope(fallback.origin.site.file).has(component) {
                continue;
            }
            let name = component.as_str();
            let mut labels = vec![(
                format!("the defaulted {name} enters an idempotency key here"),
                value.construct.map_or(event.site, |c| c.site),
            )];
            if value
                .construct
                .is_some_and(|c| c.site.span.start.line != event.site.span.start.line)
            {
                labels.push(("the key reaches storage here".to_string(), event.site));
            }
            let sentinel = if fallback.empty {
                format!("an empty {name}")
            } else {
                format!("`{}`", fallback.sentinel)
            };
            let message = format!(
                "the {name} of an idempotency key falls back to {sentinel} when identity is missing: every caller without one shares a single key space"
            );
            let help = format!(
                "reject the request when the {name} is missing (`.ok_or(ApiError::Unauthorized)?`, 401) or skip deduplication for it; never key it under a shared default"
            );
            sink.add(
                Finding::new(&RULE, fallback.origin.site, message)
                    .labels(labels)
                    .help(help)
                    .confidence(event.confidence()),
            );
        }
    }
}
