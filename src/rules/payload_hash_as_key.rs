//! IDEM003: a hash of the request payload used as the idempotency key
//! (the docs are rules/payload-hash-as-key.md).

use super::{covers, Finding, Rule, Sink};
use crate::analysis::key_event::KeyEvent;
use crate::analysis::vocab::names_operation;
use crate::analysis::UnitFacts;
use crate::diagnostic::Severity;
use crate::model::diagnostic::Confidence;

/// The rule.
pub const RULE: Rule = Rule {
    code: "IDEM003",
    name: "payload-hash-as-key",
    level: Severity::Error,
    check: Some(check),
    summary: "hash of the request payload used as the idempotency key",
    docs: include_str!("../../rules/payload-hash-as-key.md"),
    needs: &[super::Fact::KeyEvents, super::Fact::HashCalls],
};

/// Reports every payload hash that reaches a key position on its own, i.e.
/// not beside a client key or inside a scoped key.
pub fn check(facts: &UnitFacts, sink: &mut Sink<'_>) {
    // A hash in a unit with no idempotency context keys a cache or a blob,
    // unless the key is a scoped key made by hand with the hash in the
    // client key's place: beside a tenant, a principal and a route, at a
    // storage call (`(org, user, "order.place", digest)`). A blob's path or
    // a cache key lacks one of them.
    // The file must name both in its code (`UnitFacts::scope_files`), where
    // the pre-filter looks for them too.
    let hand_scoped_only = facts.without_idempotency_context;
    if hand_scoped_only && facts.scope_files.is_empty() {
        return;
    }
    for event in &facts.key_events {
        let value = &event.value;
        if hand_scoped_only && !(hand_scoped(event) && facts.scope_files.contains(&event.site.file))
        {
            continue;
        }
        let Some(hash) = &value.payload_hash else {
            continue;
        };
        // Beside a client key (or a key a caller may pass in), the hash only
        // narrows a real key: that is a fingerprint, not a payload key.
        // A key from one branch and a lone hash from another (`hash_alone`)
        // is still a payload key on the hash's path.
        // A parameter's key (which a caller may pass in) beside it is one
        // more such key, unless the hash is on a path of its own.
        if ((value.carries_key() || event.key_params != 0) && !value.hash_alone) || value.server_ns
        {
            continue;
        }
        let site = value.hash_keyed.unwrap_or(event.site);
        let mut labels = vec![
            (
                "hash of the request payload computed here".to_string(),
                hash.hash.site,
            ),
            ("request payload".to_string(), hash.payload.site),
        ];
        if !covers(event.site, site) {
            labels.push(("used as a storage key here".to_string(), event.site));
        }
        let message = "a hash of the request payload is used as the idempotency key: a second, legitimate request with the same payload is swallowed as a duplicate";
        let help = "key the record by the client's Idempotency-Key, scoped with idem_scope::scoped(&tenant, &principal, \"route\", &key), and store the payload hash beside it as a fingerprint (idem_scope::Fingerprint::of) to answer 422 when a key is reused with a different payload";
        // A payload known only by a name (a parameter called `bytes`) or a
        // key position known only by one make the path `possible`.
        let confidence = if hash.payload.by_name {
            Confidence::Possible
        } else {
            event.confidence()
        };
        sink.add(
            Finding::new(&RULE, site, message)
                .labels(labels)
                .help(help)
                .confidence(confidence),
        );
    }
}

/// Whether `event` is a key made by hand of a tenant, a principal and an
/// operation (a route that is not merely a folder of an object path:
/// `names_operation`) beside whatever else, at a storage call.
fn hand_scoped(event: &KeyEvent) -> bool {
    let value = &event.value;
    let operation = (value.route.as_ref()).is_some_and(|route| names_operation(&route.text));
    event.raw_ok && value.tenant.is_some() && value.principal.is_some() && operation
}
