//! The lexical pre-filter: a byte scan that decides which items of a unit
//! can contribute to a finding, so most files are read but never parsed and
//! most of the rest is blanked before syn sees it.
//!
//! Rules declare the facts they need (`Rule::needs`, a [`Fact`] list); the
//! pre-filter reads `rules::ALL` and looks only for those. An item (`fn`,
//! `const` or `static`) is *relevant* when its code or string literals
//! (not its comments) hold such a fact: a client-key word of
//! `analysis::vocab`, a hash call, a claim, DDL … Findings must not depend
//! on the filter, so relevance is closed over the crate-local call graph
//! approximated by names; the other items cannot see a client key or a
//! fact, and nothing they define is referenced by a kept item: they are
//! blanked ([`FilePlan`]).
//!
//! - `triggers.rs`: the fact kinds and how far each reaches, the word,
//!   identifier and literal predicates that find them;
//! - `scan.rs`: the per-file token scan into items, their facts, names and calls;
//! - `select.rs`: the selection closed over callers, callees and stores;
//! - `blank.rs`: what is left of a file for syn.
//!
//! Before any of that, a unit gate: a unit whose code, string literals and
//! SQL name no client key and no idempotency store or table, and call no
//! key constructor (`analysis::vocab::Evidence`, which is also what the
//! analysis calls idempotency context) cannot hold a key event, an
//! idempotency table's DDL or a claim it reports, so it is planned
//! only for the facts of the rules that need neither (claims); which rules
//! those are follows from their `needs` (`triggers::needs_key_evidence`).
//!
//! Adding a rule whose facts exist: list them in its `RULE.needs`. A fact
//! no [`Fact`] covers needs a variant and its predicates in `triggers.rs`.
//! `tests/prefilter.rs` checks that findings are identical with
//! `--no-prefilter`.

mod blank;
mod block_header;
mod clues;
mod demand;
mod field_closures;
mod holders;
mod scan;
mod select;
mod test_attrs;
mod triggers;

use aho_corasick::AhoCorasick;
use rustc_hash::FxHashSet as HashSet;

use crate::analysis::eval::sql_tables;
use crate::analysis::vocab::{
    compile_words as compile, ident_span, word_hits, Evidence, Vocabulary, STRONG_STORE_WORDS,
};
use crate::lex;

pub use blank::{blank, FilePlan};
pub use demand::Demand;
pub use scan::{FileScan, Item, Owner};
pub use test_attrs::test_gated_modules;
pub use triggers::{Fact, FactSet};

use blank::file_plan;
use select::{defined_names, WordMatcher};
use triggers::{gate_words, needs_key_evidence, reach, Reach, FACTS};

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
    needs: FactSet,
    vocab: Vocabulary,
    /// What a unit without key evidence lacks (see
    /// [`triggers::needs_key_evidence`]); `None`: every unit holds some.
    key_evidence: Option<Evidence>,
    /// The pre-filter for units without key evidence: it looks only for
    /// the facts of the rules that need none (claims). `None` when those
    /// are all the rules' facts.
    keyless: Option<Box<Prefilter>>,
}

/// Whether the text after an identifier may make it the receiver of a
/// store call, as the evaluator names receivers (`sinks::receiver_name`):
/// a chain of calls, fields, `?` and `.await` reaching a store method
/// (`idem_store.lock().await.insert(`, `idem_store().insert(`), or a
/// `field` handle bound as is or cloned (`let s = self.idem.clone();`, an
/// alias the evaluator follows). A definition (`fn idem_store() -> ..`), a
/// declaration (`idem_store: Store`), an argument or a conversion
/// (`idem.into()`) is none.
fn may_store_through(vocab: &Vocabulary, rest: &[u8], field: bool) -> bool {
    let mut rest = rest;
    let mut handle = field;
    for _ in 0..32 {
        rest = rest.trim_ascii_start();
        match rest.first() {
            Some(b'(' | b'[') => match skip_group(rest) {
                Some(after) => {
                    rest = after;
                    handle = false;
                }
                None => return true,
            },
            Some(b'?') => rest = &rest[1..],
            Some(b'.') => {
                rest = rest[1..].trim_ascii_start();
                let len = rest
                    .iter()
                    .take_while(|b| lex::is_ident_continue(**b))
                    .count();
                let (method, after) = rest.split_at(len);
                let called = matches!(after.trim_ascii_start().first(), Some(b'(' | b':'));
                if called && std::str::from_utf8(method).is_ok_and(|m| vocab.is_store_method(m)) {
                    return true;
                }
                handle &= method == b"clone" || !called;
                rest = after.trim_ascii_start();
                // The call's arguments, so that a cloned handle stays one.
                if rest.first() == Some(&b'(') {
                    match skip_group(rest) {
                        Some(after) => rest = after,
                        None => return true,
                    }
                }
            }
            Some(b';' | b')' | b',') => return handle,
            _ => return false,
        }
    }
    true
}

/// The text after the bracket group `text` starts with; `None` when it is
/// not closed (a bracket in a string): the caller assumes the worst.
fn skip_group(text: &[u8]) -> Option<&[u8]> {
    let mut depth = 0usize;
    for (i, b) in text.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(&text[i + 1..]);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether the text after a module's name goes on as a diesel or sea-orm
/// table path does, where the evaluator takes the module for a table:
/// `::table`, `::dsl::..`, `::column`, `::Column::X`, and not a function
/// call (`idempotency_token::default_provider()`).
fn table_module_follows(rest: &[u8]) -> bool {
    let Some(rest) = rest.strip_prefix(b"::") else {
        return false;
    };
    let len = rest
        .iter()
        .take_while(|b| lex::is_ident_continue(**b))
        .count();
    let (segment, after) = rest.split_at(len);
    let path_like = segment
        .first()
        .is_some_and(|b| b.is_ascii_lowercase() || *b == b'_')
        || segment == b"Column";
    path_like && after.trim_ascii_start().first() != Some(&b'(')
}

impl Prefilter {
    /// Compiles the trigger words of every registered rule and of the vocabulary.
    pub fn new(vocab: &Vocabulary) -> Prefilter {
        let needs = FactSet::of(
            crate::rules::ALL
                .iter()
                .flat_map(|r| r.needs.iter().copied()),
        );
        let keyless_needs = FactSet::of(
            (crate::rules::ALL.iter())
                .filter(|r| !needs_key_evidence(r))
                .flat_map(|r| r.needs.iter().copied()),
        );
        let mut prefilter = Prefilter::for_needs(vocab, needs);
        prefilter.key_evidence = Some(Evidence::new(vocab));
        if keyless_needs != needs {
            prefilter.keyless = Some(Box::new(Prefilter::for_needs(vocab, keyless_needs)));
        }
        prefilter
    }

    /// A pre-filter looking for `needs` in every unit.
    fn for_needs(vocab: &Vocabulary, needs: FactSet) -> Prefilter {
        let client_words: Vec<String> = vocab.client_key_triggers();
        let mut store_words: Vec<String> =
            STRONG_STORE_WORDS.iter().map(|w| w.to_string()).collect();
        store_words.extend(vocab.idempotency_table_words());
        // Store and table names that make request ids count (see `plan`).
        let words: Vec<String> = client_words.iter().chain(&store_words).cloned().collect();
        let mut gate_words_all = client_words.clone();
        for fact in FACTS.into_iter().filter(|f| needs.contains(*f)) {
            gate_words_all.extend(gate_words(fact, vocab));
        }
        Prefilter {
            matcher: compile(words),
            client: compile(client_words),
            stores: compile(store_words),
            gate: compile(gate_words_all),
            needs,
            vocab: vocab.clone(),
            key_evidence: None,
            keyless: None,
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
            // A module's digest function called by its path's last segment
            // (`mx3::v3::hash(b)`), which the scan reads at the segment before.
            let module_fn =
                start >= 2 && &bytes[start - 2..start] == b"::" && follow.starts_with(b"(");
            if text.get(start..end).is_none_or(|word| {
                self.word_may_start_fact(word, follow)
                    || (module_fn
                        && self.needs(Fact::HashCalls)
                        && crate::analysis::hashing::is_foreign_digest(&["module", word]))
            }) {
                return true;
            }
            at = end.max(hit.start() + 1);
        }
        false
    }

    /// Whether `text` names an idempotency store or table anywhere
    /// (comments too): then request ids count as client keys in its unit.
    pub fn names_store(&self, text: &str) -> bool {
        self.stores.as_ref().is_none_or(|m| m.is_match(text))
    }

    /// Whether Rust `text` names a store where request ids count as client
    /// keys (`KeyEvent::strong`), where the evaluator reads one: a store
    /// receiver whose words start with a store word (`idem_store`,
    /// `dedup_cache`, not a type's `ReplayEvent`), a diesel or sea-orm
    /// table module (`idem_keys::table`, not `idempotency_token::Provider`),
    /// or an idempotency table in a string's SQL (or a string that is one's
    /// name). Comments, other identifiers (`DedupChunk`, `ullTKIPReplays`)
    /// and other strings (`"IdempotencyParameterMismatch"`) name none.
    fn stores_for_request_ids(&self, text: &str) -> bool {
        let Some(stores) = &self.stores else {
            return true;
        };
        if crate::analysis::vocab::calls_conditional_insert(text) {
            return true;
        }
        let mut regions = None;
        word_hits(stores, text).any(|at| {
            let regions = regions.get_or_insert_with(|| lex::regions(text));
            if regions.in_comment(at) {
                return false;
            }
            if let Some(literal) = regions.string_at(at).and_then(|r| text.get(r)) {
                return self.names_idempotency_table(literal);
            }
            let span = ident_span(text.as_bytes(), at);
            let (span_start, rest) = (span.start, &text.as_bytes()[span.end..]);
            text.get(span).is_some_and(|ident| {
                // A CamelCase name is a type, never a receiver or a table;
                // a path's module is no receiver, but may be a table.
                let camel = ident.starts_with(|c: char| c.is_ascii_uppercase())
                    && ident.contains(|c: char| c.is_ascii_lowercase());
                // In a type position (`window: Data<DedupWindow>`) it is a
                // parameter's store, as the evaluator reads it
                // (`note_store_typed_param`).
                let before = text.as_bytes()[..span_start].trim_ascii_end();
                let typed = matches!(before.last(), Some(b'<' | b':'))
                    && !before.ends_with(b"::")
                    && self.vocab.names_store_type(ident);
                typed
                    || !camel
                        && if rest.starts_with(b"::") {
                            table_module_follows(rest) && self.vocab.is_idempotency_table(ident)
                        } else {
                            let field = before.ends_with(b".");
                            self.vocab.is_strong_store_receiver(ident)
                                && may_store_through(&self.vocab, rest, field)
                        }
            })
        })
    }

    /// Whether a string literal (quotes included) is SQL on an idempotency
    /// table, or the bare, lower-case name of one (`"idem_keys"`; not an
    /// error code such as `"IdempotencyParameterMismatch"`).
    fn names_idempotency_table(&self, literal: &str) -> bool {
        let bare = literal.trim_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
        let is_name = (bare.bytes())
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'.');
        (is_name && self.vocab.is_idempotency_table(bare))
            || (sql_tables(&literal.to_ascii_lowercase()).iter())
                .any(|t| self.vocab.is_idempotency_table(t))
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
    ///
    /// A unit whose texts hold no key evidence (`vocab::Evidence`: no
    /// client-key word, no idempotency store or table word in code or
    /// string literals, no key constructor called) is planned for the
    /// facts of the rules that need none: one byte search per file instead
    /// of scanning every file with a hash call or a DDL word.
    pub fn plan(&self, texts: &[&str]) -> Vec<FilePlan> {
        self.plan_unit(texts, &[])
    }

    /// [`Prefilter::plan`] for a unit whose SQL files are `sql`: evidence
    /// there (an idempotency table's migration) counts for its Rust files.
    pub fn plan_unit(&self, texts: &[&str], sql: &[&str]) -> Vec<FilePlan> {
        self.plan_on_demand(texts, sql, &Demand::Everything)
    }

    /// [`Prefilter::plan_unit`] in which keyed functions key their callers
    /// only as `demand` says (see [`Demand`]).
    pub fn plan_on_demand(&self, texts: &[&str], sql: &[&str], demand: &Demand) -> Vec<FilePlan> {
        self.planner(texts, sql, 1).plan(demand)
    }

    /// The planner of one unit, for plans in rounds: its files are scanned
    /// once, however many rounds plan them, on up to `threads` threads
    /// ([`crate::spread`]).
    pub fn planner<'p, 't>(
        &'p self,
        texts: &[&'t str],
        sql: &[&str],
        threads: usize,
    ) -> Planner<'p, 't> {
        let evidence = self.holds_key_evidence(texts, sql, threads);
        // Without evidence, the files that name a tenant and a principal
        // may still hold a hand-made scoped key of a payload digest
        // (`UnitFacts::scope_files`): only they start a selection.
        let scope_files = match (&self.key_evidence, evidence) {
            (Some(e), false) => Some(
                texts
                    .iter()
                    .map(|t| e.names_scope_in(t))
                    .collect::<Vec<_>>(),
            ),
            _ => None,
        };
        let prefilter = match (&self.keyless, &scope_files) {
            (Some(keyless), Some(files)) if !files.contains(&true) => keyless,
            _ => self,
        };
        Planner {
            prefilter,
            scope_files,
            texts: texts.to_vec(),
            scans: None,
            cold_defs: vec![None; texts.len()],
            stores_named: None,
            threads,
        }
    }

    /// Whether the unit's code, string literals or SQL hold key evidence.
    fn holds_key_evidence(&self, texts: &[&str], sql: &[&str], threads: usize) -> bool {
        self.key_evidence.as_ref().is_none_or(|e| {
            let weights: Vec<usize> = texts.iter().map(|t| t.len()).collect();
            crate::spread::any(&weights, threads, |f| e.in_rust(texts[f]))
                || sql.iter().any(|t| e.in_sql(t))
        })
    }
}

/// One unit's plans (see [`Prefilter::planner`]).
pub struct Planner<'p, 't> {
    /// The pre-filter for the unit's evidence (its keyless one without).
    prefilter: &'p Prefilter,
    /// Without evidence, per file, whether it names a tenant and a
    /// principal: the only files scanned for a selection's start.
    scope_files: Option<Vec<bool>>,
    texts: Vec<&'t str>,
    /// Per file, its scan once made: hot files' in the first plan, cold
    /// ones' when a plan reaches them (plans only grow, so every later plan
    /// reaches them too). `None` until the first plan.
    scans: Option<Vec<Option<FileScan<'t>>>>,
    cold_defs: Vec<Option<HashSet<&'t str>>>,
    /// Whether the unit names a store or table for request ids, once asked.
    stores_named: Option<bool>,
    /// Threads its scans may use.
    threads: usize,
}

impl Planner<'_, '_> {
    /// Which of the unit's Rust files must be parsed and which parts of
    /// them nothing selected needs (see [`Prefilter::plan`]), keyed
    /// functions keying their callers as `demand` says.
    pub fn plan(&mut self, demand: &Demand) -> Vec<FilePlan> {
        let this = self.prefilter;
        let texts = &self.texts;
        let skip_all = || vec![FilePlan::Skip; texts.len()];
        // Facts the selection does not see select no item (`choose`), and
        // no DDL is looked for: the keyless filter of a unit needs no scan.
        if !FACTS
            .into_iter()
            .any(|f| this.needs.contains(f) && reach(f) != Reach::Outside)
        {
            return skip_all();
        }
        let weights: Vec<usize> = texts.iter().map(|t| t.len()).collect();
        let scans = self.scans.get_or_insert_with(|| {
            let scope_files = &self.scope_files;
            crate::spread::map(&weights, self.threads, |f| {
                let text = texts[f];
                let scoped = scope_files.as_ref().is_none_or(|files| files[f]);
                (scoped && this.may_match(text)).then(|| this.scan_known(text, true))
            })
        });
        if scans.iter().all(Option::is_none) {
            return skip_all();
        }
        loop {
            // Request ids only count where a store or table is named for
            // idempotency; whether one is, is asked of every text only once
            // an item holds a request id.
            let request_ids =
                (scans.iter().flatten()).any(|scan| scan.items.iter().any(Item::holds_request_id));
            let names_store = request_ids
                && *self
                    .stores_named
                    .get_or_insert_with(|| texts.iter().any(|t| this.stores_for_request_ids(t)));
            let Some(choice) = this.choose(scans, names_store, demand) else {
                return skip_all();
            };
            let mut words: Vec<&str> = choice.mentions.clone();
            words.extend(choice.stores.iter().map(String::as_str));
            // Built on the first cold file only: with thousands of mentions
            // (one big file) the automaton costs more than the scan, and a
            // unit whose files are all scanned never uses it.
            let mut mentions: Option<WordMatcher> = None;
            let mut reached = Vec::new();
            for (f, text) in texts.iter().enumerate() {
                if scans[f].is_some() {
                    continue;
                }
                let defs = self.cold_defs[f].get_or_insert_with(|| defined_names(text));
                if defs.iter().any(|d| choice.defs.contains(d))
                    || (mentions.get_or_insert_with(|| WordMatcher::new(&words))).is_match(text)
                {
                    reached.push(f);
                }
            }
            if reached.is_empty() {
                // A file renaming a selected function is parsed for its
                // `use`: the index reads the alias from there.
                let selected_fns: HashSet<&str> = (scans.iter().flatten())
                    .flat_map(|scan| scan.items.iter())
                    .zip(&choice.selected)
                    .filter(|(item, kept)| **kept && item.is_fn)
                    .map(|(item, _)| item.name)
                    .collect();
                // Structs a kept function names: their fields are what a
                // fix may pass as the key's scope.
                let named: HashSet<&str> = (scans.iter().flatten())
                    .flat_map(|scan| scan.items.iter().map(move |item| (scan, item)))
                    .zip(&choice.selected)
                    .filter(|((_, item), kept)| **kept && item.is_fn)
                    .flat_map(|((scan, item), _)| scan.idents_of(item).iter().copied())
                    .collect();
                let mut selected = choice.selected.iter();
                return scans
                    .iter()
                    .map(|scan| match scan {
                        Some(scan) => {
                            let mine: Vec<bool> =
                                selected.by_ref().take(scan.items.len()).copied().collect();
                            let renames = (scan.renames.iter())
                                .any(|(original, _)| selected_fns.contains(original));
                            let types = scan.structs.iter().any(|s| named.contains(s));
                            file_plan(scan, &mine, renames || types)
                        }
                        None => FilePlan::Skip,
                    })
                    .collect();
            }
            let reached_weights: Vec<usize> = reached.iter().map(|&f| weights[f]).collect();
            let cold = crate::spread::map(&reached_weights, self.threads, |n| {
                this.scan_known(texts[reached[n]], false)
            });
            for (f, scan) in reached.into_iter().zip(cold) {
                scans[f] = Some(scan);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::scan::Mention;
    use super::*;

    /// The selection for every fact, without the unit gate (which
    /// `units_without_key_evidence_are_not_parsed` tests).
    fn select(texts: &[&str]) -> Vec<bool> {
        let vocab = Vocabulary::default();
        Prefilter::for_needs(&vocab, Prefilter::new(&vocab).needs).select(texts)
    }

    #[test]
    fn units_without_key_evidence_are_not_parsed() {
        let gated = |texts: &[&str]| Prefilter::new(&Vocabulary::default()).select(texts);
        let digest = "fn k(body: &[u8]) -> String { hex::encode(Sha256::digest(body)) }";
        let ddl = "const I: &str = \"CREATE UNIQUE INDEX u ON request_log (k)\";";
        let claim = "fn a(s: &S, key: &str) { s.acquire(key); }";
        let traced = "fn t(request_id: &str) { span(request_id, Sha256::digest(b\"\")); }";
        // A hash call, DDL or a claim cannot make a finding without a client
        // key, a store or an idempotency table in the unit (IDEM004 needs
        // idempotency context, whose words are key evidence).
        assert_eq!(
            gated(&[digest, ddl, claim, traced]),
            [false, false, false, false]
        );
        let claimed = "fn b(s: &S, idempotency_key: &str) { s.acquire(idempotency_key); }";
        assert_eq!(gated(&[claimed]), [true]);
        // Key evidence anywhere in the unit's code or literals plans it
        // whole; a comment is none.
        let comment = "// the dedup table is elsewhere\nfn z() {}";
        assert_eq!(gated(&[digest, ddl, comment]), [false, false, false]);
        let literal = "const T: &str = \"request_dedup\";";
        assert_eq!(gated(&[digest, ddl, literal]), [true, true, false]);
        assert_eq!(gated(&[digest, "fn h(idem_key: &str) {}"]), [true, true]);
        // So do a unit's SQL files (an idempotency table's migration).
        let unit = Prefilter::new(&Vocabulary::default());
        let plans = unit.plan_unit(&[digest], &["CREATE TABLE request_dedup (k TEXT)"]);
        assert!(matches!(plans[..], [FilePlan::Parse { .. }]));
    }

    #[test]
    fn test_code_is_neither_keyed_nor_parsed() {
        let handler = "fn h(s: &S, m: &HeaderMap) { s.set(m.get(\"Idempotency-Key\"), 1); }";
        let module = format!("#[cfg(test)]\nmod tests {{\n    {handler}\n}}\n");
        let test_fn = format!("#[test]\n#[should_panic]\n{handler}\n");
        let named = format!("mod mocks {{ {handler} }}");
        let tokio = format!("#[tokio::test(flavor = \"multi_thread\")]\nasync {handler}");
        let feature =
            format!("#[cfg(any(unix, feature = \"test-utils\"))]\nimpl A {{ {handler} }}");
        let file = format!("#![cfg(test)]\n{handler}");
        assert_eq!(
            select(&[&module, &test_fn, &named, &tokio, &feature, &file]),
            [false; 6]
        );
        // Production code: kept, with the test module beside it blanked.
        let not_test = format!("#[cfg(not(test))]\n{handler}");
        let trait_default = format!("trait T {{ #[inline] {handler} }}");
        assert_eq!(select(&[&not_test, &trait_default]), [true, true]);
        let mixed =
            format!("{handler}\n#[cfg(test)]\nmod tests {{\n    #[test]\n    {handler}\n}}\n");
        let plans = Prefilter::new(&Vocabulary::default()).plan(&[&mixed]);
        let FilePlan::Parse { blank } = &plans[0] else {
            panic!("the handler is not parsed: {plans:?}");
        };
        let parsed = super::blank::blank(&mixed, blank);
        assert!(parsed.starts_with(handler), "{parsed}");
        assert_eq!(parsed.matches("Idempotency-Key").count(), 1, "{parsed}");
        assert!(parsed.contains("mod tests {"), "{parsed}");
    }

    #[test]
    fn request_ids_count_only_beside_a_store_the_evaluator_reads() {
        let prefilter = Prefilter::new(&Vocabulary::default());
        let names = |text: &str| prefilter.stores_for_request_ids(text);
        for text in [
            "fn f(&self, k: String) { self.idem_store.insert(k, 1); }",
            "fn f(&self) { let c = self.replay_cache.clone(); }",
            "fn f(&self) { let c = Arc::clone(&self.replay_cache); }",
            "fn f(&self, k: &str) { self.dedup.lock().unwrap().get(k); }",
            "fn f(&self, k: &str) { self.replay_store().insert(k); }",
            "fn f(k: &str) { REPLAY_CACHE.insert(k); }",
            "fn f(c: &C) { diesel::insert_into(idem_keys::table).execute(c); }",
            "fn f(k: &str) { idem_key::Column::RequestId.eq(k); }",
            "const Q: &str = \"INSERT INTO request_dedup (k) VALUES ($1)\";",
            "const T: &str = \"idem_keys\";",
        ] {
            assert!(names(text), "{text}");
        }
        for text in [
            "// the dedup cache\nfn f() {}",
            "struct ReplayEvent; fn f() { ReplayEvent::new(); }",
            "fn f() { idempotency_token::default_provider(); }",
            "use crate::idempotency_token::IdempotencyTokenProvider;",
            "fn idempotency_token_provider(self) -> Self { self }",
            "fn f(&mut self, p: P) { self.set_idempotency_token_provider(Some(p)); }",
            "fn f(p: P) { store(idempotency_token_provider.into()); }",
            "const E: &str = \"IdempotencyParameterMismatch\";",
            "fn f() { let x = DedupChunk { a: 1 }; }",
        ] {
            assert!(!names(text), "{text}");
        }
    }

    #[test]
    fn key_constructors_trigger_where_called_and_modules_never() {
        let local = "fn f(doc: &D) -> bool { let scoped = doc.root(); scoped.ok() }";
        let called = "fn g(t: &str, k: &str) -> Key { scoped(t, \"\", \"\", k) }";
        let turbofish = "fn h(t: &str, k: &str) -> Key { idem_scope::scoped::<K>(t, k) }";
        let module = "fn m() -> P { crate::idempotency_token::default_provider() }";
        assert_eq!(
            select(&[local, called, turbofish, module]),
            [false, true, true, false]
        );
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
        // A module's one-shot function below its crate, the only such word
        // in the file, passes the byte gate as the evaluator reads it.
        let nested = "fn t(b: &[u8]) -> u64 { mx3::v3::hash(b, 11) }";
        let method = "fn m(v: &V, s: &mut S) { v.hash(s) }";
        assert!(Prefilter::new(&Vocabulary::default()).may_match(nested));
        assert_eq!(select(&[nested, method]), [true, false]);
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
        let b = "impl B { fn send(&self) { flush(); } }";
        let c = "impl C { fn send(&self) {} }";
        let caller = "fn call(x: &X) { let k = x.send(); }";
        let keyed_caller = "fn user(idem_key: &str, x: &X) { x.send(); }";
        let flush = "fn flush() {}";
        let chosen = select(&[a, b, c, caller, keyed_caller, flush]);
        assert!(!chosen[3], "a caller through an ambiguous name");
        assert!(chosen[0] && chosen[4]);
        assert_eq!(chosen[1..3].iter().filter(|c| **c).count(), 1);
        // A witness is analysed like any kept item: what it calls is kept,
        // or its summary and its own findings would be inexact.
        assert_eq!(chosen[5], chosen[1], "the witness's callee");
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
        // A `use` alias names its original function; a cast's type is no
        // definition.
        let names = defined_names(
            "pub use m::{find as find_intent, get};\nfn f() -> u64 { let n = x as u64; n as u64 }",
        );
        let mut names: Vec<&str> = names.into_iter().collect();
        names.sort();
        assert_eq!(names, ["f", "find_intent"]);
    }

    #[test]
    fn claims_reach_only_the_helpers_that_release() {
        let claim = "fn handle(s: &S, key: &str) { s.try_claim(key); cleanup(s, key); audit(s); }";
        let release = "fn cleanup(s: &S, key: &str) { s.remove(key); }";
        let other = "fn audit(s: &S) { s.log(1); inner(s); }";
        let inner = "fn inner(s: &S) { s.flush(); }";
        // The claim walk reads releasing helpers by name, nothing else of
        // the claim's callees; no client key is in the claim to follow.
        assert_eq!(
            select(&[claim, release, other, inner]),
            [true, true, false, false]
        );
        // A claim on a client key is followed to all its callees.
        let keyed =
            "fn handle(s: &S, idempotency_key: &str) { s.try_claim(idempotency_key); audit(s); }";
        assert_eq!(select(&[keyed, other, inner]), [true, true, true]);
    }

    #[test]
    fn use_renames_are_scanned_outside_items() {
        let prefilter = Prefilter::new(&Vocabulary::default());
        let scan = prefilter.scan(
            "pub use memo::{recall as recall_reply, remember};
use a::b as _;
             fn f() { use x::y as z; let n = m as u64; }",
        );
        assert_eq!(scan.renames, [("recall", "recall_reply")]);
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
