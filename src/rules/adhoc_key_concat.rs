//! IDEM001: a storage key built by ad-hoc concatenation of a client key
//! (the docs are rules/adhoc-key-concat.md).

use super::{Finding, Rule, Sink};
use crate::analysis::vocab::Component;
use crate::analysis::UnitFacts;
use crate::diagnostic::Severity;
use crate::fix::{ScopedCall, BINDING, BINDING_SLOT};

/// The rule.
pub const RULE: Rule = Rule {
    code: "IDEM001",
    name: "adhoc-key-concat",
    level: Severity::Error,
    check: Some(check),
    summary: "idempotency key built by ad-hoc string concatenation",
    docs: include_str!("../../rules/adhoc-key-concat.md"),
    needs: &[super::Fact::KeyEvents],
};

/// Reports every concatenation that builds a key in key position from a client key.
pub fn check(facts: &UnitFacts, sink: &mut Sink<'_>) {
    for (event, key, _) in facts.client_key_events() {
        let value = &event.value;
        let Some(concat) = value.concat else {
            continue;
        };
        let mut labels = vec![("client key comes from here".to_string(), key.site)];
        if event.site != concat {
            labels.push(("used as a storage key here".to_string(), event.site));
        }
        let call = ScopedCall::new([
            value.component(Component::Tenant),
            value.component(Component::Principal),
            value.component(Component::Route),
            Some(key),
        ]);
        // A component the service does not have is a constant, never asked for.
        let service = sink.scope(concat.file);
        let call = (Component::ALL.into_iter())
            .filter(|c| !service.has(*c))
            .fold(call, ScopedCall::without);
        let help = format!(
            "bind the scoped key first, `{BINDING_SLOT}`, then use `{BINDING}.storage_key()`: scoped(..) rejects separators inside components instead of letting two tuples collide",
        );
        let message = "idempotency key built by ad-hoc concatenation of the client key: components can collide across the separator";
        sink.add(
            Finding::new(&RULE, concat, message)
                .labels(labels)
                .help(help)
                .fix(call)
                .confidence(event.confidence()),
        );
    }
}
