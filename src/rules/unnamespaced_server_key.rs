//! IDEM007: a server-minted key written, without a server-only namespace,
//! to a store that client keys also reach (the docs are
//! rules/unnamespaced-server-key.md).

use super::{covers, Finding, Rule, Sink};
use crate::analysis::eval::KeyEvent;
use crate::analysis::value::{Origin, Site};
use crate::analysis::UnitFacts;
use crate::diagnostic::Severity;
use crate::model::diagnostic::Confidence;

/// The rule.
pub const RULE: Rule = Rule {
    code: "IDEM007",
    name: "unnamespaced-server-key",
    level: Severity::Error,
    check: Some(check),
    summary: "server-minted key shares a store with client keys without a server namespace",
    docs: include_str!("../../rules/unnamespaced-server-key.md"),
    needs: &[
        super::Fact::KeyEvents,
        super::Fact::Namespaces,
        super::Fact::SharedStores,
    ],
};

/// Whether a client key (raw, concatenated or scoped into the client
/// namespace) reaches the event's store.
/// Whether keys starting with `server` can never equal keys starting with
/// `client`: both prefixes are known and neither starts the other. A prefix
/// on the server key alone is no namespace (a client can send any text).
fn disjoint(server: Option<&String>, client: Option<&String>) -> bool {
    match (server, client) {
        (Some(s), Some(c)) => !s.starts_with(c.as_str()) && !c.starts_with(s.as_str()),
        _ => false,
    }
}

/// Reports every server-minted key without a server namespace in a store
/// that client keys reach somewhere in the crate.
pub fn check(facts: &UnitFacts, sink: &mut Sink<'_>) {
    let client_events: Vec<&KeyEvent> = facts
        .key_events
        .iter()
        .filter(|e| e.writes_client_key() && !e.value.is_key_digest_only())
        .collect();
    // One server id written to one store in one function is one finding,
    // at its first write (the claim), not again at its completion and release.
    // An id read by name (`event.id`, each read a site of its own) is known
    // by its file and text; a minted one (`Uuid::new_v4()`) by its site.
    let id_of = |id: &Origin| match id.text.as_str() {
        "" => format!("{:?}", id.site),
        text => format!("{}:{text}", id.site.file),
    };
    let mut first_write: std::collections::HashMap<(String, &str, Site), Site> =
        std::collections::HashMap::new();
    // Beside a client key the id only narrows it; an alternative's lone id
    // (`server_alone`) is still a server key on its path. A write no key
    // of the server's reaches is no first write of one: the same id given
    // to `scoped_server` on one path and to `scoped` on another is
    // reported on the second.
    let unguarded = |e: &KeyEvent| {
        let v = &e.value;
        !((v.client_key.is_some() && !v.server_alone) || v.server_ns)
    };
    for event in facts.key_events.iter().filter(|e| unguarded(e)) {
        if let (Some(id), Some(store)) = (&event.value.server_id, &event.store) {
            let first = first_write
                .entry((id_of(id), store.as_str(), event.function))
                .or_insert(event.site);
            if (event.site.file, event.site.span.start) < (first.file, first.span.start) {
                *first = event.site;
            }
        }
    }
    for event in &facts.key_events {
        let value = &event.value;
        let (Some(id), Some(store)) = (&value.server_id, &event.store) else {
            continue;
        };
        if !unguarded(event)
            || first_write.get(&(id_of(id), store.as_str(), event.function)) != Some(&event.site)
        {
            continue;
        }
        let same_store: Vec<&&KeyEvent> = client_events
            .iter()
            .filter(|c| c.same_store(event))
            .collect();
        // Disjoint keyspaces: every client key in that store starts with a
        // literal prefix the server key's own prefix cannot meet.
        if !same_store.is_empty()
            && same_store
                .iter()
                .all(|c| disjoint(value.prefix.as_deref(), c.value.prefix.as_deref()))
        {
            continue;
        }
        // The first client-key write of the same store, for the label.
        let Some(client_site) = same_store.first().map(|c| &c.site) else {
            continue;
        };
        // `scoped(.., &event.id)`: the call to change into `scoped_server`.
        let constructed = value.construct.filter(|_| value.scoped).map(|c| c.site);
        // An alternative's lone id (`header.unwrap_or_else(|| Uuid::new_v4()..)`)
        // is itself the server key expression; the constructor also takes
        // the client's key.
        // A helper that scopes what it is given (`key_for(.., &job.job_id)`)
        // is fixed at the call giving it the server's id where client keys
        // go through it too; one only server ids reach is itself the call
        // to change into `scoped_server`.
        let server_helper = constructed.filter(|&c| {
            !covers(event.function, c)
                && !(client_events.iter()).any(|e| e.value.construct.is_some_and(|k| k.site == c))
        });
        let site =
            match value.server_alone && value.server_concat.is_none() && constructed.is_some() {
                true => id.site,
                false => (server_helper.or(value.server_concat))
                    .or(constructed)
                    .unwrap_or(event.site),
            };
        let mut labels = vec![("server-minted id".to_string(), id.site)];
        if !covers(event.site, site) {
            labels.push((format!("written to `{store}` here"), event.site));
        }
        labels.push((
            format!("client keys reach the same store `{store}` here"),
            *client_site,
        ));
        let message = format!("server-minted key written to `{store}` without a server-only namespace: client keys reach the same store, so a client can send this key first and poison the server's own redelivery");
        let help = "bind the key first, `let scoped_key = idem_scope::scoped_server(&tenant, &principal, \"route\", &id)?;`, then use `scoped_key.storage_key()` (namespace `s:`), so no client key can ever equal it";
        // Where client keys reach the store only by a name (a parameter
        // called `idem_key`, a store called `idempotency_keys`), that the
        // store is shared is a judgement by name too.
        let client =
            (same_store.iter().map(|c| c.confidence()).max()).unwrap_or(Confidence::Possible);
        let confidence = event.confidence().min(client);
        sink.add(
            Finding::new(&RULE, site, message)
                .labels(labels)
                .help(help)
                .confidence(confidence),
        );
    }
}
