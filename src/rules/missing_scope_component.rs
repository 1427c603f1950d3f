//! IDEM002: a storage key whose scope lacks tenant, principal or route
//! (the docs are rules/missing-scope-component.md).

use super::{english_list, suggestion_text, Finding, Rule, Sink};
use crate::analysis::value::KeySource;
use crate::analysis::vocab::Component;
use crate::analysis::UnitFacts;
use crate::diagnostic::Severity;

/// The rule.
pub const RULE: Rule = Rule {
    code: "IDEM002",
    name: "missing-scope-component",
    level: Severity::Error,
    check: Some(check),
    summary: "idempotency key scope lacks tenant, principal or route",
    docs: include_str!("../../rules/missing-scope-component.md"),
    needs: &[super::Fact::KeyEvents],
};

/// Reports every key in key position whose scope misses a component.
pub fn check(facts: &UnitFacts, sink: &mut Sink<'_>) {
    for (event, key, source) in facts.client_key_events() {
        let value = &event.value;
        let placeholder = |c: Component| value.placeholders.iter().find(|p| p.component == c);
        let missing: Vec<Component> = Component::ALL
            .into_iter()
            .filter(|c| value.component(*c).is_none() || placeholder(*c).is_some())
            .collect();
        if missing.is_empty() {
            continue;
        }
        let names: Vec<&str> = missing.iter().map(|c| c.as_str()).collect();
        let site = value.construct.map_or(event.site, |c| c.site);
        let mut labels = vec![(
            match source {
                KeySource::IdempotencyKey => {
                    "client key from the Idempotency-Key header".to_string()
                }
                KeySource::RequestId => "request id used as an idempotency key".to_string(),
            },
            key.site,
        )];
        for component in Component::ALL {
            if let Some(p) = placeholder(component) {
                labels.push((
                    format!("placeholder {} `{}`", component.as_str(), p.origin.text),
                    p.origin.site,
                ));
            } else if let Some(origin) = value.component(component) {
                labels.push((format!("{} component", component.as_str()), origin.site));
            }
        }
        if site != event.site {
            labels.push(("reaches storage here".to_string(), event.site));
        }
        let what = if value.construct.is_none() {
            "the raw client key is used as the storage key: its scope lacks"
        } else {
            "idempotency key scope lacks"
        };
        let help = format!(
            "scope the key: idem_scope::scoped({}, {}, {}, {})?.storage_key(); a key shared across {} lets one caller replay another's response",
            suggestion_text(value.component(Component::Tenant).filter(|_| placeholder(Component::Tenant).is_none()), "&tenant"),
            suggestion_text(value.component(Component::Principal).filter(|_| placeholder(Component::Principal).is_none()), "&principal"),
            suggestion_text(value.component(Component::Route).filter(|_| placeholder(Component::Route).is_none()), "\"route\""),
            suggestion_text(Some(key), "&key"),
            english_list(&missing.iter().map(|c| match c {
                Component::Tenant => "tenants",
                Component::Principal => "principals",
                Component::Route => "routes",
            }).collect::<Vec<_>>()),
        );
        sink.add(
            Finding::new(&RULE, site, format!("{what} {}", english_list(&names)))
                .labels(labels)
                .help(help),
        );
    }
}
