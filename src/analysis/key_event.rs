//! A value reaching a key position (`KeyEvent`), the store it reaches and
//! the confidence a finding on it has. Split from `value.rs`, which holds
//! what a value carries.

use super::value::{KeySource, Origin, Site, Value};
use crate::model::diagnostic::Confidence;

/// A value that reaches a key position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyEvent {
    /// The value.
    pub value: Value,
    /// The key expression.
    pub site: Site,
    /// A real storage call: a raw client key counts here. Name-based
    /// positions (`let cache_key = …`) only count constructed keys.
    pub raw_ok: bool,
    /// An idempotency store (request ids count as client keys here).
    pub strong: bool,
    /// Which store the key reaches, when it is a storage call: the receiver's
    /// name (`idem_store`, `session`), `redis`, or `sql:<table>`. Equal names
    /// across the crate are taken to be the same store.
    pub store: Option<String>,
    /// The `impl` type whose method makes the storage call, if any: two
    /// receivers named alike in methods of different types (the `store` of
    /// a session middleware and of an idempotency middleware) are different
    /// stores. Unknown (a free function) matches any owner.
    pub store_owner: Option<String>,
    /// Parameters of the enclosing function, flowing into the key, whose
    /// names say they may hold a client key (`key`, `idem_key`): whether the
    /// key is a client key is only known at the call site.
    pub key_params: u64,
    /// The site is the key argument of the call into the function that
    /// stores the key (`repo.insert(&key)`), fixed where a key parameter
    /// first reached storage through a call: callers further out report
    /// there, not at their own argument.
    pub at_call: bool,
    /// The body of the function the event is in (where a callee's pending
    /// position was applied, the caller's).
    pub function: Site,
    /// That function reads a tenant somewhere (`who.tenant_id` handed to
    /// the business call): a key there without one lacks it by flow, not
    /// only where a principal might imply one.
    pub tenant_at_hand: bool,
}

impl KeyEvent {
    /// Whether this event and `other` reach the same store: equal names,
    /// and equal owners where both are known.
    pub fn same_store(&self, other: &KeyEvent) -> bool {
        self.store.is_some()
            && self.store == other.store
            && match (&self.store_owner, &other.store_owner) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
    }

    /// How the finding on this event is known: `possible` when its only
    /// client key is a name and nothing scoped it.
    pub fn confidence(&self) -> crate::model::diagnostic::Confidence {
        // A position known only by its name (`let cache_key = ..`, a `*_key`
        // field) is a sink by name, not by use.
        if !self.raw_ok {
            return crate::model::diagnostic::Confidence::Possible;
        }
        match self.client_key() {
            Some((_, source)) if !self.value.scoped => source.confidence(),
            _ => crate::model::diagnostic::Confidence::Certain,
        }
    }

    /// Whether this event's value may start a finding of confidence `tier`
    /// here: a fact that counts anywhere, or one that counts only at an
    /// idempotency store (a request id, SQL text) where this is one.
    pub fn starts_findings_at(&self, tier: Confidence) -> bool {
        let facts = self.value.fact_tiers();
        facts.fact(tier) || (self.strong && facts.at_stores(tier))
    }

    /// The client key this value carries, when it counts here: a request id
    /// is a client key only where it reaches an idempotency store.
    pub fn client_key(&self) -> Option<(&Origin, KeySource)> {
        let (origin, source) = self.value.client_key.as_ref()?;
        (!source.is_request_id() || self.strong).then_some((origin, *source))
    }

    /// Whether this event writes a client's key (one that counts there, or
    /// one in the client namespace) into its store: a server-minted key in
    /// the same store may meet it (IDEM007).
    pub fn writes_client_key(&self) -> bool {
        let value = &self.value;
        // Alternatives (`server_alone`): one writes a server id, another
        // the client's key.
        if (value.server_id.is_some() && !value.server_alone) || self.store.is_none() {
            return false;
        }
        match &value.client_key {
            Some(_) => self.client_key().is_some(),
            None => value.client_ns,
        }
    }
}
