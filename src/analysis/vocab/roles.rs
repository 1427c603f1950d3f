//! The user-extendable roles of names: which identifiers and literals name
//! a tenant, principal or route (the scope components), a client
//! idempotency key, a request id, a key position or the key header.

use serde::Serialize;

use super::sentinels::SENTINEL_WORDS;
use super::text::{snake, words};
use super::vocabulary::Vocabulary;

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

pub(super) const TENANT: &[&str] = &[
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

pub(super) const PRINCIPAL: &[&str] = &[
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

pub(super) const ROUTE: &[&str] = &[
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

pub(super) const CLIENT_KEY: &[&str] = &[
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

pub(super) const HEADERS: &[&str] = &["idempotency-key", "x-idempotency-key"];

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

/// What a name says, memoised per thread: the same identifiers recur on
/// every line of a crate, and splitting them into words dominated profiles.
#[derive(Clone, Copy)]
struct NameInfo {
    client_key: bool,
    request_id: bool,
    key_position: bool,
    component: Option<Component>,
}

/// Per vocabulary (`Vocabulary::id`), what each name says; looked up by
/// `&str`, so a hit allocates nothing.
type NameCache = rustc_hash::FxHashMap<u64, rustc_hash::FxHashMap<String, NameInfo>>;

thread_local! {
    static NAME_CACHE: std::cell::RefCell<NameCache> = std::cell::RefCell::default();
}

impl Vocabulary {
    fn name_info(&self, ident: &str) -> NameInfo {
        let known =
            NAME_CACHE.with(|c| c.borrow().get(&self.id).and_then(|m| m.get(ident)).copied());
        if let Some(info) = known {
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
            // Units may each have their own vocabulary: keep a few.
            if cache.len() > 16 && !cache.contains_key(&self.id) {
                cache.clear();
            }
            let names = cache.entry(self.id).or_default();
            if names.len() > 32_768 {
                names.clear();
            }
            names.insert(ident.to_string(), info);
        });
        info
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

    /// Whether a key column names another resource's id (`invoice_id`,
    /// `message_outbox_id`, `id`): an id that is no client key, request id
    /// or scope component by its name.
    pub fn names_resource_id(&self, column: &str) -> bool {
        (column == "id" || column.ends_with("_id") || column.ends_with("_uuid"))
            && self.component_of_name(column).is_none()
            && !self.is_client_key_name(column)
            && !self.is_request_id_name(column)
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
                // A query by a key returns a row, not a key:
                // `find_quote_by_idempotency_key`, `load_idem_entry`.
                | "by" | "find" | "fetch" | "load" | "lookup" | "exists" | "delete" | "remove"
                | "store" | "save" | "insert"
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
        // A listed id qualified or spelled as another kind of id
        // (`root_account_uuid`, `billing_merchant_id`): the listed
        // component's.
        if let [.., owner, id] = w.as_slice() {
            let base = format!("{owner}_id");
            if super::provenance::is_record_id_word(id) && base != name {
                for (component, list) in lists {
                    if list.contains(&base) {
                        return Some(component);
                    }
                }
            }
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

    /// Whether a string literal names a header whose value the sender of a
    /// webhook or message minted: `X-GitHub-Delivery`, `webhook-id`,
    /// `X-Amz-Sns-Message-Id`, `svix-id`, `ce-id` (CloudEvents). Request,
    /// correlation and trace ids are the client's or the proxy's, not these.
    pub fn is_sender_id_header(&self, literal: &str) -> bool {
        // Asked of every string literal the evaluator meets: reject without
        // allocating what cannot end like one.
        let literal = literal.trim();
        if literal.len() > 64
            || !(super::text::ends_with_ci(literal, "id")
                || super::text::ends_with_ci(literal, "delivery"))
        {
            return false;
        }
        let lower = literal.to_ascii_lowercase();
        let words: Vec<&str> = lower.split(['-', '_']).filter(|w| !w.is_empty()).collect();
        match words.as_slice() {
            ["svix" | "ce", "id"] => true,
            [.., "delivery"] => words.len() >= 2,
            [.., entity, "id" | "uuid"] => super::is_server_entity_word(entity),
            _ => false,
        }
    }

    fn request_id_name_uncached(&self, ident: &str) -> bool {
        matches!(
            snake(ident).as_str(),
            "request_id" | "req_id" | "x_request_id" | "requestid"
        )
    }

    /// Whether a string literal (or a literal piece of a format string)
    /// names an operation: `"charge"`, `"/v1/refunds"`, `"POST /charges"`.
    pub fn literal_names_route(&self, literal: &str) -> bool {
        // Separators around the name (`b"\0restore\0"`, `"|refund|"`) are
        // the concatenation's, not the name's.
        let cleaned: String = (literal.chars())
            .map(|c| {
                if c.is_control() || matches!(c, '|' | '#') {
                    ' '
                } else {
                    c
                }
            })
            .collect();
        let text = cleaned.trim();
        if text.starts_with('/') && text.chars().any(|c| c.is_ascii_alphabetic()) {
            return true;
        }
        // Log and error messages are sentences, not operation names.
        if text.split_whitespace().count() > 2 {
            return false;
        }
        if is_dotted_operation(text) {
            return true;
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

fn is_version_word(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next() == Some('v') && chars.as_str().chars().all(|c| c.is_ascii_digit())
}

/// Whether an all-caps constant the evaluator cannot resolve names the
/// key header (`headers::IDEMPOTENCY_KEY`, `X_IDEM_KEY_HEADER`): a word
/// starting with `idempotency`, or `idem` then `key`.
pub fn names_key_header_constant(name: &str) -> bool {
    let caps = (name.chars()).all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    let w = words(name);
    caps && (w
        .windows(2)
        .any(|p| p[0] == "idem" && p[1].starts_with("key"))
        || w.iter().any(|x| x.starts_with("idempotency")))
}

/// A dotted operation name, `resource.action` (`claims.status`,
/// `quotes.create`): what routes are called where they are not paths,
/// whatever the words are. Not a namespace of idempotency words
/// (`idempotency.keys`), nor a version (`api.v1`) or a file name.
/// Whether a route component, by the source text of where it came from
/// (`Origin::text`), names an operation: a name (`route`,
/// `call.route()`), or a literal one of whose pieces between placeholders
/// is a dotted operation (`"catalog.import"`, `"{org}:{user}:order.place:{d}"`),
/// a multi-word name (`"book_shipment"`) or which is a path
/// (`"/v1/rebates"`). A lone word between path separators (`"{}/{}/avatars/{}"`)
/// is a folder of an object path, not an operation.
pub fn names_operation(origin_text: &str) -> bool {
    let text = origin_text.trim().trim_start_matches('&');
    let Some(literal) = (text.strip_prefix('"'))
        .or_else(|| text.strip_prefix("b\""))
        .or_else(|| text.strip_prefix("r\""))
        .or_else(|| text.strip_prefix("r#\""))
    else {
        return !text.starts_with(|c: char| c.is_ascii_digit() || c == '\'');
    };
    let literal = literal.split('"').next().unwrap_or("");
    if literal.starts_with('/') && !literal.starts_with("/{") {
        return literal.chars().any(|c| c.is_ascii_alphabetic());
    }
    let multi_word = |piece: &str| {
        let words: Vec<&str> = piece.split(['_', '-']).collect();
        words.len() >= 2
            && words.iter().all(|w| {
                w.len() >= 2
                    && w.chars().all(|c| c.is_ascii_alphanumeric())
                    && w.starts_with(|c: char| c.is_ascii_alphabetic())
            })
    };
    literal
        .split(['{', '}', ':', '|', '/', '#', ' ', '\0'])
        .map(str::trim)
        .any(|piece| is_dotted_operation(piece) || multi_word(piece))
}

fn is_dotted_operation(text: &str) -> bool {
    const NAMESPACE_WORDS: &[&str] = &[
        "idem",
        "idempotency",
        "idempotent",
        "key",
        "keys",
        "dedup",
        "dedupe",
        "replay",
        "cache",
        "lock",
        "locks",
        "scope",
        "prefix",
        "tenant",
        "user",
        "client",
        "server",
        "json",
        "txt",
        "sql",
        "toml",
        "yaml",
        "yml",
        "csv",
        "log",
        "html",
        "rs",
    ];
    let segments: Vec<&str> = text.split('.').collect();
    // A two-letter resource (`fx.lock`, `id.verify`) is one too; `lock` as
    // the action (`seats.lock`) is a verb, not the `lock` namespace.
    let last = segments.len().saturating_sub(1);
    segments.len() >= 2
        && segments.iter().all(|s| {
            s.len() >= 2
                && s.starts_with(|c: char| c.is_ascii_lowercase())
                && s.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                && !is_version_word(s)
        })
        && !(segments.iter().enumerate())
            .any(|(i, s)| NAMESPACE_WORDS.contains(s) && !(i == last && *s == "lock"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_and_folders() {
        for text in [
            "route",
            "call.route()",
            "\"catalog.import\"",
            "&\"book_shipment\"",
            "\"/v1/rebates\"",
            "\"{org}:{user}:order.place:{slot}\"",
        ] {
            assert!(names_operation(text), "{text}");
        }
        for text in [
            "\"{}/{}/avatars/{}\"",
            "\"avatars\"",
            "\"tenants/{t}/users/{u}/blobs/{h}\"",
            "42",
        ] {
            assert!(!names_operation(text), "{text}");
        }
    }

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
    fn key_maker_functions() {
        let v = Vocabulary::default();
        for name in [
            "make_idem_key",
            "cache_key",
            "compose_ingest_key",
            "dedup_key_for",
        ] {
            assert!(v.is_key_maker_fn(name), "{name}");
        }
        // Queries by a key return rows.
        for name in [
            "find_by_idempotency_key",
            "find_cached_quote_by_idempotency_key",
            "load_idem_entry",
            "exists_by_idempotency_key",
            "extract_idempotency_key",
        ] {
            assert!(!v.is_key_maker_fn(name), "{name}");
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
            "\0restore\0",
            "|refund|",
            "claims.status",
            "|quotes.create|",
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
            "\0",
            "\0idem\0",
            "idempotency.keys",
            "api.v1",
            "key {} already used by another request",
        ] {
            assert!(!v.literal_names_route(lit), "{lit}");
        }
    }
}
