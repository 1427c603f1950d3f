//! Claim / completion analysis (IDEM004): which idempotency claims a function
//! leaves in progress on an early exit before it completes them.
//!
//! The value-flow evaluator merges branches and so cannot tell *which path*
//! an exit is on. This walker is path-sensitive instead: it follows one
//! function body in source order with the set of claims that are open on the
//! current path, splits at `if`/`match`/`let … else`, and drops paths that
//! diverge. A claim is linked to its completion or release by its *key*
//! (the key-named bindings, client keys or `scoped(..)` calls the key
//! argument derives from), never by method names alone, so `pool.begin()`,
//! `mutex.lock()` or an OAuth `provider.complete(&flow)` never count.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};

use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Expr, Pat, Stmt};

use super::format_string;
use super::index::{CrateIndex, FnDef};
use super::syntax::{macro_args, path_string, place_name, source_line, span_of, strip_ref};
use super::value::Site;
use super::vocab::{
    is_claim_verb, is_complete_verb, is_release_verb, words, Vocabulary, LOCK_VERBS,
    NOT_CLAIMED_VARIANTS, RESPONSE_WORDS, RESPONSE_WRITE_METHODS, TRANSACTION_VERBS,
};

/// Expressions nested deeper than this are not followed (never a crash).
const MAX_DEPTH: usize = 200;

/// How a path leaves the function (or the claim's block).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExitKind {
    /// `expr?`.
    Question,
    /// `return`.
    Return,
    /// `break` out of the claim's loop or block.
    Break,
    /// `continue` to the next iteration of the claim's loop.
    Continue,
    /// A panicking macro (`panic!`, `unreachable!`, `assert!` …) or `resume_unwind`.
    Panic(String),
    /// `.unwrap()` / `.expect(..)`.
    Unwrap(String),
    /// The function's tail value on a path that neither completed nor released.
    Tail,
}

/// One early exit that leaves a claim in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimExit {
    /// What kind of exit.
    pub kind: ExitKind,
    /// The exit expression.
    pub site: Site,
}

/// A claim that some path leaves in progress before its completion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimFinding {
    /// The claim call.
    pub claim: Site,
    /// The claim's verb (`try_claim`, `set_nx`, `INSERT … 'in_progress'`).
    pub verb: String,
    /// Source text of the key argument.
    pub key_text: String,
    /// Unreleased exits, in source order.
    pub exits: Vec<ClaimExit>,
    /// The first completion of the same key.
    pub completion: Site,
}

/// Analyses every function of the unit.
pub fn analyze(index: &CrateIndex<'_>, vocab: &Vocabulary) -> Vec<ClaimFinding> {
    let unit = Unit {
        drop_guards: releasing_drop_types(index),
        releasers: releasing_helpers(index),
        key_names: RefCell::new(HashMap::new()),
    };
    let mut out = Vec::new();
    for def in &index.fns {
        let mut walker = Walker::new(vocab, def.file, &unit);
        walker.run(def);
        out.extend(walker.findings());
    }
    out
}

/// Whether a body calls a method or function whose name satisfies `verb`.
fn calls_verb(block: &syn::Block, verb: fn(&str) -> bool) -> bool {
    struct Finder {
        verb: fn(&str) -> bool,
        found: bool,
    }
    impl<'ast> Visit<'ast> for Finder {
        fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
            if (self.verb)(&m.method.to_string()) {
                self.found = true;
            }
            syn::visit::visit_expr_method_call(self, m);
        }
        fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
            if let Expr::Path(p) = &*c.func {
                if p.path
                    .segments
                    .last()
                    .is_some_and(|s| (self.verb)(&s.ident.to_string()))
                {
                    self.found = true;
                }
            }
            syn::visit::visit_expr_call(self, c);
        }
    }
    let mut finder = Finder { verb, found: false };
    finder.visit_block(block);
    finder.found
}

/// Types of the unit whose `Drop` impl calls a release verb: holding one is
/// a guard that releases the claim on every exit.
fn releasing_drop_types(index: &CrateIndex<'_>) -> HashSet<String> {
    index
        .fns
        .iter()
        .filter(|f| f.name == "drop" && f.has_receiver())
        .filter(|f| calls_verb(f.block, is_release_verb))
        .filter_map(|f| f.self_ty.clone())
        .collect()
}

/// Crate-local helpers named otherwise (`cleanup(&state, &key)`) that
/// release and neither claim nor complete: calling one with the key counts
/// as a release. Only releases are followed, so a helper can silence a
/// finding but never create one.
fn releasing_helpers(index: &CrateIndex<'_>) -> HashSet<String> {
    index
        .fns
        .iter()
        .filter(|f| {
            f.name != "drop"
                && !is_claim_verb(&f.name)
                && !is_complete_verb(&f.name)
                && !is_release_verb(&f.name)
        })
        .filter(|f| {
            calls_verb(f.block, is_release_verb)
                && !calls_verb(f.block, is_claim_verb)
                && !calls_verb(f.block, is_complete_verb)
        })
        .map(|f| f.name.clone())
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OpKind {
    Claim,
    Complete,
    Release,
}

/// A claim, completion or release found at a call.
struct Op {
    kind: OpKind,
    verb: String,
    roots: BTreeSet<String>,
    key_text: String,
    /// Claims whose result bindings the call mentions (`store.complete(lease, ..)`).
    results: BTreeSet<usize>,
}

struct Claim {
    site: Site,
    verb: String,
    key_text: String,
    roots: BTreeSet<String>,
    loop_depth: usize,
    /// Made inside this (uncommitted) database transaction.
    tx: Option<String>,
    guarded: bool,
    /// A lock-style claim whose result is bound: an RAII guard unless the
    /// binding is tested like a flag (`if !acquired { .. }`).
    raii: bool,
    tested: bool,
    exits: Vec<ClaimExit>,
    completion: Option<Site>,
}

/// What holds on the current path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct State {
    open: BTreeSet<usize>,
    committed: BTreeSet<String>,
}

fn merge(states: Vec<Option<State>>) -> Option<State> {
    let mut out: Option<State> = None;
    for state in states.into_iter().flatten() {
        out = Some(match out {
            None => state,
            Some(mut acc) => {
                acc.open.extend(state.open);
                acc.committed.extend(state.committed);
                acc
            }
        });
    }
    out
}

/// What is computed once per unit and shared by the functions' walks.
struct Unit {
    /// Types whose `Drop` releases.
    drop_guards: HashSet<String>,
    /// Crate-local helpers that release.
    releasers: HashSet<String>,
    /// Memo for [`Walker::is_key_name`].
    key_names: RefCell<HashMap<String, bool>>,
}

struct Walker<'a> {
    vocab: &'a Vocabulary,
    file: u32,
    unit: &'a Unit,
    claims: Vec<Claim>,
    /// `None`: the current path has diverged.
    state: Option<State>,
    /// Key-ish bindings and the roots they derive from (themselves included).
    keys: HashMap<String, BTreeSet<String>>,
    /// Bindings holding a claim call's result.
    claim_results: HashMap<String, usize>,
    /// Bindings holding an open database transaction.
    tx_bindings: HashSet<String>,
    /// Bindings whose error path releases these claims (`if r.is_err() { release }`).
    err_released: HashMap<String, BTreeSet<usize>>,
    /// Roots of guards made so far: later claims on those keys are guarded too.
    guard_roots: Vec<BTreeSet<String>>,
    /// Claim calls by span, to recognise `claim(..)?` and `if !claim(..)`.
    claim_at: HashMap<Site, usize>,
    loops: Vec<Option<String>>,
    /// Inside a closure or un-awaited async block: `?`/`return` leave it, not the function.
    closure: usize,
    /// Inside `catch_unwind`: panics are caught.
    catch: usize,
    /// Inside a closure passed to `.transaction(..)`.
    tx_closure: usize,
    /// The expression being walked is the function's value (tail position).
    tail: bool,
    /// The expression being walked is the operand of a `?`.
    propagated: bool,
    depth: usize,
}

impl<'a> Walker<'a> {
    fn new(vocab: &'a Vocabulary, file: u32, unit: &'a Unit) -> Self {
        Walker {
            vocab,
            file,
            unit,
            claims: Vec::new(),
            state: Some(State::default()),
            keys: HashMap::new(),
            claim_results: HashMap::new(),
            tx_bindings: HashSet::new(),
            err_released: HashMap::new(),
            guard_roots: Vec::new(),
            claim_at: HashMap::new(),
            loops: Vec::new(),
            closure: 0,
            catch: 0,
            tx_closure: 0,
            tail: false,
            propagated: false,
            depth: 0,
        }
    }

    fn run(&mut self, def: &FnDef<'_>) {
        for input in &def.sig.inputs {
            if let syn::FnArg::Typed(pt) = input {
                if let Pat::Ident(pi) = &*pt.pat {
                    let name = pi.ident.to_string();
                    if self.is_key_name(&name) {
                        self.keys.insert(name.clone(), BTreeSet::from([name]));
                    }
                }
            }
        }
        self.tail = true;
        self.block(def.block);
    }

    fn findings(self) -> Vec<ClaimFinding> {
        self.claims
            .into_iter()
            .filter(|c| {
                let held_by_guard = c.guarded || (c.raii && !c.tested);
                !held_by_guard && !c.exits.is_empty()
            })
            .filter_map(|c| {
                let completion = c.completion?;
                let mut exits = c.exits;
                exits.sort_by_key(|e| e.site);
                Some(ClaimFinding {
                    claim: c.site,
                    verb: c.verb,
                    key_text: c.key_text,
                    exits,
                    completion,
                })
            })
            .collect()
    }

    fn site(&self, node: &impl Spanned) -> Site {
        Site {
            file: self.file,
            span: span_of(node.span()),
        }
    }

    fn is_key_name(&self, name: &str) -> bool {
        // Asked for every identifier of every `let`: the vocabulary splits
        // names into words, so remember the answers.
        if let Some(&known) = self.unit.key_names.borrow().get(name) {
            return known;
        }
        let answer = self.vocab.is_client_key_name(name) || self.vocab.is_key_position_name(name);
        self.unit
            .key_names
            .borrow_mut()
            .insert(name.to_string(), answer);
        answer
    }

    // ---- keys -----------------------------------------------------------------

    /// The key-ish roots an expression derives from: key-named bindings,
    /// client keys, key fields, `scoped(..)` calls and key header reads.
    fn roots(&self, expr: &Expr) -> BTreeSet<String> {
        struct Roots<'w, 'a> {
            walker: &'w Walker<'a>,
            out: BTreeSet<String>,
        }
        impl<'ast> Visit<'ast> for Roots<'_, '_> {
            fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
                if let Some(ident) = p.path.get_ident() {
                    let name = ident.to_string();
                    if let Some(roots) = self.walker.keys.get(&name) {
                        self.out.extend(roots.iter().cloned());
                    } else if self.walker.is_key_name(&name) {
                        self.out.insert(name);
                    }
                }
            }
            fn visit_expr_field(&mut self, f: &'ast syn::ExprField) {
                if let syn::Member::Named(name) = &f.member {
                    if self.walker.is_key_name(&name.to_string()) {
                        self.out.insert(source_line(f));
                        return;
                    }
                }
                syn::visit::visit_expr_field(self, f);
            }
            fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
                if let Expr::Path(p) = &*c.func {
                    let path = path_string(&p.path);
                    if self.walker.vocab.is_key_constructor(&path) {
                        let before = self.out.len();
                        syn::visit::visit_expr_call(self, c);
                        if self.out.len() == before {
                            self.out.insert(source_line(c));
                        }
                        return;
                    }
                }
                syn::visit::visit_expr_call(self, c);
            }
            fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
                if matches!(
                    m.method.to_string().as_str(),
                    "get" | "get_all" | "typed_get"
                ) {
                    if let Some(Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    })) = m.args.first()
                    {
                        if self.walker.vocab.is_key_header(&s.value()) {
                            self.out
                                .insert(format!("header:{}", s.value().to_ascii_lowercase()));
                        }
                    }
                }
                syn::visit::visit_expr_method_call(self, m);
            }
            fn visit_macro(&mut self, mac: &'ast syn::Macro) {
                if let Some(args) = macro_args(mac) {
                    for arg in &args {
                        self.visit_expr(arg);
                    }
                    // Inline captures: `format!("{key}:lock")`.
                    if let Some(Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    })) = args.first()
                    {
                        for name in format_string::named_args(&s.value()) {
                            if let Some(roots) = self.walker.keys.get(name) {
                                self.out.extend(roots.iter().cloned());
                            } else if self.walker.is_key_name(name) {
                                self.out.insert(name.to_string());
                            }
                        }
                    }
                }
            }
            fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        }
        let mut v = Roots {
            walker: self,
            out: BTreeSet::new(),
        };
        v.visit_expr(expr);
        v.out
    }

    /// Claims whose result bindings `expr` mentions.
    fn result_mentions(&self, expr: &Expr) -> BTreeSet<usize> {
        idents(expr)
            .iter()
            .filter_map(|n| self.claim_results.get(n).copied())
            .collect()
    }

    /// The first key-ish argument: its roots and text.
    fn key_arg<'e>(
        &self,
        args: impl IntoIterator<Item = &'e Expr>,
    ) -> Option<(BTreeSet<String>, String)> {
        args.into_iter().find_map(|a| {
            let roots = self.roots(a);
            (!roots.is_empty()).then(|| (roots, source_line(strip_ref(a))))
        })
    }

    // ---- classification -------------------------------------------------------

    /// Whether a method/function call with these arguments is a claim,
    /// completion or release of a key.
    fn classify(&self, name: &str, args: &[&Expr]) -> Option<Op> {
        let results: BTreeSet<usize> = args.iter().flat_map(|a| self.result_mentions(a)).collect();
        // The configured vocabulary extends the built-in verbs.
        let kind = if self.vocab.is_claim_verb(name) {
            OpKind::Claim
        } else if self.vocab.is_complete_verb(name) {
            OpKind::Complete
        } else if self.vocab.is_release_verb(name) {
            OpKind::Release
        } else if RESPONSE_WRITE_METHODS.contains(&name)
            && args.iter().skip(1).any(|a| mentions_response(a))
        {
            OpKind::Complete
        } else if self.unit.releasers.contains(name) {
            OpKind::Release
        } else {
            return None;
        };
        match self.key_arg(args.iter().copied()) {
            Some((roots, key_text)) => Some(Op {
                kind,
                verb: name.to_string(),
                roots,
                key_text,
                results,
            }),
            None if kind != OpKind::Claim && !results.is_empty() => Some(Op {
                kind,
                verb: name.to_string(),
                roots: BTreeSet::new(),
                key_text: String::new(),
                results,
            }),
            None => None,
        }
    }

    /// A sqlx query or redis command chain ending in an executing call.
    fn classify_chain(&self, m: &syn::ExprMethodCall) -> Option<Op> {
        const EXEC: &[&str] = &[
            "execute",
            "fetch_one",
            "fetch_optional",
            "fetch_all",
            "fetch",
            "query_async",
            "query",
            "exec",
            "exec_async",
            "query_one",
        ];
        if !EXEC.contains(&m.method.to_string().as_str()) {
            return None;
        }
        let mut binds: Vec<&Expr> = Vec::new();
        let mut cur: &Expr = &m.receiver;
        loop {
            match cur {
                Expr::MethodCall(inner) => {
                    if matches!(inner.method.to_string().as_str(), "bind" | "arg") {
                        binds.extend(inner.args.iter());
                    }
                    cur = &inner.receiver;
                }
                Expr::Paren(p) => cur = &p.expr,
                _ => break,
            }
        }
        binds.reverse();
        let Expr::Call(root) = cur else {
            return None;
        };
        let Expr::Path(func) = &*root.func else {
            return None;
        };
        let last = func.path.segments.last()?.ident.to_string();
        let Some(Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        })) = root.args.first()
        else {
            return None;
        };
        let text = text.value();
        let (kind, verb) = if last == "cmd" {
            let cmd = text.trim().to_ascii_uppercase();
            let nx = binds
                .iter()
                .any(|b| lit_text(b).is_some_and(|t| t.eq_ignore_ascii_case("NX")));
            let (kind, verb) = match cmd.as_str() {
                "SET" if nx => (OpKind::Claim, "SET … NX"),
                "SETNX" => (OpKind::Claim, "SETNX"),
                "SET" if binds.iter().skip(1).any(|b| mentions_response(b)) => {
                    (OpKind::Complete, "SET")
                }
                "DEL" | "UNLINK" => (OpKind::Release, "DEL"),
                _ => return None,
            };
            (kind, verb.to_string())
        } else if matches!(last.as_str(), "query" | "query_as" | "query_scalar") {
            sql_kind(&text)?
        } else {
            return None;
        };
        let (roots, key_text) = self.key_arg(binds.iter().copied())?;
        Some(Op {
            kind,
            verb,
            roots,
            key_text,
            results: BTreeSet::new(),
        })
    }

    /// The transaction binding (or enclosing transaction closure) a call runs in.
    fn tx_of(&self, names: &[String]) -> Option<String> {
        if self.tx_closure > 0 {
            return Some("transaction".to_string());
        }
        names
            .iter()
            .find(|n| self.tx_bindings.contains(*n))
            .cloned()
    }

    fn apply(&mut self, op: Op, site: Site, tx: Option<String>) {
        match op.kind {
            OpKind::Claim => {
                // Claiming a key already held on this path is a probe that
                // answers "in progress", not a second claim.
                let held = self
                    .open_now()
                    .into_iter()
                    .any(|id| !self.claims[id].roots.is_disjoint(&op.roots));
                if held {
                    return;
                }
                let guarded = self.guard_roots.iter().any(|g| !g.is_disjoint(&op.roots));
                let id = self.claims.len();
                self.claims.push(Claim {
                    site,
                    verb: op.verb,
                    key_text: op.key_text,
                    roots: op.roots,
                    loop_depth: self.loops.len(),
                    tx,
                    guarded,
                    raii: false,
                    tested: false,
                    exits: Vec::new(),
                    completion: None,
                });
                self.claim_at.insert(site, id);
                if let Some(state) = &mut self.state {
                    state.open.insert(id);
                }
            }
            OpKind::Complete | OpKind::Release => {
                let linked: Vec<usize> = (0..self.claims.len())
                    .filter(|&id| {
                        op.results.contains(&id) || !self.claims[id].roots.is_disjoint(&op.roots)
                    })
                    .collect();
                for id in linked {
                    if op.kind == OpKind::Complete && self.claims[id].completion.is_none() {
                        self.claims[id].completion = Some(site);
                    }
                    if let Some(state) = &mut self.state {
                        state.open.remove(&id);
                    }
                }
            }
        }
    }

    // ---- exits ----------------------------------------------------------------

    fn exit(&mut self, kind: ExitKind, site: Site, exclude: &BTreeSet<usize>) {
        let Some(state) = &self.state else {
            return;
        };
        let is_panic = matches!(kind, ExitKind::Panic(_) | ExitKind::Unwrap(_));
        if is_panic && self.catch > 0 {
            return;
        }
        if !is_panic && self.closure > 0 && matches!(kind, ExitKind::Question | ExitKind::Return) {
            return;
        }
        let target = match &kind {
            ExitKind::Break | ExitKind::Continue => Some(self.loops.len()),
            _ => None,
        };
        for &id in &state.open {
            if exclude.contains(&id) {
                continue;
            }
            let claim = &mut self.claims[id];
            if let Some(tx) = &claim.tx {
                if !state.committed.contains(tx) {
                    continue;
                }
            }
            if let Some(depth) = target {
                if claim.loop_depth < depth || depth == 0 {
                    continue;
                }
            }
            if !claim.exits.iter().any(|e| e.site == site) {
                claim.exits.push(ClaimExit {
                    kind: kind.clone(),
                    site,
                });
            }
        }
    }

    fn open_now(&self) -> BTreeSet<usize> {
        self.state
            .as_ref()
            .map(|s| s.open.clone())
            .unwrap_or_default()
    }

    fn close(&mut self, ids: &BTreeSet<usize>) {
        if let Some(state) = &mut self.state {
            for id in ids {
                state.open.remove(id);
            }
        }
    }

    /// From here on the open claims (and later claims on the same keys) are
    /// held by a guard: exits before this point still count.
    fn guard(&mut self, roots: BTreeSet<String>) {
        let open = self.open_now();
        self.close(&open);
        if !roots.is_empty() {
            self.guard_roots.push(roots);
        }
    }

    // ---- statements -----------------------------------------------------------

    fn block(&mut self, block: &syn::Block) {
        let tail = std::mem::replace(&mut self.tail, false);
        let count = block.stmts.len();
        for (i, stmt) in block.stmts.iter().enumerate() {
            match stmt {
                Stmt::Local(local) => self.local(local),
                Stmt::Item(_) => {}
                Stmt::Expr(expr, semi) => {
                    self.tail = tail && semi.is_none() && i + 1 == count;
                    self.expr(expr);
                    self.tail = false;
                }
                Stmt::Macro(m) => self.mac(&m.mac, &m.mac),
            }
        }
    }

    fn local(&mut self, local: &syn::Local) {
        let Some(init) = &local.init else {
            return;
        };
        let before = self.claims.len();
        let err = self.expr(&init.expr);
        let new: BTreeSet<usize> = (before..self.claims.len()).collect();
        if let Some((_, diverge)) = &init.diverge {
            // The pattern did not match: a claim made by the initialiser was not taken.
            let saved = self.state.clone();
            self.close(&new);
            self.expr(diverge);
            self.state = saved;
        }
        let names = pat_idents(&local.pat);
        let single = match &local.pat {
            Pat::Ident(pi) => Some(pi.ident.to_string()),
            Pat::Type(pt) => match &*pt.pat {
                Pat::Ident(pi) => Some(pi.ident.to_string()),
                _ => None,
            },
            _ => None,
        };
        if let Some(&id) = new.iter().next() {
            for name in &names {
                self.claim_results.insert(name.clone(), id);
            }
            // `let _guard = locks.lock(&key).await?`: the claim returned a
            // guard that is held (not tested) until the end of the scope.
            let held = names.iter().any(|n| {
                n.len() > 1 && n.starts_with('_')
                    || words(n).iter().any(|w| w == "guard" || w == "permit")
            });
            if held {
                for &id in &new {
                    self.claims[id].guarded = true;
                }
                self.close(&new);
            }
            if !names.is_empty() {
                for &id in &new {
                    if LOCK_VERBS.contains(&self.claims[id].verb.as_str()) {
                        self.claims[id].raii = true;
                    }
                }
            }
        }
        if !err.is_empty() {
            for name in &names {
                self.err_released
                    .entry(name.clone())
                    .or_default()
                    .extend(err.iter().copied());
            }
        }
        if let Some(name) = single {
            let roots = self.roots(&init.expr);
            if new.is_empty() && self.is_tx_open(&init.expr) {
                self.tx_bindings.insert(name.clone());
            }
            if name != "_" && self.is_guard_expr(&init.expr) {
                self.guard(roots.clone());
            }
            if !roots.is_empty() || self.is_key_name(&name) {
                let mut roots = roots;
                roots.insert(name.clone());
                self.keys.insert(name, roots);
            } else {
                self.keys.remove(&name);
            }
        }
    }

    /// `pool.begin().await?`, `conn.transaction().await?`.
    fn is_tx_open(&self, expr: &Expr) -> bool {
        match peel(expr) {
            Expr::MethodCall(m) => {
                TRANSACTION_VERBS.contains(&m.method.to_string().as_str())
                    && m.args.iter().all(|a| self.roots(a).is_empty())
            }
            _ => false,
        }
    }

    /// A value whose drop releases: `ClaimGuard::new(..)`, `scopeguard::guard(..)`,
    /// or a local type with a releasing `Drop`.
    fn is_guard_expr(&self, expr: &Expr) -> bool {
        let named_guard = |path: &syn::Path| {
            path.segments.iter().any(|s| {
                let n = s.ident.to_string();
                n == "ClaimGuard" || self.unit.drop_guards.contains(&n)
            }) || path.segments.last().is_some_and(|s| {
                matches!(s.ident.to_string().as_str(), "guard" | "guard_on_unwind")
            })
        };
        match peel(expr) {
            Expr::Call(c) => match &*c.func {
                Expr::Path(p) => {
                    named_guard(&p.path)
                        || (matches!(
                            path_string(&p.path).as_str(),
                            "Some" | "Ok" | "Box::new" | "Arc::new"
                        ) && c.args.first().is_some_and(|a| self.is_guard_expr(a)))
                }
                _ => false,
            },
            Expr::Struct(s) => named_guard(&s.path),
            _ => false,
        }
    }

    // ---- expressions ----------------------------------------------------------

    /// Walks an expression; returns the claims its error value releases
    /// (`.map_err(|e| { release; e })`).
    fn expr(&mut self, expr: &Expr) -> BTreeSet<usize> {
        if self.depth >= MAX_DEPTH {
            return BTreeSet::new();
        }
        self.depth += 1;
        // Tail position flows into branches; any other expression in tail
        // position is the value the function returns on that path.
        let tail = std::mem::replace(&mut self.tail, false);
        let branching = matches!(
            expr,
            Expr::If(_) | Expr::Match(_) | Expr::Unsafe(_) | Expr::Paren(_)
        ) || matches!(expr, Expr::Block(b) if b.label.is_none());
        self.tail = tail && branching;
        let out = self.expr_inner(expr);
        self.tail = false;
        if tail && !branching && self.closure == 0 {
            let site = self.site(expr);
            self.exit(ExitKind::Tail, site, &BTreeSet::new());
        }
        self.depth -= 1;
        out
    }

    fn expr_inner(&mut self, expr: &Expr) -> BTreeSet<usize> {
        let none = BTreeSet::new();
        match expr {
            Expr::Try(t) => {
                let before = self.claims.len();
                self.propagated = runs_inline(&t.expr);
                let err = self.expr(&t.expr);
                self.propagated = false;
                let mut exclude: BTreeSet<usize> = (before..self.claims.len()).collect();
                exclude.extend(err);
                let site = self.site(&t.question_token);
                self.exit(ExitKind::Question, site, &exclude);
                none
            }
            Expr::Return(r) => {
                if let Some(e) = &r.expr {
                    self.expr(e);
                }
                let site = self.site(r);
                self.exit(ExitKind::Return, site, &none);
                if self.closure == 0 {
                    self.state = None;
                }
                none
            }
            Expr::Break(b) => {
                if let Some(e) = &b.expr {
                    self.expr(e);
                }
                self.loop_exit(b.label.as_ref(), ExitKind::Break, b);
                none
            }
            Expr::Continue(c) => {
                self.loop_exit(c.label.as_ref(), ExitKind::Continue, c);
                none
            }
            Expr::Paren(p) => self.expr(&p.expr),
            Expr::Group(g) => self.expr(&g.expr),
            Expr::Reference(r) => self.expr(&r.expr),
            Expr::Unary(u) => self.expr(&u.expr),
            Expr::Cast(c) => self.expr(&c.expr),
            Expr::Field(f) => self.expr(&f.base),
            Expr::Await(a) => match &*a.base {
                // Awaited right here: its panics are the function's, and its
                // `?`s and `return`s too when the block's result is
                // propagated at once (`async { .. }.await?`).
                Expr::Async(block) => {
                    self.run_block(|w| w.block(&block.block));
                    none
                }
                base => self.expr(base),
            },
            Expr::Async(block) => {
                // Spawned or stored: it runs later, and its panics unwind
                // another task, not this function.
                self.catch += 1;
                self.detached(|w| w.block(&block.block));
                self.catch -= 1;
                none
            }
            Expr::Closure(_) => none, // only defined: nothing in it runs here
            Expr::Block(b) => {
                if let Some(label) = &b.label {
                    // `break 'label` leaves this block like a loop.
                    self.loops.push(Some(label.name.ident.to_string()));
                    self.block(&b.block);
                    self.loops.pop();
                } else {
                    self.block(&b.block);
                }
                none
            }
            Expr::Unsafe(u) => {
                self.block(&u.block);
                none
            }
            Expr::Const(c) => {
                self.block(&c.block);
                none
            }
            Expr::If(i) => {
                self.eval_if(i);
                none
            }
            Expr::Match(m) => {
                self.eval_match(m);
                none
            }
            Expr::Let(l) => {
                self.expr(&l.expr);
                none
            }
            Expr::Loop(l) => {
                let entry = self.state.clone();
                self.loops
                    .push(l.label.as_ref().map(|x| x.name.ident.to_string()));
                self.block(&l.body);
                self.loops.pop();
                self.state = merge(vec![self.state.take(), entry]);
                none
            }
            Expr::While(w) => {
                self.expr(&w.cond);
                let entry = self.state.clone();
                self.loops
                    .push(w.label.as_ref().map(|x| x.name.ident.to_string()));
                self.block(&w.body);
                self.loops.pop();
                self.state = merge(vec![self.state.take(), entry]);
                none
            }
            Expr::ForLoop(f) => {
                self.expr(&f.expr);
                let entry = self.state.clone();
                self.loops
                    .push(f.label.as_ref().map(|x| x.name.ident.to_string()));
                self.block(&f.body);
                self.loops.pop();
                self.state = merge(vec![self.state.take(), entry]);
                none
            }
            Expr::Assign(a) => {
                self.expr(&a.right);
                self.expr(&a.left);
                if let (Expr::Path(p), true) = (&*a.left, self.is_tx_open(&a.right)) {
                    if let Some(id) = p.path.get_ident() {
                        self.tx_bindings.insert(id.to_string());
                    }
                }
                none
            }
            Expr::Binary(b) => {
                self.expr(&b.left);
                self.expr(&b.right);
                none
            }
            Expr::Index(i) => {
                self.expr(&i.expr);
                self.expr(&i.index);
                none
            }
            Expr::Tuple(t) => {
                for e in &t.elems {
                    self.expr(e);
                }
                none
            }
            Expr::Array(a) => {
                for e in &a.elems {
                    self.expr(e);
                }
                none
            }
            Expr::Struct(s) => {
                for f in &s.fields {
                    self.expr(&f.expr);
                }
                if let Some(rest) = &s.rest {
                    self.expr(rest);
                }
                none
            }
            Expr::Range(r) => {
                if let Some(e) = &r.start {
                    self.expr(e);
                }
                if let Some(e) = &r.end {
                    self.expr(e);
                }
                none
            }
            Expr::Repeat(r) => {
                self.expr(&r.expr);
                none
            }
            Expr::Macro(m) => {
                self.mac(&m.mac, m);
                none
            }
            Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|id| self.err_released.get(&id.to_string()).cloned())
                .unwrap_or_default(),
            Expr::Call(c) => self.call(c, expr),
            Expr::MethodCall(m) => self.method_call(m, expr),
            _ => none,
        }
    }

    /// Runs an async block awaited, or a closure called, right here. Its
    /// `?`/`return` leave the function only when its result is propagated
    /// straight away; otherwise the caller handles that error value.
    fn run_block(&mut self, f: impl FnOnce(&mut Self)) {
        let propagated = std::mem::replace(&mut self.propagated, false);
        // Outer loops cannot be left from in here: keep their depth, hide their labels.
        let masked = vec![None; self.loops.len()];
        let loops = std::mem::replace(&mut self.loops, masked);
        let saved = self.state.clone();
        if !propagated {
            self.closure += 1;
        }
        f(self);
        if !propagated {
            self.closure -= 1;
        }
        self.loops = loops;
        if self.state.is_none() {
            self.state = saved;
        }
    }

    /// Runs `f` as code that runs elsewhere or later (a spawned task, a
    /// combinator closure): its `?`/`return` leave it, not the function.
    fn detached(&mut self, f: impl FnOnce(&mut Self)) {
        let saved = self.state.clone();
        // Outer loops cannot be left from in here: keep their depth, hide their labels.
        let masked = vec![None; self.loops.len()];
        let loops = std::mem::replace(&mut self.loops, masked);
        self.closure += 1;
        f(self);
        self.closure -= 1;
        self.loops = loops;
        if self.state.is_none() {
            self.state = saved;
        }
    }

    fn loop_exit(&mut self, label: Option<&syn::Lifetime>, kind: ExitKind, node: &impl Spanned) {
        let site = self.site(node);
        let depth = match label {
            Some(l) => {
                let name = l.ident.to_string();
                self.loops
                    .iter()
                    .rposition(|x| x.as_deref() == Some(name.as_str()))
                    .map_or(0, |i| i + 1)
            }
            None => self.loops.len(),
        };
        let saved = std::mem::take(&mut self.loops);
        self.loops = saved[..depth.min(saved.len())].to_vec();
        self.exit(kind, site, &BTreeSet::new());
        self.loops = saved;
        self.state = None;
    }

    fn closure_body(&mut self, c: &syn::ExprClosure) {
        self.detached(|w| {
            w.expr(&c.body);
        });
    }

    fn call(&mut self, c: &syn::ExprCall, expr: &Expr) -> BTreeSet<usize> {
        let none = BTreeSet::new();
        // `(|| { .. })()` runs right here.
        let func = strip_paren(&c.func);
        if let Expr::Closure(cl) = func {
            let propagated = std::mem::replace(&mut self.propagated, false);
            for a in &c.args {
                self.expr(a);
            }
            self.propagated = propagated;
            self.run_block(|w| {
                w.expr(&cl.body);
            });
            return none;
        }
        let Expr::Path(p) = func else {
            self.expr(func);
            for a in &c.args {
                self.expr(a);
            }
            return none;
        };
        let path = path_string(&p.path);
        let last = p
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if self.is_guard_expr(expr) {
            // The closure inside runs on drop, not here.
            for a in &c.args {
                if !matches!(a, Expr::Closure(_)) {
                    self.expr(a);
                }
            }
            return none;
        }
        if last == "catch_unwind" {
            self.catch += 1;
            for a in &c.args {
                self.run_arg(a);
            }
            self.catch -= 1;
            return none;
        }
        if last == "resume_unwind" || (last == "exit" && path.contains("process")) {
            for a in &c.args {
                self.expr(a);
            }
            let site = self.site(expr);
            self.exit(ExitKind::Panic(path), site, &BTreeSet::new());
            self.state = None;
            return none;
        }
        if last == "AssertUnwindSafe" {
            for a in &c.args {
                self.run_arg(a);
            }
            return none;
        }
        let mut err = BTreeSet::new();
        for a in &c.args {
            match a {
                Expr::Closure(cl) => self.closure_body(cl),
                _ => err.extend(self.expr(a)),
            }
        }
        let args: Vec<&Expr> = c.args.iter().collect();
        if let Some(op) = self.classify(&last, &args) {
            let tx = self.tx_of(&idents(expr));
            self.apply(op, self.site(expr), tx);
        }
        if matches!(last.as_str(), "Ok" | "Some" | "Box::new") {
            return err;
        }
        none
    }

    /// An argument that runs right here (the body given to `catch_unwind`).
    fn run_arg(&mut self, a: &Expr) {
        match strip_paren(a) {
            Expr::Closure(cl) => {
                self.closure += 1;
                self.expr(&cl.body);
                self.closure -= 1;
            }
            Expr::Async(b) => {
                self.closure += 1;
                self.block(&b.block);
                self.closure -= 1;
            }
            other => {
                self.expr(other);
            }
        }
    }

    fn method_call(&mut self, m: &syn::ExprMethodCall, expr: &Expr) -> BTreeSet<usize> {
        let method = m.method.to_string();
        let before = self.claims.len();
        let mut err = if method == "catch_unwind" {
            self.catch += 1;
            self.run_arg(&m.receiver);
            self.catch -= 1;
            BTreeSet::new()
        } else {
            self.expr(&m.receiver)
        };
        let error_handler = matches!(
            method.as_str(),
            "map_err" | "or_else" | "inspect_err" | "unwrap_or_else" | "map_or_else" | "or"
        );
        for a in &m.args {
            match a {
                Expr::Closure(cl) if error_handler => {
                    // Runs only on the error path: what it releases is
                    // released for a `?` on this value, not on the Ok path.
                    let saved = self.state.clone();
                    let open = self.open_now();
                    self.detached(|w| {
                        w.expr(&cl.body);
                    });
                    let after = self.open_now();
                    err.extend(open.difference(&after).copied());
                    self.state = saved;
                }
                Expr::Closure(cl) if TRANSACTION_VERBS.contains(&method.as_str()) => {
                    self.tx_closure += 1;
                    self.closure_body(cl);
                    self.tx_closure -= 1;
                }
                Expr::Closure(cl) => self.closure_body(cl),
                _ => {
                    self.expr(a);
                }
            }
        }
        match method.as_str() {
            "unwrap" | "expect" | "unwrap_unchecked" => {
                let mut exclude: BTreeSet<usize> = (before..self.claims.len()).collect();
                exclude.extend(err.iter().copied());
                let site = self.site(expr);
                self.exit(ExitKind::Unwrap(method.clone()), site, &exclude);
                return BTreeSet::new();
            }
            "commit" => {
                if let Some(tx) = place_name(&m.receiver).filter(|n| self.tx_bindings.contains(n)) {
                    if let Some(state) = &mut self.state {
                        state.committed.insert(tx);
                    }
                    return BTreeSet::new();
                }
            }
            "rollback" => {
                if let Some(tx) = place_name(&m.receiver).filter(|n| self.tx_bindings.contains(n)) {
                    let held: BTreeSet<usize> = self
                        .open_now()
                        .into_iter()
                        .filter(|&id| self.claims[id].tx.as_deref() == Some(tx.as_str()))
                        .collect();
                    self.close(&held);
                    return BTreeSet::new();
                }
            }
            _ => {}
        }
        // A method on the claim's own result: `lease.complete(..)` means the
        // claim returned a guard; `lease.release()` releases it.
        let on_result = self.result_mentions(&m.receiver);
        if !on_result.is_empty() && (is_complete_verb(&method) || is_release_verb(&method)) {
            for id in on_result {
                if is_complete_verb(&method) {
                    self.claims[id].guarded = true;
                }
                if let Some(state) = &mut self.state {
                    state.open.remove(&id);
                }
            }
            return err;
        }
        let op = self.classify_chain(m).or_else(|| {
            let args: Vec<&Expr> = m.args.iter().collect();
            self.classify(&method, &args)
        });
        if let Some(op) = op {
            let tx = self.tx_of(&idents(expr));
            self.apply(op, self.site(expr), tx);
        }
        if matches!(
            method.as_str(),
            "map_err"
                | "or_else"
                | "inspect_err"
                | "context"
                | "with_context"
                | "wrap_err"
                | "map"
                | "ok_or"
                | "ok_or_else"
        ) {
            err
        } else {
            BTreeSet::new()
        }
    }

    fn mac(&mut self, mac: &syn::Macro, node: &impl Spanned) {
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        let site = self.site(node);
        match name.as_str() {
            "panic" | "unreachable" | "todo" | "unimplemented" => {
                self.exit(ExitKind::Panic(format!("{name}!")), site, &BTreeSet::new());
                self.state = None;
                return;
            }
            "defer" => {
                self.guard(BTreeSet::new());
                return;
            }
            _ => {}
        }
        let Some(args) = macro_args(mac) else {
            return;
        };
        if matches!(name.as_str(), "query" | "query_as" | "query_scalar") {
            if let Some(Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            })) = args.first()
            {
                for a in args.iter().skip(1) {
                    self.expr(a);
                }
                if let Some((kind, verb)) = sql_kind(&text.value()) {
                    if let Some((roots, key_text)) = self.key_arg(args.iter().skip(1)) {
                        let op = Op {
                            kind,
                            verb: verb.to_string(),
                            roots,
                            key_text,
                            results: BTreeSet::new(),
                        };
                        let names: Vec<String> = args.iter().skip(1).flat_map(idents).collect();
                        let tx = self.tx_of(&names);
                        self.apply(op, site, tx);
                    }
                }
                return;
            }
        }
        let before = self.claims.len();
        for a in &args {
            self.expr(a);
        }
        if matches!(name.as_str(), "assert" | "assert_eq" | "assert_ne") {
            // An assertion on the claim's own outcome fails only when no claim was taken.
            let exclude: BTreeSet<usize> = (before..self.claims.len()).collect();
            self.exit(ExitKind::Panic(format!("{name}!")), site, &exclude);
        }
    }

    // ---- branches -------------------------------------------------------------

    /// Which claim a condition tests, and whether `true` means "claimed".
    fn tested_claim(&self, cond: &Expr) -> Option<(usize, bool)> {
        match cond {
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => {
                self.tested_claim(&u.expr).map(|(id, p)| (id, !p))
            }
            Expr::Paren(p) => self.tested_claim(&p.expr),
            Expr::Await(a) => self.tested_claim(&a.base),
            Expr::Try(t) => self.tested_claim(&t.expr),
            Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|id| self.claim_results.get(&id.to_string()).copied())
                .map(|id| (id, true)),
            Expr::MethodCall(m) => {
                if let Some(&id) = self.claim_at.get(&self.site(cond)) {
                    return Some((id, true));
                }
                match m.method.to_string().as_str() {
                    "is_some" | "is_ok" | "unwrap" | "expect" | "unwrap_or"
                    | "unwrap_or_default" | "rows_affected" => self.tested_claim(&m.receiver),
                    "is_none" | "is_err" => self.tested_claim(&m.receiver).map(|(id, p)| (id, !p)),
                    _ => None,
                }
            }
            Expr::Call(_) => self.claim_at.get(&self.site(cond)).map(|&id| (id, true)),
            // `inserted.rows_affected() == 0`, `claimed == false`.
            Expr::Binary(b) => {
                let (side, lit, flipped) = match (&*b.left, &*b.right) {
                    (other, Expr::Lit(l)) => (other, &l.lit, false),
                    (Expr::Lit(l), other) => (other, &l.lit, true),
                    _ => return None,
                };
                let (id, polarity) = self.tested_claim(side)?;
                let n: i64 = match lit {
                    syn::Lit::Int(i) => i.base10_parse().ok()?,
                    syn::Lit::Bool(v) => i64::from(v.value),
                    _ => return None,
                };
                // Whether the comparison holds when the claim was taken
                // (count >= 1, flag true).
                let holds_when_taken = match (&b.op, flipped) {
                    (syn::BinOp::Eq(_), _) => n >= 1,
                    (syn::BinOp::Ne(_), _) => n == 0,
                    (syn::BinOp::Gt(_), false) | (syn::BinOp::Lt(_), true) => n == 0,
                    (syn::BinOp::Ge(_), false) | (syn::BinOp::Le(_), true) => n <= 1,
                    (syn::BinOp::Lt(_), false) | (syn::BinOp::Gt(_), true) => n > 1,
                    (syn::BinOp::Le(_), false) | (syn::BinOp::Ge(_), true) => n >= 1,
                    _ => return None,
                };
                Some((id, holds_when_taken == polarity))
            }
            _ => None,
        }
    }

    fn eval_if(&mut self, i: &syn::ExprIf) {
        let tail = std::mem::replace(&mut self.tail, false);
        let (tested, then_claimed, err_binding) = match &*i.cond {
            Expr::Let(l) => {
                self.expr(&l.expr);
                let failure = pat_not_claimed(&l.pat);
                let binding = pat_is_err(&l.pat).then(|| place_name(&l.expr)).flatten();
                (
                    self.tested_claim(&l.expr).map(|(id, _)| id),
                    !failure,
                    binding,
                )
            }
            cond => {
                self.expr(cond);
                let binding = match cond {
                    Expr::MethodCall(m) if m.method == "is_err" => place_name(&m.receiver),
                    _ => None,
                };
                match self.tested_claim(cond) {
                    Some((id, p)) => (Some(id), p, binding),
                    None => (None, true, binding),
                }
            }
        };
        if let Some(id) = tested {
            self.claims[id].tested = true;
        }
        let start = self.state.clone();
        let open_before = self.open_now();
        if let (Some(id), false) = (tested, then_claimed) {
            self.close(&BTreeSet::from([id]));
        }
        self.tail = tail;
        self.block(&i.then_branch);
        if let Some(name) = err_binding {
            let released: BTreeSet<usize> =
                open_before.difference(&self.open_now()).copied().collect();
            if !released.is_empty() {
                self.err_released.entry(name).or_default().extend(released);
            }
        }
        let then_state = self.state.take();
        self.state = start;
        if let (Some(id), true) = (tested, then_claimed) {
            self.close(&BTreeSet::from([id]));
        }
        if let Some((_, else_branch)) = &i.else_branch {
            self.tail = tail;
            self.expr(else_branch);
        }
        self.state = merge(vec![then_state, self.state.take()]);
    }

    fn eval_match(&mut self, m: &syn::ExprMatch) {
        let tail = std::mem::replace(&mut self.tail, false);
        let err = self.expr(&m.expr);
        let tested = self.tested_claim(&m.expr).map(|(id, _)| id);
        if let Some(id) = tested {
            self.claims[id].tested = true;
        }
        let classes: Vec<Option<bool>> = m.arms.iter().map(|a| pat_class(&a.pat)).collect();
        let any_success = classes.contains(&Some(false));
        let start = self.state.clone();
        let mut ends = Vec::new();
        for (arm, class) in m.arms.iter().zip(classes) {
            self.state = start.clone();
            let not_claimed = class.unwrap_or(any_success);
            if let (Some(id), true) = (tested, not_claimed) {
                self.close(&BTreeSet::from([id]));
            }
            if pat_is_err(&arm.pat) {
                self.close(&err);
            }
            if let Some((_, guard)) = &arm.guard {
                self.expr(guard);
            }
            self.tail = tail;
            self.expr(&arm.body);
            ends.push(self.state.take());
        }
        self.state = if m.arms.is_empty() {
            start
        } else {
            merge(ends)
        };
    }
}

/// SQL text of a claim, completion or release on an idempotency record.
/// Whether a string literal can make a query or redis command a claim
/// (`INSERT … 'in_progress'`, `SETNX`, `NX`): the pre-filter's view of
/// `Walker::classify_chain` and the `query!` macros.
pub fn is_claim_literal(text: &str) -> bool {
    let trimmed = text.trim();
    if trimmed.eq_ignore_ascii_case("setnx") || trimmed.eq_ignore_ascii_case("nx") {
        return true;
    }
    trimmed
        .get(..6)
        .is_some_and(|head| head.eq_ignore_ascii_case("insert"))
        && matches!(sql_kind(text), Some((OpKind::Claim, _)))
}

fn sql_kind(text: &str) -> Option<(OpKind, String)> {
    let lower = text.to_ascii_lowercase();
    let first = lower.split_whitespace().next().unwrap_or_default();
    let claimed = [
        "in_progress",
        "in-progress",
        "'pending'",
        "'processing'",
        "'started'",
        "'running'",
    ];
    let completed = [
        "completed",
        "'done'",
        "'succeeded'",
        "'finished'",
        "response",
    ];
    let claim = claimed.iter().find(|w| lower.contains(*w));
    match (first, claim) {
        // The label quotes the status the query writes.
        ("insert", Some(status)) => Some((
            OpKind::Claim,
            format!("INSERT … '{}'", status.trim_matches('\'')),
        )),
        ("insert" | "update", _) if completed.iter().any(|w| lower.contains(w)) => {
            Some((OpKind::Complete, "UPDATE … 'completed'".to_string()))
        }
        ("delete", _) => Some((OpKind::Release, "DELETE".to_string())),
        _ => None,
    }
}

/// Whether a written value is the request's response (by its names).
fn mentions_response(expr: &Expr) -> bool {
    if let Some(text) = lit_text(expr) {
        let lower = text.to_ascii_lowercase();
        return ["completed", "done", "succeeded"]
            .iter()
            .any(|w| lower.contains(w));
    }
    idents(expr).iter().any(|n| {
        words(n)
            .iter()
            .any(|w| RESPONSE_WORDS.contains(&w.as_str()))
    })
}

fn lit_text(expr: &Expr) -> Option<String> {
    match strip_ref(expr) {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
    }
}

/// All identifiers and field names an expression mentions (closures included).
fn idents(expr: &Expr) -> Vec<String> {
    struct Idents(Vec<String>);
    impl<'ast> Visit<'ast> for Idents {
        fn visit_ident(&mut self, i: &'ast proc_macro2::Ident) {
            self.0.push(i.to_string());
        }
        fn visit_macro(&mut self, mac: &'ast syn::Macro) {
            if let Some(args) = macro_args(mac) {
                for a in &args {
                    self.visit_expr(a);
                }
            }
        }
    }
    let mut v = Idents(Vec::new());
    v.visit_expr(expr);
    v.0
}

fn pat_idents(pat: &Pat) -> Vec<String> {
    struct Names(Vec<String>);
    impl<'ast> Visit<'ast> for Names {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            let name = p.ident.to_string();
            if name != "_" && !name.starts_with(|c: char| c.is_uppercase()) {
                self.0.push(name);
            }
            syn::visit::visit_pat_ident(self, p);
        }
    }
    let mut v = Names(Vec::new());
    v.visit_pat(pat);
    v.0
}

/// `Some(true)` when the pattern means "not claimed" (`None`, `false`,
/// `Err(..)`, `Outcome::InProgress`), `Some(false)` when it names the
/// claimed case, `None` for `_` and bare bindings.
fn pat_class(pat: &Pat) -> Option<bool> {
    struct Class {
        failure: bool,
        success: bool,
    }
    impl<'ast> Visit<'ast> for Class {
        fn visit_path(&mut self, p: &'ast syn::Path) {
            if let Some(last) = p.segments.last() {
                let name = last.ident.to_string();
                if NOT_CLAIMED_VARIANTS.contains(&name.as_str()) {
                    self.failure = true;
                } else {
                    self.success = true;
                }
            }
        }
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            let name = p.ident.to_string();
            if NOT_CLAIMED_VARIANTS.contains(&name.as_str()) {
                self.failure = true;
            }
            syn::visit::visit_pat_ident(self, p);
        }
        fn visit_lit_bool(&mut self, b: &'ast syn::LitBool) {
            if b.value {
                self.success = true;
            } else {
                self.failure = true;
            }
        }
    }
    let mut c = Class {
        failure: false,
        success: false,
    };
    c.visit_pat(pat);
    if c.failure {
        Some(true)
    } else if c.success {
        Some(false)
    } else {
        None
    }
}

fn pat_not_claimed(pat: &Pat) -> bool {
    pat_class(pat) == Some(true)
}

/// `Err(..)` patterns.
fn pat_is_err(pat: &Pat) -> bool {
    match pat {
        Pat::TupleStruct(ts) => ts.path.segments.last().is_some_and(|s| s.ident == "Err"),
        Pat::Paren(p) => pat_is_err(&p.pat),
        _ => false,
    }
}

/// `async { .. }.await` or `(|| ..)()`, possibly parenthesised.
fn runs_inline(expr: &Expr) -> bool {
    match expr {
        Expr::Paren(p) => runs_inline(&p.expr),
        Expr::Await(a) => matches!(strip_paren(&a.base), Expr::Async(_)),
        Expr::Call(c) => matches!(strip_paren(&c.func), Expr::Closure(_)),
        _ => false,
    }
}

fn peel(expr: &Expr) -> &Expr {
    match expr {
        Expr::Try(t) => peel(&t.expr),
        Expr::Await(a) => peel(&a.base),
        Expr::Paren(p) => peel(&p.expr),
        Expr::Reference(r) => peel(&r.expr),
        Expr::MethodCall(m)
            if matches!(
                m.method.to_string().as_str(),
                "map_err" | "context" | "with_context" | "unwrap" | "expect" | "into"
            ) =>
        {
            peel(&m.receiver)
        }
        other => other,
    }
}

fn strip_paren(expr: &Expr) -> &Expr {
    match expr {
        Expr::Paren(p) => strip_paren(&p.expr),
        Expr::Group(g) => strip_paren(&g.expr),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claim_literals() {
        assert!(is_claim_literal(
            "INSERT INTO idem (k, status) VALUES ($1, 'pending')"
        ));
        assert!(is_claim_literal(" NX"));
        assert!(!is_claim_literal("INSERT INTO orders (id) VALUES ($1)"));
        assert!(!is_claim_literal("SET"));
    }

    #[test]
    fn sql_kinds() {
        assert_eq!(
            sql_kind("INSERT INTO idempotency_keys (k, status) VALUES ($1, 'in_progress')")
                .map(|k| k.0),
            Some(OpKind::Claim)
        );
        assert_eq!(
            sql_kind("update idempotency_keys set status = 'completed' where k = $1").map(|k| k.0),
            Some(OpKind::Complete)
        );
        assert_eq!(
            sql_kind("DELETE FROM idempotency_keys WHERE k = $1").map(|k| k.0),
            Some(OpKind::Release)
        );
        assert_eq!(
            sql_kind("UPDATE orders SET paid = true WHERE id = $1").map(|k| k.0),
            None
        );
        assert_eq!(
            sql_kind("SELECT status FROM idempotency_keys").map(|k| k.0),
            None
        );
    }

    #[test]
    fn arm_classes() {
        let class = |src: &str| {
            pat_class(
                &syn::parse_str::<syn::Arm>(&format!("{src} => ()"))
                    .map(|a| a.pat)
                    .expect("pattern"),
            )
        };
        assert_eq!(class("Ok(false)"), Some(true));
        assert_eq!(class("None"), Some(true));
        assert_eq!(class("Claim::InProgress"), Some(true));
        assert_eq!(class("Ok(true)"), Some(false));
        assert_eq!(class("Some(lease)"), Some(false));
        assert_eq!(class("_"), None);
    }

    #[test]
    fn claim_verbs_by_name() {
        assert!(is_claim_verb("try_claim"));
        assert!(is_claim_verb("claim_slot"));
        assert!(!is_claim_verb("claim_key"));
        assert!(!is_claim_verb("claimed"));
        assert!(is_complete_verb("complete_request"));
        assert!(!is_complete_verb("completed"));
        assert!(is_release_verb("del"));
        assert!(!is_release_verb("deleted_at"));
    }
}
