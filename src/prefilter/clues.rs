//! Clues: evidence toward a fact of an item that one token does not prove
//! alone, combined when the item closes (see `scan`), and what a file's
//! `use` declarations make of later tokens.

use crate::analysis::hashing;

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

/// What a file's `use` declarations bring into scope that makes later
/// tokens hash facts.
#[derive(Debug, Default)]
pub(super) struct HashImports<'t> {
    /// A hashing trait (`use k12::digest::Update`): `.update(..)` feeds a
    /// hasher, `Type::digest(..)` is the trait's.
    pub(super) hash_trait: bool,
    /// The `use` being read names a hash crate or module.
    from_hash_module: bool,
    /// Types imported from a hash crate or module (`use
    /// dryoc::generichash::{GenericHash, ..}`): their associated functions
    /// may digest (`hashing::classify_call` on the imported path).
    types: Vec<&'t str>,
}

impl<'t> HashImports<'t> {
    /// A name inside a `use` declaration; `path_head` when `::` follows it.
    pub(super) fn use_ident(&mut self, name: &'t str, path_head: bool) {
        self.hash_trait |= hashing::is_hash_protocol_trait(name);
        if path_head {
            self.from_hash_module |= hashing::is_hash_module(name);
        } else if self.from_hash_module && name.starts_with(|c: char| c.is_ascii_uppercase()) {
            self.types.push(name);
        }
    }

    /// The end of a `use` declaration.
    pub(super) fn end_use(&mut self) {
        self.from_hash_module = false;
    }

    /// Whether `name` is a type imported from a hash crate or module.
    pub(super) fn is_hash_type(&self, name: &str) -> bool {
        self.types.contains(&name)
    }
}
