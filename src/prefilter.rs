//! The lexical pre-filter: a byte scan that decides which items of a unit
//! can contribute to a finding, so most files are read but never parsed and
//! most of the rest is blanked before syn sees it.
//!
//! An item (`fn`, `const` or `static`) is *relevant* when its code or string
//! literals (not its comments) contain a trigger word of some rule
//! ([`RULE_TRIGGERS`], plus the client-key vocabulary from
//! `analysis::vocab`), or when it holds a fact of a rule that looks at one
//! function alone (see `Item::local`). Findings must not depend on the
//! filter, so relevance is closed over the crate-local call graph
//! approximated by names: an item is also kept when it is named like a
//! function, `const` or `static` a kept item mentions (a helper whose
//! summary the caller needs, and every other definition that could make a
//! method name ambiguous), or when it calls a keyed item (a caller that
//! receives a key from a relevant helper). The other items cannot see a
//! client key, so they cannot produce a key event, and nothing they define
//! is referenced by a kept item: they are blanked ([`FilePlan`]).
//!
//! Adding a rule: add a row to [`RULE_TRIGGERS`] with the words its facts
//! cannot exist without. `tests/prefilter.rs` checks that every rule has a
//! row and that findings are identical with `--no-prefilter`.

use std::collections::HashSet as StdHashSet;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::ops::Range;

use aho_corasick::AhoCorasick;

use crate::analysis::claims::is_claim_literal;
use crate::analysis::eval::sql_tables;
use crate::analysis::format_string;
use crate::analysis::hashing::{
    self, is_finalize_method, is_hash_token, is_hasher_constructor, TokenPlace,
    HASH_CANDIDATE_WORDS,
};
use crate::analysis::vocab::{Vocabulary, STRONG_STORE_WORDS};
use crate::lex::{self, Token};

/// How the pre-filter finds the items that can hold a rule's facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finds {
    /// Nothing: the rule reports what happens before the filter runs
    /// (unreadable and unparsable files).
    Nothing,
    /// Key events: items holding a client-key source of the vocabulary
    /// (names, headers, key constructors such as `scoped`; request ids
    /// where an idempotency store is named), their callers and callees.
    KeyEvents,
    /// Hash calls as the evaluator recognises them
    /// (`analysis::hashing::is_hash_token`): `Sha256::digest`,
    /// `DefaultHasher::new()`, `xxh3_64(..)`, a hasher-typed parameter.
    /// Names that merely mention a hash (`content_md5`) do not count.
    HashCalls,
    /// Claims: a claim verb call or a claiming literal (`INSERT …
    /// 'in_progress'`, `NX`) in an item that names a key, and, in a unit
    /// with one, the `Drop` impls that release (guards).
    Claims,
    /// Key namespaces: `Namespace::Server` / `Namespace::Client` paths.
    Namespaces,
    /// Storage calls on a receiver that keyed items also store into.
    SharedStores,
    /// String literals that look like DDL, in an item or at file level.
    Ddl,
    /// Suppression comments: files carrying one are always parsed (see
    /// `lint::lint_unit`).
    Suppressions,
}

/// Per rule, how the pre-filter finds its facts. A new rule adds a row
/// (`tests/prefilter.rs` checks that every rule has one, and that findings
/// are identical with `--no-prefilter`); a fact no [`Finds`] covers needs a
/// new variant and its test.
pub const RULE_TRIGGERS: &[(&str, &[Finds])] = &[
    ("IDEM000", &[Finds::Nothing]),
    ("IDEM001", &[Finds::KeyEvents]),
    ("IDEM002", &[Finds::KeyEvents]),
    ("IDEM003", &[Finds::KeyEvents, Finds::HashCalls]),
    ("IDEM004", &[Finds::Claims]),
    // Defaults and sanitisers count inside client keys and `scoped(..)` keys.
    ("IDEM005", &[Finds::KeyEvents]),
    ("IDEM006", &[Finds::KeyEvents]),
    (
        "IDEM007",
        &[Finds::KeyEvents, Finds::Namespaces, Finds::SharedStores],
    ),
    ("IDEM008", &[Finds::Ddl]),
    ("IDEM900", &[Finds::Suppressions]),
    ("IDEM901", &[Finds::Suppressions]),
];

/// The compiled trigger words.
#[derive(Debug, Clone)]
pub struct Prefilter {
    /// Client-key and store words, asked token by token; `None` when they
    /// could not be compiled, and then every token is asked.
    matcher: Option<AhoCorasick>,
    /// Every word a selected item could contain (client-key words, hash
    /// names, claim verbs, DDL): a file without one is not scanned unless
    /// the selection reaches it. `None`: every file is scanned.
    gate: Option<AhoCorasick>,
    /// The client-key words alone: a word holding one is a candidate.
    client: Option<AhoCorasick>,
    /// Store and table words (`idem`, `dedup`, `replay`).
    stores: Option<AhoCorasick>,
    /// What this build's rules need found.
    finds: Vec<Finds>,
    vocab: Vocabulary,
}

/// A use of a name that the index may resolve to a crate-local item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Mention<'t> {
    /// `name(..)` or `module::name(..)`: a free function (`CrateIndex::resolve_path`).
    Call(&'t str),
    /// `.name(..)`: a method of any type (`CrateIndex::resolve_method`).
    Method(&'t str),
    /// `self.name(..)` in a block of this type: its own method first.
    SelfMethod(Owner<'t>, &'t str),
    /// `Type::name(..)` (or `Self::name(..)` inside `impl Type`): only a
    /// function in an `impl` or `trait` block of `Type`.
    Assoc(&'t str, &'t str),
}

impl<'t> Mention<'t> {
    fn name(self) -> &'t str {
        match self {
            Mention::Call(n)
            | Mention::Method(n)
            | Mention::SelfMethod(_, n)
            | Mention::Assoc(_, n) => n,
        }
    }
}

/// The `impl`/`trait` block a function is defined in, as the index sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Owner<'t> {
    /// Not directly in such a block.
    Free,
    /// In a block of this type (the last path segment).
    Type(&'t str),
    /// In a block whose type the token scan cannot name: links to any call.
    Unknown,
}

/// What an identifier starts for a rule that needs no client key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RuleFact {
    None,
    /// A hash call or key namespace: the item holds the fact.
    Starts,
    /// A hasher-typed parameter: a fact where the function finishes it.
    HasherParam,
    /// A call of a method that finishes a hasher.
    Finalizes,
    /// A new hasher object (`Sha256::new()`).
    MakesHasher,
}

/// How a token can make a value a client key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Trigger {
    /// Nothing.
    None,
    /// A request id: a client key only where it reaches an idempotency
    /// store, whose name or SQL table says `idem`, `dedup` or `replay`.
    Weak,
    /// An idempotency-key name, header or constructor, or a rule's word.
    Strong,
}

/// A `fn`, `const` or `static` item: what the crate index holds.
#[derive(Debug)]
pub struct Item<'t> {
    /// Its name.
    pub name: &'t str,
    /// A function (else a constant or static).
    pub is_fn: bool,
    /// Where a function is defined.
    pub owner: Owner<'t>,
    /// A function whose first parameter is `self` (a method the index
    /// resolves `.name(..)` calls to).
    receiver: bool,
    trigger: Trigger,
    /// Its identifiers (signature and body; constants are found by name),
    /// as a range of `FileScan::idents`.
    idents: Range<u32>,
    /// Calls that may resolve to a crate-local function, as a range of
    /// `FileScan::calls`.
    calls: Range<u32>,
    /// Its bytes, from just after the previous item (so its attributes,
    /// visibility and doc comments are included) to its `}` or `;`.
    extent: Range<usize>,
    /// Where its name starts: what precedes it is attributes and qualifiers.
    head: usize,
    /// The innermost item (of this scan) it is nested in.
    parent: Option<usize>,
    /// It calls a claim verb (IDEM004's walk starts there).
    claim_call: bool,
    /// It calls a release verb (a `Drop` impl that does is a guard).
    release_call: bool,
    /// It holds a literal that can make a query a claim (`INSERT …
    /// 'in_progress'`, `NX`).
    claim_literal: bool,
    /// It holds a string literal that looks like DDL (IDEM008).
    ddl: bool,
    /// A parameter's type is a hasher (`&mut Sha256`).
    hasher_param: bool,
    /// It calls a method that finishes a hasher (`.finalize()`, `.finish()`).
    finalizes: bool,
    /// It makes a hasher object (`Sha256::new()`). A hasher is finished
    /// where it is made, or by a caller it is returned to: either holds a
    /// hash fact, a function that makes one and does neither does not.
    makes_hasher: bool,
    /// One of its identifiers names a key (computed for claiming items only).
    names_key: bool,
    /// Receivers of its storage calls (`idem_store` in `idem_store.put(..)`).
    stores: HashSet<&'t str>,
    /// Idempotency tables its SQL literals name (a SQL bind is a storage call).
    tables: Vec<String>,
}

impl Item<'_> {
    /// Whether the item can hold a claim on a key. (Claims are linked to
    /// keys by name, so an item that names no key cannot hold one.)
    fn claims(&self) -> bool {
        (self.claim_call || self.claim_literal) && self.names_key
    }

    /// Whether the item is the `drop` of a type that releases: a guard,
    /// which matters where the unit claims.
    fn releasing_drop(&self) -> bool {
        self.is_fn && self.name == "drop" && self.release_call
    }
}

/// What the pre-filter learns from one file.
#[derive(Debug, Default)]
pub struct FileScan<'t> {
    /// Items with their extent's names and calls.
    pub items: Vec<Item<'t>>,
    /// Byte ranges of its doc comments (blanked outside kept items).
    pub doc_comments: Vec<Range<usize>>,
    /// A DDL literal outside every item (in a module-level macro call).
    pub ddl_outside_items: bool,
    /// The identifiers inside items, in order (an item's are a range, so
    /// nested items share their parents' storage).
    idents: Vec<&'t str>,
    /// The calls inside items, in order.
    calls: Vec<Mention<'t>>,
    /// Interiors of large `[ .. ]` tables that cannot hold a fact: no
    /// string or char literal, and only a few identifiers, none of which
    /// the vocabulary knows (`[D { l: 0, t: 1 }, ..]`, numbers). Their
    /// elements evaluate to nothing, so they are blanked like unselected
    /// items: generated lookup tables are most of the syntax tree of the
    /// crates that have them.
    pub inert_tables: Vec<Range<usize>>,
}

/// The least size of a table worth blanking (see `FileScan::inert_tables`).
const INERT_TABLE_BYTES: usize = 16 * 1024;

/// What an open `[` bracket of the scan holds so far.
struct TableScan<'t> {
    /// Where its interior starts.
    start: usize,
    /// A literal, or too many different identifiers: not inert.
    mixed: bool,
    /// Its different identifiers (at most `MAX_TABLE_IDENTS`).
    idents: Vec<&'t str>,
}

const MAX_TABLE_IDENTS: usize = 16;

impl<'t> TableScan<'t> {
    fn new(start: usize) -> TableScan<'t> {
        TableScan {
            start,
            mixed: false,
            idents: Vec::new(),
        }
    }

    fn ident(&mut self, ident: &'t str) {
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
    fn absorb(&mut self, inner: &TableScan<'t>) {
        if inner.mixed {
            self.mixed = true;
            self.idents.clear();
        }
        for ident in &inner.idents {
            self.ident(ident);
        }
    }
}

impl<'t> FileScan<'t> {
    /// An item's identifiers (with repeats).
    fn idents_of(&self, item: &Item<'t>) -> &[&'t str] {
        self.idents
            .get(item.idents.start as usize..item.idents.end as usize)
            .unwrap_or_default()
    }

    /// An item's calls (with repeats).
    fn calls_of(&self, item: &Item<'t>) -> &[Mention<'t>] {
        self.calls
            .get(item.calls.start as usize..item.calls.end as usize)
            .unwrap_or_default()
    }

    /// Ends item `n` where the scan is now.
    fn close(&mut self, n: usize, end: usize) {
        let (idents, calls) = (self.idents.len() as u32, self.calls.len() as u32);
        let item = &mut self.items[n];
        item.extent.end = end;
        item.idents.end = idents;
        item.calls.end = calls;
    }
}

/// Keywords that may follow `const`/`static` without being the item name.
const NOT_A_NAME: &[&str] = &["fn", "unsafe", "async", "extern", "mut", "_"];

impl Prefilter {
    /// Compiles the trigger words of every registered rule and of the vocabulary.
    pub fn new(vocab: &Vocabulary) -> Prefilter {
        let mut finds: Vec<Finds> = Vec::new();
        for (code, found) in RULE_TRIGGERS {
            // Rows of rules this build does not have cost nothing.
            if crate::rules::ALL.iter().any(|r| r.code == *code) {
                finds.extend(found.iter().copied());
            }
        }
        let client_words: Vec<String> = vocab.client_key_triggers();
        let mut store_words: Vec<String> =
            STRONG_STORE_WORDS.iter().map(|w| w.to_string()).collect();
        store_words.extend(vocab.idempotency_table_words());
        // Store and table names that make request ids count (see `plan`).
        let words: Vec<String> = client_words.iter().chain(&store_words).cloned().collect();
        let mut gate_words = client_words.clone();
        if finds.contains(&Finds::HashCalls) {
            gate_words.extend(HASH_CANDIDATE_WORDS.iter().map(|w| w.to_string()));
        }
        if finds.contains(&Finds::Namespaces) {
            gate_words.push("namespace".to_string());
        }
        if finds.contains(&Finds::Claims) {
            // Claim verbs are matched whole, so each is its own word.
            gate_words.extend(vocab.claim_verb_words());
            gate_words.extend(["insert", "nx"].map(String::from));
        }
        if finds.contains(&Finds::Ddl) {
            // `looks_like_ddl` needs CREATE or ALTER.
            gate_words.extend(["create", "alter"].map(String::from));
        }
        let compile = |mut words: Vec<String>| {
            // `request_id` in snake_case is `RequestId` in CamelCase.
            let joined: Vec<String> = words.iter().map(|w| w.replace(['_', '-'], "")).collect();
            words.extend(joined);
            words.retain(|w| !w.is_empty());
            words.sort();
            words.dedup();
            // Only absurd configured word lists can exceed the automaton's
            // limits; matching everything is the safe fallback.
            AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(&words)
                .ok()
        };
        Prefilter {
            matcher: compile(words),
            client: compile(client_words),
            stores: compile(store_words),
            gate: compile(gate_words),
            finds,
            vocab: vocab.clone(),
        }
    }

    /// Whether a word that can start a selectable fact occurs anywhere in
    /// `text`, comments included. `false` proves the file irrelevant without
    /// tokenizing it. Each candidate is judged by the whole word around it
    /// (`[A-Za-z0-9_]` and non-ASCII), so `Reserved` is no claim verb and
    /// `SHA256_CTX` no hash call.
    pub fn may_match(&self, text: &str) -> bool {
        let Some(gate) = &self.gate else {
            return true;
        };
        let bytes = text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let hit = match gate.try_find(aho_corasick::Input::new(text).span(at..text.len())) {
                Ok(Some(hit)) => hit,
                Ok(None) => return false,
                Err(_) => return true,
            };
            let mut start = hit.start();
            while start > 0 && lex::is_ident_continue(bytes[start - 1]) {
                start -= 1;
            }
            let mut end = hit.end();
            while end < bytes.len() && lex::is_ident_continue(bytes[end]) {
                end += 1;
            }
            // Word edges are ASCII bytes (or the text's ends): char boundaries.
            let follow = bytes[end..].trim_ascii_start();
            if text
                .get(start..end)
                .is_none_or(|word| self.word_may_start_fact(word, follow))
            {
                return true;
            }
            at = end.max(hit.start() + 1);
        }
        false
    }

    /// Whether a word of the text (an identifier, or a run of a string
    /// literal or comment) can be where a trigger or local fact starts: the
    /// exact predicates `scan` applies, asked of the word in any position.
    /// `follow` is the text after the word, past whitespace: verbs and
    /// hash functions count where they are called (`(`), modules and types
    /// where a path goes on (`::`, or `>` closing `<T as Trait>`). A comment
    /// right after a word (`/`) could hide either, so it counts as both.
    fn word_may_start_fact(&self, word: &str, follow: &[u8]) -> bool {
        let Some(client) = &self.client else {
            return true;
        };
        let is = |w: &str| word.eq_ignore_ascii_case(w);
        let comment = follow.first() == Some(&b'/');
        let call = comment || follow.first() == Some(&b'(');
        let path = comment || follow.starts_with(b"::") || follow.first() == Some(&b'>');
        let hash = |place: TokenPlace| is_hash_token(word, place, None);
        client.is_match(word)
            || (self.finds(Finds::HashCalls)
                && ((path && hash(TokenPlace::PathHead))
                    || (call && (hash(TokenPlace::Call) || hash(TokenPlace::MethodCall)))
                    || hash(TokenPlace::ParamType)))
            || (self.finds(Finds::Namespaces) && path && word == "Namespace")
            || (self.finds(Finds::Claims)
                && (is("insert")
                    || is("nx")
                    || is("setnx")
                    || (call && self.vocab.is_claim_verb(word))))
            || (self.finds(Finds::Ddl) && (is("create") || is("alter")))
    }

    /// Whether `text` names an idempotency store or table anywhere
    /// (comments too): then request ids count as client keys in its unit.
    pub fn names_store(&self, text: &str) -> bool {
        self.stores.as_ref().is_none_or(|m| m.is_match(text))
    }

    /// Whether an identifier can make a value a client key: the same
    /// predicates the evaluator applies to names, types and constants.
    fn ident_is_trigger(&self, ident: &str) -> bool {
        let v = &self.vocab;
        let upper = ident.to_ascii_uppercase();
        v.is_client_key_name(ident)
            || v.is_key_constructor(ident)
            || ident
                .strip_suffix("Header")
                .is_some_and(|t| v.is_client_key_name(t))
            || upper.contains("IDEMPOTENCY")
            || upper.contains("IDEM_KEY")
    }

    /// Whether nothing in the analysis reads an identifier's name: no
    /// vocabulary predicate, hash name or verb accepts it.
    fn ident_is_inert(&self, ident: &str) -> bool {
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

    fn trigger_of(&self, token: Token<'_>) -> Trigger {
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

    /// Tokenizes `text` into items: their triggers (comments do not
    /// count), the names they use and the calls they make.
    pub fn scan<'t>(&self, text: &'t str) -> FileScan<'t> {
        let mut scan = FileScan::default();
        let check = self.may_match(text);
        let lex::Lexed {
            tokens,
            spans,
            doc_comments,
        } = lex::lex(text);
        scan.doc_comments = doc_comments;
        // Open `[` brackets, for inert tables.
        let mut tables: Vec<TableScan<'t>> = Vec::new();
        // One automaton pass over the file instead of one per token.
        let mut hits = Hits::new(self.matcher.as_ref(), text);
        let mut depth = 0usize;
        // Per bracket depth, where an item starting there would begin: after
        // the `{` that opened the depth, or the last `}` or `;` at it.
        let mut item_start: Vec<usize> = vec![0];
        // Open items: (index, bracket depth at the keyword, inside the body).
        let mut open: Vec<(usize, usize, bool)> = Vec::new();
        // `impl`/`trait` blocks: (owner, depth inside the body); a header
        // waiting for its `{`: (owner, depth of the keyword).
        let mut blocks: Vec<(Owner<'t>, usize)> = Vec::new();
        let mut header: Option<(Owner<'t>, usize)> = None;
        for (i, token) in tokens.iter().enumerate() {
            let before = |n: usize| i.checked_sub(n).and_then(|j| tokens.get(j)).copied();
            let span = spans[i].clone();
            match *token {
                Token::Open(b) => {
                    if b == b'[' {
                        tables.push(TableScan::new(span.end));
                    }
                    if let Some(top) = open.last_mut() {
                        if b == b'{' && !top.2 && top.1 == depth && scan.items[top.0].is_fn {
                            top.2 = true;
                        }
                    }
                    if b == b'{' && header.is_some_and(|(_, d)| d == depth) {
                        if let Some((owner, _)) = header.take() {
                            blocks.push((owner, depth + 1));
                        }
                    }
                    depth += 1;
                    set_start(&mut item_start, depth, span.end);
                    continue;
                }
                Token::Close(b) => {
                    if b == b']' {
                        if let Some(table) = tables.pop() {
                            if span.start >= table.start + INERT_TABLE_BYTES
                                && !table.mixed
                                && table.idents.iter().all(|i| self.ident_is_inert(i))
                            {
                                scan.inert_tables.push(table.start..span.start);
                            }
                            if let Some(outer) = tables.last_mut() {
                                outer.absorb(&table);
                            }
                        }
                    }
                    depth = depth.saturating_sub(1);
                    if b == b'}' {
                        set_start(&mut item_start, depth, span.end);
                    }
                    while blocks.last().is_some_and(|(_, d)| depth < *d) {
                        blocks.pop();
                    }
                    if header.is_some_and(|(_, d)| depth < d) {
                        header = None;
                    }
                    while let Some(&(item, at, body)) = open.last() {
                        // Its own `}`, or its enclosing bracket closed early.
                        let end = if body && depth == at {
                            span.end
                        } else if depth < at {
                            span.start
                        } else {
                            break;
                        };
                        scan.close(item, end);
                        open.pop();
                    }
                    continue;
                }
                Token::Punct(";") => {
                    set_start(&mut item_start, depth, span.end);
                    while let Some(&(item, at, body)) = open.last() {
                        if body || depth != at {
                            break;
                        }
                        scan.close(item, span.end);
                        open.pop();
                    }
                    if header.is_some_and(|(_, d)| d == depth) {
                        header = None;
                    }
                    continue;
                }
                Token::Punct(_) => continue,
                Token::Ident(ident) => {
                    if let Some(table) = tables.last_mut() {
                        table.ident(ident);
                    }
                    let item_level = matches!(
                        before(1),
                        None | Some(Token::Close(_))
                            | Some(Token::Open(b'{'))
                            | Some(Token::Punct(";"))
                            | Some(Token::Ident("unsafe" | "pub" | "default" | "auto"))
                    );
                    if (ident == "impl" || ident == "trait") && item_level && header.is_none() {
                        header = Some((block_owner(&tokens[i..], ident == "trait"), depth));
                    }
                    // `const NAME:` / `static [mut] NAME:`, but not `*const T`,
                    // `&'static T` or a const generic `<const N: usize>`.
                    let keyword_at = match before(1) {
                        Some(Token::Ident("mut")) => 2,
                        _ => 1,
                    };
                    let item_keyword = match before(keyword_at) {
                        Some(Token::Ident("const")) => keyword_at == 1,
                        Some(Token::Ident("static")) => true,
                        _ => false,
                    };
                    let is_const = item_keyword
                        && !NOT_A_NAME.contains(&ident)
                        && tokens.get(i + 1) == Some(&Token::Punct(":"))
                        && tokens.get(i + 2) != Some(&Token::Punct(":"))
                        && !matches!(
                            before(keyword_at + 1),
                            Some(Token::Punct("*" | "'" | "<" | ","))
                        );
                    let is_fn = match before(1) {
                        Some(Token::Ident("fn")) => Some(true),
                        _ if is_const => Some(false),
                        _ => None,
                    };
                    if let Some(is_fn) = is_fn {
                        // Directly in an `impl`/`trait` body, or free (a fn
                        // nested in a function body is free, as in the index).
                        let in_fn = open.iter().rev().find(|o| o.2).map_or(0, |o| o.1 + 1);
                        let owner = match blocks.last() {
                            Some(&(owner, d)) if d == depth && d > in_fn => owner,
                            _ => Owner::Free,
                        };
                        let start = item_start.get(depth).copied().unwrap_or(0);
                        let parent = open.last().map(|o| o.0);
                        open.push((scan.items.len(), depth, false));
                        scan.items.push(Item {
                            name: ident,
                            is_fn,
                            owner,
                            receiver: is_fn && takes_self(&tokens[i + 1..]),
                            trigger: Trigger::None,
                            idents: scan.idents.len() as u32..scan.idents.len() as u32,
                            calls: scan.calls.len() as u32..scan.calls.len() as u32,
                            // Items still open at the end run to the end.
                            extent: start.min(span.start)..text.len(),
                            head: span.start,
                            parent,
                            claim_call: false,
                            release_call: false,
                            claim_literal: false,
                            ddl: false,
                            hasher_param: false,
                            finalizes: false,
                            makes_hasher: false,
                            names_key: false,
                            stores: HashSet::default(),
                            tables: Vec::new(),
                        });
                    }
                }
                Token::Str(literal) => {
                    if let Some(table) = tables.last_mut() {
                        table.mixed = true;
                    }
                    if check && self.finds(Finds::Ddl) && may_be_ddl(literal) {
                        for &(item, _, _) in &open {
                            scan.items[item].ddl = true;
                        }
                        scan.ddl_outside_items |= open.is_empty();
                    }
                    if check && self.finds(Finds::Claims) && is_claim_literal(literal) {
                        for &(item, _, _) in &open {
                            scan.items[item].claim_literal = true;
                        }
                    }
                }
            }
            // Inline captures (`format!("{idempotency_key}")`) read names as
            // the evaluator does: they link and trigger like identifiers.
            let captured = scan.idents.len();
            if let Token::Str(literal) = *token {
                if !open.is_empty() && literal.contains('{') {
                    let names = format_string::named_args(literal).filter(|n| lex::is_ident(n));
                    scan.idents.extend(names);
                }
            }
            if check && hits.token(&span) {
                // SQL writing to an idempotency table: a store (IDEM007).
                if let Token::Str(t) = *token {
                    if !open.is_empty() && self.names_store(t) {
                        let tables: Vec<String> = sql_tables(&t.to_ascii_lowercase())
                            .into_iter()
                            .filter(|t| self.vocab.is_idempotency_table(t))
                            .collect();
                        for &(item, _, _) in &open {
                            scan.items[item].tables.extend(tables.iter().cloned());
                        }
                    }
                }
                let trigger = scan.idents[captured..]
                    .iter()
                    .map(|name| self.trigger_of(Token::Ident(name)))
                    .fold(self.trigger_of(*token), Trigger::max);
                for &(item, _, _) in &open {
                    let slot = &mut scan.items[item].trigger;
                    *slot = (*slot).max(trigger);
                }
            }
            let Token::Ident(ident) = *token else {
                continue;
            };
            // `Self::f` inside `impl T` resolves like `T::f`.
            let self_owner = open
                .iter()
                .rev()
                .find(|o| scan.items[o.0].is_fn)
                .map(|o| scan.items[o.0].owner);
            let call = self.call_mention(&tokens, i, ident, self_owner);
            let called = tokens.get(i + 1) == Some(&Token::Open(b'('))
                && before(1) != Some(Token::Ident("fn"));
            let claim_call = called && self.vocab.is_claim_verb(ident);
            if check {
                match self.rule_fact(&tokens, i, ident, &open, depth, &scan.items) {
                    RuleFact::None => {}
                    RuleFact::Starts => {
                        for &(item, _, _) in &open {
                            scan.items[item].trigger = Trigger::Strong;
                        }
                    }
                    RuleFact::HasherParam => {
                        if let Some(&(item, _, _)) = open.last() {
                            scan.items[item].hasher_param = true;
                        }
                    }
                    RuleFact::Finalizes => {
                        for &(item, _, _) in &open {
                            scan.items[item].finalizes = true;
                        }
                    }
                    RuleFact::MakesHasher => {
                        for &(item, _, _) in &open {
                            scan.items[item].makes_hasher = true;
                        }
                    }
                }
            }
            let release_call = called && self.vocab.is_release_verb(ident);
            let store = match (before(2), before(1)) {
                (Some(Token::Ident(receiver)), Some(Token::Punct(".")))
                    if called && self.vocab.is_store_method(ident) =>
                {
                    Some(receiver)
                }
                _ => None,
            };
            if !open.is_empty() {
                scan.idents.push(ident);
                scan.calls.extend(call);
            }
            for &(item, _, _) in &open {
                let item = &mut scan.items[item];
                item.stores.extend(store);
                item.claim_call |= claim_call;
                item.release_call |= release_call;
            }
        }
        // Items still open run to the end.
        for (item, _, _) in open {
            scan.close(item, text.len());
        }
        // A function finishing its hasher parameter makes a digest: it and
        // the items around it hold a hash fact.
        for n in 0..scan.items.len() {
            let item = &scan.items[n];
            if (item.hasher_param || item.makes_hasher) && item.finalizes {
                let mut at = Some(n);
                while let Some(m) = at {
                    scan.items[m].trigger = Trigger::Strong;
                    at = scan.items[m].parent;
                }
            }
        }
        // Whether a claiming item names a key (see `Item::claims`).
        for n in 0..scan.items.len() {
            let item = &scan.items[n];
            if item.claim_call || item.claim_literal {
                scan.items[n].names_key = scan.idents_of(item).iter().any(|i| {
                    self.vocab.is_client_key_name(i) || self.vocab.is_key_position_name(i)
                });
            }
        }
        scan
    }

    fn finds(&self, what: Finds) -> bool {
        self.finds.contains(&what)
    }

    /// Whether identifier `tokens[i]` starts a fact of a rule that needs no
    /// client key: a hash call (IDEM003) or a key namespace path (IDEM007).
    fn rule_fact(
        &self,
        tokens: &[Token<'_>],
        i: usize,
        ident: &str,
        open: &[(usize, usize, bool)],
        depth: usize,
        items: &[Item<'_>],
    ) -> RuleFact {
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
        if path_head && ident == "Namespace" && self.finds(Finds::Namespaces) {
            return RuleFact::Starts;
        }
        if !self.finds(Finds::HashCalls) {
            return RuleFact::None;
        }
        let after_dot = i
            .checked_sub(1)
            .is_some_and(|j| tokens[j] == Token::Punct("."));
        let called = next(1) == Some(Token::Open(b'('));
        // Inside the parentheses of a signature: a parameter's type.
        let in_params = open
            .last()
            .is_some_and(|&(item, at, body)| !body && items[item].is_fn && depth > at);
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
            return RuleFact::None;
        }
        match place {
            // A new hasher yields a digest where it is finished (see `Item`).
            TokenPlace::PathHead if segment.is_some_and(|f| is_hasher_constructor(ident, f)) => {
                RuleFact::MakesHasher
            }
            _ if !is_hash_token(ident, place, segment) => {
                if called && after_dot && is_finalize_method(ident) {
                    RuleFact::Finalizes
                } else {
                    RuleFact::None
                }
            }
            // A hasher parameter yields a digest only where it is finished
            // here; fed and passed on, the caller that made it finishes it.
            TokenPlace::ParamType => RuleFact::HasherParam,
            _ => RuleFact::Starts,
        }
    }

    /// The call `tokens[i]` makes, if it is the name of one the index may
    /// resolve to a crate-local function.
    fn call_mention<'t>(
        &self,
        tokens: &[Token<'t>],
        i: usize,
        ident: &'t str,
        self_owner: Option<Owner<'t>>,
    ) -> Option<Mention<'t>> {
        let before = |n: usize| i.checked_sub(n).and_then(|j| tokens.get(j)).copied();
        let called = match tokens.get(i + 1) {
            Some(Token::Open(b'(')) => true,
            // Turbofish `f::<T>(..)`.
            Some(Token::Punct(":")) => tokens.get(i + 3) == Some(&Token::Punct("<")),
            _ => false,
        };
        if !called || matches!(before(1), Some(Token::Ident("fn"))) {
            return None;
        }
        // `Type::name` tokenizes as `Type` `:` `:` `name`.
        let owner = match (before(3), before(2), before(1)) {
            (Some(Token::Ident("Self")), Some(Token::Punct(":")), Some(Token::Punct(":"))) => {
                match self_owner {
                    Some(Owner::Type(t)) => Some(t),
                    // Unknown `Self`: any function of that name.
                    _ => return Some(Mention::Method(ident)),
                }
            }
            (Some(Token::Ident(t)), Some(Token::Punct(":")), Some(Token::Punct(":")))
                if t.starts_with(|c: char| c.is_ascii_uppercase()) =>
            {
                Some(t)
            }
            _ => None,
        };
        let method = before(1) == Some(Token::Punct("."));
        let on_self = method && before(2) == Some(Token::Ident("self"));
        // The evaluator never resolves these on another receiver.
        let builtin = crate::analysis::vocab::TRANSPARENT_METHODS.contains(&ident)
            || self.vocab.is_store_method(ident);
        if method && builtin && !on_self {
            return None;
        }
        Some(match owner {
            Some(owner) => Mention::Assoc(owner, ident),
            None if on_self => Mention::SelfMethod(self_owner.unwrap_or(Owner::Unknown), ident),
            None if method => Mention::Method(ident),
            None => Mention::Call(ident),
        })
    }

    /// Which of a unit's Rust files must be parsed (see the module docs).
    pub fn select(&self, texts: &[&str]) -> Vec<bool> {
        self.plan(texts)
            .iter()
            .map(|plan| matches!(plan, FilePlan::Parse { .. }))
            .collect()
    }

    /// Which of a unit's Rust files must be parsed, and which parts of them
    /// nothing selected needs (see the module docs).
    ///
    /// Files in which no trigger word occurs ("cold" files) are not
    /// tokenized unless the selection reaches into them: a cold file is
    /// scanned when it defines a `fn`/`const`/`static` named like an
    /// identifier of a selected item (a callee, a constant, or a definition
    /// that makes a method name ambiguous), or mentions a keyed item (a
    /// caller or user) or a store keyed items write to. Cold files hold no
    /// trigger or local fact of their own, so repeating this until no cold
    /// file is reached gives the selection a scan of every file would.
    pub fn plan(&self, texts: &[&str]) -> Vec<FilePlan> {
        let skip_all = || vec![FilePlan::Skip; texts.len()];
        let hot: Vec<bool> = texts.iter().map(|t| self.may_match(t)).collect();
        if !hot.iter().any(|h| *h) {
            return skip_all();
        }
        let mut scans: Vec<Option<FileScan<'_>>> = texts
            .iter()
            .zip(&hot)
            .map(|(text, hot)| hot.then(|| self.scan(text)))
            .collect();
        let mut cold_defs: Vec<Option<HashSet<&str>>> = vec![None; texts.len()];
        // Request ids only count where a store or table is named for
        // idempotency (a comment naming one makes the filter keep more).
        let names_store = texts.iter().any(|t| self.names_store(t));
        loop {
            let Some(choice) = self.choose(&scans, names_store) else {
                return skip_all();
            };
            let mut words: Vec<&str> = choice.mentions.clone();
            words.extend(choice.tables.iter().map(String::as_str));
            let mentions = WordMatcher::new(&words);
            let mut reached = Vec::new();
            for (f, text) in texts.iter().enumerate() {
                if scans[f].is_some() {
                    continue;
                }
                let defs = cold_defs[f].get_or_insert_with(|| defined_names(text));
                if defs.iter().any(|d| choice.defs.contains(d)) || mentions.is_match(text) {
                    reached.push(f);
                }
            }
            if reached.is_empty() {
                let mut selected = choice.selected.iter();
                return scans
                    .iter()
                    .map(|scan| match scan {
                        Some(scan) => {
                            let mine: Vec<bool> =
                                selected.by_ref().take(scan.items.len()).copied().collect();
                            file_plan(scan, &mine)
                        }
                        None => FilePlan::Skip,
                    })
                    .collect();
            }
            for f in reached {
                scans[f] = Some(self.scan(texts[f]));
            }
        }
    }

    /// The items of the scanned files to keep, numbered across files in
    /// order, and what cold files the choice depends on; `None` when no
    /// item holds a fact.
    fn choose<'t>(&self, scans: &[Option<FileScan<'t>>], names_store: bool) -> Option<Choice<'t>> {
        let scans: Vec<&FileScan<'t>> = scans.iter().flatten().collect();
        let threshold = if names_store {
            Trigger::Weak
        } else {
            Trigger::Strong
        };
        // Items, numbered across files.
        let items: Vec<(usize, &Item<'t>)> = scans
            .iter()
            .enumerate()
            .flat_map(|(f, s)| s.items.iter().map(move |item| (f, item)))
            .collect();
        // Guards matter where the unit claims (IDEM004 asks only there).
        let claims = self.finds(Finds::Claims) && items.iter().any(|(_, item)| item.claims());
        let local =
            |item: &Item<'_>| item.ddl || (claims && (item.claims() || item.releasing_drop()));
        let ddl_outside = scans.iter().any(|s| s.ddl_outside_items);
        if !ddl_outside
            && !items
                .iter()
                .any(|(_, item)| item.trigger >= threshold || local(item))
        {
            return None;
        }
        let mut fns_named: HashMap<&str, Vec<usize>> = HashMap::default();
        let mut consts_named: HashMap<&str, Vec<usize>> = HashMap::default();
        let mut callers_of: HashMap<&str, Vec<usize>> = HashMap::default();
        let idents = |n: usize| scans[items[n].0].idents_of(items[n].1);
        let calls = |n: usize| scans[items[n].0].calls_of(items[n].1);
        // Each list gets an item once, however often it names the key.
        let add = |list: &mut Vec<usize>, n: usize| {
            if list.last() != Some(&n) {
                list.push(n);
            }
        };
        for (n, (_, item)) in items.iter().enumerate() {
            let named = if item.is_fn {
                &mut fns_named
            } else {
                &mut consts_named
            };
            named.entry(item.name).or_default().push(n);
            for call in calls(n) {
                add(callers_of.entry(call.name()).or_default(), n);
            }
        }
        let mut users_of: HashMap<&str, Vec<usize>> = HashMap::default();
        for n in 0..items.len() {
            for ident in idents(n).iter().filter(|i| consts_named.contains_key(*i)) {
                add(users_of.entry(ident).or_default(), n);
            }
        }
        // Method names the index resolves to nothing outside their own
        // `impl`: receiver methods of two known types (see `Methods`).
        let methods = Methods::new(items.iter().map(|(_, item)| *item));
        // Whether item `caller` has a call that may resolve to fn item `callee`.
        let links = |caller: usize, callee: usize| {
            let def = items[callee].1;
            calls(caller)
                .iter()
                .any(|m| m.name() == def.name && methods.links(*m, def))
        };
        let empty: &[usize] = &[];
        // Items that may hold a client key: triggered items and,
        // transitively, their callers and users (a key returned by a helper
        // or held in a constant).
        let mut keyed: Vec<bool> = items.iter().map(|(_, i)| i.trigger >= threshold).collect();
        // A function finishing a hasher that a callee (or its callee …)
        // makes and returns holds a hash fact.
        let mut makers: Vec<bool> = items.iter().map(|(_, i)| i.makes_hasher).collect();
        let mut work: Vec<usize> = (0..items.len()).filter(|&n| makers[n]).collect();
        while let Some(n) = work.pop() {
            let callers = callers_of.get(items[n].1.name).map_or(empty, Vec::as_slice);
            for &c in callers {
                if !makers[c] && links(c, n) {
                    makers[c] = true;
                    if items[c].1.finalizes {
                        keyed[c] = true;
                    }
                    work.push(c);
                }
            }
        }
        let mut work: Vec<usize> = (0..items.len()).filter(|&n| keyed[n]).collect();
        while let Some(n) = work.pop() {
            let item = items[n].1;
            let users: Vec<usize> = if item.is_fn {
                let callers = callers_of.get(item.name).map_or(empty, Vec::as_slice);
                callers.iter().copied().filter(|&c| links(c, n)).collect()
            } else {
                users_of
                    .get(item.name)
                    .map_or(empty, Vec::as_slice)
                    .to_vec()
            };
            for m in users {
                if !keyed[m] {
                    keyed[m] = true;
                    work.push(m);
                }
            }
        }
        // Plus, transitively, every function and constant they may resolve
        // to: callee summaries shape their values, and every definition of a
        // name decides whether a method name is ambiguous.
        let keyed_count = keyed.iter().filter(|k| **k).count();
        let keyed_at_first = keyed.clone();
        let mut selected = keyed;
        let mut work: Vec<usize> = (0..items.len()).filter(|&n| selected[n]).collect();
        // A server-minted key is a finding (IDEM007) where it is stored in a
        // store client keys reach: items storing into a store a keyed item
        // stores into join the selection.
        let keyed_stores: StdHashSet<String> = (0..items.len())
            .filter(|&n| selected[n])
            .flat_map(|n| items[n].1.stores.iter().map(|s| s.to_ascii_lowercase()))
            .collect();
        let keyed_tables: StdHashSet<&str> = (0..items.len())
            .filter(|&n| selected[n])
            .flat_map(|n| items[n].1.tables.iter().map(String::as_str))
            .collect();
        let shares_store = |item: &Item<'_>| {
            self.finds(Finds::SharedStores)
                && (item
                    .stores
                    .iter()
                    .any(|s| keyed_stores.contains(&s.to_ascii_lowercase()))
                    || item
                        .tables
                        .iter()
                        .any(|t| keyed_tables.contains(t.as_str())))
        };
        // Items with a rule's local fact (a claim, a releasing `Drop`, DDL)
        // need no client key, but their callees' releases matter.
        for (n, (_, item)) in items.iter().enumerate() {
            if (local(item) || shares_store(item)) && !selected[n] {
                selected[n] = true;
                work.push(n);
            }
        }
        // Definitions kept only so that the index still finds a method name
        // ambiguous: parsed, but what they call is not followed.
        let mut witness = vec![false; items.len()];
        while let Some(n) = work.pop() {
            let mut next: Vec<usize> = Vec::new();
            for call in calls(n) {
                let defs = fns_named.get(call.name()).map_or(empty, Vec::as_slice);
                next.extend(defs.iter().copied().filter(|&d| links(n, d)));
                if let Some(pair) = methods.witnesses(*call, defs, &items) {
                    for d in pair {
                        witness[d] = true;
                    }
                }
            }
            for ident in idents(n) {
                next.extend(consts_named.get(ident).map_or(empty, Vec::as_slice));
            }
            for m in next {
                if !selected[m] {
                    selected[m] = true;
                    work.push(m);
                }
            }
        }
        // What cold files the choice depends on.
        let mut defs: HashSet<&'t str> = HashSet::default();
        let mut mentions: Vec<&'t str> = Vec::new();
        for n in (0..items.len()).filter(|&n| selected[n]) {
            defs.extend(idents(n).iter().copied());
        }
        for n in (0..items.len()).filter(|&n| keyed_at_first[n]) {
            mentions.push(items[n].1.name);
            mentions.extend(items[n].1.stores.iter().copied());
        }
        let tables: Vec<String> = keyed_tables.iter().map(|t| t.to_string()).collect();
        if claims {
            defs.insert("drop");
        }
        for (n, w) in witness.iter().enumerate() {
            selected[n] |= *w;
        }
        if std::env::var_os("IDEM_LINT_UNIT_STATS").is_some() {
            let triggered = items.iter().filter(|(_, i)| i.trigger >= threshold);
            for (_, item) in triggered.take(3) {
                eprintln!("[idem-lint prefilter] triggered item `{}`", item.name);
            }
            let chosen: Vec<&str> = (0..items.len())
                .filter(|&n| selected[n])
                .map(|n| items[n].1.name)
                .take(20)
                .collect();
            eprintln!(
                "[idem-lint prefilter] {keyed_count} keyed, {} selected of {} items in {} scanned files: {chosen:?}",
                selected.iter().filter(|s| **s).count(),
                items.len(),
                scans.len()
            );
        }
        Some(Choice {
            selected,
            defs,
            mentions,
            tables,
        })
    }
}

/// What `Prefilter::choose` decided for the files scanned so far.
struct Choice<'t> {
    /// Per item of the scanned files, in order: keep it.
    selected: Vec<bool>,
    /// Names whose definition in a cold file the choice would follow.
    defs: HashSet<&'t str>,
    /// Names whose mention in a cold file the choice would follow (keyed
    /// items and the stores they write to).
    mentions: Vec<&'t str>,
    /// Idempotency tables keyed items write to (a cold file writing one
    /// shares the store).
    tables: Vec<String>,
}

/// The names `fn`, `const` and `static` items of `text` may define: the
/// word after the keyword (after `mut`), when followed by `(` or `<` (a
/// function) or by a single `:` (a constant). Comments and strings count
/// too; more names only make the filter scan more. `*const T` and
/// `&'static T` are types, not definitions.
fn defined_names(text: &str) -> HashSet<&str> {
    let bytes = text.as_bytes();
    let mut out = HashSet::default();
    for keyword in ["fn", "const", "static"] {
        for at in memchr::memmem::find_iter(bytes, keyword.as_bytes()) {
            let end = at + keyword.len();
            let starts_word = at == 0 || !lex::is_ident_continue(bytes[at - 1]);
            let ends_word = bytes.get(end).is_some_and(|b| b.is_ascii_whitespace());
            if !starts_word || !ends_word {
                continue;
            }
            let before = text[..at].trim_end().as_bytes().last().copied();
            if keyword != "fn" && matches!(before, Some(b'*' | b'\'')) {
                continue;
            }
            let mut rest = text[end..].trim_start();
            if keyword == "static" {
                if let Some(after) = rest.strip_prefix("mut") {
                    if after.starts_with(|c: char| c.is_ascii_whitespace()) {
                        rest = after.trim_start();
                    }
                }
            }
            let word_end = rest
                .bytes()
                .position(|b| !lex::is_ident_continue(b))
                .unwrap_or(rest.len());
            let word = &rest[..word_end];
            let next = rest[word_end..].trim_start();
            let defines = if keyword == "fn" {
                next.starts_with('(') || next.starts_with('<')
            } else {
                next.starts_with(':') && !next.starts_with("::")
            };
            if !word.is_empty() && defines {
                out.insert(word.strip_prefix("r#").unwrap_or(word));
            }
        }
    }
    out
}

/// Whole-word search (ASCII case ignored) for any of a set of identifiers.
struct WordMatcher {
    automaton: Option<AhoCorasick>,
    /// The words could not be compiled: everything matches.
    all: bool,
}

impl WordMatcher {
    fn new(words: &[&str]) -> WordMatcher {
        if words.is_empty() {
            return WordMatcher {
                automaton: None,
                all: false,
            };
        }
        // Any case: SQL names its tables as it likes.
        let automaton = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(words)
            .ok();
        WordMatcher {
            all: automaton.is_none(),
            automaton,
        }
    }

    fn is_match(&self, text: &str) -> bool {
        let Some(automaton) = &self.automaton else {
            return self.all;
        };
        let bytes = text.as_bytes();
        let Ok(mut hits) = automaton.try_find_overlapping_iter(text) else {
            return true;
        };
        hits.any(|hit| {
            let before = hit.start() == 0 || !lex::is_ident_continue(bytes[hit.start() - 1]);
            let after = bytes
                .get(hit.end())
                .is_none_or(|b| !lex::is_ident_continue(*b));
            before && after
        })
    }
}

/// What to do with one file of a unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilePlan {
    /// Nothing in it can contribute to a finding: it is not parsed.
    Skip,
    /// Parse it with these byte ranges blanked out (see [`blank`]).
    Parse {
        /// Sorted, non-overlapping byte ranges.
        blank: Vec<Range<usize>>,
    },
}

/// Plans one file from which of its items are selected. Unselected
/// top-level items (functions, methods, constants, statics, at any module,
/// `impl` or `trait` depth, but not inside a kept item) are blanked, and so
/// are doc comments outside kept item bodies: neither can reach a finding
/// (an item's only way in is the call graph the selection closes over), and
/// both are most of the syntax tree of generated code.
fn file_plan(scan: &FileScan<'_>, selected: &[bool]) -> FilePlan {
    let mut keep = selected.to_vec();
    // A nested selected item keeps the items around it (items come after
    // their parents, so one backwards pass carries it all the way up).
    for n in (0..scan.items.len()).rev() {
        if let (true, Some(parent)) = (keep[n], scan.items[n].parent) {
            keep[parent] = true;
        }
    }
    if !keep.iter().any(|k| *k) && !scan.ddl_outside_items {
        return FilePlan::Skip;
    }
    let top = |n: &usize| scan.items[*n].parent.is_none();
    let kept: Vec<Range<usize>> = (0..scan.items.len())
        .filter(top)
        .filter(|&n| keep[n])
        .map(|n| scan.items[n].head..scan.items[n].extent.end)
        .collect();
    let mut blank: Vec<Range<usize>> = (0..scan.items.len())
        .filter(top)
        .filter(|&n| !keep[n])
        .map(|n| scan.items[n].extent.clone())
        .collect();
    // Kept bodies are sorted and disjoint: a binary search finds the one a
    // comment could be in.
    let inside_kept = |at: usize| {
        let i = kept.partition_point(|k| k.start <= at);
        i > 0 && kept[i - 1].contains(&at)
    };
    blank.extend(
        scan.doc_comments
            .iter()
            .filter(|c| !inside_kept(c.start))
            .cloned(),
    );
    // Overlaps (a table inside a blanked item) are harmless to `blank`.
    blank.extend(scan.inert_tables.iter().cloned());
    blank.sort_by_key(|r| (r.start, r.end));
    FilePlan::Parse { blank }
}

/// `text` with every char in `ranges` but line breaks replaced by a space:
/// what syn parses from a planned file. Lines and char columns (what
/// proc-macro2 reports) are those of the original, so every position the
/// analysis reports holds for the file on disk.
pub fn blank(text: &str, ranges: &[Range<usize>]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for range in ranges {
        let start = range.start.max(at);
        let (Some(keep), Some(gone)) = (text.get(at..start), text.get(start..range.end)) else {
            continue;
        };
        out.push_str(keep);
        out.extend(
            gone.chars()
                .map(|c| if matches!(c, '\n' | '\r') { c } else { ' ' }),
        );
        at = range.end;
    }
    out.push_str(text.get(at..).unwrap_or_default());
    out
}

/// Where trigger words occur in a file, asked token by token in order.
struct Hits {
    /// Byte ranges of every (overlapping) match, by start; `None`: every
    /// token may match (the words could not be compiled).
    matches: Option<Vec<Range<usize>>>,
    next: usize,
}

impl Hits {
    fn new(matcher: Option<&AhoCorasick>, text: &str) -> Hits {
        let matches = matcher
            .and_then(|m| m.try_find_overlapping_iter(text).ok())
            .map(|hits| {
                let mut all: Vec<Range<usize>> = hits.map(|hit| hit.range()).collect();
                all.sort_by_key(|r| r.start);
                all
            });
        Hits { matches, next: 0 }
    }

    /// Whether a trigger word lies inside `span`; spans must come in order.
    fn token(&mut self, span: &Range<usize>) -> bool {
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
fn may_be_ddl(literal: &str) -> bool {
    let has = |word: &[u8]| {
        literal
            .as_bytes()
            .windows(word.len())
            .any(|w| w.eq_ignore_ascii_case(word))
    };
    (has(b"create") || has(b"alter")) && crate::analysis::sql_literals::looks_like_ddl(literal)
}

/// Whether `tokens[n..]` starts with `::` (the lexer gives two `:`).
fn is_path_sep(tokens: &[Token<'_>], n: usize) -> bool {
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

/// Whether the signature after a function's name (`tokens`) takes `self`
/// first: `(self`, `(&self`, `(&'a mut self`, `(mut self: Box<Self>`.
/// Generic parameters (`<F: Fn(u8)>`) are skipped; a miss only makes the
/// filter keep more.
fn takes_self(tokens: &[Token<'_>]) -> bool {
    let mut angle = 0usize;
    let mut k = 0;
    while let Some(token) = tokens.get(k) {
        match *token {
            Token::Punct("<") => angle += 1,
            Token::Punct(">") if k > 0 && tokens[k - 1] != Token::Punct("-") => {
                angle = angle.saturating_sub(1)
            }
            Token::Open(b'(') if angle == 0 => break,
            Token::Open(b'{') | Token::Punct(";") => return false,
            _ => {}
        }
        k += 1;
        if k > 256 {
            return false;
        }
    }
    for token in tokens.iter().skip(k + 1).take(6) {
        match *token {
            Token::Punct("&" | "'") | Token::Ident("mut") => {}
            Token::Ident("self") => return true,
            // A lifetime's name follows its quote.
            Token::Ident(_) => {}
            _ => return false,
        }
    }
    false
}

/// Which method names the index resolves (`CrateIndex::resolve_method`):
/// `.name(..)` resolves to nothing when receiver methods of that name
/// exist in two types, unless called on `self` in one of them. Types the
/// scan cannot name (`Owner::Unknown`) could be any type, so a name with
/// such a definition is never taken as ambiguous.
struct Methods<'t> {
    /// Per name: the known owners of its receiver methods (up to two) and
    /// whether an unnamed owner defines it.
    by_name: HashMap<&'t str, (Vec<Owner<'t>>, bool)>,
}

impl<'t> Methods<'t> {
    fn new<'a>(items: impl Iterator<Item = &'a Item<'t>>) -> Methods<'t>
    where
        't: 'a,
    {
        let mut by_name: HashMap<&'t str, (Vec<Owner<'t>>, bool)> = HashMap::default();
        for item in items.filter(|i| i.is_fn) {
            let entry = by_name.entry(item.name).or_default();
            match item.owner {
                // A receiver method outside an `impl` is one in an `impl`
                // nested in a function body: the index may name its type.
                Owner::Unknown | Owner::Free if item.receiver => entry.1 = true,
                Owner::Unknown => entry.1 = true,
                owner if item.receiver && entry.0.len() < 2 && !entry.0.contains(&owner) => {
                    entry.0.push(owner)
                }
                _ => {}
            }
        }
        Methods { by_name }
    }

    /// Whether `.name(..)` (not on `self`) resolves to nothing.
    fn ambiguous(&self, name: &str) -> bool {
        self.by_name
            .get(name)
            .is_some_and(|(owners, unknown)| owners.len() >= 2 && !unknown)
    }

    /// Whether type `ty` has a receiver method `name` the scan knows of.
    fn own(&self, ty: Owner<'t>, name: &str) -> bool {
        self.by_name
            .get(name)
            .is_some_and(|(owners, unknown)| !unknown && owners.contains(&ty))
    }

    /// Whether a call may resolve to `def` (a function of the same name).
    fn links(&self, mention: Mention<'t>, def: &Item<'t>) -> bool {
        match mention {
            Mention::SelfMethod(ty @ Owner::Type(_), name) if self.own(ty, name) => def.owner == ty,
            // An unnamed `Self` may own a method of this name.
            Mention::SelfMethod(Owner::Unknown, _) => true,
            Mention::Method(name) | Mention::SelfMethod(_, name) => !self.ambiguous(name),
            _ if def.owner == Owner::Unknown => true,
            Mention::Call(_) => def.owner == Owner::Free,
            Mention::Assoc(ty, _) => def.owner == Owner::Type(ty),
        }
    }

    /// For a call the index finds ambiguous, two receiver methods of
    /// different types among `defs`: kept, the index still finds it so.
    fn witnesses(
        &self,
        mention: Mention<'t>,
        defs: &[usize],
        items: &[(usize, &Item<'t>)],
    ) -> Option<[usize; 2]> {
        let name = match mention {
            Mention::SelfMethod(ty @ Owner::Type(_), name) if self.own(ty, name) => return None,
            Mention::SelfMethod(Owner::Unknown, _) => return None,
            Mention::Method(name) | Mention::SelfMethod(_, name) => name,
            _ => return None,
        };
        if !self.ambiguous(name) {
            return None;
        }
        let receivers = || defs.iter().copied().filter(|&d| items[d].1.receiver);
        let first = receivers().next()?;
        let second = receivers().find(|&d| items[d].1.owner != items[first].1.owner)?;
        Some([first, second])
    }
}

/// Records where an item at `depth` would start.
fn set_start(starts: &mut Vec<usize>, depth: usize, at: usize) {
    if starts.len() <= depth {
        starts.resize(depth + 1, 0);
    }
    starts[depth] = at;
}

/// The type an `impl` (or the name a `trait`) block at `tokens[0]` is for,
/// as `CrateIndex` names it: the last segment of a type path, through
/// references. Anything the scan cannot name is `Unknown`.
fn block_owner<'t>(tokens: &[Token<'t>], is_trait: bool) -> Owner<'t> {
    if is_trait {
        return match tokens.get(1) {
            Some(Token::Ident(name)) => Owner::Type(name),
            _ => Owner::Unknown,
        };
    }
    let mut angle = 0usize;
    let mut last: Option<&'t str> = None;
    let mut done = false;
    for (k, token) in tokens.iter().enumerate().skip(1) {
        match *token {
            Token::Open(b'{') | Token::Punct(";") => break,
            Token::Ident("where") if angle == 0 => break,
            Token::Punct("<") => angle += 1,
            // `->` inside generics is not a closing angle.
            Token::Punct(">") if tokens.get(k - 1) != Some(&Token::Punct("-")) => {
                angle = angle.saturating_sub(1)
            }
            Token::Ident("for") if angle == 0 => {
                last = None;
                done = false;
            }
            Token::Ident("dyn" | "impl" | "fn") if angle == 0 => return Owner::Unknown,
            Token::Open(b'(' | b'[') if angle == 0 => return Owner::Unknown,
            Token::Ident(name) if angle == 0 && !done => {
                last = Some(name);
                // A lifetime's name (`&'a T`) is followed by the type.
                if tokens.get(k - 1) == Some(&Token::Punct("'")) {
                    last = None;
                }
            }
            _ => {}
        }
        if angle > 0 && last.is_some() {
            done = true;
        }
    }
    last.map_or(Owner::Unknown, Owner::Type)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn select(texts: &[&str]) -> Vec<bool> {
        Prefilter::new(&Vocabulary::default()).select(texts)
    }

    #[test]
    fn hash_calls_select_and_hash_names_do_not() {
        let digest = "fn k(body: &[u8]) -> String { hex::encode(Sha256::digest(body)) }";
        let finishes = "fn fin(b: &[u8], h: &mut DefaultHasher) -> u64 { b.hash(h); h.finish() }";
        let fields = "fn f(o: &Output) -> Option<&str> { o.content_md5.as_deref() }";
        let consts = "const SHA256_CTX_LEN: usize = 104; fn g() { let d = digest_len(); }";
        assert_eq!(
            select(&[digest, finishes, fields, consts]),
            [true, true, false, false]
        );
        // A helper that only feeds its hasher parameter matters to a caller
        // that makes and finishes the hasher, and is kept as its callee.
        let feed = "fn feed(b: &[u8], h: &mut DefaultHasher) { b.hash(h) }";
        let maker = "fn key(b: &[u8]) -> u64 { let mut h = DefaultHasher::new(); feed(b, &mut h); h.finish() }";
        assert_eq!(select(&[feed]), [false]);
        assert_eq!(select(&[feed, maker]), [true, true]);
        // Paths select where they are called, not in bounds and imports.
        let bound = "fn hash<H: ::core::hash::Hasher>(&self, _s: &mut H) {}";
        let import = "fn f() { use sha2::{Digest, Sha256}; }";
        let full = "fn g(b: &[u8]) -> Vec<u8> { sha2::Sha256::digest(b).to_vec() }";
        let qualified = "fn q(b: &[u8]) -> Vec<u8> { <Sha256 as Digest>::digest(b).to_vec() }";
        let variant = "fn v() -> UnionHasher { UnionHasher::H2(H2::default()) }";
        assert_eq!(
            select(&[bound, import, full, qualified, variant]),
            [false, false, true, true, false]
        );
    }

    #[test]
    fn claims_by_verb_or_literal_and_guards_only_where_claimed() {
        let verb = "fn a(s: &S, key: &str) { s.acquire(key); }";
        let sql = "fn b(p: &P, key: &str) { query(\"INSERT INTO t (k, s) VALUES ($1, 'pending')\").bind(key); }";
        let no_key = "fn c(s: &S, slot: u8) { s.acquire(slot); }";
        let guard = "impl Drop for G { fn drop(&mut self) { self.s.release(&self.k); } }";
        assert_eq!(
            select(&[verb, sql, no_key, guard]),
            [true, true, false, true]
        );
        // A releasing `Drop` is no guard of anything in a unit without claims.
        assert_eq!(select(&[no_key, guard]), [false, false]);
    }

    #[test]
    fn ddl_outside_items_is_parsed() {
        let migration = "sql_macro!(\"CREATE TABLE idem (k TEXT PRIMARY KEY)\");";
        assert_eq!(select(&[migration]), [true]);
        // DDL without the word TABLE, on a table no trigger word names.
        let index = "const I: &str = \"CREATE UNIQUE INDEX u ON request_log (k)\";";
        assert_eq!(select(&[index]), [true]);
    }

    #[test]
    fn sql_writes_to_a_table_keyed_code_writes_are_kept() {
        let client = "fn c(p: &P, idem_key: &str) { query(\"INSERT INTO idempotency_keys (k) VALUES ($1)\").bind(idem_key); }";
        let server = "fn s(p: &P) { query(\"INSERT INTO idempotency_keys (k) VALUES ($1)\").bind(Uuid::new_v4()); }";
        let other = "fn o(p: &P) { query(\"INSERT INTO replay_log (k) VALUES ($1)\").bind(Uuid::new_v4()); }";
        assert_eq!(select(&[client, server, other]), [true, true, false]);
    }

    #[test]
    fn ambiguous_methods_link_nothing_but_keep_two_witnesses() {
        // `send` exists on two types: `.send()` resolves to nothing, so the
        // caller of the keyed `A::send` is not keyed; two definitions stay
        // so that the index still finds the name ambiguous.
        let a = "impl A { fn send(&self, idempotency_key: &str) -> String { idempotency_key.to_string() } }";
        let b = "impl B { fn send(&self) {} }";
        let c = "impl C { fn send(&self) {} }";
        let caller = "fn call(x: &X) { let k = x.send(); }";
        let keyed_caller = "fn user(idem_key: &str, x: &X) { x.send(); }";
        let chosen = select(&[a, b, c, caller, keyed_caller]);
        assert!(!chosen[3], "a caller through an ambiguous name");
        assert!(chosen[0] && chosen[4]);
        assert_eq!(chosen[1..3].iter().filter(|c| **c).count(), 1);
        // Called on `self` inside `impl A`, the own method resolves.
        let own = "impl A { fn send(&self, idempotency_key: &str) -> String { idempotency_key.to_string() } fn go(&self) { self.send(\"\"); } }";
        let scan = Prefilter::new(&Vocabulary::default()).scan(own);
        assert!(scan
            .calls_of(&scan.items[1])
            .contains(&Mention::SelfMethod(Owner::Type("A"), "send")));
    }

    #[test]
    fn defined_names_are_items_not_types() {
        let names = defined_names(
            "pub const A: u8 = 1; static mut B: u8 = 0; const fn c<T>() {}\n\
             fn d (x: *const core::ffi::c_void, s: &'static str) {} const _: () = ();\n\
             let e: fn(u8); r#fn f();",
        );
        let mut names: Vec<&str> = names.into_iter().collect();
        names.sort();
        // `r#fn f` is no definition, but an extra name only costs a scan.
        assert_eq!(names, ["A", "B", "_", "c", "d", "f"]);
    }

    #[test]
    fn large_inert_tables_are_blanked() {
        let numbers = "1, 2, 3, ".repeat(3000);
        let structs = "D { l: 0, t: 1 }, ".repeat(1500);
        let named = "D { tenant: 0 }, ".repeat(1500);
        let strings = "\"a\", ".repeat(5000);
        let plan = |table: &str| {
            let text = format!(
                "static T: [D; 9] = [{table}];\nfn k(idempotency_key: &str) -> u8 {{ T[0].l }}"
            );
            let FilePlan::Parse { blank } = Prefilter::new(&Vocabulary::default())
                .plan(&[text.as_str()])
                .remove(0)
            else {
                panic!("skipped");
            };
            let interior = text.find("= [").map(|at| at + 3);
            blank.iter().any(|r| Some(r.start) == interior)
        };
        assert!(plan(&numbers));
        assert!(plan(&structs));
        // A name the vocabulary knows, or a literal: evaluated as written.
        assert!(!plan(&named));
        assert!(!plan(&strings));
        // Small tables are left alone.
        assert!(!plan("1, 2, 3"));
    }

    #[test]
    fn receivers() {
        let scan = Prefilter::new(&Vocabulary::default()).scan(
            "impl A { fn a(&self) {} fn b<'x, F: Fn(u8)>(&'x mut self, f: F) {} fn c(mut self: Box<Self>) {} fn d(x: Self) {} fn e() {} }",
        );
        let receivers: Vec<bool> = scan.items.iter().map(|i| i.receiver).collect();
        assert_eq!(receivers, [true, true, true, false, false]);
    }

    #[test]
    fn comments_do_not_make_a_file_relevant() {
        assert_eq!(select(&["// idempotent\nfn a() {}"]), [false]);
        assert_eq!(select(&["fn a() { let s = \"Idempotency-Key\"; }"]), [true]);
        assert_eq!(select(&["fn a(IdemKey: u8) {}"]), [true]);
        // `IDEMATCHCASE` is not a client-key name.
        assert_eq!(select(&["fn a() { let x = IDEMATCHCASE; }"]), [false]);
    }

    #[test]
    fn request_ids_need_an_idempotency_store() {
        assert_eq!(select(&["fn a() { let x = RequestId::new(); }"]), [false]);
        let store = "fn s(dedup: &S) { dedup.get(\"k\"); }";
        // The store file itself may be selected by other rules' triggers
        // (`dedup`); what matters is that it makes the request id relevant.
        assert!(select(&["fn a() { let x = request_id(); }", store])[0]);
        assert_eq!(select(&["fn a() { let x = request_id(); }"]), [false]);
    }

    #[test]
    fn helpers_callers_and_unrelated_files() {
        let relevant = "fn h(idempotency_key: &str) { store(helper(idempotency_key)); }";
        let helper = "pub fn helper(k: &str) -> String { inner(k) }";
        let inner = "fn inner(k: &str) -> String { k.to_string() }";
        let caller = "fn c() { h(\"x\") }";
        let unrelated = "fn other() { let v = vec![1]; helper2(); } fn helper2() {}";
        // `Other::inner` is not `inner`: only a file naming `Other` can define it.
        let assoc = "fn d() { Other::inner() } fn e() {}";
        assert_eq!(
            select(&[relevant, helper, inner, caller, unrelated, assoc]),
            [true, true, true, true, false, false]
        );
    }

    #[test]
    fn constants_are_followed_both_ways() {
        let header = "pub const HDR: &str = \"Idempotency-Key\";";
        let user = "fn h(m: &M) { let k = m.get(HDR); }";
        let other = "fn z() { let k = 1; }";
        assert_eq!(select(&[header, user, other]), [true, true, false]);
    }

    #[test]
    fn definitions_after_const_static_and_fn() {
        let scan = Prefilter::new(&Vocabulary::default()).scan(
            "const fn a() {} static mut B: u8 = 0; const _: () = (); const C: u8 = { 1; 2 };\n\
                   fn f<const N: usize>(p: *const u8, q: *mut u8, s: &'static str) {}",
        );
        let names: Vec<(&str, bool)> = scan.items.iter().map(|i| (i.name, i.is_fn)).collect();
        assert_eq!(
            names,
            [("a", true), ("B", false), ("C", false), ("f", true)]
        );
    }

    #[test]
    fn owners_follow_the_index() {
        let scan = Prefilter::new(&Vocabulary::default()).scan(
            "impl<T: Fn() -> u8> a::Foo<T> where T: X { fn m(&self) { fn inner() {} Self::m2() } }\n\
             impl<'a> From<&'a str> for &'a Bar<'a> { fn from(s: &str) -> Self { todo!() } }\n\
             pub(crate) trait Tr: Sized { fn d(&self) {} }\n\
             impl dyn Tr { fn q() {} }\n\
             fn free(x: impl Tr) -> impl Tr { x }",
        );
        let owners: Vec<(&str, Owner<'_>)> = scan.items.iter().map(|i| (i.name, i.owner)).collect();
        assert_eq!(
            owners,
            [
                ("m", Owner::Type("Foo")),
                ("inner", Owner::Free),
                ("from", Owner::Type("Bar")),
                ("d", Owner::Type("Tr")),
                ("q", Owner::Unknown),
                ("free", Owner::Free),
            ]
        );
        assert!(scan
            .calls_of(&scan.items[0])
            .contains(&Mention::Assoc("Foo", "m2")));
    }

    #[test]
    fn item_extents() {
        let scan = Prefilter::new(&Vocabulary::default()).scan(
            "trait T { fn a(&self); fn b(&self) { x(); } }\nfn c() where A: B { { y(); } z() }\nfn d() {}",
        );
        let calls = |n: usize| -> Vec<&str> {
            let mut v: Vec<&str> = scan
                .calls_of(&scan.items[n])
                .iter()
                .map(|m| m.name())
                .collect();
            v.sort();
            v.dedup();
            v
        };
        assert!(calls(0).is_empty());
        assert_eq!(calls(1), ["x"]);
        assert_eq!(calls(2), ["y", "z"]);
        assert!(calls(3).is_empty());
    }
}
