//! How the evaluator reads methods and replacements: calls that pass a
//! key's value through, getters that say nothing about it, and the
//! separators and escapes of component sanitising (IDEM006).

/// Methods that append their argument to the buffer they are called on
/// (`slot.push_str(&key)`): a builder's text, a claim's key.
pub const BUFFER_APPEND_METHODS: &[&str] = &[
    "push_str",
    "push",
    "extend_from_slice",
    "extend",
    "write_str",
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
    "transpose",
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

/// Transparent accessors whose name a builder also gives its setters
/// (`ReplayKey::builder().key(&k)`): given an argument, they set it.
pub const SETTER_ACCESSORS: &[&str] = &["key", "value", "inner", "storage_key", "as_key"];

/// Transparent accessors of idem-scope's key types that a crate may also
/// define on its own records (`fn storage_key(&self)` packing its fields):
/// on a value no key constructor made, the crate's method is read.
pub const OWN_ACCESSORS: &[&str] = &["storage_key"];

/// Iterator and container methods that hand on an element, or the
/// elements themselves, as they are: a key built in a closure keeps its
/// shape through `keys.iter().zip(..)`, `.next()`, `.collect()`. Unlike
/// [`TRANSPARENT_METHODS`], a crate may define them for its own types, so
/// the evaluator reads them so only where no crate-local method applies.
pub const ELEMENT_METHODS: &[&str] = &[
    "iter",
    "iter_mut",
    "into_iter",
    "next",
    "next_back",
    "last",
    "nth",
    "first",
    "peekable",
    "rev",
    "take",
    "skip",
    "step_by",
    "chain",
    "zip",
    "enumerate",
    "flatten",
    "fuse",
    "by_ref",
    "collect",
    "pop",
    "pop_front",
    "pop_back",
];

/// Methods that run a SQL statement given with its binds beside it:
/// tokio-postgres' `client.query_one(SQL, &[&a, &b])`, rusqlite's
/// `conn.execute(SQL, params![a, b])` and `query_row(SQL, params![..], |row| ..)`.
/// Constructors that mint a fresh value of their type
/// (`IdempotencyKey::generate(node)`): the type's name says what the value
/// is, never that a client sent it.
pub const MINTING_CONSTRUCTORS: &[&str] = &[
    "generate",
    "random",
    "new_random",
    "new_v4",
    "new_v7",
    "now_v7",
    "fresh",
    "mint",
    "new_unique",
];

/// The calls that run a prepared statement (`session.prepare(SQL)`) with
/// its binds: read by the evaluator and by the claim walk.
pub const PREPARED_EXECUTE_METHODS: &[&str] =
    &["execute", "query", "query_one", "query_opt", "query_row"];

/// Read as key positions by the evaluator and as claims by the claim walk.
pub const POSITIONAL_SQL_METHODS: &[&str] = &[
    "query",
    "query_one",
    "query_opt",
    "query_raw",
    "execute",
    "execute_raw",
    "prepare_cached",
    "query_row",
    "query_row_and_then",
];

/// Zero-argument methods whose result says nothing about the key's text.
pub const OPAQUE_GETTERS: &[&str] = &[
    "len", "is_empty", "is_some", "is_none", "is_ok", "is_err", "count", "capacity", "hash",
    "finish", "elapsed", "now", "lock", "read", "write", "await",
];

/// Methods whose result carries no text of their arguments (comparisons,
/// searches, predicates): an unknown call passes its arguments' client key
/// on to its result except through these (the getters above give nothing).
pub const NO_TEXT_FLOW: &[&str] = &[
    "eq",
    "ne",
    "cmp",
    "partial_cmp",
    "contains",
    "contains_key",
    "starts_with",
    "ends_with",
    "is_match",
    "matches",
    "find",
    "position",
];

/// Remainders of an integer: a hash reduced modulo a count is a bucket or
/// shard index (`hash.overflowing_rem(shards).0`), whose collisions are the
/// point; nothing of what was hashed flows on into it.
pub const REMAINDER_METHODS: &[&str] = &[
    "rem",
    "rem_euclid",
    "checked_rem",
    "checked_rem_euclid",
    "wrapping_rem",
    "wrapping_rem_euclid",
    "overflowing_rem",
    "overflowing_rem_euclid",
];

/// Whether a function path reads a file (`fs::read(path)`,
/// `tokio::fs::read_to_string`, `File::open`): its result is stored
/// content, not the path it was read from (rules.md: a hash of stored file
/// contents is not a payload hash), so the path's sources stop there.
pub fn is_file_read(segments: &[String]) -> bool {
    match segments {
        [.., module, function] if module == "fs" => matches!(
            function.as_str(),
            "read" | "read_to_string" | "read_dir" | "read_link" | "metadata"
        ),
        [.., ty, function] if ty == "File" => function == "open",
        _ => false,
    }
}

/// Characters used to join key components; stripping one of them from a
/// component instead of rejecting it makes two components collide.
pub const KEY_SEPARATORS: &[char] = &['\0', '\u{1e}', ':', '|', '/', '#'];

/// Whether a replacement text is an escape sequence (`"%3A"`, `"\\:"`)
/// rather than a lossy substitute: escaping keeps components distinct.
pub fn is_escape_replacement(text: &str) -> bool {
    text.chars().count() >= 2 && (text.starts_with('%') || text.starts_with('\\'))
}

/// Calls that wrap their argument without changing what it is.
pub fn is_wrapper_call(name: &str) -> bool {
    if name.chars().next().is_some_and(|c| c.is_uppercase()) {
        // `Some(x)`, `Ok(x)`, `Json(x)`, `CacheKey(x)`, and an enum variant
        // at any path (`Directive::LoadToCache(key)`): wrapping is
        // transparent, the key keeps its components.
        return true;
    }
    matches!(
        name,
        "new"
            | "from"
            | "from_str"
            | "from_static"
            | "from_string"
            | "from_bytes"
            | "try_from"
            | "into"
            | "borrow"
            | "parse_str"
            | "to_string"
            | "to_owned"
            | "encode"
            | "encode_upper"
            | "encode_to_string"
            | "escape"
            | "identity"
            | "Owned"
            | "Borrowed"
            | "copy_from_slice"
            // Serialising a key record keeps what it holds
            // (`bincode::serialize(&ReplayKey { .. })`, `serde_json::to_vec`).
            | "serialize"
            | "to_vec"
            | "to_allocvec"
            | "to_stdvec"
            | "encode_to_vec"
    )
}
