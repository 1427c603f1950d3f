//! What the pre-filter looks for: the fact kinds rules declare
//! ([`Fact`], from `Rule::needs`), how far each reaches through the call
//! graph, and the word, identifier and literal predicates that find them;
//! and what cannot hold a fact at all (large inert tables, [`TableScan`]).
//!
//! Every predicate here is the cheap mirror of one the analysis applies
//! (`analysis::vocab`, `analysis::hashing`, `analysis::sql_literals`): a
//! predicate that accepts less than the analysis would lose findings, one
//! that accepts more only makes the filter keep more.

use crate::analysis::payload_sources;
use aho_corasick::AhoCorasick;
use std::ops::Range;

use crate::analysis::hashing::{
    self, is_hash_token, is_hasher_constructor, TokenPlace, HASH_CANDIDATE_WORDS,
};
use crate::analysis::vocab::{names_idempotency_store, names_key_header_constant, Vocabulary};
use crate::lex::Token;
use crate::rules::Rule;

use super::Prefilter;
pub use crate::rules::Fact;

/// A set of [`Fact`]s: what an item holds, or what the enabled rules need.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FactSet(u16);

impl FactSet {
    /// The facts of `facts`.
    pub fn of(facts: impl IntoIterator<Item = Fact>) -> FactSet {
        let mut set = FactSet::default();
        for fact in facts {
            set.insert(fact);
        }
        set
    }

    /// Adds `fact`.
    pub fn insert(&mut self, fact: Fact) {
        self.0 |= 1 << fact as u16;
    }

    /// Whether `fact` is in the set.
    pub fn contains(self, fact: Fact) -> bool {
        self.0 & (1 << fact as u16) != 0
    }
}

/// Every fact kind, for iterating over a [`FactSet`].
pub const FACTS: [Fact; 8] = [
    Fact::Nothing,
    Fact::KeyEvents,
    Fact::HashCalls,
    Fact::Claims,
    Fact::Namespaces,
    Fact::SharedStores,
    Fact::Ddl,
    Fact::Suppressions,
];

/// How far an item holding a fact carries it through the call graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Out of the item: a key or digest it makes flows to its callers and
    /// to the users of a constant holding it.
    Callers,
    /// The item alone (and the callees its analysis reads).
    Local,
    /// Items that store where keyed items store.
    SharedStores,
    /// The selection does not see it (decided before or beside it).
    Outside,
}

/// How the selection follows a fact.
pub fn reach(fact: Fact) -> Reach {
    match fact {
        Fact::KeyEvents | Fact::HashCalls | Fact::Namespaces => Reach::Callers,
        Fact::Claims | Fact::Ddl => Reach::Local,
        Fact::SharedStores => Reach::SharedStores,
        Fact::Nothing | Fact::Suppressions => Reach::Outside,
    }
}

/// Words (matched in any case, anywhere in a file) without which a fact
/// cannot occur in it, beyond the client-key words every file is asked for.
pub fn gate_words(fact: Fact, vocab: &Vocabulary) -> Vec<String> {
    match fact {
        Fact::HashCalls => HASH_CANDIDATE_WORDS.iter().map(|w| w.to_string()).collect(),
        Fact::Namespaces => vec!["namespace".to_string()],
        Fact::Claims => {
            // Claim verbs are matched whole, so each is its own word.
            let mut words = vocab.claim_verb_words();
            words.extend(["insert", "nx"].map(String::from));
            words
        }
        // `looks_like_ddl` needs CREATE or ALTER.
        Fact::Ddl => ["create", "alter"].map(String::from).to_vec(),
        Fact::Nothing | Fact::KeyEvents | Fact::SharedStores | Fact::Suppressions => Vec::new(),
    }
}

/// Whether a rule reports only in units whose texts hold key evidence
/// (`analysis::vocab::Evidence`). A rule that reads key events reports on a key
/// event, and a key event starts at a client-key word, or at a request id
/// where an idempotency store is named (`Trigger`); a DDL fact counts only
/// on an idempotency table (`analysis::sql`), whose name is a store word.
/// IDEM004 reports a claim only in a unit with idempotency context
/// (`Vocabulary::has_idempotency_context`, which is key evidence), so
/// claims need it as well. Only rules on what happens before
/// analysis (unreadable files, suppressions) report anywhere.
pub fn needs_key_evidence(rule: &Rule) -> bool {
    (rule.needs.iter()).any(|f| matches!(f, Fact::KeyEvents | Fact::Ddl | Fact::Claims))
}

/// How a token can make a value a client key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Trigger {
    /// Nothing.
    None,
    /// A request id: a client key only where it reaches an idempotency
    /// store, whose name or SQL table says `idem`, `dedup` or `replay`.
    Weak,
    /// An idempotency-key name, header or constructor.
    Strong,
}

/// What an identifier starts toward a fact that needs no client key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenFact {
    /// Nothing.
    None,
    /// The item holds this fact (a hash call, a key namespace path).
    Holds(Fact),
    /// A hasher-typed parameter: a hash fact where the function finishes it.
    HasherParam,
    /// A call of a method that finishes a hasher.
    Finalizes,
    /// A new hasher object (`Sha256::new()`).
    MakesHasher,
}

impl Prefilter {
    /// Whether a rule of this build needs `fact`.
    pub(super) fn needs(&self, fact: Fact) -> bool {
        self.needs.contains(fact)
    }

    /// Whether a word of the text (an identifier, or a run of a string
    /// literal or comment) can be where a trigger or local fact starts: the
    /// exact predicates the scan applies, asked of the word in any position.
    /// `follow` is the text after the word, past whitespace: verbs and
    /// hash functions count where they are called (`(`), modules and types
    /// where a path goes on (`::`, or `>` closing `<T as Trait>`). A comment
    /// right after a word (`/`) could hide either, so it counts as both.
    pub(super) fn word_may_start_fact(&self, word: &str, follow: &[u8]) -> bool {
        let Some(client) = &self.client else {
            return true;
        };
        client.is_match(word)
            || FACTS
                .iter()
                .any(|&fact| self.needs(fact) && self.word_may_start(fact, word, follow))
    }

    /// [`Prefilter::word_may_start_fact`] for one fact.
    fn word_may_start(&self, fact: Fact, word: &str, follow: &[u8]) -> bool {
        let is = |w: &str| word.eq_ignore_ascii_case(w);
        let comment = follow.first() == Some(&b'/');
        let call = comment || follow.first() == Some(&b'(');
        let path = comment || follow.starts_with(b"::") || follow.first() == Some(&b'>');
        let hash = |place: TokenPlace| is_hash_token(word, place, None);
        match fact {
            Fact::HashCalls => {
                (path && hash(TokenPlace::PathHead))
                    || (call && (hash(TokenPlace::Call) || hash(TokenPlace::MethodCall)))
                    || hash(TokenPlace::ParamType)
            }
            Fact::Namespaces => path && word == "Namespace",
            Fact::Claims => {
                is("insert") || is("nx") || is("setnx") || (call && self.vocab.is_claim_verb(word))
            }
            Fact::Ddl => is("create") || is("alter"),
            Fact::Nothing | Fact::KeyEvents | Fact::SharedStores | Fact::Suppressions => false,
        }
    }

    /// Whether an identifier can make a value a client key: the same
    /// predicates the evaluator applies to names, types and constants.
    fn ident_is_trigger(&self, ident: &str) -> bool {
        self.vocab.is_key_constructor(ident) || self.ident_names_key(ident)
    }

    /// Whether an identifier is a trigger only as a key constructor, which
    /// the evaluator reads only where called (`scoped(..)`; not a local
    /// named `scoped`).
    pub(super) fn only_constructor(&self, ident: &str) -> bool {
        self.vocab.is_key_constructor(ident) && !self.ident_names_key(ident)
    }

    /// [`Prefilter::ident_is_trigger`] but for key constructors.
    fn ident_names_key(&self, ident: &str) -> bool {
        let v = &self.vocab;
        // A store named for idempotency keys: a text parameter it stores
        // is a client key by that name (`eval::sinks`).
        v.is_client_key_name(ident)
            || (v.is_store_receiver(ident) && names_idempotency_store(ident))
            || ident
                .strip_suffix("Header")
                .is_some_and(|t| v.is_client_key_name(t))
            || names_key_header_constant(ident)
    }

    /// Whether nothing in the analysis reads an identifier's name: no
    /// vocabulary predicate, hash name or verb accepts it.
    pub(super) fn ident_is_inert(&self, ident: &str) -> bool {
        let v = &self.vocab;
        let places = [
            TokenPlace::PathHead,
            TokenPlace::Call,
            TokenPlace::MethodCall,
            TokenPlace::ParamType,
        ];
        !(self.ident_is_trigger(ident)
            || v.is_request_id_name(ident)
            || v.is_key_position_name(ident)
            || v.component_of_name(ident).is_some()
            || v.is_payload_name(ident)
            || payload_sources::is_body_extractor(ident)
            || v.is_server_id_name(ident)
            || v.is_sentinel(ident)
            || v.is_store_receiver(ident)
            || v.is_store_method(ident)
            || v.is_claim_verb(ident)
            || v.is_complete_verb(ident)
            || v.is_release_verb(ident)
            || v.is_key_maker_fn(ident)
            || hashing::names_fingerprint(ident)
            || hashing::is_finalize_method(ident)
            || hashing::is_feed_method(ident)
            || hashing::is_encode_method(ident)
            || ident == "Namespace"
            || places.iter().any(|p| is_hash_token(ident, *p, None)))
    }

    fn literal_is_trigger(&self, text: &str) -> bool {
        let v = &self.vocab;
        v.is_key_header(text) || v.is_client_key_name(text)
    }

    /// How an identifier or string literal can make a value a client key.
    pub(super) fn trigger_of(&self, token: Token<'_>) -> Trigger {
        let (text, strong) = match token {
            Token::Ident(ident) => (ident, self.ident_is_trigger(ident)),
            Token::Str(text) => (text, self.literal_is_trigger(text)),
            _ => return Trigger::None,
        };
        if strong {
            Trigger::Strong
        } else if self.vocab.is_request_id_name(text) || self.vocab.is_request_id_header(text) {
            Trigger::Weak
        } else {
            Trigger::None
        }
    }

    /// Whether identifier `tokens[i]` starts a fact that needs no client
    /// key: a hash call or a key namespace path. `in_params`: it stands
    /// inside the parentheses of a function signature.
    pub(super) fn token_fact(&self, tokens: &[Token<'_>], i: usize, in_params: bool) -> TokenFact {
        let Some(&Token::Ident(ident)) = tokens.get(i) else {
            return TokenFact::None;
        };
        let next = |n: usize| tokens.get(i + n).copied();
        let sep_at = |n: usize| is_path_sep(tokens, i + n);
        // `Type::f` or, qualified, `<T as Trait>::f`: the segment after `::`.
        let after_sep = if sep_at(1) {
            Some(3)
        } else if next(1) == Some(Token::Punct(">")) && sep_at(2) {
            Some(4)
        } else {
            None
        };
        let path_head = after_sep.is_some();
        // The segment after `::`, past a turbofish (`Type::<T>::new`); ""
        // when no name follows (`Type::<T> { .. }` is a struct literal), and
        // when the path is not called: `hash::Hasher` in a bound and
        // `use sha2::Digest;` hold no hash call.
        let segment = after_sep.map(|n| match path_segment(tokens, i + n) {
            Some(at) if path_is_called(tokens, at) => match tokens[at] {
                Token::Ident(name) => name,
                _ => "",
            },
            _ => "",
        });
        if path_head && ident == "Namespace" && self.needs(Fact::Namespaces) {
            return TokenFact::Holds(Fact::Namespaces);
        }
        if !self.needs(Fact::HashCalls) {
            return TokenFact::None;
        }
        let after_dot = i
            .checked_sub(1)
            .is_some_and(|j| tokens[j] == Token::Punct("."));
        let called = next(1) == Some(Token::Open(b'('));
        let place = if path_head {
            TokenPlace::PathHead
        } else if called && after_dot {
            TokenPlace::MethodCall
        } else if called {
            TokenPlace::Call
        } else if in_params {
            TokenPlace::ParamType
        } else {
            TokenPlace::Other
        };
        // `use sha2::{Digest, Sha256};` names a module without calling it.
        if path_head && segment == Some("") {
            return TokenFact::None;
        }
        // ring's `digest(&SHA256, data)`, imported bare (`use ring::digest::
        // {digest, SHA256}`): the evaluator resolves the import to a hash
        // module's digest; the scan, which does not, knows it by its
        // algorithm argument.
        let algorithm_arg = matches!(
            (next(2), next(3)),
            (Some(Token::Punct("&")), Some(Token::Ident(a))) if a.starts_with(|c: char| c.is_ascii_uppercase())
        );
        if place == TokenPlace::Call && ident == "digest" && algorithm_arg {
            return TokenFact::Holds(Fact::HashCalls);
        }
        match place {
            // A new hasher yields a digest where it is finished (see `Item`).
            TokenPlace::PathHead if segment.is_some_and(|f| is_hasher_constructor(ident, f)) => {
                TokenFact::MakesHasher
            }
            _ if !is_hash_token(ident, place, segment) => {
                if called && after_dot && hashing::finishes_hasher(ident) {
                    TokenFact::Finalizes
                } else {
                    TokenFact::None
                }
            }
            // A hasher parameter yields a digest only where it is finished
            // here; fed and passed on, the caller that made it finishes it.
            TokenPlace::ParamType => TokenFact::HasherParam,
            _ => TokenFact::Holds(Fact::HashCalls),
        }
    }
}

/// The least size of a table worth blanking (see `FileScan::inert_tables`).
const INERT_TABLE_BYTES: usize = 16 * 1024;

/// What an open `[` bracket of the scan holds so far.
pub struct TableScan<'t> {
    /// Where its interior starts.
    start: usize,
    /// A literal, or too many different identifiers: not inert.
    mixed: bool,
    /// Its different identifiers (at most `MAX_TABLE_IDENTS`).
    idents: Vec<&'t str>,
}

const MAX_TABLE_IDENTS: usize = 16;

impl<'t> TableScan<'t> {
    /// A table whose interior starts at `start`.
    pub fn new(start: usize) -> TableScan<'t> {
        TableScan {
            start,
            mixed: false,
            idents: Vec::new(),
        }
    }

    /// Counts an identifier of its interior.
    pub fn ident(&mut self, ident: &'t str) {
        if self.mixed || self.idents.contains(&ident) {
            return;
        }
        if self.idents.len() == MAX_TABLE_IDENTS {
            self.mixed = true;
            self.idents.clear();
        } else {
            self.idents.push(ident);
        }
    }

    /// A nested table's contents are its own too.
    pub fn absorb(&mut self, inner: &TableScan<'t>) {
        if inner.mixed {
            self.mixed = true;
            self.idents.clear();
        }
        for ident in &inner.idents {
            self.ident(ident);
        }
    }

    /// A literal in its interior: it is evaluated as written.
    pub fn literal(&mut self) {
        self.mixed = true;
    }

    /// Its interior, closed at `end`, if it is large and inert (see
    /// `FileScan::inert_tables`); `inert` judges an identifier.
    pub fn inert_interior(&self, end: usize, inert: impl Fn(&str) -> bool) -> Option<Range<usize>> {
        (end >= self.start + INERT_TABLE_BYTES
            && !self.mixed
            && self.idents.iter().all(|i| inert(i)))
        .then_some(self.start..end)
    }
}

/// Where trigger words occur in a file, asked token by token in order.
pub struct Hits {
    /// Byte ranges of every (overlapping) match, by start; `None`: every
    /// token may match (the words could not be compiled).
    matches: Option<Vec<Range<usize>>>,
    next: usize,
}

impl Hits {
    /// One automaton pass over the file instead of one per token.
    pub fn new(matcher: Option<&AhoCorasick>, text: &str) -> Hits {
        let matches = matcher
            .and_then(|m| m.try_find_overlapping_iter(text).ok())
            .map(|hits| {
                let mut all: Vec<Range<usize>> = hits.map(|hit| hit.range()).collect();
                all.sort_by_key(|r| r.start);
                all
            });
        Hits { matches, next: 0 }
    }

    /// No trigger word anywhere: for a file without one, which the scan
    /// asks nothing.
    pub fn none() -> Hits {
        Hits {
            matches: Some(Vec::new()),
            next: 0,
        }
    }

    /// Whether a trigger word lies inside `span`; spans must come in order.
    pub fn token(&mut self, span: &Range<usize>) -> bool {
        let Some(matches) = &self.matches else {
            return true;
        };
        while matches.get(self.next).is_some_and(|m| m.start < span.start) {
            self.next += 1;
        }
        matches[self.next..]
            .iter()
            .take_while(|m| m.start < span.end)
            .any(|m| m.end <= span.end)
    }
}

/// Whether a string literal may be DDL for `analysis::sql_literals`: the
/// cheap word test first, the same check the analysis makes after it.
pub fn may_be_ddl(literal: &str) -> bool {
    let has = |word: &[u8]| {
        literal
            .as_bytes()
            .windows(word.len())
            .any(|w| w.eq_ignore_ascii_case(word))
    };
    (has(b"create") || has(b"alter")) && crate::analysis::sql_literals::looks_like_ddl(literal)
}

/// Whether `tokens[n..]` starts with `::` (the lexer gives two `:`).
pub(super) fn is_path_sep(tokens: &[Token<'_>], n: usize) -> bool {
    tokens.get(n) == Some(&Token::Punct(":")) && tokens.get(n + 1) == Some(&Token::Punct(":"))
}

/// Past the generic arguments opening at `tokens[at]` (a `<`): the index
/// after their closing `>`; `None` when they do not close soon.
fn past_angles(tokens: &[Token<'_>], mut at: usize) -> Option<usize> {
    let mut angle = 0usize;
    for _ in 0..256 {
        match *tokens.get(at)? {
            Token::Punct("<") => angle += 1,
            Token::Punct(">") => angle = angle.saturating_sub(1),
            _ => {}
        }
        at += 1;
        if angle == 0 {
            return Some(at);
        }
    }
    None
}

/// Where the path segment at `tokens[at]` (after a `::`) names itself,
/// past a turbofish (`::<T>::new` gives `new`); `None` if no name follows.
fn path_segment(tokens: &[Token<'_>], mut at: usize) -> Option<usize> {
    if tokens.get(at) == Some(&Token::Punct("<")) {
        at = past_angles(tokens, at)?;
        if !is_path_sep(tokens, at) {
            return None;
        }
        at += 2;
    }
    matches!(tokens.get(at), Some(Token::Ident(_))).then_some(at)
}

/// Whether the path going on from segment `tokens[at]` ends in a call:
/// `Sha256::new()`, `sha2::Sha256::digest(b)`, `f::<T>(..)`.
fn path_is_called(tokens: &[Token<'_>], mut at: usize) -> bool {
    for _ in 0..16 {
        let mut n = at + 1;
        // A turbofish: a call, or the path going on, follows it.
        if is_path_sep(tokens, n) && tokens.get(n + 2) == Some(&Token::Punct("<")) {
            match past_angles(tokens, n + 2) {
                Some(after) => n = after,
                None => return false,
            }
        }
        if tokens.get(n) == Some(&Token::Open(b'(')) {
            return true;
        }
        match path_segment(tokens, n + 2) {
            Some(next) if is_path_sep(tokens, n) => at = next,
            _ => return false,
        }
    }
    false
}
