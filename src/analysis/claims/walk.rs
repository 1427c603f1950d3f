//! The walk proper: statements and expressions in source order, where a
//! path leaves the function (`?`, `return`, `break`, panics, `.unwrap()`,
//! the tail value) and which code runs elsewhere (closures, spawned
//! blocks, `catch_unwind`) so that its exits are not the function's.

use std::collections::BTreeSet;

use syn::spanned::Spanned;
use syn::{Expr, Pat, Stmt};

use super::findings::ExitKind;
use super::names::{idents, pat_idents, peel, runs_inline, strip_paren};
use super::ops::{sets_only_if_absent, sql_kind, Op};
use super::walker::{merge, LoopErrBreaks, Walker};
use crate::analysis::syntax::{
    last_ident, macro_args, path_string, place_name, strip_ref, written_place,
};
use crate::analysis::vocab::{is_lock_verb, words, BUFFER_APPEND_METHODS, TRANSACTION_VERBS};

/// Expressions nested deeper than this are not followed (never a crash).
const MAX_DEPTH: usize = 200;

/// Methods of `Option`, `Result` and iterators that call the closure they
/// are given right here, on this thread (an iterator's adapters when the
/// chain is consumed, which it is in the same expression or soon after): a
/// panic inside (`.map(|v| v.parse().unwrap())`) leaves the function with
/// the claim held, while `?` and `return` leave only the closure.
const RUNS_CLOSURE_HERE: &[&str] = &[
    "map",
    "and_then",
    "filter",
    "filter_map",
    "find",
    "find_map",
    "position",
    "any",
    "all",
    "for_each",
    "try_for_each",
    "fold",
    "try_fold",
    "flat_map",
    "take_while",
    "skip_while",
    "map_while",
    "inspect",
    "map_or",
    "is_some_and",
    "is_ok_and",
    "is_none_or",
    "then",
    "get_or_insert_with",
    "or_insert_with",
    "sort_by",
    "sort_by_key",
    "sort_unstable_by",
    "sort_unstable_by_key",
    "max_by_key",
    "min_by_key",
    "max_by",
    "min_by",
    "retain",
];

/// Calls of closures held in bindings walked inside one another at most.
const MAX_CLOSURE_CALLS: usize = 4;

impl Walker<'_> {
    pub(super) fn block(&mut self, block: &syn::Block) {
        let tail = std::mem::replace(&mut self.tail, false);
        let count = block.stmts.len();
        for (i, stmt) in block.stmts.iter().enumerate() {
            if crate::analysis::test_support::stmt_is_test(stmt) {
                continue;
            }
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
        // A body in tail position that gives no value ends after its last
        // statement: a path reaching it leaves, like a tail value does.
        let valued = matches!(block.stmts.last(), Some(Stmt::Expr(_, None)));
        if let (true, false, 0, Some(last)) = (tail, valued, self.closure, block.stmts.last()) {
            self.exit(ExitKind::End, last, &BTreeSet::new());
        }
    }

    pub(super) fn local(&mut self, local: &syn::Local) {
        let Some(init) = &local.init else {
            return;
        };
        if let (Pat::Ident(pi), Expr::Async(block)) = (&local.pat, strip_paren(&init.expr)) {
            // Runs where it is awaited (`op.await`), not here.
            let block = std::rc::Rc::new(block.clone());
            self.local_blocks.insert(pi.ident.to_string(), block);
            return;
        }
        let before = self.claims.len();
        // What an awaited `async` block gives is its own value, not the
        // result of the claims made inside it.
        // Nor is a body bound to run later (`let op = async { .. };`): its
        // claims are made when it runs, not held by the binding.
        // (Through `?` and what handles its error: `op.await.map_err(..)?`.)
        let mut value = strip_paren(&init.expr);
        loop {
            value = match value {
                Expr::Try(t) => strip_paren(&t.expr),
                Expr::MethodCall(m)
                    if matches!(
                        strip_paren(&m.receiver),
                        Expr::Await(_) | Expr::Try(_) | Expr::MethodCall(_)
                    ) =>
                {
                    strip_paren(&m.receiver)
                }
                _ => break,
            };
        }
        let block_value = matches!(value, Expr::Await(a) if matches!(&*a.base, Expr::Async(_)))
            || matches!(value, Expr::Async(_) | Expr::Closure(_))
            || self.awaits_local_block(value);
        let err = self.expr(&init.expr);
        let end = if block_value {
            before
        } else {
            self.claims.len()
        };
        let new: BTreeSet<usize> = (before..end).collect();
        if let Some((_, diverge)) = &init.diverge {
            // The pattern did not match: a claim made by the initialiser was not taken.
            // Nor is one the value's error handler released, where the
            // pattern takes its success (`let Ok(v) = released else ..`).
            let saved = self.state.clone();
            self.close(&new);
            if matches_success(&local.pat) {
                self.close(&err);
            }
            self.expr(diverge);
            self.state = saved;
        }
        let names = pat_idents(&local.pat);
        // `let render = |ls| ..;`: its body runs where `render(..)` is called.
        if let (Pat::Ident(pi), Expr::Closure(cl)) = (&local.pat, strip_paren(&init.expr)) {
            if cl.asyncness.is_none() && !matches!(strip_paren(&cl.body), Expr::Async(_)) {
                (self.local_closures).insert(pi.ident.to_string(), std::rc::Rc::new(cl.clone()));
            }
        }
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
            // A name kept alive only by its `_` says so of a lock API's
            // result; of a claim verb's (`let Ok(Some(_ticket)) =
            // kv.obtain(..)`) it only silences the unused binding.
            let lock_api = new.iter().any(|&id| is_lock_verb(&self.claims[id].verb));
            let held = names.iter().any(|n| {
                (lock_api && n.len() > 1 && n.starts_with('_'))
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
                    if is_lock_verb(&self.claims[id].verb) {
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
        if single.is_none() {
            self.bind_unwrapped(&local.pat, &init.expr);
        }
        if let Some(name) = single {
            if sets_only_if_absent(&init.expr, &self.nx_options) {
                self.nx_options.insert(name.clone());
            }
            match self.statement_of(&init.expr) {
                Some(text) => self.statements.insert(name.clone(), text),
                None => self.statements.remove(&name),
            };
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

    /// `Some(ref key) = idempotency_key`, `Ok(key) = header_key(..)`: the
    /// one binding inside a wrapper derives from the matched value's key.
    pub(super) fn bind_unwrapped(&mut self, pat: &Pat, value: &Expr) {
        let Pat::TupleStruct(ts) = pat else {
            return;
        };
        let [inner] = ts.elems.iter().collect::<Vec<_>>()[..] else {
            return;
        };
        let Pat::Ident(pi) = inner else {
            return;
        };
        let roots = self.roots(value);
        if roots.is_empty() {
            return;
        }
        let name = pi.ident.to_string();
        let mut roots = roots;
        roots.insert(name.clone());
        self.keys.insert(name, roots);
    }

    /// `slot.push_str(&key)`, `slot += &key`: the buffer a key is appended
    /// to holds it from then on, as the key a `format!` made of it would
    /// (`Walker::roots`).
    fn note_append(&mut self, expr: &Expr) {
        match strip_paren(expr) {
            Expr::MethodCall(m)
                if BUFFER_APPEND_METHODS.contains(&m.method.to_string().as_str()) =>
            {
                self.append_to(written_place(&m.receiver), m.args.iter());
            }
            Expr::Binary(b) if matches!(b.op, syn::BinOp::AddAssign(_)) => {
                self.append_to(place_name(&b.left), std::iter::once(&*b.right));
            }
            Expr::Try(t) => self.note_append(&t.expr),
            _ => {}
        }
    }

    /// Adds the key roots of `parts` to the buffer binding `buffer`
    /// (`syntax::place_name`, `written_place`).
    fn append_to<'e>(&mut self, buffer: Option<String>, parts: impl Iterator<Item = &'e Expr>) {
        let Some(name) = buffer else {
            return;
        };
        let mut roots = BTreeSet::new();
        for part in parts {
            roots.extend(self.roots(part));
        }
        if roots.is_empty() {
            return;
        }
        let held = self.keys.entry(name.clone()).or_default();
        held.insert(name);
        held.extend(roots);
    }

    /// `pool.begin().await?`, `conn.transaction().await?`.
    pub(super) fn is_tx_open(&self, expr: &Expr) -> bool {
        match peel(expr) {
            Expr::MethodCall(m) => {
                TRANSACTION_VERBS.contains(&m.method.to_string().as_str())
                    && m.args.iter().all(|a| self.roots(a).is_empty())
            }
            _ => false,
        }
    }

    /// Walks an expression; returns the claims its error value releases
    /// (`.map_err(|e| { release; e })`).
    pub(super) fn expr(&mut self, expr: &Expr) -> BTreeSet<usize> {
        crate::limits::checkpoint();
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
        let before = self.claims.len();
        self.note_append(expr);
        let out = self.expr_inner(expr);
        self.tail = false;
        if tail && !branching && self.closure == 0 {
            // A claim made by the value itself is handed to the caller.
            let handed: BTreeSet<usize> = (before..self.claims.len()).collect();
            self.exit(ExitKind::Tail, expr, &handed);
            self.handed.extend(handed);
        }
        self.depth -= 1;
        out
    }

    pub(super) fn expr_inner(&mut self, expr: &Expr) -> BTreeSet<usize> {
        let none = BTreeSet::new();
        match expr {
            Expr::Try(t) => {
                let before = self.claims.len();
                self.propagated = runs_inline(&t.expr) || self.awaits_local_block(&t.expr);
                let err = self.expr(&t.expr);
                self.propagated = false;
                let mut exclude: BTreeSet<usize> = (before..self.claims.len()).collect();
                exclude.extend(err);
                self.exit(ExitKind::Question, &t.question_token, &exclude);
                none
            }
            Expr::Return(r) => {
                if let Some(e) = &r.expr {
                    self.expr(e);
                }
                self.early_return(r);
                none
            }
            Expr::Break(b) => {
                if let Some(e) = &b.expr {
                    self.expr(e);
                }
                self.note_err_break(b);
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
            // A block bound earlier and awaited here runs here.
            Expr::Await(_) if self.awaits_local_block(expr) => {
                let block = (self.awaited_local_block(expr))
                    .and_then(|name| self.local_blocks.remove(&name));
                match block {
                    Some(block) => self.awaited_block(&block),
                    None => none,
                }
            }
            Expr::Await(a) => match &*a.base {
                // Awaited right here: its panics are the function's, and its
                // `?`s and `return`s too when the block's result is
                // propagated at once (`async { .. }.await?`).
                Expr::Async(block) => self.awaited_block(block),
                base => self.expr(base),
            },
            Expr::Async(block) => {
                // Spawned, stored or returned (`Box::pin(async move { .. })`
                // in a `Service::call`): a body of its own that runs later.
                self.detached(|w| {
                    w.tail = true;
                    w.block(&block.block);
                });
                none
            }
            Expr::Closure(c) => {
                // Only defined: walked as its own body, nothing in it runs here.
                let saved = self.state.clone();
                self.closure_body(c);
                self.state = saved;
                none
            }
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
                self.loop_err_breaks.push(LoopErrBreaks {
                    depth: self.loops.len(),
                    entry_open: self.open_now(),
                    released: None,
                });
                self.block(&l.body);
                self.loops.pop();
                self.state = merge(vec![self.state.take(), entry]);
                // The loop's `Err` value is given only where these were
                // released (`Rejected => { release; break Err(why) }`).
                (self.loop_err_breaks.pop())
                    .and_then(|f| f.released)
                    .unwrap_or_default()
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
    pub(super) fn run_block(&mut self, f: impl FnOnce(&mut Self)) {
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

    /// `op.await` of a block bound earlier (`let op = async { .. };`).
    fn awaits_local_block(&self, expr: &Expr) -> bool {
        self.awaited_local_block(expr).is_some()
    }

    /// The name of the bound block `expr` awaits (`op` of `op.await`).
    fn awaited_local_block(&self, expr: &Expr) -> Option<String> {
        let Expr::Await(a) = strip_paren(expr) else {
            return None;
        };
        let Expr::Path(p) = &*a.base else { return None };
        let name = p.path.get_ident()?.to_string();
        self.local_blocks.contains_key(&name).then_some(name)
    }

    /// An `async` block awaited here: its panics are the function's, and
    /// its `?`s and `return`s too when the block's result is propagated at
    /// once (`async { .. }.await?`). Not propagated at once (`let res =
    /// async { .. }.await;`, `match op.await`), a `?` inside ends the block
    /// with its claims still open, which is how they are after it.
    fn awaited_block(&mut self, block: &syn::ExprAsync) -> BTreeSet<usize> {
        let propagated = self.propagated;
        self.async_jumps.push((self.closure + 1, BTreeSet::new()));
        self.run_block(|w| w.block(&block.block));
        let (_, jumped) = self.async_jumps.pop().unwrap_or_default();
        if let (false, Some(state)) = (propagated, &mut self.state) {
            state.open.extend(jumped);
        }
        BTreeSet::new()
    }

    /// Runs `f` as code that runs elsewhere or later (a spawned task, a
    /// combinator closure, a future returned by `Service::call`): a body of
    /// its own, whose `?`/`return`/panics leave it, not the function, and
    /// leave the claims made in it in progress.
    pub(super) fn detached(&mut self, f: impl FnOnce(&mut Self)) {
        let saved = self.state.clone();
        // Outer loops cannot be left from in here: keep their depth, hide their labels.
        let masked = vec![None; self.loops.len()];
        let loops = std::mem::replace(&mut self.loops, masked);
        let outer = self.enter_frame();
        f(self);
        if self.state.is_none() {
            self.state = saved;
        }
        self.leave_frame(outer);
        self.loops = loops;
    }

    pub(super) fn loop_exit(
        &mut self,
        label: Option<&syn::Lifetime>,
        kind: ExitKind,
        node: &impl Spanned,
    ) {
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
        self.exit(kind, node, &BTreeSet::new());
        self.loops = saved;
        self.state = None;
    }

    /// `break Err(..)` out of the innermost `loop`: notes which of the
    /// claims open at the loop's entry are released on this path.
    fn note_err_break(&mut self, b: &syn::ExprBreak) {
        let gives_err = matches!(b.expr.as_deref().map(strip_paren),
            Some(Expr::Call(c)) if matches!(strip_paren(&c.func), Expr::Path(p) if p.path.is_ident("Err")));
        let depth = self.loops.len();
        let open = self.open_now();
        let Some(frame) = self.loop_err_breaks.last_mut() else {
            return;
        };
        if !gives_err || b.label.is_some() || frame.depth != depth || self.state.is_none() {
            return;
        }
        let released: BTreeSet<usize> = frame.entry_open.difference(&open).copied().collect();
        frame.released = Some(match frame.released.take() {
            Some(before) => before.intersection(&released).copied().collect(),
            None => released,
        });
    }

    /// `return` (or `bail!`) here: the path leaves the body.
    fn early_return(&mut self, node: &impl Spanned) {
        self.exit(ExitKind::Return, node, &BTreeSet::new());
        if self.closure == 0 {
            self.state = None;
        }
    }

    /// `bail!(..)` returns an error; `ensure!(cond, ..)` returns one when
    /// `cond` fails, which for a test of the claim itself means "not claimed".
    fn error_macro(&mut self, name: &str, args: &[Expr], node: &impl Spanned) {
        let before = self.claims.len();
        for a in args {
            self.expr(a);
        }
        if name == "bail" {
            self.early_return(node);
            return;
        }
        let mut exclude: BTreeSet<usize> = (before..self.claims.len()).collect();
        if let Some((id, _)) = args.first().and_then(|c| self.tested_claim(c)) {
            self.claims[id].tested = true;
            exclude.insert(id);
        }
        self.exit(ExitKind::Return, node, &exclude);
    }

    pub(super) fn closure_body(&mut self, c: &syn::ExprClosure) {
        self.detached(|w| {
            w.tail = true;
            w.expr(&c.body);
        });
    }

    pub(super) fn call(&mut self, c: &syn::ExprCall, expr: &Expr) -> BTreeSet<usize> {
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
        let last = last_ident(&p.path);
        // A closure held in a binding runs where it is called: a panic in
        // it leaves the function with the claims held.
        let local = (p.path.get_ident())
            .and_then(|name| self.local_closures.get(&name.to_string()).cloned());
        if let Some(cl) = local.filter(|_| self.closure_calls < MAX_CLOSURE_CALLS) {
            for a in &c.args {
                self.expr(a);
            }
            self.closure_calls += 1;
            self.run_block(|w| {
                w.expr(&cl.body);
            });
            self.closure_calls -= 1;
            return none;
        }
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
            self.exit(ExitKind::Panic(path), expr, &BTreeSet::new());
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
    pub(super) fn run_arg(&mut self, a: &Expr) {
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

    pub(super) fn method_call(&mut self, m: &syn::ExprMethodCall, expr: &Expr) -> BTreeSet<usize> {
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
            // A closure bound earlier and handed over by name (`let release
            // = |e| { store.release(&k); e }; .. .map_err(release)?`) is
            // that closure (also lent: `.map_err(&release)`).
            let held = match strip_ref(a) {
                Expr::Path(p) if error_handler => (p.path.get_ident())
                    .and_then(|n| self.local_closures.get(&n.to_string()).cloned()),
                _ => None,
            };
            let held = held.map(|cl| Expr::Closure((*cl).clone()));
            match held.as_ref().unwrap_or(a) {
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
                // An async closure makes a future: its body runs when
                // that is polled, wherever it is.
                Expr::Closure(cl)
                    if RUNS_CLOSURE_HERE.contains(&method.as_str())
                        && cl.asyncness.is_none()
                        && !matches!(strip_paren(&cl.body), Expr::Async(_)) =>
                {
                    self.run_block(|w| {
                        w.expr(&cl.body);
                    });
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
                self.exit(ExitKind::Unwrap(method.clone()), expr, &exclude);
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
        let completes = self.vocab.is_complete_verb(&method);
        if !on_result.is_empty() && (completes || self.vocab.is_release_verb(&method)) {
            for id in on_result {
                if completes {
                    self.claims[id].guarded = true;
                }
                if let Some(state) = &mut self.state {
                    state.open.remove(&id);
                }
            }
            return err;
        }
        let op = (self.classify_chain(m))
            .or_else(|| self.classify_dynamo_chain(m))
            .or_else(|| {
                let args = super::ops::request_object_args(&m.args);
                (self.classify(&method, &args)).or_else(|| self.classify_command_array(&args))
            })
            .or_else(|| self.classify_on_record(&method, &m.receiver));
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

    pub(super) fn mac(&mut self, mac: &syn::Macro, node: &impl Spanned) {
        let name = last_ident(&mac.path);
        match name.as_str() {
            "panic" | "unreachable" | "todo" | "unimplemented" => {
                self.exit(ExitKind::Panic(format!("{name}!")), node, &BTreeSet::new());
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
            if name == "bail" {
                self.early_return(node);
            }
            return;
        };
        if matches!(name.as_str(), "bail" | "ensure") {
            self.error_macro(&name, &args, node);
            return;
        }
        // `write!(slot, "{}", key)`: the buffer now holds the key.
        if matches!(name.as_str(), "write" | "writeln") {
            if let Some((buffer, parts)) = args.split_first() {
                self.append_to(place_name(buffer), parts.iter());
            }
        }
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
                        let table = self.writes_idempotency_table(&text.value());
                        let op = Op::on_key(kind, verb.to_string(), roots, key_text, table);
                        let names: Vec<String> = args.iter().skip(1).flat_map(idents).collect();
                        let tx = self.tx_of(&names);
                        self.apply(op, self.site(node), tx);
                    }
                }
                return;
            }
        }
        let before = self.claims.len();
        for a in args.iter() {
            self.expr(a);
        }
        if matches!(name.as_str(), "assert" | "assert_eq" | "assert_ne") {
            // An assertion on the claim's own outcome fails only when no claim was taken.
            let exclude: BTreeSet<usize> = (before..self.claims.len()).collect();
            self.exit(ExitKind::Panic(format!("{name}!")), node, &exclude);
        }
    }
}

/// Whether a `let … else` pattern takes a result's or option's success
/// (`Ok(v)`, `Some(v)`), so that its `else` runs on the error.
fn matches_success(pat: &Pat) -> bool {
    let pat = match pat {
        Pat::Type(t) => &*t.pat,
        other => other,
    };
    matches!(pat, Pat::TupleStruct(ts) if ts.path.segments.last().is_some_and(|s| s.ident == "Ok" || s.ident == "Some"))
}
