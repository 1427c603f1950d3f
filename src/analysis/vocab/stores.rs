//! Where keys are stored: store receivers and methods, the key
//! constructors that build correctly scoped keys, and the SQL tables and
//! columns of an idempotency store (IDEM008).

use super::text::{last_segment, words};
use super::vocabulary::Vocabulary;

pub(super) const STORE_RECEIVERS: &[&str] = &[
    "idem",
    "dedup",
    "dedupe",
    "replay",
    "store",
    "cache",
    "cacher",
    "session",
    "redis",
    "kv",
    "conn",
    "connection",
    "records",
    "db",
    "pool",
    "tx",
    "txn",
    "backend",
    "storage",
    "repo",
    "repository",
    "table",
    "map",
    "memory",
    "inflight",
    "in_flight",
    "locks",
    "lock",
    "pipe",
    "pipeline",
];

pub(super) const STORE_METHODS: &[&str] = &[
    "get",
    "get_del",
    "getdel",
    "get_ex",
    "set",
    "set_nx",
    "setnx",
    "set_ex",
    "setex",
    "pset_ex",
    "set_options",
    "insert",
    "put",
    "claim",
    "try_claim",
    "begin",
    "obtain",
    "reserve",
    "reserve_or_fetch",
    "lookup",
    "load",
    "save",
    "entry",
    "contains_key",
    "exists",
    "del",
    "delete",
    "remove",
    "upsert",
    "try_insert",
    "insert_if_absent",
    "hget",
    "hset",
    "hset_nx",
    // Caches that compute a missing entry (moka, quick_cache, mini-moka)
    // and the rest of the map APIs: the first argument is the entry's key.
    "get_with",
    "try_get_with",
    "optionally_get_with",
    "get_with_by_ref",
    "try_get_with_by_ref",
    "optionally_get_with_by_ref",
    "get_or_insert_with",
    "get_or_try_insert_with",
    "get_or_insert_async",
    "get_value_or_guard",
    "get_value_or_guard_async",
    "get_mut",
    "get_key_value",
    "remove_entry",
    "invalidate",
    // sled and etcd-style compare-and-swap: the key, then old and new.
    "compare_and_swap",
    // mongodb: the first argument is the filter document.
    "find_one",
    "find_one_and_update",
    "find_one_and_replace",
    "update_one",
    "replace_one",
    "delete_one",
];

/// Claim, completion and release verbs of idempotency stores: storage
/// operations on their key argument (`store.acquire(&key, ttl)`,
/// `store.complete(&key, cached)`, `store.release(&key)`). Unlike the
/// collection verbs above they name an API a crate usually writes itself,
/// so a crate-local method of that name is read through its body.
const CLAIM_API_METHODS: &[&str] = &[
    "acquire",
    "try_acquire",
    "complete",
    "release",
    "mark_in_progress",
    "mark_completed",
    "mark_complete",
    "mark_failed",
    "unclaim",
];

/// Functions whose calls build a correctly scoped key.
pub(super) const KEY_CONSTRUCTORS: &[&str] = &[
    "scoped",
    "scoped_server",
    "idem_scope::scoped",
    "idem_scope::scoped_server",
];

/// Fragments of table names that make a SQL table an idempotency table.
pub(super) const IDEMPOTENCY_TABLES: &[&str] = &["idempot", "dedup", "replay"];

/// Words in a store receiver's name that make it an idempotency store,
/// where request ids count as client keys (the evaluator and the
/// pre-filter both ask).
pub const STRONG_STORE_WORDS: &[&str] = &["idem", "dedup", "replay"];

/// Whether a receiver names the typed map a request or response carries
/// (`req.extensions_mut()`, `parts.extensions`, `res.extensions()`): it
/// lives as long as one request and is keyed by type, so inserting a value
/// there hands it to later code, it does not store it under a key.
pub fn names_request_extensions(ident: &str) -> bool {
    super::text::words(ident).iter().any(|w| w == "extensions")
}

/// Methods of concurrent maps that read or update an entry in place
/// through a closure (scc's `map.read(&key, |_, v| v.clone())`,
/// `update_async(&key, |_, v| ..)`): storage operations on their first
/// argument when a closure follows it. Without one, `read()` is a lock's.
pub const CLOSURE_ENTRY_METHODS: &[&str] = &[
    "read",
    "read_async",
    "read_sync",
    "update",
    "update_async",
    "update_sync",
    "peek_with",
];

/// Whether a method is a claim, completion or release verb of an
/// idempotency store API (`CLAIM_API_METHODS`, or a compound claim verb:
/// `check_or_claim`, `try_claim_key`).
pub fn is_claim_api_method(method: &str) -> bool {
    // Asked of every method call: most names have no `claim` at all.
    CLAIM_API_METHODS.contains(&method)
        || (super::text::contains_ci(method, "claim") && words(method).iter().any(|w| w == "claim"))
}

impl Vocabulary {
    /// Whether a receiver name denotes a store.
    pub fn is_store_receiver(&self, ident: &str) -> bool {
        let w = words(ident);
        w.iter().any(|x| {
            self.store_receivers
                .iter()
                .any(|r| x == r || (r.len() >= 4 && x.starts_with(r.as_str())))
        })
    }

    /// Whether a method uses its first argument as a storage key.
    pub fn is_store_method(&self, method: &str) -> bool {
        // A compound claim verb (`check_or_claim`, `try_claim_key`) claims
        // its first argument whatever else its name says.
        let plain = |m: &str| {
            self.store_methods.iter().any(|s| s == m)
                || is_claim_api_method(m)
                || is_store_verb_variant(m)
        };
        // The same verb run asynchronously (scc's `insert_async`,
        // `entry_async`). Not `try_*`, `*_sync` or `*_blocking`: on a
        // service's own channels and locks those made every wrapper a store
        // (agentdesk 4.6x slower for no finding).
        plain(method)
            || method.strip_suffix("_async").is_some_and(plain)
            || arity_variant(method).is_some_and(plain)
    }

    /// Whether a call path names a correctly scoped key constructor. A
    /// configured `acme::keys::idem_key` also matches the call `keys::idem_key(..)`
    /// or `idem_key(..)` written after a `use`; a bare configured name matches
    /// any path ending in it.
    pub fn is_key_constructor(&self, path: &str) -> bool {
        // Byte comparisons only: the pre-filter asks this of every
        // identifier it scans.
        let last = last_segment(path);
        self.key_constructors.iter().any(|c| {
            c == path
                || c == last
                || c.strip_suffix(path)
                    .is_some_and(|head| head.ends_with("::"))
        })
    }
}

impl Vocabulary {
    /// Whether a SQL table name marks an idempotency table
    /// (`idempotency_keys`, `request_dedup`, `ReplayLog`, `idem_records`).
    pub fn is_idempotency_table(&self, table: &str) -> bool {
        // `idem` only as a whole word: `idem_keys`, but not `epidemics`;
        // the others start a word (`request_dedup`, not `tbldedup`), as
        // the pre-filter's unit gate reads them (`Evidence`).
        words(table).iter().any(|w| w == "idem") || self.names_idempotency_table(table)
    }

    /// Whether a table's name holds one of the configured fragments
    /// (`idempot`, `dedup`, `replay`): the tables IDEM008 judges, by
    /// rules.md's definition. `idem_inbox` writes and claims are about
    /// idempotency ([`Self::is_idempotency_table`]), but its name is none.
    pub fn names_idempotency_table(&self, table: &str) -> bool {
        let words = words(table);
        (self.idempotency_tables.iter()).any(|fragment| {
            let fragment = fragment.to_lowercase();
            words.iter().any(|w| w.starts_with(&fragment))
        })
    }

    /// Whether a SQL column holds the client key: a client key name
    /// (`idem_key`, `idempotency_key`), a request id, a bare `key`, or an
    /// `idem*`/`dedup*`/`replay*` key, token or id column (`dedup_key`).
    pub fn is_key_column(&self, column: &str) -> bool {
        if self.is_client_key_name(column) || self.is_request_id_name(column) {
            return true;
        }
        let w = words(column);
        match w.as_slice() {
            [only] => only == "key",
            [first, .., last] => {
                let idem = matches!(
                    first.as_str(),
                    "idem" | "idempotency" | "dedup" | "dedupe" | "replay"
                );
                // `client_id` is a principal, `client_key` is the client's key.
                let client = matches!(first.as_str(), "client" | "request");
                ((idem && matches!(last.as_str(), "key" | "token" | "id"))
                    || (client && matches!(last.as_str(), "key" | "token")))
                    && !w.iter().any(|x| {
                        matches!(
                            x.as_str(),
                            "storage" | "scoped" | "hash" | "hashed" | "composite"
                        )
                    })
            }
            [] => false,
        }
    }
}

impl Vocabulary {
    /// Whether a column of an idempotency table's constraint is the table's
    /// key though its name is not a client key's (`cache_key`,
    /// `delivery_key`, `event_token`): the table already says what it
    /// dedupes, so a `*_key`/`*_token` column that is no scope component,
    /// namespace, version or server composite (`scope_key`, `key_hash`) is
    /// what it is keyed by.
    pub fn is_table_key_column(&self, column: &str) -> bool {
        const NOT_THE_KEY: &[&str] = &[
            "storage",
            "scope",
            "scoped",
            "hash",
            "hashed",
            "composite",
            "partition",
            "sort",
            "primary",
            "foreign",
            "api",
            "access",
            "secret",
            "signing",
            "public",
            "private",
            "encryption",
        ];
        let w = words(column);
        let [.., last] = w.as_slice() else {
            return false;
        };
        w.len() >= 2
            && matches!(last.as_str(), "key" | "token")
            && self.component_of_name(column).is_none()
            && !is_scope_version_column(column)
            && !is_namespace_column(column)
            && !w.iter().any(|x| NOT_THE_KEY.contains(&x.as_str()))
    }
}

/// A key's scheme version column: `scope_version`, `key_version`, `scheme_ver`.
pub fn is_scope_version_column(name: &str) -> bool {
    words(name).iter().any(|w| w == "version" || w == "ver")
}

/// A key namespace column: `ns`, `namespace`, `key_ns`, `key_namespace`.
pub fn is_namespace_column(name: &str) -> bool {
    words(name).iter().any(|w| w == "ns" || w == "namespace")
}

/// The one store every DynamoDB item write goes to, whatever its client
/// or table variable is called (the evaluator and the pre-filter agree).
pub const DYNAMO_STORE: &str = "dynamodb";

/// Whether a literal DynamoDB attribute name is a key attribute
/// (`.item("pk", v)`, `.key("idempotency_key", v)`).
pub fn is_dynamo_key_attribute(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    is_dynamo_primary_attribute(name) || lower.ends_with("_key") || lower.ends_with("key_id")
}

/// Whether a DynamoDB attribute is a table's key by its very name (`pk`,
/// `id`, `hash_key`), not merely named like some key (`idem_key`).
pub fn is_dynamo_primary_attribute(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    matches!(name.as_str(), "pk" | "id" | "_id" | "key" | "hash_key")
}

/// Nouns that name a container of records when last in a name
/// (`DedupWindow`, `idem_cache`).
const STORE_CONTAINERS: &[&str] = &[
    "store",
    "storage",
    "cache",
    "window",
    "map",
    "set",
    "table",
    "log",
    "ledger",
    "repo",
    "repository",
    "registry",
    "db",
    "kv",
    "index",
    "inbox",
    "journal",
    "tracker",
    "tree",
];

/// A store named for idempotency keys (`idempotency_keys`, `idem_cache`),
/// not only for deduplication or replay, which also hold server ids: a
/// text parameter it stores as it is holds a client key by that name.
pub fn names_idempotency_store(name: &str) -> bool {
    let w = words(name);
    // Its last word names what it holds (`idempotency_keys`, `idem_cache`),
    // not a provider or a setting (`idempotency_token_provider`).
    let container = w.last().is_some_and(|last| {
        STORE_CONTAINERS.contains(&last.as_str())
            || matches!(last.as_str(), "keys" | "records" | "entries")
    });
    container && w.iter().any(|w| w == "idem" || w.starts_with("idempot"))
}

/// Whether a receiver's name says idempotency, dedup or replay store: a
/// word of it starts with a store word (`IdemStore`, `dedup_cache`), as
/// `Evidence` reads them, so `InvalidEmpty` is none.
pub fn names_strong_store(name: &str) -> bool {
    let words = words(name);
    (words.iter()).any(|w| STRONG_STORE_WORDS.iter().any(|s| w.starts_with(s)))
}

impl Vocabulary {
    /// Whether storing under an identifier is storing in an idempotency
    /// store, where request ids count as client keys (`KeyEvent::strong`).
    pub fn is_strong_store_receiver(&self, ident: &str) -> bool {
        self.is_store_receiver(ident) && names_strong_store(ident)
    }

    /// Whether a type's name makes a value of it an idempotency store
    /// (`DedupWindow`, `ReplayCache`, `IdemStore`): a strong store word and
    /// a container noun last. Not what serves such a store
    /// (`IdempotencyTokenProvider`, `ReplayEvent`, `DedupConfig`).
    pub fn names_store_type(&self, ty: &str) -> bool {
        let w = words(ty);
        w.last()
            .is_some_and(|last| STORE_CONTAINERS.contains(&last.as_str()))
            && self.is_strong_store_receiver(&super::text::snake(ty))
    }
}

/// Whether a store call's argument names a database transaction or storage
/// handle (`wtxn`, `rtxn`, `tx`, `transaction`, `storage`): heed's
/// `db.put(&mut wtxn, &key, &v)` and cw-storage-plus's
/// `MAP.save(deps.storage, key, &v)` pass one before the key, and it is no
/// part of the key. So do the database, tree or bucket handles of
/// embedded stores: lmdb's `txn.put(self.idem_db, &key, ..)`, jammdb's
/// `tx.get_bucket(..)`.
pub fn names_transaction_handle(name: &str) -> bool {
    words(&name.to_ascii_lowercase()).iter().any(|w| {
        matches!(
            w.as_str(),
            "txn"
                | "wtxn"
                | "rtxn"
                | "tx"
                | "trx"
                | "transaction"
                | "storage"
                | "db"
                | "dbi"
                | "database"
                | "tree"
                | "bucket"
                | "cf"
                | "keyspace"
        )
    })
}

/// Whether a type's name says it is a handle of a store or a channel
/// (`lmdb::Database`, `PgPool`, `redis::Client`, `HashMap`, `Sender`): a
/// field `idem: Database` is where keys go, not a key. The handles passed
/// before a key ([`names_transaction_handle`]) and those a store is reached
/// through.
pub fn names_handle_type(name: &str) -> bool {
    names_transaction_handle(name)
        || words(name).iter().any(|w| {
            matches!(
                w.as_str(),
                "pool"
                    | "client"
                    | "connection"
                    | "conn"
                    | "env"
                    | "environment"
                    | "collection"
                    | "table"
                    | "store"
                    | "cache"
                    | "map"
                    | "set"
                    | "sender"
                    | "receiver"
                    | "handle"
            )
        })
}

/// Whether a receiver names a map entry (`slot`, `vacant`, `entry`, `e`),
/// whose one-argument `insert(v)` stores the value of a key given to
/// `entry(..)`.
pub fn names_map_entry(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    matches!(lower.as_str(), "e" | "v" | "o")
        || words(&lower)
            .iter()
            .any(|w| matches!(w.as_str(), "entry" | "slot" | "vacant" | "occupied"))
}

/// The verb of a store method numbered for its arity (`get2(org, key)`,
/// `put3(org, user, key, value)`: one method per number of key parts):
/// the name without its one trailing digit.
fn arity_variant(method: &str) -> Option<&str> {
    let verb = method.strip_suffix(|c: char| c.is_ascii_digit())?;
    (verb.len() > 1 && verb.ends_with(|c: char| c.is_ascii_lowercase())).then_some(verb)
}

/// A store verb with options or a condition spelled into its name:
/// `set_with_options` (rustis), `put_with_ttl`, `insert_if_not_exists`,
/// `set_if_absent`, `get_with_options`. The key is still the first argument.
fn is_store_verb_variant(method: &str) -> bool {
    is_store_verb_object(method) || is_store_verb_modifier(method) || is_store_kind_verb(method)
}

/// A storage verb after the kind of store it works on: unqlite's
/// `kv_fetch`/`kv_store`/`kv_delete`, `cache_get`, `db_put`.
fn is_store_kind_verb(method: &str) -> bool {
    matches!(method.split_once('_'), Some((kind, verb))
    if matches!(kind, "kv" | "cache" | "db" | "store")
        && matches!(
            verb,
            "get" | "set" | "put" | "fetch" | "store" | "insert" | "upsert" | "delete"
                | "remove" | "exists" | "contains" | "lookup" | "load" | "save" | "append"
        ))
}

/// A storage verb on the kind of record a store keeps: `read_key`,
/// `set_key`, `create_or_update_key`, `read_stream`, `append_to_stream`,
/// `get_item`, `delete_document`. Only the verb and the object (no field
/// named between them: `set_idempotency_key` is a setter of a field).
fn is_store_verb_object(method: &str) -> bool {
    const VERBS: &[&str] = &[
        "get", "set", "put", "read", "write", "append", "create", "update", "upsert", "delete",
        "remove", "insert", "fetch", "load", "save", "exists", "lookup", "find",
    ];
    const OBJECTS: &[&str] = &[
        "key", "keys", "stream", "document", "doc", "item", "record", "object", "entry", "blob",
    ];
    let parts: Vec<&str> = method.split('_').collect();
    let verbs_then_object = match parts.as_slice() {
        [verb, object] => VERBS.contains(verb) && OBJECTS.contains(object),
        [verb, "or" | "and", other, object] => {
            VERBS.contains(verb) && VERBS.contains(other) && OBJECTS.contains(object)
        }
        [verb, "to" | "from", object] => VERBS.contains(verb) && OBJECTS.contains(object),
        _ => false,
    };
    verbs_then_object
}

fn is_store_verb_modifier(method: &str) -> bool {
    verb_with_options(method).is_some_and(|verb| matches!(verb, "get") || is_write_verb(verb))
}

/// A write verb with its options or condition in its name (rustis'
/// `set_with_options(k, v, SetCondition::NX, ..)`, `put_with_ttl`,
/// `set_if_absent`): a write like `set`, whose `NX` makes it a claim.
pub fn writes_with_options(method: &str) -> bool {
    verb_with_options(method).is_some_and(is_write_verb)
}

/// A write that succeeds only where the key is not yet there
/// (`set_nx`, `setnx`, `put_if_absent`, `insert_if_not_exists`): a
/// dedup by what it does, whatever store holds it, so a request id it
/// is given is used as a dedup key (rules.md, *Client key value*).
pub fn is_conditional_insert(method: &str) -> bool {
    if method == "setnx" {
        return true;
    }
    let mut parts = method.split('_');
    let Some(verb) = parts.next() else {
        return false;
    };
    let condition: Vec<&str> = parts.collect();
    (is_write_verb(verb) || verb == "add")
        && matches!(
            condition.as_slice(),
            ["nx"]
                | ["if", "absent"]
                | ["if", "not", "exists" | "exist" | "present"]
                | ["if", "missing"]
        )
}

fn is_write_verb(verb: &str) -> bool {
    matches!(verb, "set" | "put" | "insert" | "upsert" | "store")
}

/// The verb of a method whose second word is an option or a condition
/// (`set_with_options` → `set`).
fn verb_with_options(method: &str) -> Option<&str> {
    let mut parts = method.split('_');
    let (verb, modifier) = (parts.next()?, parts.next()?);
    matches!(
        modifier,
        "with" | "if" | "options" | "opts" | "ttl" | "expiry" | "expiration" | "nx" | "xx"
    )
    .then_some(verb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditional_inserts_are_known_by_their_condition() {
        for m in [
            "set_nx",
            "setnx",
            "put_if_absent",
            "insert_if_not_exists",
            "add_if_absent",
        ] {
            assert!(is_conditional_insert(m), "{m}");
        }
        for m in [
            "set",
            "put",
            "set_with_options",
            "get_if_absent",
            "insert_if",
            "if_absent",
        ] {
            assert!(!is_conditional_insert(m), "{m}");
        }
    }

    #[test]
    fn store_verbs_with_options_in_their_names_are_store_methods() {
        let v = Vocabulary::default();
        for m in [
            "set_with_options",
            "put_with_ttl",
            "insert_if_not_exists",
            "set_if_absent",
            "insert_async",
            "entry_async",
            "kv_fetch",
            "kv_store",
        ] {
            assert!(v.is_store_method(m), "{m}");
        }
        for m in ["settle", "set", "get_or", "insert"] {
            assert_eq!(v.is_store_method(m), STORE_METHODS.contains(&m), "{m}");
        }
        for m in [
            "read_key",
            "create_or_update_key",
            "append_to_stream",
            "get_item",
        ] {
            assert!(v.is_store_method(m), "{m}");
        }
        for m in ["set_idempotency_key", "key_stream", "read_keys_file"] {
            assert!(!v.is_store_method(m), "{m}");
        }
        assert!(!v.is_store_method("settings_with_defaults"));
        assert!(!v.is_store_method("getter_with"));
    }

    #[test]
    fn store_verbs_numbered_for_their_key_parts_are_store_methods() {
        let v = Vocabulary::default();
        for m in ["get2", "put2", "put4", "kv_fetch3"] {
            assert!(v.is_store_method(m), "{m}");
        }
        for m in ["base64", "utf16", "sha2", "get23", "2", "x2"] {
            assert!(!v.is_store_method(m), "{m}");
        }
    }

    #[test]
    fn table_key_columns_are_keys_but_not_scope_or_composites() {
        let v = Vocabulary::default();
        for column in ["cache_key", "delivery_key", "event_token", "DedupKey"] {
            assert!(v.is_table_key_column(column), "{column}");
        }
        for column in [
            "key",
            "tenant_key",
            "scope_key",
            "key_hash",
            "api_key",
            "key_version",
            "ns_key",
        ] {
            assert!(!v.is_table_key_column(column), "{column}");
        }
    }
}
