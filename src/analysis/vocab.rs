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
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VocabularyExtension {
    /// Identifiers naming a tenant.
    pub tenant: Vec<String>,
    /// Identifiers naming a principal.
    pub principal: Vec<String>,
    /// Identifiers naming a route / operation.
    pub route: Vec<String>,
    /// Identifiers naming a client idempotency key.
    pub client_key: Vec<String>,
    /// Header names carrying a client idempotency key.
    pub headers: Vec<String>,
    /// Receiver names that denote a store.
    pub store_receivers: Vec<String>,
    /// Method names that use their first argument as a storage key.
    pub store_methods: Vec<String>,
    /// Functions whose calls build a correctly scoped key (like `idem_scope::scoped`).
    pub key_constructors: Vec<String>,
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
    "idempotency_key_header",
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
        }
    }
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
        add(&mut self.tenant, &ext.tenant);
        add(&mut self.principal, &ext.principal);
        add(&mut self.route, &ext.route);
        add(&mut self.client_key, &ext.client_key);
        add(&mut self.headers, &ext.headers);
        add(&mut self.store_receivers, &ext.store_receivers);
        add(&mut self.store_methods, &ext.store_methods);
        add(&mut self.key_constructors, &ext.key_constructors);
    }

    /// Whether an identifier names a client idempotency key value
    /// (`idempotency_key`, `idemKey`, `x_idempotency_key`, `IdempotencyKey`…).
    pub fn is_client_key_name(&self, ident: &str) -> bool {
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

    /// Whether an identifier names a key in key position (`cache_key`, `key`).
    /// Names of client key values are sources, not key positions.
    pub fn is_key_position_name(&self, ident: &str) -> bool {
        let name = snake(ident.trim_start_matches("r#"));
        let name = name.trim_start_matches('_');
        if self.is_client_key_name(name) {
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

    /// Which scope component an identifier names, if any.
    pub fn component_of_name(&self, ident: &str) -> Option<Component> {
        let name = snake(ident.trim_start_matches("r#"));
        let name = name.trim_start_matches('_').trim_start_matches("get_");
        if self.is_client_key_name(name) {
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

    /// Whether an identifier names a request id (`request_id`, `req_id`).
    pub fn is_request_id_name(&self, ident: &str) -> bool {
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

    /// Whether a call path names a correctly scoped key constructor.
    pub fn is_key_constructor(&self, path: &str) -> bool {
        let last = path.rsplit("::").next().unwrap_or(path);
        self.key_constructors
            .iter()
            .any(|c| c == path || c.rsplit("::").next() == Some(last) && !c.contains("::"))
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
                && !is_version_word(w)
                && !self.tenant.contains(w)
                && !self.principal.contains(w)
                && !self.is_client_key_name(w)
        })
    }
}

fn is_version_word(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next() == Some('v') && chars.as_str().chars().all(|c| c.is_ascii_digit())
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
