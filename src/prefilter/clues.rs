//! Clues: evidence toward a fact of an item that one token does not prove
//! alone, combined when the item closes (see `scan`), and what a file's
//! `use` declarations make of later tokens.

use crate::analysis::hashing;
use crate::lex::Token;

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
    /// It calls `.hash(..)` lending nothing mutably: a hasher object's
    /// one-shot digest (siphasher's `sip.hash(b)`) where it also makes the
    /// hasher, not std's `value.hash(&mut state)` feeding one.
    HashesWith,
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
    /// Inside the `use` being read, the brace depths of the groups a hash
    /// crate or module opens (`dryoc::generichash::{..}`), and the depth now.
    groups: Vec<usize>,
    depth: usize,
    /// The last name was a hash crate or module followed by `::`.
    after_module: bool,
    /// Types imported from a hash crate or module (`use
    /// dryoc::generichash::{GenericHash, ..}`, `use crc16::State`): their
    /// associated functions may digest (`hashing::classify_call` on the
    /// imported path).
    types: Vec<&'t str>,
}

impl<'t> HashImports<'t> {
    /// The token at `i` inside a `use` declaration.
    pub(super) fn use_token(&mut self, tokens: &[Token<'t>], i: usize) {
        match tokens[i] {
            Token::Open(b'{') => {
                self.depth += 1;
                if std::mem::take(&mut self.after_module) {
                    self.groups.push(self.depth);
                }
            }
            Token::Close(b'}') => {
                self.groups.retain(|&d| d < self.depth);
                self.depth = self.depth.saturating_sub(1);
            }
            Token::Ident(name) => {
                self.hash_trait |= hashing::is_hash_protocol_trait(name);
                let head = path_head(tokens, i);
                let imported = !head && (self.after_module || !self.groups.is_empty());
                if imported && name.starts_with(|c: char| c.is_ascii_uppercase()) {
                    self.types.push(name);
                }
                if head {
                    self.after_module = hashing::is_hash_module(name);
                } else {
                    self.after_module = false;
                }
            }
            _ => {}
        }
    }

    /// The end of a `use` declaration.
    pub(super) fn end_use(&mut self) {
        self.groups.clear();
        self.depth = 0;
        self.after_module = false;
    }

    /// Whether `name` is a type imported from a hash crate or module.
    pub(super) fn is_hash_type(&self, name: &str) -> bool {
        self.types.contains(&name)
    }
}

/// Whether the name at `i` heads a path (`::` follows it).
pub(super) fn path_head(tokens: &[Token<'_>], i: usize) -> bool {
    tokens.get(i + 1) == Some(&Token::Punct(":")) && tokens.get(i + 2) == Some(&Token::Punct(":"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The imports of `text`, read as the scan reads a `use` declaration.
    fn imports(text: &str) -> HashImports<'_> {
        let tokens: Vec<Token<'_>> = crate::lex::tokens(text).collect();
        let mut imports = HashImports::default();
        for i in 0..tokens.len() {
            match tokens[i] {
                Token::Ident("use") => {}
                Token::Punct(";") => imports.end_use(),
                _ => imports.use_token(&tokens, i),
            }
        }
        imports
    }

    #[test]
    fn types_from_hash_modules_only() {
        let found = imports(
            "use dryoc::generichash::{GenericHash, Key}; use crc16::State; \
             use crate::{hash::Fnv, http::{HttpClient, Retry}}; use sha2::Digest;",
        );
        for name in ["GenericHash", "Key", "State", "Fnv", "Digest"] {
            assert!(found.is_hash_type(name), "{name}");
        }
        for name in ["HttpClient", "Retry"] {
            assert!(!found.is_hash_type(name), "{name}");
        }
        assert!(found.hash_trait);
    }

    #[test]
    fn a_constant_declaration_heads_no_path() {
        let tokens: Vec<Token<'_>> =
            crate::lex::tokens("const RETRY: u64 = 3; State::new()").collect();
        assert!(!path_head(&tokens, 1));
        let state = tokens.iter().position(|t| *t == Token::Ident("State"));
        assert!(state.is_some_and(|i| path_head(&tokens, i)));
    }
}
