//! Clues: evidence toward a fact of an item that one token does not prove
//! alone, combined when the item closes (see `scan`).

/// Evidence toward a fact that one token does not prove alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Clue {
    /// A request id: a key event only where the unit names an idempotency store.
    RequestId,
    /// It calls a claim verb.
    ClaimCall,
    /// It calls a release verb (a `Drop` impl that does is a guard).
    ReleaseCall,
    /// It holds a literal that can make a query a claim (`INSERT …
    /// 'in_progress'`, `NX`).
    ClaimLiteral,
    /// A parameter's type is a hasher (`&mut Sha256`).
    HasherParam,
    /// It calls a method that finishes a hasher (`.finalize()`, `.finish()`).
    Finalizes,
    /// It makes a hasher object (`Sha256::new()`). A hasher is finished
    /// where it is made, or by a caller it is returned to: either holds a
    /// hash fact, a function that makes one and does neither does not.
    MakesHasher,
    /// It names the request payload: a body extractor (`Json`, `Bytes`),
    /// a payload name (`body`) or a deserialising call (`from_slice`).
    Payload,
    /// It calls `.update(..)`: a hasher's where a hashing trait is imported.
    FeedsHasher,
    /// It calls `Type::digest(..)`: the trait's one-shot digest where a
    /// hashing trait is imported (`Gost94CryptoPro::digest(raw)`).
    TraitDigest,
}

/// A set of [`Clue`]s.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Clues(u16);

impl Clues {
    pub(super) fn insert(&mut self, clue: Clue) {
        self.0 |= 1 << clue as u8;
    }

    /// Adds every clue of `other`.
    pub(super) fn extend(&mut self, other: Clues) {
        self.0 |= other.0;
    }

    pub(super) fn has(self, clue: Clue) -> bool {
        self.0 & (1 << clue as u8) != 0
    }
}
