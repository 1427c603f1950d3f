//! Identity moves: where a scope's records lived before a merge or a move.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, SystemTime};

/// Old `(tenant, principal)` scopes that now belong to a new one.
///
/// When tenants merge or a principal moves, a client may retry a request it
/// sent before the move; its key now resolves to the new scope, where nothing
/// is stored, and the request would run a second time. The layer consults the
/// aliases **on a miss only** (after winning a claim in the new scope): if
/// the old scope holds a record under the same route and key, the claim is
/// released and that record answers (replay, 409 or 422). New records are
/// written under the new scope only; aliases are never written by the layer.
///
/// An alias should live as long as the records it points to (the layer's
/// TTL); expired aliases are ignored.
///
/// ```
/// use std::time::Duration;
/// use idem_scope::Aliases;
///
/// let aliases = Aliases::new();
/// let day = Duration::from_secs(24 * 3600);
/// aliases.merge_tenant("globex", "acme", day);                 // every principal of globex
/// aliases.move_principal(("acme", "u1"), ("acme", "u9"), day); // one principal
/// assert_eq!(aliases.previous("acme", "u7"), vec![("globex".to_owned(), "u7".to_owned())]);
/// // Moved principals first, then the merged tenants.
/// let old = |t: &str, p: &str| (t.to_owned(), p.to_owned());
/// assert_eq!(aliases.previous("acme", "u9"), vec![old("acme", "u1"), old("globex", "u9")]);
/// assert!(aliases.previous("globex", "u7").is_empty());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Aliases {
    inner: Arc<RwLock<Table>>,
}

/// `(tenant, principal)`.
type Identity = (String, String);

#[derive(Debug, Default)]
struct Table {
    /// new tenant → (old tenant, until): every principal moved along.
    tenants: HashMap<String, Vec<(String, SystemTime)>>,
    /// (new tenant, new principal) → (old tenant, old principal, until).
    principals: HashMap<Identity, Vec<(Identity, SystemTime)>>,
}

impl Aliases {
    /// No aliases.
    pub fn new() -> Self {
        Aliases::default()
    }

    /// Tenant `from` was merged into `into`; each principal keeps its id.
    pub fn merge_tenant(&self, from: &str, into: &str, ttl: Duration) {
        let until = SystemTime::now() + ttl;
        self.write()
            .tenants
            .entry(into.to_owned())
            .or_default()
            .push((from.to_owned(), until));
    }

    /// Principal `from` (tenant, principal) is now `to`.
    pub fn move_principal(&self, from: (&str, &str), to: (&str, &str), ttl: Duration) {
        let until = SystemTime::now() + ttl;
        self.write()
            .principals
            .entry((to.0.to_owned(), to.1.to_owned()))
            .or_default()
            .push(((from.0.to_owned(), from.1.to_owned()), until));
    }

    /// The live old scopes of `(tenant, principal)`, newest alias first.
    pub fn previous(&self, tenant: &str, principal: &str) -> Vec<(String, String)> {
        let now = SystemTime::now();
        let table = self.inner.read().unwrap_or_else(PoisonError::into_inner);
        let moved = table
            .principals
            .get(&(tenant.to_owned(), principal.to_owned()))
            .into_iter()
            .flatten()
            .rev()
            .filter(|(_, until)| *until > now)
            .map(|(old, _)| old.clone());
        let merged = table
            .tenants
            .get(tenant)
            .into_iter()
            .flatten()
            .rev()
            .filter(|(_, until)| *until > now)
            .map(|(t, _)| (t.clone(), principal.to_owned()));
        moved.chain(merged).collect()
    }

    /// True when no alias is registered (expired ones included).
    pub fn is_empty(&self) -> bool {
        let table = self.inner.read().unwrap_or_else(PoisonError::into_inner);
        table.tenants.is_empty() && table.principals.is_empty()
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Table> {
        self.inner.write().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expired_aliases_are_ignored() {
        let a = Aliases::new();
        a.merge_tenant("old", "new", Duration::ZERO);
        assert!(a.previous("new", "u1").is_empty());
        assert!(!a.is_empty());
    }
}
