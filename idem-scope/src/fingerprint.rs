//! The request fingerprint stored beside (never inside) the key.

use std::fmt;

use sha2::{Digest, Sha256};

/// SHA-256 of `route || "\n" || raw body bytes`.
///
/// The body is hashed as received, without JSON normalisation: a retry must be
/// byte-identical to be replayed. The route is included so a record can be
/// checked on its own, but a fingerprint never takes part in the key: keying
/// by payload hash would swallow a legitimate second identical payment.
///
/// ```
/// use idem_scope::Fingerprint;
///
/// let a = Fingerprint::of("POST /v1/charges", br#"{"amount":100}"#);
/// assert_eq!(a, Fingerprint::of("POST /v1/charges", br#"{"amount":100}"#));
/// assert_ne!(a, Fingerprint::of("POST /v1/charges", br#"{"amount": 100}"#));
/// // printf 'POST /v1/charges\n{"amount":100}' | sha256sum
/// assert_eq!(
///     a.to_string(),
///     "6f867d59dbefa832df1e1ca1e012d55ea0287c12437047a65c38208d69573b99",
/// );
/// assert_eq!(Fingerprint::from_bytes(*a.as_bytes()), a);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint([u8; 32]);

impl Fingerprint {
    /// Fingerprints one request.
    pub fn of(route: &str, raw_body: &[u8]) -> Self {
        let digest = Sha256::new()
            .chain_update(route.as_bytes())
            .chain_update(b"\n")
            .chain_update(raw_body)
            .finalize();
        Fingerprint(digest.into())
    }

    /// Rebuilds a fingerprint loaded from storage (e.g. a `BYTEA` column).
    pub const fn from_bytes(bytes: [u8; 32]) -> Self {
        Fingerprint(bytes)
    }

    /// Rebuilds a fingerprint from a stored slice; `None` unless it is 32 bytes.
    pub fn from_slice(bytes: &[u8]) -> Option<Self> {
        <[u8; 32]>::try_from(bytes).ok().map(Fingerprint)
    }

    /// The 32 digest bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

/// Lower-case hex, 64 characters.
impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({self})")
    }
}
