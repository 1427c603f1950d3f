//! The configuration schema of the vocabulary (`[vocabulary]` in
//! `idem-lint.toml`) and how configured names join the built-in lists.

use serde::{Deserialize, Serialize};

use super::vocabulary::Vocabulary;

/// Extra names from configuration, added to the built-in lists.
///
/// In configuration files the fields are spelled in kebab-case
/// (`client-key`, `store-receivers`…) like every other key; the snake_case
/// spelling (`client_key`) is accepted too.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct VocabularyExtension {
    /// Identifiers naming a tenant.
    pub tenant: Vec<String>,
    /// Identifiers naming a principal.
    pub principal: Vec<String>,
    /// Identifiers naming a route / operation.
    pub route: Vec<String>,
    /// Identifiers naming a client idempotency key.
    #[serde(alias = "client_key")]
    pub client_key: Vec<String>,
    /// Header names carrying a client idempotency key.
    pub headers: Vec<String>,
    /// Receiver names that denote a store.
    #[serde(alias = "store_receivers")]
    pub store_receivers: Vec<String>,
    /// Method names that use their first argument as a storage key.
    #[serde(alias = "store_methods")]
    pub store_methods: Vec<String>,
    /// Functions whose calls build a correctly scoped key (like `idem_scope::scoped`).
    #[serde(alias = "key_constructors")]
    pub key_constructors: Vec<String>,
    /// Identifiers naming a server-minted id (event, delivery, job…).
    #[serde(alias = "server_ids")]
    pub server_ids: Vec<String>,
    /// Names and literals meaning "nobody in particular" (`anonymous`, `global`…).
    pub sentinels: Vec<String>,
    /// Methods that claim an idempotency record.
    #[serde(alias = "claim_verbs")]
    pub claim_verbs: Vec<String>,
    /// Methods that complete a claimed record.
    #[serde(alias = "complete_verbs")]
    pub complete_verbs: Vec<String>,
    /// Methods that release a claimed record.
    #[serde(alias = "release_verbs")]
    pub release_verbs: Vec<String>,
    /// Literal key prefixes reserved for server-minted keys (default `s:`).
    #[serde(alias = "server_prefixes")]
    pub server_prefixes: Vec<String>,
    /// Fragments of SQL table names that mark an idempotency table (IDEM008).
    pub idempotency_tables: Vec<String>,
    /// Identifiers naming the request payload (`body`, `raw_body`).
    pub payload: Vec<String>,
    /// Literal prefixes that put a key into the server-only namespace (`"s:"`).
    pub server_namespaces: Vec<String>,
}

impl Vocabulary {
    /// Adds configured names to the defaults.
    pub fn extend(&mut self, ext: &VocabularyExtension) {
        let add = |list: &mut Vec<String>, extra: &[String]| {
            for item in extra {
                let item = item.to_lowercase();
                if !list.contains(&item) {
                    list.push(item);
                }
            }
        };
        // Paths and literal prefixes are case-sensitive: `Keys::scoped` is not `keys::scoped`.
        let add_exact = |list: &mut Vec<String>, extra: &[String]| {
            for item in extra {
                if !list.contains(item) {
                    list.push(item.clone());
                }
            }
        };
        add(&mut self.tenant, &ext.tenant);
        add(&mut self.principal, &ext.principal);
        add(&mut self.route, &ext.route);
        add(&mut self.client_key, &ext.client_key);
        add(&mut self.headers, &ext.headers);
        add(&mut self.store_receivers, &ext.store_receivers);
        add(&mut self.store_methods, &ext.store_methods);
        add_exact(&mut self.key_constructors, &ext.key_constructors);
        add(&mut self.server_ids, &ext.server_ids);
        add(&mut self.sentinels, &ext.sentinels);
        add(&mut self.claim_verbs, &ext.claim_verbs);
        add(&mut self.complete_verbs, &ext.complete_verbs);
        add(&mut self.release_verbs, &ext.release_verbs);
        add_exact(&mut self.server_prefixes, &ext.server_prefixes);
        add(&mut self.idempotency_tables, &ext.idempotency_tables);
        add(&mut self.payload, &ext.payload);
        // Prefixes are compared as written: `S:` and `s:` are different keys.
        for prefix in &ext.server_namespaces {
            if !prefix.is_empty() && !self.server_namespaces.contains(prefix) {
                self.server_namespaces.push(prefix.clone());
            }
        }
        // Last: the name cache is keyed by the lists' content.
        *self = std::mem::take(self).with_id();
    }
}
