//! Correctly scoped idempotency keys.
//!
//! An `Idempotency-Key` header is a client's declaration of intent, not a
//! storage primary key. What reaches storage must be the tuple
//!
//! ```text
//! (scope_version, tenant, principal, route, namespace, client_key)
//! ```
//!
//! and each element prevents a real incident:
//!
//! | element | incident it prevents |
//! |---|---|
//! | tenant | **cross-tenant replay**: tenant B sends the key tenant A used and receives A's cached response (a data leak). |
//! | principal | **principal collision**: principal ids are often unique only per tenant, so two callers poison each other's keys. |
//! | route | **refund answered as payment duplicate**: a refund reusing the payment's key is answered "duplicate" with the payment's success, and the refund never happens. |
//! | namespace (`u:` client / `s:` server) | **client pre-poisoning**: a client sends `Idempotency-Key: replay:evt_x:`; later the server's own redelivery of `evt_x` mints the same key, gets "key reused", and the redelivery chain is stuck for good. |
//! | scope_version | **migrations**: changing the separator, the components or the hashing later means `v2` rows beside `v1` rows instead of a full rewrite. |
//!
//! Joining components with a separator that may occur inside one
//! (`"A\x1eB" + "X"` == `"A" + "B\x1eX"`) maps two principals onto one row,
//! and so does *stripping* the separator. [`scoped`] therefore **rejects**
//! empty components and components containing the separator (NUL): it fails
//! closed, with an error naming the component, never "best effort".
//!
//! Most services need only one line: [`IdempotencyLayer`] (feature `tower`)
//! does every step below for the routes it wraps, on a [`MemoryStore`],
//! `PgStore` (feature `postgres`) or `RedisStore` (feature `redis`), and the
//! `conformance` kit proves it from outside. The pieces remain available for
//! hand-wired flows:
//!
//! - [`IdempotencyKey`] parses the header strictly (RFC 9651 sf-string via
//!   `sfv`) or leniently (bare values too);
//! - [`Fingerprint`] hashes route and raw body; it is stored beside the key,
//!   never inside it (a payload hash as key would swallow a legitimate second
//!   identical payment);
//! - [`decide`] turns the stored [`Record`] into a [`Decision`];
//! - [`Problem`] renders the 400/409/422 `application/problem+json` bodies;
//! - [`ClaimGuard`] releases a claim on every early exit, including panics;
//! - [`POSTGRES_SCHEMA`] is the table with the composite primary key.
//!
//! Nothing here panics on input: any bytes or strings give a value or an
//! error.
//!
//! # The whole flow
//!
//! ```
//! use std::collections::HashMap;
//! use idem_scope::*;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut store: HashMap<ScopedKey, (Record, Option<String>)> = HashMap::new();
//!
//! // What a handler has: authenticated identity, its route, the raw request.
//! let (tenant, principal, route) = ("acme", "user_7", "POST /v1/charges");
//! let header = br#""8e03978e-40d5-43e8-bc93-6894a57f9324""#;
//! let body = br#"{"amount":100}"#;
//!
//! let client_key = IdempotencyKey::parse(header)?; // else Problem::from_header_error
//! let key = scoped(tenant, principal, route, client_key.as_str())?;
//! let fp = Fingerprint::of(route, body);
//!
//! match decide(store.get(&key).map(|(r, _)| r), &fp) {
//!     Decision::Proceed => {
//!         store.insert(key.clone(), (Record::in_progress(fp), None));
//!         let guard = ClaimGuard::new(|| { /* delete the claim: runs on any early exit */ });
//!         let response = r#"{"id":"ch_1"}"#.to_owned(); // execute the charge
//!         store.insert(key.clone(), (Record::completed(fp), Some(response)));
//!         guard.complete();
//!     }
//!     Decision::Replay => { /* return the stored response */ }
//!     Decision::InProgress => { let _409 = Problem::in_progress(client_key.as_str()); }
//!     Decision::Mismatch => { let _422 = Problem::mismatch(client_key.as_str()); }
//! }
//!
//! // A byte-identical retry is replayed; another body under the key is a 422.
//! assert_eq!(decide(store.get(&key).map(|(r, _)| r), &fp), Decision::Replay);
//! let other = Fingerprint::of(route, br#"{"amount":999}"#);
//! assert_eq!(decide(store.get(&key).map(|(r, _)| r), &other), Decision::Mismatch);
//!
//! // The same client key from another tenant, or on the refund route, is a new key.
//! let b = scoped("globex", principal, route, client_key.as_str())?;
//! let refund = scoped(tenant, principal, "POST /v1/refunds", client_key.as_str())?;
//! assert_eq!(decide(store.get(&b).map(|(r, _)| r), &fp), Decision::Proceed);
//! assert_eq!(decide(store.get(&refund).map(|(r, _)| r), &fp), Decision::Proceed);
//! # Ok(())
//! # }
//! ```
//!
//! # Features
//!
//! - `http`: `IdempotencyKey::from_headers` / `from_headers_lenient` and
//!   `Problem::to_response`, for the `http` crate's types.
//! - `tower`: [`IdempotencyLayer`] (tower 0.5, http 1; axum 0.8, hyper 1).
//! - `postgres`: `PgStore` on sqlx 0.8 and [`POSTGRES_SCHEMA`].
//! - `redis`: `RedisStore` on redis-rs (Redis 7).
//! - `conformance`: `conformance::run` and the `idem-probe` binary.
//!
//! [`MemoryStore`], the [`Store`] trait and [`Aliases`] need no feature.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod aliases;
#[cfg(feature = "conformance")]
pub mod conformance;
mod decision;
mod fingerprint;
mod guard;
mod header;
#[cfg(feature = "tower")]
mod layer;
mod memory_store;
#[cfg(feature = "postgres")]
mod postgres_store;
mod problem;
#[cfg(feature = "redis")]
mod redis_store;
mod schema;
mod scope;
mod store;

pub use aliases::Aliases;
#[cfg(feature = "tower")]
pub use layer::{
    Idempotency, IdempotencyLayer, InnerBody, Scope, ScopeResolver, DEFAULT_MAX_BODY, DEFAULT_TTL,
    REPLAYED_HEADER,
};
pub use memory_store::MemoryStore;
#[cfg(feature = "postgres")]
pub use postgres_store::PgStore;
#[cfg(feature = "redis")]
pub use redis_store::RedisStore;
pub use store::{ClaimToken, Claimed, Store, StoreError, StoredResponse};

pub use decision::{decide, decide_at, Decision, Record, RecordState, DEFAULT_LEASE};
pub use fingerprint::Fingerprint;
pub use guard::ClaimGuard;
pub use header::{HeaderError, IdempotencyKey, DEFAULT_MAX_KEY_LEN, IDEMPOTENCY_KEY_HEADER};
pub use problem::{Problem, DEFAULT_RETRY_AFTER_SECS, PROBLEM_CONTENT_TYPE};
pub use schema::POSTGRES_SCHEMA;
pub use scope::{
    scoped, scoped_server, Columns, Component, Namespace, ScopeError, ScopedKey, MAX_COMPONENT_LEN,
    MAX_KEY_LEN, SEPARATOR,
};
