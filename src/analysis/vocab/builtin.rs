//! The built-in vocabulary: each concern's default lists, gathered into
//! one `Vocabulary` (the only module that sees every concern's lists).

use super::provenance::SERVER_PREFIXES;
use super::roles::{CLIENT_KEY, HEADERS, PRINCIPAL, ROUTE, TENANT};
use super::sentinels::SENTINELS;
use super::stores::{IDEMPOTENCY_TABLES, KEY_CONSTRUCTORS, STORE_METHODS, STORE_RECEIVERS};
use super::verbs::{CLAIM_VERBS, COMPLETE_VERBS, RELEASE_VERBS};
use super::vocabulary::Vocabulary;

fn owned(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

impl Default for Vocabulary {
    fn default() -> Self {
        Vocabulary {
            tenant: owned(TENANT),
            principal: owned(PRINCIPAL),
            route: owned(ROUTE),
            client_key: owned(CLIENT_KEY),
            headers: owned(HEADERS),
            store_receivers: owned(STORE_RECEIVERS),
            store_methods: owned(STORE_METHODS),
            key_constructors: owned(KEY_CONSTRUCTORS),
            id: 0,
            // Extra names only: the built-in rule is `<entity>_id` (see `is_server_id_name`).
            server_ids: Vec::new(),
            sentinels: owned(SENTINELS),
            claim_verbs: owned(CLAIM_VERBS),
            complete_verbs: owned(COMPLETE_VERBS),
            release_verbs: owned(RELEASE_VERBS),
            server_prefixes: owned(SERVER_PREFIXES),
            idempotency_tables: owned(IDEMPOTENCY_TABLES),
            payload: Vec::new(),
            server_namespaces: vec!["s:".to_string()],
            documented_keys: Vec::new(),
        }
        .with_id()
    }
}
