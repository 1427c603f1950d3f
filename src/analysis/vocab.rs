//! The naming vocabulary: which identifiers, literals, methods and receivers
//! play which role. Defaults come from the rule catalog; every list can be
//! extended by configuration.

use serde::{Deserialize, Serialize};

/// A scope component of an idempotency key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Component {
    /// The tenant (organisation, account, workspace…).
    Tenant,
    /// The caller inside the tenant.
    Principal,
    /// The operation.
    Route,
}

impl Component {
    /// All components, in tuple order.
    pub const ALL: [Component; 3] = [Component::Tenant, Component::Principal, Component::Route];

    /// Lower-case name used in messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Component::Tenant => "tenant",
            Component::Principal => "principal",
            Component::Route => "route",
        }
    }
}

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

/// The vocabulary used by the analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vocabulary {
    tenant: Vec<String>,
    principal: Vec<String>,
    route: Vec<String>,
    client_key: Vec<String>,
    headers: Vec<String>,
    store_receivers: Vec<String>,
    store_methods: Vec<String>,
    key_constructors: Vec<String>,
    /// Identifies the lists' content for the per-thread name cache.
    id: u64,
    server_ids: Vec<String>,
    sentinels: Vec<String>,
    claim_verbs: Vec<String>,
    complete_verbs: Vec<String>,
    release_verbs: Vec<String>,
    server_prefixes: Vec<String>,
    idempotency_tables: Vec<String>,
    payload: Vec<String>,
    server_namespaces: Vec<String>,
}

fn owned(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

const TENANT: &[&str] = &[
    "tenant",
    "tenant_id",
    "tenantid",
    "org",
    "org_id",
    "orgid",
    "organization",
    "organization_id",
    "organisation",
    "organisation_id",
    "account_id",
    "workspace",
    "workspace_id",
    "project_id",
    "merchant",
    "merchant_id",
    "team_id",
    "company_id",
    "namespace_id",
];

const PRINCIPAL: &[&str] = &[
    "principal",
    "principal_id",
    "user",
    "user_id",
    "userid",
    "uid",
    "caller",
    "caller_id",
    "api_key_id",
    "subject",
    "sub",
    "actor",
    "actor_id",
    "client_id",
    "customer_id",
    "owner_id",
    "member_id",
    "username",
    "login",
];

const ROUTE: &[&str] = &[
    "route",
    "route_name",
    "endpoint",
    "operation",
    "operation_id",
    "op",
    "action",
    "method",
    "handler",
    "matched_path",
    "path",
    "uri",
];

const CLIENT_KEY: &[&str] = &[
    "idempotency_key",
    "idempotencykey",
    "idem_key",
    "idemkey",
    "idempotency",
    "idem",
    "x_idempotency_key",
    "idempotency_token",
    "client_idempotency_key",
    "raw_idempotency_key",
];

const HEADERS: &[&str] = &["idempotency-key", "x-idempotency-key"];

const STORE_RECEIVERS: &[&str] = &[
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

const STORE_METHODS: &[&str] = &[
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
];

const SENTINELS: &[&str] = &[
    "",
    "global",
    "default",
    "anonymous",
    "anon",
    "public",
    "unknown",
    "none",
    "guest",
    "shared",
    "system",
    "nobody",
    "not_found",
    "*",
];

const SERVER_PREFIXES: &[&str] = &["s:"];

/// Method names that leave the value of their receiver unchanged as far as
/// key provenance is concerned.
pub const TRANSPARENT_METHODS: &[&str] = &[
    "clone",
    "cloned",
    "copied",
    "to_string",
    "to_owned",
    "as_str",
    "as_bytes",
    "as_ref",
    "as_deref",
    "as_mut",
    "borrow",
    "into",
    "try_into",
    "to_str",
    "to_string_lossy",
    "into_owned",
    "into_string",
    "into_bytes",
    "to_vec",
    "trim",
    "trim_start",
    "trim_end",
    "to_lowercase",
    "to_uppercase",
    "to_ascii_lowercase",
    "to_ascii_uppercase",
    "unwrap",
    "expect",
    "unwrap_or_default",
    "unwrap_unchecked",
    "ok",
    "err",
    "map_err",
    "ok_or",
    "ok_or_else",
    "context",
    "with_context",
    "wrap_err",
    "inspect_err",
    "iter",
    "into_iter",
    "as_slice",
    "parse",
    "into_inner",
    "inner",
    "value",
    "get_ref",
    "deref",
    "as_deref_mut",
    "to_owned_string",
    "storage_key",
    "as_key",
    "key",
    "columns",
];

/// Zero-argument methods whose result says nothing about the key's text.
pub const OPAQUE_GETTERS: &[&str] = &[
    "len", "is_empty", "is_some", "is_none", "is_ok", "is_err", "count", "capacity", "hash",
    "finish", "elapsed", "now", "lock", "read", "write", "await",
];

const GENERIC_WORDS: &[&str] = &[
    "idem",
    "idempotency",
    "idempotent",
    "idempotence",
    "idempotency_key",
    "key",
    "keys",
    "cache",
    "cached",
    "lock",
    "locks",
    "dedup",
    "dedupe",
    "replay",
    "scope",
    "prefix",
    "tenant",
    "tenants",
    "org",
    "user",
    "users",
    "principal",
    "caller",
    "client",
    "server",
    "request",
    "requests",
    "req",
    "resp",
    "response",
    "responses",
    "record",
    "records",
    "result",
    "results",
    "status",
    "state",
    "redis",
    "store",
    "data",
    "body",
    "value",
    "values",
    "claim",
    "claims",
    "inflight",
    "in_progress",
    "progress",
    "pending",
    "done",
    "completed",
    "id",
    "ids",
    "uuid",
    "api",
    "app",
    "service",
    "default",
    "global",
    "none",
    "null",
    "the",
    "and",
    "for",
    "with",
    "http",
    "https",
    "idempotency-key",
];

const PLACEHOLDERS: &[&str] = &[
    "",
    "default",
    "global",
    "any",
    "all",
    "*",
    "none",
    "null",
    "unknown",
    "anonymous",
    "anon",
    "public",
    "shared",
    "nobody",
    "guest",
    "system",
    "-",
    "_",
    "todo",
    "tbd",
    "placeholder",
];

/// Words that say "nobody in particular" when they name a default tenant
/// or principal (`"ANON"`, `Principal::Anonymous`, `DEFAULT_TENANT`).
const SENTINEL_WORDS: &[&str] = &[
    "global",
    "default",
    "defaults",
    "anonymous",
    "anon",
    "public",
    "unknown",
    "none",
    "guest",
    "shared",
    "system",
    "nobody",
    "nil",
    "null",
    "any",
    "everyone",
    "unauthenticated",
];

/// Whether an identifier (a constant, enum variant, field or function name)
/// says "nobody in particular": `GLOBAL`, `Principal::Anonymous`,
/// `MERCHANT_ID_NOT_FOUND`, `default_tenant`. A bare `None` is absence, not
/// a default, and is not a sentinel.
pub fn is_sentinel_name(ident: &str) -> bool {
    if ident == "None" {
        return false;
    }
    let w = words(ident.trim_start_matches("r#"));
    w.iter().any(|x| SENTINEL_WORDS.contains(&x.as_str()))
        || w.windows(2).any(|p| p[0] == "not" && p[1] == "found")
}

/// Whether a literal default is a sentinel: empty, `"*"`, `"-"`, `"n/a"`, or
/// text whose words say "nobody in particular" (`"ANON"`, `"public"`).
pub fn is_sentinel_literal(text: &str) -> bool {
    let t = text.trim();
    matches!(t, "" | "*" | "-" | "_" | "?" | "0" | "n/a" | "N/A") || is_sentinel_name(t)
}

/// Characters used to join key components; stripping one of them from a
/// component instead of rejecting it makes two components collide.
pub const KEY_SEPARATORS: &[char] = &['\0', '\u{1e}', ':', '|', '/', '#'];

/// Whether a replacement text is an escape sequence (`"%3A"`, `"\\:"`)
/// rather than a lossy substitute: escaping keeps components distinct.
pub fn is_escape_replacement(text: &str) -> bool {
    text.chars().count() >= 2 && (text.starts_with('%') || text.starts_with('\\'))
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
            key_constructors: owned(&[
                "scoped",
                "scoped_server",
                "idem_scope::scoped",
                "idem_scope::scoped_server",
            ]),
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
        }
        .with_id()
    }
}

/// What a name says, memoised per thread: the same identifiers recur on
/// every line of a crate, and splitting them into words dominated profiles.
#[derive(Clone, Copy)]
struct NameInfo {
    client_key: bool,
    request_id: bool,
    key_position: bool,
    component: Option<Component>,
}

thread_local! {
    static NAME_CACHE: std::cell::RefCell<std::collections::HashMap<(u64, String), NameInfo>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// Splits `CamelCase`, `snake_case` and `kebab-case` into lower-case words.
pub fn words(ident: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for ch in ident.chars() {
        if ch == '_' || ch == '-' || ch == '.' || ch == ':' || ch == ' ' || ch == '/' {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            prev_lower = false;
            continue;
        }
        if ch.is_uppercase() && prev_lower && !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        prev_lower = ch.is_lowercase() || ch.is_ascii_digit();
        current.extend(ch.to_lowercase());
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// `snake_case` form of an identifier (`IdempotencyKey` → `idempotency_key`).
pub fn snake(ident: &str) -> String {
    words(ident).join("_")
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

    /// Recomputes the content id after the lists changed.
    fn with_id(mut self) -> Self {
        use std::hash::{Hash, Hasher};
        self.id = 0;
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        format!("{self:?}").hash(&mut hasher);
        self.id = hasher.finish();
        self
    }

    fn name_info(&self, ident: &str) -> NameInfo {
        let key = (self.id, ident.to_string());
        if let Some(info) = NAME_CACHE.with(|c| c.borrow().get(&key).copied()) {
            return info;
        }
        let info = NameInfo {
            client_key: self.client_key_name_uncached(ident),
            request_id: self.request_id_name_uncached(ident),
            key_position: self.key_position_name_uncached(ident),
            component: self.component_of_name_uncached(ident),
        };
        NAME_CACHE.with(|c| {
            let mut cache = c.borrow_mut();
            if cache.len() > 32_768 {
                cache.clear();
            }
            cache.insert(key, info);
        });
        info
    }

    /// Whether a literal, constant or variant name means "nobody in particular"
    /// (`""`, `"ANON"`, `Principal::Anonymous`, `MERCHANT_ID_NOT_FOUND`,
    /// `DEFAULT_TENANT`): a sentinel, or a name that starts or ends with one.
    pub fn is_sentinel(&self, text: &str) -> bool {
        let last = text.rsplit("::").next().unwrap_or(text).trim();
        let lower = last.to_lowercase();
        if self.sentinels.contains(&lower) {
            return true;
        }
        let name = snake(last);
        self.sentinels.iter().any(|s| {
            !s.is_empty()
                && s.chars().all(|c| c.is_alphanumeric() || c == '_')
                && (name == *s
                    || name
                        .strip_suffix(s.as_str())
                        .is_some_and(|head| head.ends_with('_'))
                    || name
                        .strip_prefix(s.as_str())
                        .is_some_and(|tail| tail.starts_with('_')))
        })
    }

    /// Whether a method claims an idempotency record (`claim`, `try_claim`, `set_nx`…).
    pub fn is_claim_verb(&self, method: &str) -> bool {
        is_claim_verb(method) || self.claim_verbs.iter().any(|m| m == method)
    }

    /// Substrings of every name [`Vocabulary::is_claim_verb`] accepts (the
    /// built-in prefixes are verbs of the list themselves).
    pub fn claim_verb_words(&self) -> Vec<String> {
        self.claim_verbs
            .iter()
            .map(|v| v.to_ascii_lowercase())
            .collect()
    }

    /// Whether a method completes a claimed record (`complete`, `save_response`…).
    pub fn is_complete_verb(&self, method: &str) -> bool {
        is_complete_verb(method) || self.complete_verbs.iter().any(|m| m == method)
    }

    /// Whether a method releases a claimed record (`release`, `abandon`, `del`…).
    pub fn is_release_verb(&self, method: &str) -> bool {
        is_release_verb(method) || self.release_verbs.iter().any(|m| m == method)
    }

    /// Literal prefixes reserved for server-minted keys (`s:` by default).
    pub fn server_prefixes(&self) -> &[String] {
        &self.server_prefixes
    }

    /// Whether a literal key prefix puts a key in the server namespace.
    pub fn has_server_prefix(&self, literal: &str) -> bool {
        self.server_prefixes
            .iter()
            .any(|p| !p.is_empty() && literal.starts_with(p.as_str()))
    }

    /// Whether a literal starts with a server-only namespace prefix (`"s:"`).
    pub fn has_server_namespace_prefix(&self, literal: &str) -> bool {
        self.server_namespaces
            .iter()
            .chain(&self.server_prefixes)
            .any(|p| !p.is_empty() && literal.starts_with(p.as_str()))
    }

    /// Whether an identifier names a server-minted key: an event, delivery,
    /// webhook, message, job or replay id (`event_id`, `evt_id`, `msgId`).
    pub fn is_server_id_name(&self, ident: &str) -> bool {
        let cheap_reject = self.server_ids.is_empty()
            && !["id", "uuid", "ulid"]
                .iter()
                .any(|s| super::hashing::ends_with_ci(ident, s));
        if cheap_reject {
            return false;
        }
        let name = snake(ident.trim_start_matches("r#"));
        let name = name.trim_start_matches('_');
        if self.server_ids.iter().any(|n| n == name) {
            return true;
        }
        let w = words(name);
        let [.., entity, last] = w.as_slice() else {
            return false;
        };
        matches!(last.as_str(), "id" | "uuid" | "ulid")
            && is_server_entity_word(entity)
            && !w.iter().any(|x| x == "request" || x == "req")
    }

    /// Whether an identifier names the request payload (`body`, `raw_body`,
    /// `body_bytes`, `payload`, `req_bytes`).
    pub fn is_payload_name(&self, ident: &str) -> bool {
        let cheap_reject = self.payload.is_empty()
            && !["body", "payload", "bytes"]
                .iter()
                .any(|s| super::hashing::contains_ci(ident, s));
        if cheap_reject {
            return false;
        }
        let name = snake(ident.trim_start_matches("r#"));
        let name = name.trim_start_matches('_');
        if self.payload.iter().any(|n| n == name) {
            return true;
        }
        let w = words(name);
        let has = |s: &str| w.iter().any(|x| x == s);
        if has("hash") || has("digest") || has("fingerprint") || has("len") || has("size") {
            return false;
        }
        // Only names made of request-body words: `payload_b64` (a JWT part)
        // or `webhook_payload_sig` are something else.
        (has("body") || has("payload") || has("bytes"))
            && w.iter().all(|x| {
                matches!(
                    x.as_str(),
                    "body"
                        | "payload"
                        | "bytes"
                        | "req"
                        | "request"
                        | "raw"
                        | "json"
                        | "full"
                        | "buf"
                        | "http"
                        | "incoming"
                )
            })
    }

    /// Whether an identifier names a client idempotency key value
    /// (`idempotency_key`, `idemKey`, `x_idempotency_key`, `IdempotencyKey`…).
    pub fn is_client_key_name(&self, ident: &str) -> bool {
        self.name_info(ident).client_key
    }

    /// Whether an identifier names a key in key position (`cache_key`, `key`).
    /// Names of client key values are sources, not key positions.
    pub fn is_key_position_name(&self, ident: &str) -> bool {
        self.name_info(ident).key_position
    }

    /// Which scope component an identifier names, if any.
    pub fn component_of_name(&self, ident: &str) -> Option<Component> {
        self.name_info(ident).component
    }

    /// Whether an identifier names a request id (`request_id`, `req_id`).
    pub fn is_request_id_name(&self, ident: &str) -> bool {
        self.name_info(ident).request_id
    }

    fn client_key_name_uncached(&self, ident: &str) -> bool {
        // `IDEMPOTENCY_KEY_HEADER` is a constant holding the header's name.
        if ident.ends_with("HEADER")
            && ident
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        {
            return false;
        }
        let name = snake(ident.trim_start_matches("r#"));
        let name = name.trim_start_matches('_');
        if self.client_key.iter().any(|n| n == name) {
            return true;
        }
        // `idempotency_key_str`, `req_idempotency_key`, `maybe_idem_key`.
        let w = words(name);
        let has = |s: &str| w.iter().any(|x| x == s);
        let idem = has("idempotency") || has("idem") || has("idempotencykey");
        idem && (has("key") || has("idempotencykey") || w.len() == 1)
            && !w.iter().any(|x| {
                matches!(
                    x.as_str(),
                    "storage"
                        | "cache"
                        | "cached"
                        | "redis"
                        | "db"
                        | "scoped"
                        | "lock"
                        | "dedup"
                        | "record"
                        | "store"
                        | "composite"
                        | "full"
                        | "header"
                        | "name"
                        | "prefix"
                        | "ttl"
                        | "config"
                        | "layer"
                        | "service"
                        | "middleware"
                        | "table"
                        | "column"
                        | "len"
                        | "length"
                        | "max"
                        | "min"
                        | "error"
                        | "err"
                        | "missing"
                        | "invalid"
                        | "is"
                        | "has"
                        | "required"
                        | "enabled"
                        | "options"
                )
            })
    }

    fn key_position_name_uncached(&self, ident: &str) -> bool {
        let name = snake(ident.trim_start_matches("r#"));
        let name = name.trim_start_matches('_');
        if self.client_key_name_uncached(name) {
            return false;
        }
        let w = words(name);
        let Some(last) = w.last() else {
            return false;
        };
        const CREDENTIALS: &[&str] = &[
            "api",
            "secret",
            "private",
            "public",
            "access",
            "signing",
            "encryption",
            "hmac",
            "license",
            "sort",
            "primary",
            "foreign",
            "map",
            "json",
            "header",
            "env",
            "config",
            "ssh",
            "pem",
            "crypto",
            "master",
            "session_secret",
            "jwt",
            "aes",
            "rsa",
            "ed25519",
            "stripe",
            "publishable",
            "partition",
            "object",
            "s3",
            // Key derivation in cryptographic code hashes bytes into keys
            // that are never storage keys (ring's `nonce_key`).
            "nonce",
            "ephemeral",
            "derived",
            "verifying",
            "verification",
            "decryption",
            "cipher",
            "wrapping",
            "sealing",
            "opening",
            "hkdf",
            "ecdh",
            "ecdsa",
            "x25519",
        ];
        let credential = w.len() >= 2 && CREDENTIALS.contains(&w[w.len() - 2].as_str());
        (last == "key" && !credential)
            || (w.len() >= 2
                && last == "keys"
                && matches!(w[0].as_str(), "cache" | "storage" | "dedup" | "idem"))
            || (w.first().is_some_and(|f| f == "idem" || f == "dedup")
                && w.iter()
                    .any(|x| x == "key" || x == "storage" || x == "cache"))
    }

    /// Whether a function's name says it builds a key (`cache_key`, `make_idem_key`).
    pub fn is_key_maker_fn(&self, ident: &str) -> bool {
        let w = words(ident);
        let extractor = w.iter().any(|x| {
            matches!(
                x.as_str(),
                "extract" | "parse" | "read" | "header" | "from" | "validate" | "check" | "is"
            )
        });
        !extractor
            && w.iter()
                .any(|x| x == "key" || x == "dedup" || x == "idem" || x == "idempotency")
    }

    fn component_of_name_uncached(&self, ident: &str) -> Option<Component> {
        let name = snake(ident.trim_start_matches("r#"));
        let name = name.trim_start_matches('_').trim_start_matches("get_");
        if self.client_key_name_uncached(name) {
            return None;
        }
        let lists = [
            (Component::Tenant, &self.tenant),
            (Component::Principal, &self.principal),
            (Component::Route, &self.route),
        ];
        for (component, list) in lists {
            if list.iter().any(|n| n == name) {
                return Some(component);
            }
        }
        // Qualified forms: `current_tenant_id`, `auth_user_id`, `tenant_slug`.
        let w = words(name);
        let has = |s: &str| w.iter().any(|x| x == s);
        if has("tenant") || has("organization") || has("organisation") || has("workspace") {
            return Some(Component::Tenant);
        }
        if has("principal") || (has("user") && !has("agent")) || has("caller") {
            return Some(Component::Principal);
        }
        if has("route") || has("endpoint") || has("operation") {
            return Some(Component::Route);
        }
        None
    }

    /// Whether a string literal is the name of the idempotency-key header.
    pub fn is_key_header(&self, literal: &str) -> bool {
        let lower = literal.trim().to_ascii_lowercase();
        self.headers.contains(&lower)
    }

    /// Whether a string literal names a request-id header used for dedup.
    pub fn is_request_id_header(&self, literal: &str) -> bool {
        matches!(
            literal.trim().to_ascii_lowercase().as_str(),
            "x-request-id" | "request-id"
        )
    }

    fn request_id_name_uncached(&self, ident: &str) -> bool {
        matches!(
            snake(ident).as_str(),
            "request_id" | "req_id" | "x_request_id" | "requestid"
        )
    }

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
        self.store_methods.iter().any(|m| m == method)
    }

    /// Whether a call path names a correctly scoped key constructor. A
    /// configured `acme::keys::idem_key` also matches the call `keys::idem_key(..)`
    /// or `idem_key(..)` written after a `use`; a bare configured name matches
    /// any path ending in it.
    pub fn is_key_constructor(&self, path: &str) -> bool {
        let last = path.rsplit("::").next().unwrap_or(path);
        self.key_constructors.iter().any(|c| {
            c == path
                || (c.rsplit("::").next() == Some(last) && !c.contains("::"))
                || c.strip_suffix(path)
                    .is_some_and(|head| head.ends_with("::"))
        })
    }

    /// Whether a literal component is a placeholder (`""`, `"default"`, `"global"`).
    pub fn is_placeholder(&self, literal: &str) -> bool {
        PLACEHOLDERS.contains(&literal.trim().to_ascii_lowercase().as_str())
    }

    /// Whether a string literal (or a literal piece of a format string)
    /// names an operation: `"charge"`, `"/v1/refunds"`, `"POST /charges"`.
    pub fn literal_names_route(&self, literal: &str) -> bool {
        let text = literal.trim();
        if text.starts_with('/') && text.chars().any(|c| c.is_ascii_alphabetic()) {
            return true;
        }
        // Log and error messages are sentences, not operation names.
        if text.split_whitespace().count() > 2 {
            return false;
        }
        words(text).iter().any(|w| {
            w.len() >= 3
                && w.chars().all(|c| c.is_ascii_alphanumeric())
                && w.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && !GENERIC_WORDS.contains(&w.as_str())
                && !SENTINEL_WORDS.contains(&w.as_str())
                && !is_version_word(w)
                && !self.tenant.contains(w)
                && !self.principal.contains(w)
                && !self.is_client_key_name(w)
        })
    }
}

/// Things whose ids the server (or an upstream system) mints: their
/// redeliveries must never share key space with client keys.
pub fn is_server_entity_word(word: &str) -> bool {
    matches!(
        word,
        "event"
            | "evt"
            | "delivery"
            | "webhook"
            | "hook"
            | "message"
            | "msg"
            | "job"
            | "replay"
            | "redelivery"
            | "outbox"
            | "notification"
            | "task"
    )
}

fn is_version_word(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next() == Some('v') && chars.as_str().chars().all(|c| c.is_ascii_digit())
}

/// Fragments of table names that make a SQL table an idempotency table.
const IDEMPOTENCY_TABLES: &[&str] = &["idempot", "dedup", "replay"];

/// Words in a store receiver's name that make it an idempotency store,
/// where request ids count as client keys (the evaluator and the
/// pre-filter both ask).
pub const STRONG_STORE_WORDS: &[&str] = &["idem", "dedup", "replay"];

impl Vocabulary {
    /// Whether a SQL table name marks an idempotency table
    /// (`idempotency_keys`, `request_dedup`, `ReplayLog`, `idem_records`).
    pub fn is_idempotency_table(&self, table: &str) -> bool {
        let lower = table.to_lowercase();
        // `idem` only as a whole word: `idem_keys`, but not `epidemics`.
        words(table).iter().any(|w| w == "idem")
            || self
                .idempotency_tables
                .iter()
                .any(|fragment| lower.contains(fragment.as_str()))
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

// ---- claim / complete / release vocabulary (IDEM004) ------------------------

/// Method or function names that create an in-progress record for a key.
pub const CLAIM_VERBS: &[&str] = &[
    "claim",
    "try_claim",
    "begin",
    "acquire",
    "try_acquire",
    "lock",
    "try_lock",
    "obtain",
    "reserve",
    "set_nx",
    "setnx",
    "insert_if_absent",
    "start",
    "mark_in_progress",
];

/// Claim verbs of lock APIs, which in Rust conventionally return an RAII
/// guard: a bound result that is not tested like a flag is held as a guard.
pub const LOCK_VERBS: &[&str] = &["lock", "try_lock", "acquire", "try_acquire", "obtain"];

/// Names that store the outcome of a claimed request under its key.
pub const COMPLETE_VERBS: &[&str] = &[
    "complete",
    "finish",
    "commit",
    "mark_completed",
    "mark_complete",
    "mark_done",
    "save_response",
    "store_response",
];

/// Storage writes that complete a claim when one of their values is the
/// response (`conn.set(&key, &response_bytes)`).
pub const RESPONSE_WRITE_METHODS: &[&str] = &[
    "set",
    "set_ex",
    "pset_ex",
    "set_options",
    "put",
    "save",
    "insert",
    "upsert",
    "store",
];

/// Words that mark a written value as the response of the request.
pub const RESPONSE_WORDS: &[&str] = &[
    "response",
    "resp",
    "res",
    "body",
    "result",
    "output",
    "outcome",
    "reply",
    "payload",
    "completed",
    "complete",
    "done",
    "finished",
    "succeeded",
    "cached",
    "stored",
];

/// Names that remove or abandon an in-progress record.
pub const RELEASE_VERBS: &[&str] = &[
    "release",
    "abandon",
    "unlock",
    "del",
    "delete",
    "remove",
    "rollback",
    "cancel",
    "abort",
    "unclaim",
    "fail",
    "mark_failed",
];

/// Names that open a database transaction (which rolls back on drop).
pub const TRANSACTION_VERBS: &[&str] = &[
    "begin",
    "transaction",
    "begin_transaction",
    "start_transaction",
    "begin_with",
    "tx",
];

/// Match arm / `if let` variants meaning "someone else holds or finished
/// this key": the claim was not taken on that branch.
pub const NOT_CLAIMED_VARIANTS: &[&str] = &[
    "None",
    "Err",
    "Exists",
    "AlreadyExists",
    "Conflict",
    "InProgress",
    "Completed",
    "Complete",
    "Done",
    "Duplicate",
    "AlreadyClaimed",
    "Taken",
    "Busy",
    "Locked",
    "Replay",
    "Cached",
    "Found",
    "Pending",
    "Stored",
    "Hit",
    "Mismatch",
    "Rejected",
    "NotAcquired",
];

fn verb_matches(list: &[&str], name: &str, prefixed: &[&str]) -> bool {
    list.contains(&name)
        || prefixed.iter().any(|p| {
            name.len() > p.len() + 1 && name.starts_with(p) && name[p.len()..].starts_with('_')
        })
}

/// Whether a call name claims a key (`claim`, `try_claim_slot`, `set_nx`).
pub fn is_claim_verb(name: &str) -> bool {
    // The cheap test first: the pre-filter asks it of many identifiers.
    verb_matches(
        CLAIM_VERBS,
        name,
        &["claim", "try_claim", "mark_in_progress", "reserve"],
    ) && !words(name).last().is_some_and(|w| {
        // `claim_key(..)`, `claim_ttl()` name a thing, not an action.
        matches!(
            w.as_str(),
            "key"
                | "keys"
                | "id"
                | "ttl"
                | "name"
                | "prefix"
                | "status"
                | "state"
                | "table"
                | "timeout"
        )
    })
}

/// Whether a call name completes a claimed key.
pub fn is_complete_verb(name: &str) -> bool {
    verb_matches(
        COMPLETE_VERBS,
        name,
        &[
            "complete",
            "mark_completed",
            "mark_done",
            "save_response",
            "store_response",
        ],
    )
}

/// Whether a call name releases a claimed key.
pub fn is_release_verb(name: &str) -> bool {
    verb_matches(
        RELEASE_VERBS,
        name,
        &[
            "release", "abandon", "unlock", "delete", "remove", "cancel", "abort", "unclaim",
        ],
    )
}

/// The pre-filter's view of the vocabulary (see `crate::prefilter`).
impl Vocabulary {
    /// Words (matched case-insensitively anywhere in code and string
    /// literals) without which no identifier or literal of a file can be a
    /// client key value: every built-in and configured client-key name and
    /// header, the request-id names and the key constructors (a placeholder
    /// component makes their key argument a client key). `idem` covers every
    /// name [`Vocabulary::is_client_key_name`] accepts by its words.
    pub fn client_key_triggers(&self) -> Vec<String> {
        let mut out = vec!["idem".to_string()];
        let request_ids = ["request_id", "req_id", "requestid", "request-id"];
        let constructors = self
            .key_constructors
            .iter()
            .map(|c| c.rsplit("::").next().unwrap_or(c));
        let names = self
            .client_key
            .iter()
            .chain(&self.headers)
            .map(String::as_str);
        for name in names.chain(request_ids).chain(constructors) {
            out.push(name.to_ascii_lowercase());
        }
        out
    }

    /// The built-in and configured fragments of idempotency table names
    /// (`idempot`, `dedup`, `replay`): a unit naming one is where request
    /// ids count as client keys.
    pub fn idempotency_table_words(&self) -> Vec<String> {
        self.idempotency_tables
            .iter()
            .map(|t| t.to_ascii_lowercase())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_key_names() {
        let v = Vocabulary::default();
        for name in [
            "idempotency_key",
            "idem_key",
            "IdempotencyKey",
            "idempotencyKey",
            "idem",
            "req_idempotency_key",
        ] {
            assert!(v.is_client_key_name(name), "{name}");
        }
        for name in [
            "cache_key",
            "idem_storage_key",
            "key",
            "IDEMPOTENCY_KEY_HEADER",
            "idempotency_key_len",
        ] {
            assert!(!v.is_client_key_name(name), "{name}");
        }
    }

    #[test]
    fn key_position_names() {
        let v = Vocabulary::default();
        for name in [
            "key",
            "cache_key",
            "storage_key",
            "dedup_key",
            "lock_key",
            "redis_key",
            "idem_storage_key",
        ] {
            assert!(v.is_key_position_name(name), "{name}");
        }
        for name in [
            "idempotency_key",
            "idem_key",
            "api_key",
            "secret_key",
            "keyboard",
            "monkey",
        ] {
            assert!(!v.is_key_position_name(name), "{name}");
        }
    }

    #[test]
    fn components() {
        let v = Vocabulary::default();
        assert_eq!(v.component_of_name("tenant_id"), Some(Component::Tenant));
        assert_eq!(
            v.component_of_name("current_tenant"),
            Some(Component::Tenant)
        );
        assert_eq!(v.component_of_name("sub"), Some(Component::Principal));
        assert_eq!(v.component_of_name("operation"), Some(Component::Route));
        assert_eq!(v.component_of_name("amount"), None);
    }

    #[test]
    fn route_literals() {
        let v = Vocabulary::default();
        for lit in [
            "charge",
            "refund",
            "/v1/refunds",
            "POST /charges",
            ":charges:",
        ] {
            assert!(v.literal_names_route(lit), "{lit}");
        }
        for lit in [
            "idem",
            "idempotency",
            "v1",
            "cache",
            ":",
            "idem:",
            "",
            "key {} already used by another request",
        ] {
            assert!(!v.literal_names_route(lit), "{lit}");
        }
    }
}
