//! The `Vocabulary` value: the lists every role, verb and table check
//! reads (built-in names plus configured ones) and the content id that
//! keys the per-thread name cache. The checks live beside their lists in
//! the sibling modules; the built-in lists are assembled in `builtin`.

/// The vocabulary used by the analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vocabulary {
    pub(super) tenant: Vec<String>,
    pub(super) principal: Vec<String>,
    pub(super) route: Vec<String>,
    pub(super) client_key: Vec<String>,
    pub(super) headers: Vec<String>,
    pub(super) store_receivers: Vec<String>,
    pub(super) store_methods: Vec<String>,
    pub(super) key_constructors: Vec<String>,
    /// Identifies the lists' content for the per-thread name cache.
    pub(super) id: u64,
    pub(super) server_ids: Vec<String>,
    pub(super) sentinels: Vec<String>,
    pub(super) claim_verbs: Vec<String>,
    pub(super) complete_verbs: Vec<String>,
    pub(super) release_verbs: Vec<String>,
    pub(super) server_prefixes: Vec<String>,
    pub(super) idempotency_tables: Vec<String>,
    pub(super) payload: Vec<String>,
    pub(super) server_namespaces: Vec<String>,
    /// Fields and parameters the unit's code documents as the client's
    /// key (`documented.rs`): reading one is a source by documentation.
    pub(super) documented_keys: Vec<String>,
}

impl Vocabulary {
    /// Recomputes the content id after the lists changed.
    pub(super) fn with_id(mut self) -> Self {
        use std::hash::{Hash, Hasher};
        self.id = 0;
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        format!("{self:?}").hash(&mut hasher);
        self.id = hasher.finish();
        self
    }
}
