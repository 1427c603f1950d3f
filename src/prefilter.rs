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

use crate::analysis::vocab::{Vocabulary, STRONG_STORE_WORDS};
use crate::lex::{self, Token};

/// Per rule, the words (case-insensitive substrings of an identifier or a
/// string literal) without which a file cannot hold that rule's facts, in
/// addition to the client-key vocabulary every key event needs.
///
/// Words common in all Rust code (`lock`, `hash`, `get`, `Release`) are
/// deliberately absent: they would select every file. Rules built on key
/// events (a client key reaching key position) need nothing extra.
pub const RULE_TRIGGERS: &[(&str, &[&str])] = &[
    // Unreadable/unparsable files are found before the filter runs.
    ("IDEM000", &[]),
    // Key events: need a client key value.
    ("IDEM001", &[]),
    ("IDEM002", &[]),
    // A payload hash that becomes a key.
    (
        "IDEM003",
        &[
            "digest",
            "sha1",
            "sha2",
            "sha256",
            "sha512",
            "blake",
            "md5",
            "xxh",
            "seahash",
            "crc32",
            "defaulthasher",
            // `use blake3::Hasher;` sits outside the fn: `Hasher::new()`
            // and `.finalize()` are what the function body shows.
            "hasher",
            "finalize",
            "fingerprint",
            "body_hash",
            "bodyhash",
        ],
    ),
    // Claim/complete pairs on idempotency records.
    (
        "IDEM004",
        &[
            "claim",
            "in_progress",
            "inprogress",
            "in-progress",
            "mark_done",
            "mark_completed",
            "save_response",
            "store_response",
            "insert_if_absent",
            "set_nx",
            "setnx",
            "reserve_or_fetch",
            "claimguard",
        ],
    ),
    // Scope components defaulted or sanitised inside a key.
    ("IDEM005", &["tenant", "principal"]),
    ("IDEM006", &[]),
    // Server-minted keys next to client keys.
    ("IDEM007", &["scoped_server", "namespace"]),
    // Idempotency tables in SQL DDL (`idempot` is covered by `idem`).
    ("IDEM008", &["dedup", "replay"]),
    // Suppression comments: files carrying one are always parsed (see
    // `lint::lint_unit`), so these rules need no words of their own.
    ("IDEM900", &["idem-lint:"]),
    ("IDEM901", &["idem-lint:"]),
];

/// The compiled trigger words.
#[derive(Debug, Clone)]
pub struct Prefilter {
    /// Candidate substrings; `None` when they could not be compiled, and
    /// then every file is parsed.
    matcher: Option<AhoCorasick>,
    /// Substrings that make a file relevant by themselves (rule rows).
    rule_words: Vec<String>,
    vocab: Vocabulary,
}

/// A use of a name that the index may resolve to a crate-local item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Mention<'t> {
    /// `name(..)` or `module::name(..)`: a free function (`CrateIndex::resolve_path`).
    Call(&'t str),
    /// `.name(..)`: a method of any type (`CrateIndex::resolve_method`).
    Method(&'t str),
    /// `Type::name(..)` (or `Self::name(..)` inside `impl Type`): only a
    /// function in an `impl` or `trait` block of `Type`.
    Assoc(&'t str, &'t str),
}

impl<'t> Mention<'t> {
    fn name(self) -> &'t str {
        match self {
            Mention::Call(n) | Mention::Method(n) | Mention::Assoc(_, n) => n,
        }
    }
}

/// The `impl`/`trait` block a function is defined in, as the index sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner<'t> {
    /// Not directly in such a block.
    Free,
    /// In a block of this type (the last path segment).
    Type(&'t str),
    /// In a block whose type the token scan cannot name: links to any call.
    Unknown,
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
    trigger: Trigger,
    /// Identifiers in its signature and body (constants are found by name).
    idents: HashSet<&'t str>,
    /// Calls that may resolve to a crate-local function.
    calls: HashSet<Mention<'t>>,
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
    /// It holds a string literal that looks like DDL (IDEM008).
    ddl: bool,
    /// One of its identifiers names a key (computed for claiming items only).
    names_key: bool,
    /// Receivers of its storage calls (`idem_store` in `idem_store.put(..)`).
    stores: HashSet<&'t str>,
}

impl Item<'_> {
    /// Whether the item can hold a fact of a rule that looks at one
    /// function alone: a claim on a key, the `drop` of a releasing guard
    /// type, or DDL. (Claims are linked to keys by name, so an item that
    /// names no key cannot hold one.)
    fn local(&self) -> bool {
        self.ddl
            || (self.is_fn && self.name == "drop" && self.release_call)
            || (self.claim_call && self.names_key)
    }
}

/// What the pre-filter learns from one file.
#[derive(Debug, Default)]
pub struct FileScan<'t> {
    /// Items with their extent's names and calls.
    pub items: Vec<Item<'t>>,
    /// Every identifier in code (an `impl` of `Type` names `Type`).
    pub idents: HashSet<&'t str>,
    /// Code names a store or SQL table `idem*`, `dedup*` or `replay*`.
    pub names_strong_store: bool,
    /// Byte ranges of its doc comments (blanked outside kept items).
    pub doc_comments: Vec<Range<usize>>,
}

impl FileScan<'_> {
    /// Whether some item holds a client-key source.
    pub fn relevant(&self) -> bool {
        self.items.iter().any(|i| i.trigger != Trigger::None)
    }
}

/// Keywords that may follow `const`/`static` without being the item name.
const NOT_A_NAME: &[&str] = &["fn", "unsafe", "async", "extern", "mut", "_"];

impl Prefilter {
    /// Compiles the trigger words of every registered rule and of the vocabulary.
    pub fn new(vocab: &Vocabulary) -> Prefilter {
        let mut rule_words: Vec<String> = Vec::new();
        for (code, extra) in RULE_TRIGGERS {
            // Rows of rules this build does not have cost nothing.
            if crate::rules::ALL.iter().any(|r| r.code == *code) {
                rule_words.extend(extra.iter().map(|w| w.to_ascii_lowercase()));
            }
        }
        let mut words: Vec<String> = vocab.client_key_triggers();
        // Store and table names that make request ids count (see `select`).
        words.extend(STRONG_STORE_WORDS.iter().map(|w| w.to_string()));
        words.extend(rule_words.iter().cloned());
        // `request_id` in snake_case is `RequestId` in CamelCase.
        let joined: Vec<String> = words.iter().map(|w| w.replace(['_', '-'], "")).collect();
        words.extend(joined);
        words.retain(|w| !w.is_empty());
        words.sort();
        words.dedup();
        // Only absurd configured word lists can exceed the automaton's
        // limits; matching everything is the safe fallback.
        let matcher = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(&words)
            .ok();
        Prefilter {
            matcher,
            rule_words,
            vocab: vocab.clone(),
        }
    }

    /// Whether a trigger word occurs anywhere in `text`, comments included.
    /// `false` proves the file irrelevant without tokenizing it.
    pub fn may_match(&self, text: &str) -> bool {
        self.matcher.as_ref().is_none_or(|m| m.is_match(text))
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
            || self.has_rule_word(ident)
    }

    fn literal_is_trigger(&self, text: &str) -> bool {
        let v = &self.vocab;
        v.is_key_header(text) || v.is_client_key_name(text) || self.has_rule_word(text)
    }

    fn has_rule_word(&self, text: &str) -> bool {
        if self.rule_words.is_empty() {
            return false;
        }
        let lower = text.to_ascii_lowercase();
        let joined = lower.replace(['_', '-'], "");
        self.rule_words
            .iter()
            .any(|w| lower.contains(w.as_str()) || joined.contains(&w.replace(['_', '-'], "")))
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
                        scan.items[item].extent.end = end;
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
                        scan.items[item].extent.end = span.end;
                        open.pop();
                    }
                    if header.is_some_and(|(_, d)| d == depth) {
                        header = None;
                    }
                    continue;
                }
                Token::Punct(_) => continue,
                Token::Ident(ident) => {
                    scan.idents.insert(ident);
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
                            trigger: Trigger::None,
                            idents: HashSet::default(),
                            calls: HashSet::default(),
                            // Items still open at the end run to the end.
                            extent: start.min(span.start)..text.len(),
                            head: span.start,
                            parent,
                            claim_call: false,
                            release_call: false,
                            ddl: false,
                            names_key: false,
                            stores: HashSet::default(),
                        });
                    }
                }
                Token::Str(literal) => {
                    if check && may_be_ddl(literal) {
                        for &(item, _, _) in &open {
                            scan.items[item].ddl = true;
                        }
                    }
                }
            }
            if check && hits.token(&span) {
                if let Token::Ident(t) | Token::Str(t) = *token {
                    let lower = t.to_ascii_lowercase();
                    if STRONG_STORE_WORDS.iter().any(|w| lower.contains(w)) {
                        scan.names_strong_store = true;
                    }
                }
                let trigger = self.trigger_of(*token);
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
            let release_call = called && self.vocab.is_release_verb(ident);
            let store = match (before(2), before(1)) {
                (Some(Token::Ident(receiver)), Some(Token::Punct(".")))
                    if called && self.vocab.is_store_method(ident) =>
                {
                    Some(receiver)
                }
                _ => None,
            };
            for &(item, _, _) in &open {
                let item = &mut scan.items[item];
                item.stores.extend(store);
                item.idents.insert(ident);
                item.claim_call |= claim_call;
                item.release_call |= release_call;
                if let Some(call) = call {
                    item.calls.insert(call);
                }
            }
        }
        // Whether a claiming item names a key (see `Item::local`).
        for item in scan.items.iter_mut().filter(|i| i.claim_call) {
            item.names_key = item
                .idents
                .iter()
                .any(|i| self.vocab.is_client_key_name(i) || self.vocab.is_key_position_name(i));
        }
        scan
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
        let on_self = before(2) == Some(Token::Ident("self"));
        // The evaluator never resolves these on another receiver.
        let builtin = crate::analysis::vocab::TRANSPARENT_METHODS.contains(&ident)
            || self.vocab.is_store_method(ident);
        if method && builtin && !on_self {
            return None;
        }
        Some(match owner {
            Some(owner) => Mention::Assoc(owner, ident),
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
    pub fn plan(&self, texts: &[&str]) -> Vec<FilePlan> {
        let skip_all = || vec![FilePlan::Skip; texts.len()];
        if !texts.iter().any(|t| self.may_match(t)) {
            return skip_all();
        }
        let scans: Vec<FileScan<'_>> = texts.iter().map(|t| self.scan(t)).collect();
        // Request ids only count where a store or table is named for idempotency.
        let weak_counts = scans.iter().any(|s| s.names_strong_store);
        let threshold = if weak_counts {
            Trigger::Weak
        } else {
            Trigger::Strong
        };
        // Items, numbered across files.
        let items: Vec<(usize, &Item<'_>)> = scans
            .iter()
            .enumerate()
            .flat_map(|(f, s)| s.items.iter().map(move |item| (f, item)))
            .collect();
        if !items
            .iter()
            .any(|(_, item)| item.trigger >= threshold || item.local())
        {
            return skip_all();
        }
        let mut fns_named: HashMap<&str, Vec<usize>> = HashMap::default();
        let mut consts_named: HashMap<&str, Vec<usize>> = HashMap::default();
        let mut callers_of: HashMap<&str, Vec<usize>> = HashMap::default();
        for (n, (_, item)) in items.iter().enumerate() {
            let named = if item.is_fn {
                &mut fns_named
            } else {
                &mut consts_named
            };
            named.entry(item.name).or_default().push(n);
            for call in &item.calls {
                callers_of.entry(call.name()).or_default().push(n);
            }
        }
        let mut users_of: HashMap<&str, Vec<usize>> = HashMap::default();
        for (n, (_, item)) in items.iter().enumerate() {
            for ident in item.idents.iter().filter(|i| consts_named.contains_key(*i)) {
                users_of.entry(ident).or_default().push(n);
            }
        }
        // Whether item `caller` has a call that may resolve to fn item `callee`.
        let links = |caller: usize, callee: usize| {
            let (file, def) = items[callee];
            let _ = file;
            items[caller].1.calls.iter().any(|m| {
                m.name() == def.name
                    && match (*m, def.owner) {
                        (Mention::Method(_), _) | (_, Owner::Unknown) => true,
                        (Mention::Call(_), owner) => owner == Owner::Free,
                        (Mention::Assoc(ty, _), owner) => owner == Owner::Type(ty),
                    }
            })
        };
        let empty: &[usize] = &[];
        // Items that may hold a client key: triggered items and,
        // transitively, their callers and users (a key returned by a helper
        // or held in a constant).
        let mut keyed: Vec<bool> = items.iter().map(|(_, i)| i.trigger >= threshold).collect();
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
        let mut selected = keyed;
        let mut work: Vec<usize> = (0..items.len()).filter(|&n| selected[n]).collect();
        // A server-minted key is a finding (IDEM007) where it is stored in a
        // store client keys reach: items storing into a store a keyed item
        // stores into join the selection.
        let keyed_stores: StdHashSet<String> = (0..items.len())
            .filter(|&n| selected[n])
            .flat_map(|n| items[n].1.stores.iter().map(|s| s.to_ascii_lowercase()))
            .collect();
        let shares_store = |item: &Item<'_>| {
            item.stores
                .iter()
                .any(|s| keyed_stores.contains(&s.to_ascii_lowercase()))
        };
        // Items with a rule's local fact (a claim, a releasing `Drop`, DDL)
        // need no client key, but their callees' releases matter.
        for (n, (_, item)) in items.iter().enumerate() {
            if (item.local() || shares_store(item)) && !selected[n] {
                selected[n] = true;
                work.push(n);
            }
        }
        while let Some(n) = work.pop() {
            let item = items[n].1;
            let mut next: Vec<usize> = Vec::new();
            for call in &item.calls {
                let defs = fns_named.get(call.name()).map_or(empty, Vec::as_slice);
                next.extend(defs.iter().copied().filter(|&d| links(n, d)));
            }
            for ident in &item.idents {
                next.extend(consts_named.get(ident).map_or(empty, Vec::as_slice));
            }
            for m in next {
                if !selected[m] {
                    selected[m] = true;
                    work.push(m);
                }
            }
        }
        let mut first = 0;
        let plans: Vec<FilePlan> = scans
            .iter()
            .map(|scan| {
                let n = scan.items.len();
                let plan = file_plan(scan, &selected[first..first + n]);
                first += n;
                plan
            })
            .collect();
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
                "[idem-lint prefilter] {keyed_count} keyed, {} selected of {} items: {chosen:?}",
                selected.iter().filter(|s| **s).count(),
                items.len()
            );
        }
        plans
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
    if !keep.iter().any(|k| *k) {
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
    has(b"table") && crate::analysis::sql_literals::looks_like_ddl(literal)
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
        assert!(scan.items[0].calls.contains(&Mention::Assoc("Foo", "m2")));
    }

    #[test]
    fn item_extents() {
        let scan = Prefilter::new(&Vocabulary::default()).scan(
            "trait T { fn a(&self); fn b(&self) { x(); } }\nfn c() where A: B { { y(); } z() }\nfn d() {}",
        );
        let calls = |n: usize| -> Vec<&str> {
            let mut v: Vec<&str> = scan.items[n].calls.iter().map(|m| m.name()).collect();
            v.sort();
            v
        };
        assert!(calls(0).is_empty());
        assert_eq!(calls(1), ["x"]);
        assert_eq!(calls(2), ["y", "z"]);
        assert!(calls(3).is_empty());
    }
}
