//! The scoped storage key: the tuple every idempotency record is stored under.

use std::fmt;

use sha2::{Digest, Sha256};

/// The byte that joins the components of [`ScopedKey::storage_key`].
///
/// NUL was chosen because it cannot occur in an HTTP field value, in a
/// PostgreSQL `text` value or in the usual identifiers, so rejecting it costs
/// legitimate callers nothing.
pub const SEPARATOR: char = '\0';

/// Longest accepted tenant, principal or route, in bytes.
pub const MAX_COMPONENT_LEN: usize = 128;

/// Longest accepted client or server key, in bytes (the header's default bound).
pub const MAX_KEY_LEN: usize = 255;

/// Who minted the key: the client (`u:`) or the server itself (`s:`).
///
/// Keeping the two apart means no value a client sends can ever equal a key
/// the server derives for its own redeliveries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Namespace {
    /// A key from the `Idempotency-Key` header (`u:`).
    Client,
    /// A key the server minted, e.g. one per event redelivery (`s:`).
    Server,
}

impl Namespace {
    /// The column / storage-key spelling: `"u:"` or `"s:"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Namespace::Client => "u:",
            Namespace::Server => "s:",
        }
    }
}

impl fmt::Display for Namespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One caller-supplied element of the tuple, named in every [`ScopeError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Component {
    /// The tenant (organisation, account, merchant...).
    Tenant,
    /// The authenticated caller inside the tenant.
    Principal,
    /// The operation, e.g. `POST /v1/refunds`.
    Route,
    /// The client's `Idempotency-Key` or the server-minted key.
    Key,
}

impl Component {
    /// Lower-case name used in messages: `tenant`, `principal`, `route`, `key`.
    pub const fn name(self) -> &'static str {
        match self {
            Component::Tenant => "tenant",
            Component::Principal => "principal",
            Component::Route => "route",
            Component::Key => "key",
        }
    }

    /// The length bound, in bytes, that [`scoped`] enforces on this component.
    pub const fn max_len(self) -> usize {
        match self {
            Component::Key => MAX_KEY_LEN,
            _ => MAX_COMPONENT_LEN,
        }
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a tuple was refused. Every variant names the offending component.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ScopeError {
    /// The component is empty. There is no "global" fallback: a missing
    /// tenant or principal would switch isolation off.
    Missing(Component),
    /// The component contains [`SEPARATOR`]. It is rejected, never stripped or
    /// replaced, because either would map two different tuples onto one key.
    ContainsSeparator(Component),
    /// The component is longer than `max` bytes.
    TooLong {
        /// The offending component.
        component: Component,
        /// Its bound in bytes ([`Component::max_len`]).
        max: usize,
    },
}

impl fmt::Display for ScopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScopeError::Missing(c) => {
                write!(f, "idempotency scope: the {c} is empty (refusing to fall back to a global scope)")
            }
            ScopeError::ContainsSeparator(c) => write!(
                f,
                "idempotency scope: the {c} contains the separator byte NUL (\\0); it is rejected, not stripped"
            ),
            ScopeError::TooLong { component, max } => {
                write!(f, "idempotency scope: the {component} is longer than {max} bytes")
            }
        }
    }
}

impl std::error::Error for ScopeError {}

/// A fully scoped idempotency key: `(scope_version, tenant, principal, route,
/// namespace, key)`.
///
/// Only [`scoped`], [`scoped_server`] and [`ScopedKey::new`] build one, so
/// holding a `ScopedKey` proves every component was present and free of the
/// separator. Equality, ordering and hashing follow [`ScopedKey::storage_key`].
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScopedKey {
    /// `v1\0tenant\0principal\0route\0ns\0key`; the columns are slices of it.
    buf: String,
    /// Byte offset where each of the six fields starts.
    starts: [usize; 6],
}

/// Builds the key for a client-supplied `Idempotency-Key` (namespace `u:`).
///
/// Components are checked in tuple order (tenant, principal, route, key); the
/// first failure is returned. Bounds: [`MAX_COMPONENT_LEN`] bytes for tenant,
/// principal and route, [`MAX_KEY_LEN`] for the key.
///
/// ```
/// use idem_scope::{scoped, Component, ScopeError};
///
/// let a = scoped("tenant_a", "user_1", "POST /v1/charges", "8e03978e")?;
/// let b = scoped("tenant_b", "user_1", "POST /v1/charges", "8e03978e")?;
/// assert_ne!(a.storage_key(), b.storage_key());
/// assert_eq!(a.storage_key(), "v1\0tenant_a\0user_1\0POST /v1/charges\0u:\08e03978e");
///
/// assert_eq!(scoped("", "user_1", "r", "k"), Err(ScopeError::Missing(Component::Tenant)));
/// assert_eq!(
///     scoped("t", "user\0evil", "r", "k"),
///     Err(ScopeError::ContainsSeparator(Component::Principal)),
/// );
/// # Ok::<(), ScopeError>(())
/// ```
pub fn scoped(
    tenant: &str,
    principal: &str,
    route: &str,
    key: &str,
) -> Result<ScopedKey, ScopeError> {
    ScopedKey::new(Namespace::Client, tenant, principal, route, key)
}

/// Builds the key for a server-minted key (namespace `s:`), e.g. one per event
/// redelivery. It can never equal a key built by [`scoped`], whatever the
/// client sends.
///
/// ```
/// use idem_scope::{scoped, scoped_server};
///
/// let server = scoped_server("t", "webhook-worker", "deliver", "replay:evt_x:")?;
/// let client = scoped("t", "webhook-worker", "deliver", "replay:evt_x:")?;
/// assert_ne!(server, client);
/// # Ok::<(), idem_scope::ScopeError>(())
/// ```
pub fn scoped_server(
    tenant: &str,
    principal: &str,
    route: &str,
    key: &str,
) -> Result<ScopedKey, ScopeError> {
    ScopedKey::new(Namespace::Server, tenant, principal, route, key)
}

fn check(component: Component, value: &str) -> Result<(), ScopeError> {
    if value.is_empty() {
        return Err(ScopeError::Missing(component));
    }
    if value.as_bytes().contains(&(SEPARATOR as u8)) {
        return Err(ScopeError::ContainsSeparator(component));
    }
    let max = component.max_len();
    if value.len() > max {
        return Err(ScopeError::TooLong { component, max });
    }
    Ok(())
}

impl ScopedKey {
    /// The scope version written as the first element. A future change of
    /// separator, components or hashing becomes `v2`, and both can coexist in
    /// one table because the version is part of the primary key.
    pub const VERSION: &'static str = "v1";

    /// Builds a key in an explicit namespace; [`scoped`] and [`scoped_server`]
    /// are the usual entry points.
    pub fn new(
        namespace: Namespace,
        tenant: &str,
        principal: &str,
        route: &str,
        key: &str,
    ) -> Result<ScopedKey, ScopeError> {
        check(Component::Tenant, tenant)?;
        check(Component::Principal, principal)?;
        check(Component::Route, route)?;
        check(Component::Key, key)?;
        let parts = [
            Self::VERSION,
            tenant,
            principal,
            route,
            namespace.as_str(),
            key,
        ];
        let mut buf = String::with_capacity(parts.iter().map(|p| p.len() + 1).sum());
        let mut starts = [0; 6];
        for (i, part) in parts.into_iter().enumerate() {
            if i > 0 {
                buf.push(SEPARATOR);
            }
            starts[i] = buf.len();
            buf.push_str(part);
        }
        Ok(ScopedKey { buf, starts })
    }

    /// The storage-key prefix of every record of `tenant` under scope
    /// `version`: `"<version>\0<tenant>\0"`, for selecting the keyspace an
    /// identity move affects.
    ///
    /// In PostgreSQL the same selection is by columns:
    /// `SELECT .. FROM idempotency_records WHERE scope_version = $1 AND tenant_id = $2`
    /// (the primary key's leading columns serve it). In Redis (`RedisStore`
    /// keys are `idem:` + storage key): `SCAN 0 MATCH idem:<prefix>* COUNT 1000`,
    /// with `*`, `?`, `[`, `]` and `\` in the tenant escaped by a backslash.
    ///
    /// ```
    /// use idem_scope::{scoped, ScopedKey};
    ///
    /// let prefix = ScopedKey::prefix(ScopedKey::VERSION, "acme")?;
    /// assert_eq!(prefix, "v1\0acme\0");
    /// assert!(scoped("acme", "u1", "POST /v1/charges", "k")?.storage_key().starts_with(&prefix));
    /// assert!(!scoped("acme2", "u1", "POST /v1/charges", "k")?.storage_key().starts_with(&prefix));
    /// assert!(ScopedKey::prefix("v1", "a\0b").is_err());
    /// # Ok::<(), idem_scope::ScopeError>(())
    /// ```
    pub fn prefix(version: &str, tenant: &str) -> Result<String, ScopeError> {
        check(Component::Tenant, tenant)?;
        Ok(format!("{version}{SEPARATOR}{tenant}{SEPARATOR}"))
    }

    fn field(&self, i: usize) -> &str {
        // Offsets come from `new`, which only ever places them at ASCII NUL
        // boundaries, so this slice is always on a char boundary.
        let end = if i + 1 < self.starts.len() {
            self.starts[i + 1] - 1
        } else {
            self.buf.len()
        };
        &self.buf[self.starts[i]..end]
    }

    /// `v1\0<tenant>\0<principal>\0<route>\0<u:|s:>\0<key>`.
    ///
    /// Injective: no component is empty or contains NUL, so splitting on NUL
    /// always yields the six original fields back.
    pub fn storage_key(&self) -> &str {
        &self.buf
    }

    /// The six composite-primary-key columns (see [`crate::POSTGRES_SCHEMA`]).
    pub fn columns(&self) -> Columns<'_> {
        Columns {
            scope_version: self.field(0),
            tenant_id: self.field(1),
            principal_id: self.field(2),
            route: self.field(3),
            ns: self.field(4),
            idem_key: self.field(5),
        }
    }

    /// Which namespace the key lives in.
    pub fn namespace(&self) -> Namespace {
        if self.field(4) == Namespace::Server.as_str() {
            Namespace::Server
        } else {
            Namespace::Client
        }
    }

    /// The tenant component.
    pub fn tenant(&self) -> &str {
        self.field(1)
    }

    /// The principal component.
    pub fn principal(&self) -> &str {
        self.field(2)
    }

    /// The route component.
    pub fn route(&self) -> &str {
        self.field(3)
    }

    /// The client's or server's key component.
    pub fn key(&self) -> &str {
        self.field(5)
    }

    /// The shard (`0..shards`) holding this key, chosen by `(version, tenant)`
    /// only, so one tenant's records stay together.
    ///
    /// Algorithm (stable; reproduce it in any language):
    /// `h = SHA-256(utf8(version) || 0x00 || utf8(tenant))`, take `h[0..4]` as
    /// a big-endian `u32`, return it modulo `shards`. `shards == 0` returns `0`
    /// rather than panicking.
    ///
    /// ```
    /// let k = idem_scope::scoped("acme", "u1", "POST /v1/charges", "k1")?;
    /// // SHA-256("v1\0acme") starts with fa fe 68 67 = 4210976871.
    /// assert_eq!(k.shard(16), 4210976871 % 16);
    /// assert_eq!(k.shard(1000), 871);
    /// assert_eq!(k.shard(0), 0);
    /// # Ok::<(), idem_scope::ScopeError>(())
    /// ```
    pub fn shard(&self, shards: u32) -> u32 {
        if shards == 0 {
            return 0;
        }
        let digest = Sha256::new()
            .chain_update(self.field(0))
            .chain_update([0u8])
            .chain_update(self.field(1))
            .finalize();
        u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]) % shards
    }
}

impl fmt::Debug for ScopedKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.columns();
        f.debug_struct("ScopedKey")
            .field("scope_version", &c.scope_version)
            .field("tenant_id", &c.tenant_id)
            .field("principal_id", &c.principal_id)
            .field("route", &c.route)
            .field("ns", &c.ns)
            .field("idem_key", &c.idem_key)
            .finish()
    }
}

/// The composite-primary-key columns of one record, in key order.
///
/// ```
/// let k = idem_scope::scoped("acme", "u1", "POST /v1/refunds", "k1")?;
/// let c = k.columns();
/// assert_eq!(c.as_array(), ["v1", "acme", "u1", "POST /v1/refunds", "u:", "k1"]);
/// assert_eq!(idem_scope::Columns::NAMES[5], "idem_key");
/// # Ok::<(), idem_scope::ScopeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Columns<'a> {
    /// `scope_version`, e.g. `v1`.
    pub scope_version: &'a str,
    /// `tenant_id`.
    pub tenant_id: &'a str,
    /// `principal_id`.
    pub principal_id: &'a str,
    /// `route`.
    pub route: &'a str,
    /// `ns`: `u:` or `s:`.
    pub ns: &'a str,
    /// `idem_key`: the client's or server's key.
    pub idem_key: &'a str,
}

impl<'a> Columns<'a> {
    /// Column names in primary-key order, matching [`Columns::as_array`].
    pub const NAMES: [&'static str; 6] = [
        "scope_version",
        "tenant_id",
        "principal_id",
        "route",
        "ns",
        "idem_key",
    ];

    /// Values in primary-key order, ready to bind as `$1..$6`.
    pub fn as_array(&self) -> [&'a str; 6] {
        [
            self.scope_version,
            self.tenant_id,
            self.principal_id,
            self.route,
            self.ns,
            self.idem_key,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_component_is_named_in_errors() {
        let cases = [
            (
                scoped("", "p", "r", "k"),
                ScopeError::Missing(Component::Tenant),
            ),
            (
                scoped("t", "", "r", "k"),
                ScopeError::Missing(Component::Principal),
            ),
            (
                scoped("t", "p", "", "k"),
                ScopeError::Missing(Component::Route),
            ),
            (
                scoped("t", "p", "r", ""),
                ScopeError::Missing(Component::Key),
            ),
            (
                scoped("t\0", "p", "r", "k"),
                ScopeError::ContainsSeparator(Component::Tenant),
            ),
            (
                scoped("t", "\0p", "r", "k"),
                ScopeError::ContainsSeparator(Component::Principal),
            ),
            (
                scoped("t", "p", "r\0x", "k"),
                ScopeError::ContainsSeparator(Component::Route),
            ),
            (
                scoped_server("t", "p", "r", "\0"),
                ScopeError::ContainsSeparator(Component::Key),
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got, Err(want.clone()));
            let msg = want.to_string();
            let name = match want {
                ScopeError::Missing(c) | ScopeError::ContainsSeparator(c) => c.name(),
                ScopeError::TooLong { component, .. } => component.name(),
            };
            assert!(msg.contains(name), "{msg}");
        }
    }

    #[test]
    fn length_bounds_are_inclusive() {
        let c = "c".repeat(MAX_COMPONENT_LEN);
        let k = "k".repeat(MAX_KEY_LEN);
        assert!(scoped(&c, &c, &c, &k).is_ok());
        let long = "x".repeat(MAX_COMPONENT_LEN + 1);
        assert_eq!(
            scoped(&long, "p", "r", "k"),
            Err(ScopeError::TooLong {
                component: Component::Tenant,
                max: MAX_COMPONENT_LEN
            })
        );
        assert_eq!(
            scoped("t", "p", "r", &"k".repeat(MAX_KEY_LEN + 1)),
            Err(ScopeError::TooLong {
                component: Component::Key,
                max: MAX_KEY_LEN
            })
        );
    }

    #[test]
    fn columns_and_accessors_round_trip() {
        let k = scoped_server("t:1", "p|2", "POST /r", "u:k").unwrap();
        assert_eq!(k.storage_key(), "v1\0t:1\0p|2\0POST /r\0s:\0u:k");
        assert_eq!(
            k.columns().as_array(),
            ["v1", "t:1", "p|2", "POST /r", "s:", "u:k"]
        );
        assert_eq!(
            (k.tenant(), k.principal(), k.route(), k.key()),
            ("t:1", "p|2", "POST /r", "u:k")
        );
        assert_eq!(k.namespace(), Namespace::Server);
        assert_eq!(
            scoped("t", "p", "r", "k").unwrap().namespace(),
            Namespace::Client
        );
        assert!(format!("{k:?}").contains("tenant_id: \"t:1\""));
    }

    #[test]
    fn shard_test_vectors() {
        // python3 -c 'import hashlib;print(hashlib.sha256(b"v1\0tenant-a").hexdigest()[:8])' -> d6cbe4df
        let k = scoped("tenant-a", "p", "r", "k").unwrap();
        assert_eq!(k.shard(u32::MAX), 0xd6cb_e4df);
        assert_eq!(k.shard(16), 15);
        assert_eq!(scoped("t_42", "p", "r", "k").unwrap().shard(1000), 646);
        assert_eq!(k.shard(1), 0);
        assert_eq!(k.shard(0), 0);
    }
}
