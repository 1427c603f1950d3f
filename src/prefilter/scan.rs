//! The per-file token scan: splits a file into items (`fn`, `const`,
//! `static`), and records per item the facts it holds, the names it uses,
//! the calls it makes and the stores it writes to ([`FileScan`]).
//!
//! The scan is one pass over `lex::lex`'s tokens. Brackets, `;` and item
//! keywords move a small state ([`Scanner`]): which items are open, at
//! which bracket depth, which `impl`/`trait` block owns them. Every other
//! identifier and string literal is asked by the predicates of
//! `triggers.rs` and counted for every open item, so nested items share
//! their facts with the items around them.

use crate::analysis::payload_sources;
use std::ops::Range;

use rustc_hash::FxHashSet as HashSet;

use crate::analysis::eval::sql_tables;
use crate::analysis::format_string;
use crate::analysis::hashing;
use crate::analysis::vocab::{is_dynamo_key_attribute, names_strong_store, DYNAMO_STORE};
use crate::lex::{self, Token};

use super::block_header::{block_owner, block_trait};
use super::clues::{self, Clue, Clues, HashImports};
use super::field_closures;
use super::holders;
use super::test_attrs;
use super::triggers::{
    is_path_sep, may_be_ddl, Fact, FactSet, Hits, TableScan, TokenFact, Trigger,
};
use super::Prefilter;
use crate::analysis::test_support::is_test_module_name;

/// A use of a name that the index may resolve to a crate-local item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mention<'t> {
    /// `name(..)` or `module::name(..)`: a free function (`CrateIndex::resolve_path`).
    Call(&'t str),
    /// `.name(..)`: a method of any type (`CrateIndex::resolve_method`).
    Method(&'t str),
    /// `self.name(..)` in a block of this type: its own method first.
    SelfMethod(Owner<'t>, &'t str),
    /// `Type::name(..)` (or `Self::name(..)` inside `impl Type`): only a
    /// function in an `impl` or `trait` block of `Type`.
    Assoc(&'t str, &'t str),
    /// `.name(..)` at the end of a chain that starts from `Type` (`Type::f(..)`
    /// or `Type { .. }`): as `Method`, and where several types define the
    /// name, the method of `Type` (`Evaluator::chain_type`).
    Chained(&'t str, &'t str),
}

impl<'t> Mention<'t> {
    /// The name called.
    pub fn name(self) -> &'t str {
        match self {
            Mention::Call(n)
            | Mention::Method(n)
            | Mention::SelfMethod(_, n)
            | Mention::Assoc(_, n)
            | Mention::Chained(_, n) => n,
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

/// A `fn`, `const` or `static` item: what the crate index holds.
#[derive(Debug)]
pub struct Item<'t> {
    /// Its name.
    pub name: &'t str,
    /// A function (else a constant or static).
    pub is_fn: bool,
    /// Where a function is defined.
    pub owner: Owner<'t>,
    /// The trait of the block it is defined in (`impl KeyLayout for
    /// Flat`, `trait KeyLayout`), as the index names it.
    pub trait_of: Option<&'t str>,
    /// A function whose first parameter is `self` (a method the index
    /// resolves `.name(..)` calls to).
    pub receiver: bool,
    /// A function with a body. A trait method declared without one
    /// (`fn f(&self);`) is no function of the index: it neither runs nor
    /// counts as an owner of its name.
    pub body: bool,
    /// The facts it holds on its own (a request id is a clue, not yet a
    /// key event: see [`Item::holds`]).
    found: FactSet,
    clues: Clues,
    /// Its identifiers (signature and body; constants are found by name),
    /// as a range of `FileScan::idents`.
    idents: Range<u32>,
    /// Calls that may resolve to a crate-local function, as a range of
    /// `FileScan::calls`.
    calls: Range<u32>,
    /// Its bytes, from just after the previous item (so its attributes,
    /// visibility and doc comments are included) to its `}` or `;`.
    pub extent: Range<usize>,
    /// Where its name starts: what precedes it is attributes and qualifiers.
    pub head: usize,
    /// The innermost item (of this scan) it is nested in.
    pub parent: Option<usize>,
    /// Receivers of its storage calls (`idem_store` in `idem_store.put(..)`).
    pub stores: HashSet<&'t str>,
    /// Idempotency tables its SQL literals name (a SQL bind is a storage call).
    pub tables: Vec<String>,
    /// It may name an idempotency store: an identifier (not a type's)
    /// whose words start with a store word (`idem_cache`, `replay_store`),
    /// or a string holding a client-key or store word (SQL that may key
    /// rows by a client key or a request id). A request id counts only
    /// there (`KeyEvent::strong`).
    pub names_store: bool,
    /// Fields and variants it gives a key-header literal (`None`) or a
    /// constant (`Some(name)`): see `holders.rs`.
    pub header_holders: Vec<(&'t str, Option<&'t str>)>,
    /// Test support (`#[test]`, in a `#[cfg(test)]` module): dropped from
    /// the scan's items when it finishes, and blanked.
    test: bool,
}

impl Item<'_> {
    /// Whether the item holds `fact`; request ids are key events only in a
    /// unit that `names_store`.
    pub fn holds(&self, fact: Fact, names_store: bool) -> bool {
        self.found.contains(fact)
            || (fact == Fact::KeyEvents && names_store && self.clues.has(Clue::RequestId))
    }

    /// Whether the item holds a request id, which is a key event only where
    /// the unit names a store (`names_store` of [`Item::holds`]).
    pub fn holds_request_id(&self) -> bool {
        self.clues.has(Clue::RequestId)
    }

    /// Whether the item is the `drop` of a type that releases: a guard,
    /// which is a claim fact where the unit claims.
    pub fn releasing_drop(&self) -> bool {
        self.is_fn && self.name == "drop" && self.clues.has(Clue::ReleaseCall)
    }

    /// Whether it calls a release verb.
    pub fn releases(&self) -> bool {
        self.clues.has(Clue::ReleaseCall)
    }

    /// Whether it makes a hasher object (`Sha256::new()`): a hash fact
    /// where it, or a caller it returns the hasher to, finishes it.
    pub fn makes_hasher(&self) -> bool {
        self.clues.has(Clue::MakesHasher)
    }

    /// Whether it finishes a hasher.
    pub fn finalizes(&self) -> bool {
        self.clues.has(Clue::Finalizes)
    }

    /// Whether it names the request payload, which it may pass to a
    /// function that digests its parameter.
    pub fn names_payload(&self) -> bool {
        self.clues.has(Clue::Payload)
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
    /// `#[serde(default = "path::f")] field: T`: the default function's
    /// name and the field it fills (a holder when `f` returns the key
    /// header's name).
    pub serde_defaults: Vec<(&'t str, &'t str)>,
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
    /// `use path::original as alias;` outside items: (original, alias).
    /// A call of the alias may resolve to the original function, as
    /// `CrateIndex` resolves it.
    pub renames: Vec<(&'t str, &'t str)>,
    /// Structs defined outside items: a fix reads the fields of a type a
    /// kept function names (`ctx.tenant_id` of `ctx: AuthContext`).
    pub structs: Vec<&'t str>,
    /// The extents of test functions and of the items of test modules
    /// (`test_attrs`): the analysis never reads them, so they are no items
    /// of the scan and are blanked wherever the file is parsed.
    pub test_items: Vec<Range<usize>>,
}

impl<'t> FileScan<'t> {
    /// An item's identifiers (with repeats).
    pub fn idents_of(&self, item: &Item<'t>) -> &[&'t str] {
        self.idents
            .get(item.idents.start as usize..item.idents.end as usize)
            .unwrap_or_default()
    }

    /// An item's calls (with repeats).
    pub fn calls_of(&self, item: &Item<'t>) -> &[Mention<'t>] {
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

/// An item still open in the scan.
#[derive(Debug, Clone, Copy)]
struct Open {
    /// Its index in `FileScan::items`.
    item: usize,
    /// The bracket depth of its keyword.
    depth: usize,
    /// Inside its body (a function's `{`).
    body: bool,
}

/// The state of one file's scan.
struct Scanner<'p, 't> {
    prefilter: &'p Prefilter,
    text: &'t str,
    tokens: &'p [Token<'t>],
    /// Whether the file holds a trigger word at all (else only items,
    /// names and calls are recorded).
    check: bool,
    out: FileScan<'t>,
    /// Where trigger words occur.
    hits: Hits,
    /// Open `[` brackets, for inert tables.
    tables: Vec<TableScan<'t>>,
    depth: usize,
    /// Per bracket depth, where an item starting there would begin: after
    /// the `{` that opened the depth, or the last `}` or `;` at it.
    item_start: Vec<usize>,
    open: Vec<Open>,
    /// `impl`/`trait` blocks: (owner, depth inside the body).
    blocks: Vec<(Owner<'t>, usize)>,
    /// The trait of each block of `blocks`.
    block_traits: Vec<Option<&'t str>>,
    /// The trait of the block whose header waits for its `{`.
    header_trait: Option<&'t str>,
    /// A block header waiting for its `{`: (owner, depth of the keyword).
    header: Option<(Owner<'t>, usize)>,
    /// Inside a `use` declaration (until its `;`).
    in_use: bool,
    /// What `use` declarations brought into scope (a hashing trait, hash types).
    imports: HashImports<'t>,
    /// The bracket depth of a test attribute waiting for its item.
    test_attr: Option<usize>,
    /// A test `mod`/`impl` waiting for its `{`: the depth of its keyword.
    test_header: Option<usize>,
    /// Bodies of test modules and `impl`s: the depth inside each.
    test_regions: Vec<usize>,
    /// Closures written into struct fields (`derive: Box::new(|..| ..)`):
    /// (innermost open item, field name).
    field_closures: Vec<(usize, &'t str)>,
    /// Fields called as closures (`(keyer.derive)(..)`).
    field_calls: HashSet<&'t str>,
    /// Locals bound to closures (`let derive = |..| ..;`): (innermost
    /// open item, local name), written into a field by that name later.
    bound_closures: Vec<(usize, &'t str)>,
    /// `#![cfg(test)]` at the top of the file: every item is test support.
    test_file: bool,
}

impl Prefilter {
    /// Tokenizes `text` into items: their triggers (comments do not
    /// count), the names they use and the calls they make.
    pub fn scan<'t>(&self, text: &'t str) -> FileScan<'t> {
        self.scan_known(text, self.may_match(text))
    }

    /// [`Prefilter::scan`] of a text whose [`Prefilter::may_match`] is
    /// `hot`: the planner asked it of every file already, and a cold file
    /// (scanned only for its items, names and calls) needs no trigger search.
    pub(super) fn scan_known<'t>(&self, text: &'t str, hot: bool) -> FileScan<'t> {
        let lex::Lexed {
            tokens,
            spans,
            doc_comments,
        } = lex::lex(text);
        let mut scanner = Scanner {
            prefilter: self,
            text,
            tokens: &tokens,
            check: hot,
            out: FileScan {
                doc_comments,
                ..FileScan::default()
            },
            hits: if hot {
                Hits::new(self.matcher.as_ref(), text)
            } else {
                Hits::none()
            },
            tables: Vec::new(),
            depth: 0,
            item_start: vec![0],
            open: Vec::new(),
            blocks: Vec::new(),
            block_traits: Vec::new(),
            header_trait: None,
            header: None,
            in_use: false,
            imports: HashImports::default(),
            test_attr: None,
            test_header: None,
            test_regions: Vec::new(),
            test_file: false,
            field_closures: Vec::new(),
            field_calls: HashSet::default(),
            bound_closures: Vec::new(),
        };
        for (i, span) in spans.iter().enumerate() {
            scanner.token(i, &(span.start as usize..span.end as usize));
        }
        scanner.finish()
    }
}

impl<'t> Scanner<'_, 't> {
    /// Whether the identifier at `i` asks for or names a record a value is
    /// decoded into, which the evaluator may take for the request's input
    /// (`payload_hash::decoded_by_turbofish`, `parsed_into_record`,
    /// `destructured_extractor_param`): a method's turbofish
    /// (`req.json::<Order>()`), a `let` typed by a type (`let o: Order =`)
    /// or a destructured parameter's type (`Part(o): Part<Order>`).
    fn typed_as_record(&self, i: usize, ident: &str) -> bool {
        let after = |k: usize| self.tokens.get(i + k).copied();
        let colon = Some(Token::Punct(":"));
        let turbofish = self.before(i, 1) == Some(Token::Punct("."))
            && after(1) == colon
            && after(2) == colon
            && after(3) == Some(Token::Punct("<"));
        let typed = ident.starts_with(|c: char| c.is_ascii_uppercase())
            && self.before(i, 1) == colon
            && match self.before(i, 2) {
                Some(Token::Close(b')')) => true,
                Some(Token::Ident(_)) => {
                    matches!(self.before(i, 3), Some(Token::Ident("let" | "mut")))
                }
                _ => false,
            };
        turbofish || typed
    }

    /// The token `n` before `tokens[i]`.
    fn before(&self, i: usize, n: usize) -> Option<Token<'t>> {
        i.checked_sub(n).and_then(|j| self.tokens.get(j)).copied()
    }

    /// Indices of the open items.
    fn open_items(&self) -> impl Iterator<Item = usize> + '_ {
        self.open.iter().map(|o| o.item)
    }

    /// Applies `f` to every open item.
    fn for_open(&mut self, mut f: impl FnMut(&mut Item<'t>)) {
        for o in &self.open {
            f(&mut self.out.items[o.item]);
        }
    }

    fn token(&mut self, i: usize, span: &Range<usize>) {
        let token = self.tokens[i];
        match token {
            Token::Ident("use") => self.in_use = true,
            Token::Punct(";") => {
                self.in_use = false;
                self.imports.end_use();
            }
            Token::Ident("as") if self.in_use && self.open.is_empty() => self.rename(i),
            _ if self.in_use => self.imports.use_token(self.tokens, i),
            Token::Ident(t)
                if self.imports.is_hash_type(t)
                    && clues::path_head(self.tokens, i)
                    && self.prefilter.needs(Fact::HashCalls) =>
            {
                self.for_open(|item| item.found.insert(Fact::HashCalls));
            }
            Token::Ident("update" | "chain_update" | "input")
                if self.before(i, 1) == Some(Token::Punct("."))
                    && self.tokens.get(i + 1) == Some(&Token::Open(b'(')) =>
            {
                self.for_open(|item| item.clues.insert(Clue::FeedsHasher));
            }
            Token::Ident(t)
                if hashing::is_trait_digest_fn(t)
                    && self.before(i, 1) == Some(Token::Punct(":"))
                    && self.before(i, 2) == Some(Token::Punct(":"))
                    && matches!(self.before(i, 3), Some(Token::Ident(t)) if t.starts_with(|c: char| c.is_ascii_uppercase()))
                    && self.tokens.get(i + 1) == Some(&Token::Open(b'(')) =>
            {
                self.for_open(|item| item.clues.insert(Clue::TraitDigest));
            }
            _ => {}
        }
        if token == Token::Punct("#") {
            self.attribute(i);
        }
        match token {
            Token::Open(b) => return self.open_bracket(b, span),
            Token::Close(b) => return self.close_bracket(b, span),
            Token::Punct(";") => return self.semicolon(span),
            Token::Punct(_) => return,
            Token::Ident(ident) => self.ident_structure(i, ident, span),
            Token::Str(literal) => self.literal_facts(literal),
        }
        // Inline captures (`format!("{idempotency_key}")`) read names as
        // the evaluator does: they link and trigger like identifiers.
        let captured = self.out.idents.len();
        if let Token::Str(literal) = token {
            if !self.open.is_empty() && literal.contains('{') {
                let names = format_string::named_args(literal).filter(|n| lex::is_ident(n));
                self.out.idents.extend(names);
            }
        }
        let hit = self.check && self.hits.token(span);
        if hit && names_store(token) {
            self.for_open(|item| item.names_store = true);
        }
        let uncalled_constructor = matches!(token, Token::Ident(x) if self.prefilter.only_constructor(x))
            && !is_called(self.tokens, i);
        if hit && !is_module_segment(self.tokens, i) && !uncalled_constructor {
            self.key_words(token, captured);
        }
        self.header_holder(i, token, hit);
        if let Some(pair) = holders::serde_default_at(self.tokens, i) {
            self.out.serde_defaults.push(pair);
        }
        if let Token::Ident(ident) = token {
            self.ident_uses(i, ident);
            self.field_closure(i, ident);
        }
    }

    /// A closure written into a struct field (in place, or by the name of
    /// a local bound to it), or a field called as one: the evaluator runs
    /// the first where the second is called in the same file
    /// (`analysis::field_closures`), so the scan keeps its item then.
    fn field_closure(&mut self, i: usize, ident: &'t str) {
        let at = |n: usize| self.tokens.get(i + n).copied();
        if self.before(i, 1) == Some(Token::Punct("."))
            && at(1) == Some(Token::Close(b')'))
            && at(2) == Some(Token::Open(b'('))
        {
            self.field_calls.insert(ident);
            return;
        }
        let Some(item) = self.open.last().map(|o| o.item) else {
            return;
        };
        if ident == "let" {
            if let Some(local) = field_closures::bound_closure(self.tokens, i) {
                self.bound_closures.push((item, local));
            }
            return;
        }
        if self.bound_closures.contains(&(item, ident)) {
            if let Some(field) = field_closures::written_field(self.tokens, i) {
                self.field_closures.push((item, field));
            }
        }
        // `f: |..|`, `f: move |..|`, `f: Box::new(|..|` (or `Arc`, `Rc`).
        if at(1) == Some(Token::Punct(":"))
            && !is_path_sep(self.tokens, i + 1)
            && field_closures::closure_at(self.tokens, i + 2)
        {
            self.field_closures.push((item, ident));
        }
    }

    /// A `#` at `tokens[i]`: a test attribute marks the next item, or the
    /// whole file at its top (`#![cfg(test)]`).
    fn attribute(&mut self, i: usize) {
        match test_attrs::at(self.tokens, i) {
            test_attrs::Attribute::Outer => self.test_attr = Some(self.depth),
            test_attrs::Attribute::Inner if self.depth == 0 => self.test_file = true,
            _ => {}
        }
    }

    /// `original as alias` at token `i` (the `as`) of a `use` declaration.
    fn rename(&mut self, i: usize) {
        if let (Some(Token::Ident(original)), Some(Token::Ident(alias))) =
            (self.before(i, 1), self.tokens.get(i + 1).copied())
        {
            if alias != "_" && alias != original {
                self.out.renames.push((original, alias));
            }
        }
    }

    fn open_bracket(&mut self, b: u8, span: &Range<usize>) {
        if b == b'[' {
            self.tables.push(TableScan::new(span.end));
        }
        let depth = self.depth;
        if let Some(top) = self.open.last_mut() {
            if b == b'{' && !top.body && top.depth == depth && self.out.items[top.item].is_fn {
                top.body = true;
                self.out.items[top.item].body = true;
            }
        }
        if b == b'{' && self.header.is_some_and(|(_, d)| d == depth) {
            if let Some((owner, _)) = self.header.take() {
                self.blocks.push((owner, depth + 1));
                self.block_traits.push(self.header_trait.take());
            }
        }
        if b == b'{' {
            if self.test_header.take_if(|d| *d == depth).is_some() {
                self.test_regions.push(depth + 1);
            }
            self.test_attr.take_if(|d| *d == depth);
        }
        self.depth += 1;
        set_start(&mut self.item_start, self.depth, span.end);
    }

    fn close_bracket(&mut self, b: u8, span: &Range<usize>) {
        if b == b']' {
            self.close_table(span.start);
        }
        self.depth = self.depth.saturating_sub(1);
        let depth = self.depth;
        if b == b'}' {
            set_start(&mut self.item_start, depth, span.end);
        }
        while self.blocks.last().is_some_and(|(_, d)| depth < *d) {
            self.blocks.pop();
            self.block_traits.pop();
        }
        while self.test_regions.last().is_some_and(|d| depth < *d) {
            self.test_regions.pop();
        }
        self.test_header.take_if(|d| depth < *d);
        self.test_attr.take_if(|d| depth < *d);
        if self.header.is_some_and(|(_, d)| depth < d) {
            self.header = None;
        }
        while let Some(&Open {
            item,
            depth: at,
            body,
        }) = self.open.last()
        {
            // Its own `}`, or its enclosing bracket closed early.
            let end = if body && depth == at {
                span.end
            } else if depth < at {
                span.start
            } else {
                break;
            };
            self.out.close(item, end);
            self.open.pop();
        }
    }

    /// A `]` at `end`: its table may be inert, and is part of the one around it.
    fn close_table(&mut self, end: usize) {
        let Some(table) = self.tables.pop() else {
            return;
        };
        let prefilter = self.prefilter;
        if let Some(interior) = table.inert_interior(end, |i| prefilter.ident_is_inert(i)) {
            self.out.inert_tables.push(interior);
        }
        if let Some(outer) = self.tables.last_mut() {
            outer.absorb(&table);
        }
    }

    fn semicolon(&mut self, span: &Range<usize>) {
        let depth = self.depth;
        set_start(&mut self.item_start, depth, span.end);
        while let Some(&Open {
            item,
            depth: at,
            body,
        }) = self.open.last()
        {
            if body || depth != at {
                break;
            }
            self.out.close(item, span.end);
            self.open.pop();
        }
        if self.header.is_some_and(|(_, d)| d == depth) {
            self.header = None;
        }
        self.test_header.take_if(|d| *d == depth);
        self.test_attr.take_if(|d| *d == depth);
    }

    /// What an identifier does to the item structure: counts in a table,
    /// opens an `impl`/`trait` header, or names a new item.
    fn ident_structure(&mut self, i: usize, ident: &'t str, span: &Range<usize>) {
        if let Some(table) = self.tables.last_mut() {
            table.ident(ident);
        }
        let item_level = matches!(
            self.before(i, 1),
            None | Some(Token::Close(_))
                | Some(Token::Open(b'{'))
                | Some(Token::Punct(";"))
                | Some(Token::Ident("unsafe" | "pub" | "default" | "auto"))
        );
        if (ident == "impl" || ident == "trait") && item_level && self.header.is_none() {
            let owner = block_owner(&self.tokens[i..], ident == "trait");
            self.header = Some((owner, self.depth));
            self.header_trait = block_trait(&self.tokens[i..], ident == "trait");
        }
        // A test module or `impl` (not a trait: the index reads a test
        // trait's default methods).
        let test_module = ident == "mod"
            && matches!(self.tokens.get(i + 1), Some(Token::Ident(name)) if is_test_module_name(name));
        let depth = self.depth;
        if (ident == "mod" || ident == "impl")
            && item_level
            && (self.test_attr.take_if(|d| *d == depth).is_some() || test_module)
        {
            self.test_header = Some(depth);
        }
        if let Some(is_fn) = self.defines_item(i, ident) {
            self.open_item(i, ident, is_fn, span);
        }
        if self.open.is_empty() && self.before(i, 1) == Some(Token::Ident("struct")) {
            self.out.structs.push(ident);
        }
    }

    /// Whether `tokens[i]` names a new item: `Some(true)` after `fn`,
    /// `Some(false)` for `const NAME:` / `static [mut] NAME:`, but not
    /// `*const T`, `&'static T` or a const generic `<const N: usize>`.
    fn defines_item(&self, i: usize, ident: &str) -> Option<bool> {
        if self.before(i, 1) == Some(Token::Ident("fn")) {
            return Some(true);
        }
        let keyword_at = match self.before(i, 1) {
            Some(Token::Ident("mut")) => 2,
            _ => 1,
        };
        let item_keyword = match self.before(i, keyword_at) {
            Some(Token::Ident("const")) => keyword_at == 1,
            Some(Token::Ident("static")) => true,
            _ => false,
        };
        let is_const = item_keyword
            && !NOT_A_NAME.contains(&ident)
            && self.tokens.get(i + 1) == Some(&Token::Punct(":"))
            && self.tokens.get(i + 2) != Some(&Token::Punct(":"))
            && !matches!(
                self.before(i, keyword_at + 1),
                Some(Token::Punct("*" | "'" | "<" | ","))
            );
        is_const.then_some(false)
    }

    fn open_item(&mut self, i: usize, name: &'t str, is_fn: bool, span: &Range<usize>) {
        let depth = self.depth;
        // Directly in an `impl`/`trait` body, or free (a fn nested in a
        // function body is free, as in the index).
        let in_fn = self
            .open
            .iter()
            .rev()
            .find(|o| o.body)
            .map_or(0, |o| o.depth + 1);
        let (owner, trait_of) = match self.blocks.last() {
            Some(&(owner, d)) if d == depth && d > in_fn => {
                (owner, self.block_traits.last().copied().flatten())
            }
            _ => (Owner::Free, None),
        };
        let start = self.item_start.get(depth).copied().unwrap_or(0);
        let parent = self.open.last().map(|o| o.item);
        let attributed = self.test_attr.take_if(|d| *d == depth).is_some();
        let test = self.test_file
            || !self.test_regions.is_empty()
            || (attributed && is_fn)
            || parent.is_some_and(|p| self.out.items[p].test);
        let (idents, calls) = (self.out.idents.len() as u32, self.out.calls.len() as u32);
        self.open.push(Open {
            item: self.out.items.len(),
            depth,
            body: false,
        });
        self.out.items.push(Item {
            name,
            is_fn,
            owner,
            trait_of,
            receiver: is_fn && takes_self(&self.tokens[i + 1..]),
            body: false,
            found: FactSet::default(),
            clues: Clues::default(),
            idents: idents..idents,
            calls: calls..calls,
            // Items still open at the end run to the end.
            extent: start.min(span.start)..self.text.len(),
            head: span.start,
            parent,
            stores: HashSet::default(),
            tables: Vec::new(),
            names_store: false,
            header_holders: Vec::new(),
            test,
        });
    }

    /// Facts a string literal holds by itself: DDL, a claiming literal.
    fn literal_facts(&mut self, literal: &str) {
        if let Some(table) = self.tables.last_mut() {
            table.literal();
        }
        if !self.check {
            return;
        }
        let prefilter = self.prefilter;
        if prefilter.needs(Fact::Ddl) && may_be_ddl(literal) {
            self.for_open(|item| item.found.insert(Fact::Ddl));
            self.out.ddl_outside_items |= self.open.is_empty();
        }
        if prefilter.needs(Fact::Claims) && crate::analysis::claims::is_claim_literal(literal) {
            self.for_open(|item| item.clues.insert(Clue::ClaimLiteral));
        }
        // `HashFunction::new("SHA-256")`: a hasher made by its algorithm's name.
        if hashing::names_hash_algorithm(literal) {
            self.for_open(|item| item.clues.insert(Clue::MakesHasher));
        }
    }

    /// A key-header literal or a constant's name initialising a field or
    /// variant: the holder, for every open item.
    fn header_holder(&mut self, i: usize, token: Token<'t>, hit: bool) {
        if self.open.is_empty() {
            return;
        }
        let leaf = match token {
            Token::Str(t) if hit => {
                if !self.prefilter.vocab.is_key_header(t) {
                    return;
                }
                None
            }
            Token::Ident(ident) if holders::may_name_header_const(ident) => Some(ident),
            _ => return,
        };
        if let Some(holder) = holders::holder_before(self.tokens, i) {
            self.for_open(|item| item.header_holders.push((holder, leaf)));
        }
    }

    /// A token holding a trigger word: the client-key trigger it and the
    /// names it captures make, and the idempotency tables its SQL writes.
    fn key_words(&mut self, token: Token<'t>, captured: usize) {
        let prefilter = self.prefilter;
        // SQL writing to an idempotency table: a store shared with keyed code.
        if let Token::Str(t) = token {
            if !self.open.is_empty() && prefilter.names_store(t) {
                let tables: Vec<String> = sql_tables(&t.to_ascii_lowercase())
                    .into_iter()
                    .filter(|t| prefilter.vocab.is_idempotency_table(t))
                    .collect();
                self.for_open(|item| item.tables.extend(tables.iter().cloned()));
            }
        }
        let trigger = self.out.idents[captured..]
            .iter()
            .map(|name| prefilter.trigger_of(Token::Ident(name)))
            .fold(prefilter.trigger_of(token), Trigger::max);
        match trigger {
            Trigger::Strong => self.for_open(|item| item.found.insert(Fact::KeyEvents)),
            Trigger::Weak => self.for_open(|item| item.clues.insert(Clue::RequestId)),
            Trigger::None => {}
        }
    }

    /// What an identifier uses: the call it makes, the facts it starts,
    /// the store it writes to; recorded for every open item.
    fn ident_uses(&mut self, i: usize, ident: &'t str) {
        let prefilter = self.prefilter;
        // `Self::f` inside `impl T` resolves like `T::f`.
        let self_owner = self
            .open
            .iter()
            .rev()
            .find(|o| self.out.items[o.item].is_fn)
            .map(|o| self.out.items[o.item].owner);
        let call = call_mention(self.tokens, i, ident, self_owner);
        let called = self.tokens.get(i + 1) == Some(&Token::Open(b'('))
            && self.before(i, 1) != Some(Token::Ident("fn"));
        if self.check {
            self.token_fact(i);
        }
        let mut clues = Clues::default();
        if called && prefilter.vocab.is_claim_verb(ident) {
            clues.insert(Clue::ClaimCall);
        }
        // `ExistenceCheck::NX`, `SetOptions::NX`, `.nx()`: a write option
        // that makes a `set` a claim.
        if ident.eq_ignore_ascii_case("nx") {
            clues.insert(Clue::ClaimLiteral);
        }
        if called && prefilter.vocab.is_release_verb(ident) {
            clues.insert(Clue::ReleaseCall);
        }
        let lends_mut = self.tokens.get(i + 2) == Some(&Token::Punct("&"))
            && self.tokens.get(i + 3) == Some(&Token::Ident("mut"));
        if called && ident == "hash" && self.before(i, 1) == Some(Token::Punct(".")) && !lends_mut {
            clues.insert(Clue::HashesWith);
        }
        if payload_sources::is_body_extractor(ident)
            || prefilter.vocab.is_payload_name(ident)
            || (called && payload_sources::is_deserialise_fn(ident))
            || self.typed_as_record(i, ident)
        {
            clues.insert(Clue::Payload);
        }
        let store = match (self.before(i, 2), self.before(i, 1)) {
            (Some(Token::Ident(receiver)), Some(Token::Punct(".")))
                if called && prefilter.vocab.is_store_method(ident) =>
            {
                Some(receiver)
            }
            _ if called && is_redis_cmd_arg(self.tokens, i) => Some(REDIS_CMD_STORE),
            _ if called && is_dynamo_key_write(self.tokens, i) => Some(DYNAMO_STORE),
            _ => None,
        };
        if !self.open.is_empty() {
            self.out.idents.push(ident);
            self.out.calls.extend(call);
        }
        self.for_open(|item| {
            item.stores.extend(store);
            item.clues.extend(clues);
        });
    }

    /// Records the fact identifier `tokens[i]` starts, if any.
    fn token_fact(&mut self, i: usize) {
        // Inside the parentheses of a signature: a parameter's type.
        let in_params = self
            .open
            .last()
            .is_some_and(|o| !o.body && self.out.items[o.item].is_fn && self.depth > o.depth);
        match self.prefilter.token_fact(self.tokens, i, in_params) {
            TokenFact::None => {}
            TokenFact::Holds(fact) => self.for_open(|item| item.found.insert(fact)),
            TokenFact::HasherParam => {
                if let Some(o) = self.open.last() {
                    self.out.items[o.item].clues.insert(Clue::HasherParam);
                }
            }
            TokenFact::Finalizes => self.for_open(|item| item.clues.insert(Clue::Finalizes)),
            TokenFact::MakesHasher => self.for_open(|item| item.clues.insert(Clue::MakesHasher)),
        }
    }

    /// Closes the items still open and settles the facts that need a
    /// whole item: finished hashers, claims that name a key.
    fn finish(mut self) -> FileScan<'t> {
        let end = self.text.len();
        let open: Vec<usize> = self.open_items().collect();
        for item in open {
            self.out.close(item, end);
        }
        // An item writing a closure into a field the file calls as one
        // holds what the call runs: it is kept like one with key events.
        for &(n, field) in &self.field_closures {
            if self.field_calls.contains(field) {
                let mut at = Some(n);
                while let Some(m) = at {
                    self.out.items[m].found.insert(Fact::KeyEvents);
                    at = self.out.items[m].parent;
                }
            }
        }
        let hash_trait = self.imports.hash_trait;
        let mut scan = self.out;
        // A function finishing its hasher parameter makes a digest: it and
        // the items around it hold a hash fact.
        for n in 0..scan.items.len() {
            let clues = scan.items[n].clues;
            let makes = clues.has(Clue::HasherParam)
                || clues.has(Clue::MakesHasher)
                || (hash_trait && clues.has(Clue::FeedsHasher));
            let digests = (hash_trait && clues.has(Clue::TraitDigest))
                || (clues.has(Clue::MakesHasher) && clues.has(Clue::HashesWith));
            if (makes && clues.has(Clue::Finalizes)) || digests {
                let mut at = Some(n);
                while let Some(m) = at {
                    scan.items[m].found.insert(Fact::HashCalls);
                    at = scan.items[m].parent;
                }
            }
        }
        drop_test_items(&mut scan);
        // Claims are linked to keys by name, so an item that names no key
        // cannot hold one.
        let vocab = &self.prefilter.vocab;
        for n in 0..scan.items.len() {
            let item = &scan.items[n];
            let claiming = item.clues.has(Clue::ClaimCall) || item.clues.has(Clue::ClaimLiteral);
            if claiming
                && scan
                    .idents_of(item)
                    .iter()
                    .any(|i| vocab.is_client_key_name(i) || vocab.is_key_position_name(i))
            {
                scan.items[n].found.insert(Fact::Claims);
            }
        }
        scan
    }
}

/// Drops the test items of a finished scan, keeping their extents to
/// blank. A test item's nested items are test items, so every kept item's
/// parent is kept.
fn drop_test_items(scan: &mut FileScan<'_>) {
    if !scan.items.iter().any(|item| item.test) {
        return;
    }
    let mut new_index = Vec::with_capacity(scan.items.len());
    let mut kept = 0;
    for item in &scan.items {
        new_index.push(kept);
        if !item.test {
            kept += 1;
        }
    }
    let items = std::mem::take(&mut scan.items);
    for mut item in items {
        if item.test {
            scan.test_items.push(item.extent.clone());
            continue;
        }
        item.parent = item.parent.map(|p| new_index[p]);
        scan.items.push(item);
    }
}

/// The store the analysis names a redis command's key argument after
/// (`analysis::eval::sinks`, `redis_arg`).
const REDIS_CMD_STORE: &str = "redis";

/// Whether `tokens[i]` is the first `.arg` of a redis command,
/// `cmd("SET").arg(&key)`: the analysis reads its argument as a key
/// written to the `redis` store, so an item doing so shares that store.
fn is_redis_cmd_arg(tokens: &[Token<'_>], i: usize) -> bool {
    let at = |n: usize| i.checked_sub(n).and_then(|j| tokens.get(j)).copied();
    if tokens.get(i) != Some(&Token::Ident("arg"))
        || at(1) != Some(Token::Punct("."))
        || at(2) != Some(Token::Close(b')'))
    {
        return false;
    }
    let open = holders::matching_open(tokens, i - 2);
    open.and_then(|o| o.checked_sub(1).map(|k| tokens[k])) == Some(Token::Ident("cmd"))
}

/// Whether `tokens[i]` is called: `(` or a turbofish follows.
fn is_called(tokens: &[Token<'_>], i: usize) -> bool {
    tokens.get(i + 1) == Some(&Token::Open(b'('))
        || (is_path_sep(tokens, i + 1) && tokens.get(i + 3) == Some(&Token::Punct("<")))
}

/// Whether `tokens[i]` is a module in a path (`idempotency_token::Provider`,
/// `crate::idem::f`): a lower-case segment before `::` (not a turbofish). The evaluator reads
/// a path's last segment, and a type's before it (`IdempotencyKey::parse`),
/// never a module's, so a module named like a client key makes none.
fn is_module_segment(tokens: &[Token<'_>], i: usize) -> bool {
    matches!(tokens.get(i), Some(Token::Ident(m)) if m.starts_with(|c: char| c.is_ascii_lowercase() || c == '_'))
        && is_path_sep(tokens, i + 1)
        && !is_called(tokens, i)
}

/// Whether `tokens[i]` is the method of a DynamoDB key attribute write,
/// `.item("pk", ..)` or `.key("idempotency_key", ..)`: the evaluator's
/// `dynamodb` store, whatever the client variable is called.
fn is_dynamo_key_write(tokens: &[Token<'_>], i: usize) -> bool {
    matches!(tokens.get(i), Some(Token::Ident("item" | "key")))
        && i.checked_sub(1).and_then(|j| tokens.get(j)) == Some(&Token::Punct("."))
        && matches!(tokens.get(i + 2), Some(Token::Str(name)) if is_dynamo_key_attribute(name))
        && tokens.get(i + 3) == Some(&Token::Punct(","))
}

/// The call `tokens[i]` makes, if it is the name of one the index may
/// resolve to a crate-local function.
fn call_mention<'t>(
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
    // `.map(strip_suffix)`: a function handed by its path to an adapter is
    // applied to the value (`Evaluator::local_fn_applied`).
    let handed = before(1) == Some(Token::Open(b'('))
        && matches!(
            before(2),
            Some(Token::Ident("map" | "and_then" | "then" | "filter_map"))
        )
        && before(3) == Some(Token::Punct("."))
        && tokens.get(i + 1) == Some(&Token::Close(b')'));
    if handed {
        return Some(Mention::Call(ident));
    }
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
    // The evaluator never resolves these on another receiver. A store
    // method (`store.get(key)`) it does, when a crate-local wrapper of that
    // name stores keys (`Evaluator::stores_in_summary`).
    let builtin = crate::analysis::vocab::TRANSPARENT_METHODS.contains(&ident)
        && !crate::analysis::vocab::OWN_ACCESSORS.contains(&ident);
    // But a setter given a value on a crate type's chain (`Evaluator::own_setter`).
    let setter = crate::analysis::vocab::SETTER_ACCESSORS.contains(&ident)
        && tokens.get(i + 2).is_some_and(|t| *t != Token::Close(b')'));
    if method && builtin && !on_self && !(setter && chain_root(tokens, i - 1).is_some()) {
        return None;
    }
    Some(match owner {
        Some(owner) => Mention::Assoc(owner, ident),
        None if on_self => Mention::SelfMethod(self_owner.unwrap_or(Owner::Unknown), ident),
        None if method => match chain_root(tokens, i - 1) {
            Some(ty) => Mention::Chained(ty, ident),
            None => Mention::Method(ident),
        },
        None => Mention::Call(ident),
    })
}

/// The type a method chain starts from, walking back from its `.` at
/// `tokens[dot]` over `.m(..)` calls and `?`: `Type` of `Type::f(..)` or
/// `Type { .. }` (an upper-case name). More than the evaluator's
/// `chain_type` (which also wants every method to return `Self`), never less.
fn chain_root<'t>(tokens: &[Token<'t>], dot: usize) -> Option<&'t str> {
    let upper = |t: &str| t.starts_with(|c: char| c.is_ascii_uppercase());
    let mut at = dot;
    for _ in 0..32 {
        let mut end = at.checked_sub(1)?;
        while tokens.get(end) == Some(&Token::Punct("?")) {
            end = end.checked_sub(1)?;
        }
        match tokens.get(end)? {
            Token::Close(b')') => {
                let name = holders::matching_open(tokens, end)?.checked_sub(1)?;
                let Token::Ident(_) = tokens.get(name)? else {
                    return None;
                };
                let before = name.checked_sub(1)?;
                match tokens.get(before)? {
                    Token::Punct(".") => at = before,
                    Token::Punct(":") if is_path_sep(tokens, before.checked_sub(1)?) => {
                        let Token::Ident(ty) = tokens.get(before.checked_sub(2)?)? else {
                            return None;
                        };
                        return upper(ty).then_some(*ty);
                    }
                    _ => return None,
                }
            }
            Token::Close(b'}') => {
                let open = holders::matching_open(tokens, end)?;
                let Token::Ident(ty) = tokens.get(open.checked_sub(1)?)? else {
                    return None;
                };
                return upper(ty).then_some(*ty);
            }
            _ => return None,
        }
    }
    None
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

/// Records where an item at `depth` would start.
fn set_start(starts: &mut Vec<usize>, depth: usize, at: usize) {
    if starts.len() <= depth {
        starts.resize(depth + 1, 0);
    }
    starts[depth] = at;
}

/// Whether a token holding a trigger word may name an idempotency store
/// ([`Item::names_store`]): a string, or an identifier that is no type's
/// (`CreateIdempotency`) whose words start with a store word.
fn names_store(token: Token<'_>) -> bool {
    match token {
        Token::Str(_) => true,
        Token::Ident(ident) => {
            !ident.starts_with(|c: char| c.is_ascii_uppercase()) && names_strong_store(ident)
        }
        _ => false,
    }
}
