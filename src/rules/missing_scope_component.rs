//! IDEM002: a storage key whose scope lacks tenant, principal or route
//! (the docs are rules/missing-scope-component.md).

use super::{english_list, Finding, Rule, Sink};
use crate::analysis::value::{KeySource, Value};
use crate::analysis::vocab::Component;
use crate::analysis::UnitFacts;
use crate::diagnostic::Severity;
use crate::fix::{ScopedCall, BINDING, BINDING_SLOT};
use crate::model::diagnostic::Confidence;

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

/// Reports every key in key position whose scope misses a component the
/// service has (`[scope]` of the finding's file: a component the service
/// does not have counts as present and is never named).
pub fn check(facts: &UnitFacts, sink: &mut Sink<'_>) {
    for (event, key, source) in facts.client_key_events() {
        let value = &event.value;
        let site = value.construct.map_or(event.site, |c| c.site);
        let service = sink.scope(site.file);
        let placeholder = |c: Component| value.placeholders.iter().find(|p| p.component == c);
        let lacks = |c: Component| value.component(c).is_none() || placeholder(c).is_some();
        let missing: Vec<Component> = Component::ALL
            .into_iter()
            .filter(|c| service.has(*c) && lacks(*c))
            .collect();
        if missing.is_empty() {
            continue;
        }
        let names: Vec<&str> = missing.iter().map(|c| c.as_str()).collect();
        let mut labels = vec![(
            match source {
                // A sender-minted header never becomes a client key.
                KeySource::IdempotencyKey | KeySource::SenderId => {
                    "client key from the Idempotency-Key header".to_string()
                }
                KeySource::RequestId | KeySource::NamedRequestId => {
                    "request id used as an idempotency key".to_string()
                }
                KeySource::Named => {
                    "a value named like a client key (no header read seen)".to_string()
                }
            },
            key.site,
        )];
        for component in Component::ALL {
            if let Some(p) = placeholder(component).filter(|_| service.has(component)) {
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
        // "Raw" only where nothing was added to the key: no construction
        // and no component (a digest of `principal, route, key` is scoped
        // by two of them, not raw).
        let raw = value.construct.is_none()
            && value.resource.is_none()
            && Component::ALL.into_iter().all(lacks);
        let what = if raw {
            "the raw client key is used as the storage key: its scope lacks"
        } else {
            "idempotency key scope lacks"
        };
        if let Some(resource) = &value.resource {
            labels.push((
                format!("key scoped to the resource `{}` only", resource.text),
                resource.site,
            ));
        }
        let known = |c: Component| value.component(c).filter(|_| placeholder(c).is_none());
        let call = ScopedCall::new([
            known(Component::Tenant),
            known(Component::Principal),
            known(Component::Route),
            Some(key),
        ]);
        let call = (Component::ALL.into_iter())
            .filter(|c| !service.has(*c))
            .fold(call, ScopedCall::without);
        let shared: Vec<&str> = missing
            .iter()
            .map(|c| match c {
                Component::Tenant => "tenants",
                Component::Principal => "principals",
                Component::Route => "routes",
            })
            .collect();
        let help = format!(
            "scope the key: bind it first, `{BINDING_SLOT}`, then use `{BINDING}.storage_key()`; a key shared across {} lets one caller replay another's response",
            english_list(&shared),
        );
        let judged_by_name = value.resource.is_some()
            || (tenant_implied(&missing, value)
                && placeholder(Component::Tenant).is_none()
                && !event.tenant_at_hand)
            || unnamed_part(value).is_some();
        let confidence = if judged_by_name {
            Confidence::Possible
        } else {
            event.confidence()
        };
        let unless = match &value.resource {
            Some(resource) => format!(
                " (unless `{}`, the resource it is scoped to, implies them)",
                resource.text
            ),
            None if judged_by_name => {
                " (unless the principal's ids are unique across tenants)".to_string()
            }
            None => String::new(),
        };
        sink.add(
            Finding::new(
                &RULE,
                site,
                format!("{what} {}{unless}", english_list(&names)),
            )
            .labels(labels)
            .help(help)
            .fix(call)
            .confidence(confidence),
        );
    }
}

/// A part of a tuple or record key that is neither the client key, a
/// scope component the vocabulary names, nor a literal
/// (`(token_id, session_scope, key)`): it may be the missing component
/// under a name the vocabulary lacks, so the absence is judged by names
/// only (rules.md, "What a service has").
fn unnamed_part(value: &Value) -> Option<&Value> {
    let parts: Vec<&Value> = match (&value.elems, &value.fields) {
        (Some(elems), _) => elems.iter().collect(),
        (None, Some(fields)) => fields.iter().map(|(_, v)| v).collect(),
        (None, None) => return None,
    };
    parts.into_iter().find(|part| {
        // A value that carries nothing (`InstantSecs::now()`, a counter)
        // is no identity under another name.
        !carries_nothing(part)
            && part.client_key.is_none()
            && part.literal.is_none()
            && !part.scoped
            && part.placeholders.is_empty()
            && part.fallbacks.is_empty()
            && Component::ALL
                .into_iter()
                .all(|c| part.component(c).is_none())
            && part.payload_hash.is_none()
            && part.server_id.is_none()
    })
}

/// Whether a value holds no fact at all, nor do its fields or elements
/// (the calls it came through aside): `Instant::now()`, a counter.
fn carries_nothing(value: &Value) -> bool {
    let mut bare = value.clone();
    bare.via = Default::default();
    bare.fields = None;
    bare.elems = None;
    bare == Value::default()
        && (value.fields.iter().flat_map(|f| f.iter())).all(|(_, f)| carries_nothing(f))
        && value.elems.iter().flatten().all(carries_nothing)
}

/// Whether the tenant is the only component missing beside a principal:
/// a principal id from authentication (a JWT `sub`, a user UUID) is most
/// often unique across tenants and then implies one. Only names say whether
/// it is, so such a finding is `possible` (rules.md, "Evidence and
/// confidence"). Not where the tenant is a placeholder (`scoped("", ..)`,
/// missing by flow) or the principal a shared default, which implies
/// nothing, nor where the function reads a tenant it leaves out of the key
/// (`KeyEvent::tenant_at_hand`).
fn tenant_implied(missing: &[Component], value: &Value) -> bool {
    let defaulted = |c: Component| value.fallbacks.iter().any(|f| f.component == Some(c));
    missing == [Component::Tenant] && value.principal.is_some() && !defaulted(Component::Principal)
}
