//! Recognising claims, completions and releases (by verb, by SQL text or
//! redis command, by a response written under the key) and linking them
//! to their claim by key: the roots a key argument derives from, or the
//! claim's own result binding.

use std::collections::{BTreeSet, HashSet};
use std::rc::Rc;

use syn::visit::Visit;
use syn::Expr;

use super::names::idents;
use super::walker::{Claim, Walker};
use crate::analysis::format_string;
use crate::analysis::syntax::{
    last_ident, macro_args, path_segments, path_string, source_line, strip_parens, strip_ref,
};
use crate::analysis::value::Site;
use crate::analysis::vocab::{
    words, writes_with_options, PREPARED_EXECUTE_METHODS, RESPONSE_WORDS, RESPONSE_WRITE_METHODS,
};

/// What a call does to the claim of its key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum OpKind {
    Claim,
    Complete,
    Release,
}

/// A claim, completion or release found at a call.
pub(super) struct Op {
    pub(super) kind: OpKind,
    pub(super) verb: String,
    pub(super) roots: BTreeSet<String>,
    pub(super) key_text: String,
    /// Claims whose result bindings the call mentions (`store.complete(lease, ..)`).
    pub(super) results: BTreeSet<usize>,
    /// Of those, claims whose result binding a part of is passed
    /// (`etcd.unlock(lock.key())`): a handle released by hand.
    pub(super) handle_parts: BTreeSet<usize>,
    /// A SQL statement on a table named for idempotency (`INSERT INTO
    /// idempotency_records … 'in_progress'`): a claim of an idempotency
    /// record whatever its key is called (rules.md, IDEM004).
    pub(super) idempotency_table: bool,
    /// A `SET … NX GET` (fred's `set(k, v, ex, Some(NX), true)`): its result
    /// is the value that was there before, so `Some` means "not claimed".
    pub(super) returns_previous: bool,
}

impl Op {
    /// An operation on the key `roots` (source text `key_text`), linked to
    /// no claim's result binding.
    pub(super) fn on_key(
        kind: OpKind,
        verb: String,
        roots: BTreeSet<String>,
        key_text: String,
        idempotency_table: bool,
    ) -> Op {
        Op {
            kind,
            verb,
            roots,
            key_text,
            results: BTreeSet::new(),
            handle_parts: BTreeSet::new(),
            idempotency_table,
            returns_previous: false,
        }
    }
}

impl Walker<'_> {
    // ---- keys -----------------------------------------------------------------

    /// The key-ish roots an expression derives from: key-named bindings,
    /// client keys, key fields, `scoped(..)` calls and key header reads.
    pub(super) fn roots(&self, expr: &Expr) -> BTreeSet<String> {
        struct Roots<'w, 'a> {
            walker: &'w Walker<'a>,
            out: BTreeSet<String>,
            /// Local closures being read through (a closure shadowing one
            /// of its name calls that one, not itself).
            inlined: Vec<String>,
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
                    // A field some record literal is given a scoped key in,
                    // or declared to hold one: a key by flow, before what
                    // its name says (`cmd.key` of `key: ScopedKey`).
                    if self.walker.unit.key_fields.contains(&name.to_string()) {
                        let root = format!("{}{}", super::findings::SCOPED_ROOT, source_line(f));
                        self.out.insert(root);
                        return;
                    }
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
                        syn::visit::visit_expr_call(self, c);
                        // Marked: a key built by a key constructor is an
                        // idempotency key by flow, whatever its parts are
                        // called (`scoped(.., &item.idempotency_key)`).
                        self.out.insert(format!(
                            "{}{}",
                            super::findings::SCOPED_ROOT,
                            source_line(c)
                        ));
                        return;
                    }
                    if self.walker.unit.key_makers.contains(&last_ident(&p.path)) {
                        self.out.insert(format!(
                            "{}{}",
                            super::findings::KEY_MAKER_ROOT,
                            source_line(c)
                        ));
                    }
                    // A closure bound in this body gives what its body
                    // makes (`let scope = |r| scoped(.., r, &key);`).
                    let local = p.path.get_ident().map(|i| i.to_string());
                    let local = local.filter(|n| !self.inlined.contains(n));
                    if let Some(name) = local {
                        if let Some(closure) = self.walker.local_closures.get(&name).cloned() {
                            self.inlined.push(name);
                            self.visit_expr(&closure.body);
                            self.inlined.pop();
                        }
                    }
                }
                syn::visit::visit_expr_call(self, c);
            }
            fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
                if self.walker.unit.key_makers.contains(&m.method.to_string()) {
                    self.out.insert(format!(
                        "{}{}",
                        super::findings::KEY_MAKER_ROOT,
                        source_line(m)
                    ));
                }
                // A read of the key header by any accessor (`headers.get(..)`,
                // an in-house request's `p.header(..)`): one argument, the
                // header's name; a write would be handed its value too.
                if m.args.len() == 1 {
                    if let Some(Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    })) = m.args.first()
                    {
                        if self.walker.vocab.is_key_header(&s.value()) {
                            self.out.insert(format!(
                                "{}{}",
                                super::findings::HEADER_ROOT,
                                s.value().to_ascii_lowercase()
                            ));
                        }
                    }
                }
                syn::visit::visit_expr_method_call(self, m);
            }
            fn visit_macro(&mut self, mac: &'ast syn::Macro) {
                if let Some(args) = macro_args(mac) {
                    for arg in args.iter() {
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
            inlined: Vec::new(),
        };
        v.visit_expr(expr);
        v.out
    }

    /// Claims whose result bindings `expr` mentions.
    pub(super) fn result_mentions(&self, expr: &Expr) -> BTreeSet<usize> {
        idents(expr)
            .iter()
            .filter_map(|n| self.claim_results.get(n).copied())
            .collect()
    }

    /// The claim whose result binding `expr` reads a part of
    /// (`lock.key()`, `lease.id`).
    fn handle_part(&self, expr: &Expr) -> Option<usize> {
        let base = match strip_ref(expr) {
            Expr::MethodCall(m) => &*m.receiver,
            Expr::Field(f) => &*f.base,
            _ => return None,
        };
        let Expr::Path(p) = strip_ref(base) else {
            return None;
        };
        self.claim_results
            .get(&p.path.get_ident()?.to_string())
            .copied()
    }

    /// The first key-ish argument: its roots and text.
    pub(super) fn key_arg<'e>(
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
    pub(super) fn classify(&self, name: &str, args: &[&Expr]) -> Option<Op> {
        let results: BTreeSet<usize> = args.iter().flat_map(|a| self.result_mentions(a)).collect();
        let handle_parts: BTreeSet<usize> =
            (args.iter()).filter_map(|a| self.handle_part(a)).collect();
        // The configured vocabulary extends the built-in verbs.
        let write = RESPONSE_WRITE_METHODS.contains(&name) || writes_with_options(name);
        // `set_options(&key, v, SetOptions::default().conditional_set(ExistenceCheck::NX))`,
        // fred's `set(&key, v, None, Some(SetOptions::NX), false)`.
        let nx = write
            && args
                .iter()
                .any(|a| sets_only_if_absent(a, &self.nx_options));
        let verb = if nx { "SET … NX" } else { name };
        let returns_previous = nx && returns_previous_value(name, args);
        let kind = if self.vocab.is_claim_verb(name) || nx {
            OpKind::Claim
        } else if self.vocab.is_complete_verb(name) {
            OpKind::Complete
        } else if self.vocab.is_release_verb(name) {
            OpKind::Release
        } else if write
            && (args.iter().skip(1).any(|a| mentions_response(a))
                || self.overwrites_held_claim(args))
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
                verb: verb.to_string(),
                roots,
                key_text,
                results,
                handle_parts,
                idempotency_table: false,
                returns_previous,
            }),
            None if kind != OpKind::Claim && !results.is_empty() => Some(Op {
                kind,
                verb: name.to_string(),
                roots: BTreeSet::new(),
                key_text: String::new(),
                results,
                handle_parts,
                idempotency_table: false,
                returns_previous,
            }),
            None => None,
        }
    }

    /// An operation a record bound from a key performs on itself
    /// (`claim.insert_if_absent(db)` .. `claim.mark_completed(db, ..)` where
    /// `let claim = IdempotencyClaim { idem_key: key, .. }`): the record is
    /// the key. Only a local bound from a key-ish value counts, not a name,
    /// and not a lock of it (`guard.lock()` is a mutex's).
    pub(super) fn classify_on_record(&self, name: &str, receiver: &Expr) -> Option<Op> {
        let Expr::Path(p) = strip_ref(receiver) else {
            return None;
        };
        let local = p.path.get_ident()?.to_string();
        let bound_from_key = self.keys.get(&local).is_some_and(|r| r.len() > 1);
        if !bound_from_key || matches!(name, "lock" | "try_lock" | "read" | "write") {
            return None;
        }
        self.classify(name, &[receiver])
    }

    /// A write of a value under a key whose claim is open on this path
    /// (`store.set(key.clone(), json_value, 200)`): whatever the value is
    /// called, it replaces the in-progress marker, unless it is one itself.
    fn overwrites_held_claim(&self, args: &[&Expr]) -> bool {
        let Some((key, values)) = args.split_first() else {
            return false;
        };
        if values.is_empty() || values.iter().any(|v| marks_in_progress(v)) {
            return false;
        }
        let roots = self.roots(key);
        !roots.is_empty()
            && self
                .open_now()
                .iter()
                .any(|&id| !self.claims[id].roots.is_disjoint(&roots))
    }

    /// A sqlx query or redis command chain ending in an executing call.
    /// A redis command written out as an array of its words, whatever the
    /// client calls the method that sends it (`db.cmd(&[b"SET", k, v,
    /// b"NX"])`, `conn.send(&["DEL", key])`, or the command word apart:
    /// `run_command("SET", vec![k, v, "NX"])`): `SET … NX` and `SETNX`
    /// claim the key after the command word, `SET` completes it, `DEL`
    /// releases it.
    pub(super) fn classify_command_array(&self, args: &[&Expr]) -> Option<Op> {
        let listed = |a: &&Expr| matches!(strip_ref(a), Expr::Array(_) | Expr::Macro(_));
        if !args.iter().any(listed) {
            return None;
        }
        let mut held = Vec::new();
        let words = flat_binds(args, &mut held);
        let command = word_text(words.first()?)?.to_ascii_uppercase();
        let nx = words
            .iter()
            .skip(2)
            .any(|w| word_text(w).is_some_and(|t| t.eq_ignore_ascii_case("NX")));
        let (kind, verb) = match command.as_str() {
            "SET" if nx => (OpKind::Claim, "SET … NX"),
            "SETNX" => (OpKind::Claim, "SETNX"),
            "SET" => (OpKind::Complete, "SET"),
            "DEL" | "UNLINK" => (OpKind::Release, "DEL"),
            _ => return None,
        };
        let (roots, key_text) = self.key_arg(std::iter::once(*words.get(1)?))?;
        Some(Op::on_key(kind, verb.to_string(), roots, key_text, false))
    }

    pub(super) fn classify_chain(&self, m: &syn::ExprMethodCall) -> Option<Op> {
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
        if let Some(op) = self.classify_positional_sql(m) {
            return Some(op);
        }
        // The call that ends a chain of binds sends its statement, whatever
        // it is named (an in-house pool's `prep(SQL).bind(k).run()`).
        let ends_binds = m.method != "bind"
            && matches!(strip_parens(&m.receiver), Expr::MethodCall(r) if r.method == "bind");
        if !EXEC.contains(&m.method.to_string().as_str()) && !ends_binds {
            // A command built apart and handed to the call that sends it
            // (darkredis' `conn.run_command(Command::new("SET").arg(k)..)`).
            return m.args.iter().find_map(|a| {
                let (root, binds) = command_chain(strip_ref(a))?;
                is_command_constructor(root).then(|| self.redis_command_op(root, binds))?
            });
        }
        let mut cur: &Expr = &m.receiver;
        loop {
            match cur {
                Expr::Path(_) | Expr::MethodCall(_)
                    if PREPARED_EXECUTE_METHODS.contains(&m.method.to_string().as_str())
                        && self.statement_of(cur).is_some() =>
                {
                    // `session.prepare(SQL).await?.execute((a, b))`, or a
                    // binding holding the prepared statement: the executing
                    // call's arguments are the binds.
                    let text = self.statement_of(cur)?;
                    let args: Vec<&Expr> = m.args.iter().collect();
                    let mut held = Vec::new();
                    return self.op_on_binds(sql_kind(&text)?, &text, flat_binds(&args, &mut held));
                }
                Expr::MethodCall(inner) => cur = &inner.receiver,
                Expr::Paren(p) => cur = &p.expr,
                Expr::Await(a) => cur = &a.base,
                Expr::Try(t) => cur = &t.expr,
                _ => break,
            }
        }
        // A statement started on a connection (`conn.query(SQL).bind(k)
        // .execute()`, mysql_async's and in-house pools'), not by a function.
        let is_statement =
            |e: &Expr| (self.statement_text(e)).is_some_and(|t| sql_kind(&t).is_some());
        if let Some((text, binds)) = query_method_chain(&m.receiver, is_statement) {
            let text = self.statement_text(text)?;
            return self.op_on_binds(sql_kind(&text)?, &text, binds);
        }
        let (root, binds) = command_chain(&m.receiver)?;
        if is_command_constructor(root) {
            return self.redis_command_op(root, binds);
        }
        let Expr::Path(func) = &*root.func else {
            return None;
        };
        let last = func.path.segments.last()?.ident.to_string();
        if !matches!(last.as_str(), "query" | "query_as" | "query_scalar") {
            return None;
        }
        let text = self.statement_text(root.args.first()?)?;
        self.op_on_binds(sql_kind(&text)?, &text, binds)
    }

    /// A redis command (`cmd("SET")`, `Command::new("SET")`) and its
    /// arguments: `SET … NX` and `SETNX` claim, `SET` of a response or over
    /// a held claim completes, `DEL` releases.
    fn redis_command_op(&self, root: &syn::ExprCall, binds: Vec<&Expr>) -> Option<Op> {
        let text = self.statement_text(root.args.first()?)?;
        let cmd = text.trim().to_ascii_uppercase();
        // A command's words are text or bytes (`.arg(b"NX")`).
        let nx = binds
            .iter()
            .any(|b| word_text(b).is_some_and(|t| t.eq_ignore_ascii_case("NX")));
        let (kind, verb) = match cmd.as_str() {
            "SET" if nx => (OpKind::Claim, "SET … NX"),
            "SETNX" => (OpKind::Claim, "SETNX"),
            // Whatever the value is called, it replaces the marker of
            // a claim open on this path, as for `store.set(key, v)`.
            "SET"
                if binds.iter().skip(1).any(|b| mentions_response(b))
                    || self.overwrites_held_claim(&binds) =>
            {
                (OpKind::Complete, "SET")
            }
            "DEL" | "UNLINK" => (OpKind::Release, "DEL"),
            _ => return None,
        };
        self.op_on_binds((kind, verb.to_string()), &text, binds)
    }

    /// A statement run with its binds beside it: tokio-postgres'
    /// `client.execute(SQL, &[&a, &b])`, rusqlite's `conn.execute(SQL,
    /// params![a, b])`, cdrs' `query_with_values(CQL, query_values!(..))`;
    /// any method given a statement's text (a literal or a constant) that
    /// claims, completes or releases a record, and its binds.
    fn classify_positional_sql(&self, m: &syn::ExprMethodCall) -> Option<Op> {
        if m.args.len() < 2 {
            return None;
        }
        let text = self.statement_text(m.args.first()?)?;
        let kind = sql_kind(&text)?;
        let args: Vec<&Expr> = m.args.iter().skip(1).collect();
        let mut held = Vec::new();
        let binds = flat_binds(&args, &mut held);
        if binds.is_empty() {
            return None;
        }
        self.op_on_binds(kind, &text, binds)
    }

    /// The text of a SQL statement written here or held in a constant.
    fn statement_text(&self, expr: &Expr) -> Option<String> {
        lit_text(expr).or_else(|| match strip_ref(expr) {
            Expr::Path(p) => (self.unit.sql_consts)
                .get(&crate::analysis::syntax::last_ident(&p.path))
                .cloned(),
            _ => None,
        })
    }

    /// The statement a prepared statement holds: a `prepare`-like call's
    /// (`session.prepare(SQL).await?`, `client.prepare_cached(SQL)`), or a
    /// binding's that holds one.
    pub(super) fn statement_of(&self, expr: &Expr) -> Option<String> {
        match strip_ref(expr) {
            Expr::Await(a) => self.statement_of(&a.base),
            Expr::Try(t) => self.statement_of(&t.expr),
            Expr::MethodCall(call) if call.method.to_string().starts_with("prepare") => {
                self.statement_text(call.args.first()?)
            }
            Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|ident| self.statements.get(&ident.to_string()))
                .cloned(),
            _ => None,
        }
    }

    /// The claim, completion or release of the first bind that holds a key.
    fn op_on_binds(
        &self,
        (kind, verb): (OpKind, String),
        text: &str,
        binds: Vec<&Expr>,
    ) -> Option<Op> {
        // Of a row's columns (`c.tenant_id, .., c.idem_key`), the one named
        // like the key names the claim.
        let named = |b: &&&Expr| match strip_ref(b) {
            Expr::Field(f) => {
                matches!(&f.member, syn::Member::Named(n) if self.is_key_name(&n.to_string()))
            }
            Expr::Path(p) => p
                .path
                .get_ident()
                .is_some_and(|i| self.is_key_name(&i.to_string())),
            _ => false,
        };
        let idempotency_table = self.writes_idempotency_table(text);
        // A row of an idempotency table is keyed by its binds whatever
        // they are called (`params![row]`): the first bound place names it.
        let (mut roots, mut key_text) = match self.key_arg(binds.iter().copied()) {
            Some(found) => found,
            None if idempotency_table => binds.iter().find_map(|b| {
                let name = crate::analysis::syntax::place_name(strip_ref(b))?;
                Some((BTreeSet::from([name]), source_line(strip_ref(b))))
            })?,
            None => return None,
        };
        if let Some((_, text)) = binds.iter().find(named).and_then(|b| self.key_arg([*b])) {
            key_text = text;
        }
        // The binds are one row's key: a completion of the same row shares them.
        for bind in &binds {
            roots.extend(self.roots(bind));
        }
        Some(Op::on_key(kind, verb, roots, key_text, idempotency_table))
    }

    /// Whether a SQL statement names a table of idempotency records.
    pub(super) fn writes_idempotency_table(&self, text: &str) -> bool {
        let tables = crate::analysis::sql::sql_tables(&text.to_ascii_lowercase());
        tables.iter().any(|t| self.vocab.is_idempotency_table(t))
    }

    /// The transaction binding (or enclosing transaction closure) a call runs in.
    pub(super) fn tx_of(&self, names: &[String]) -> Option<String> {
        if self.tx_closure > 0 {
            return Some("transaction".to_string());
        }
        names
            .iter()
            .find(|n| self.tx_bindings.contains(*n))
            .cloned()
    }

    pub(super) fn apply(&mut self, op: Op, site: Site, tx: Option<String>) {
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
                    idempotency_table: op.idempotency_table,
                    returns_previous: op.returns_previous,
                    raii: false,
                    tested: false,
                    exits: Vec::new(),
                    completion: None,
                    frame: self.frame,
                });
                self.claim_at.insert(site, id);
                if let Some(state) = &mut self.state {
                    state.open.insert(id);
                }
            }
            OpKind::Complete | OpKind::Release => {
                // A lock released through a part of its handle
                // (`etcd.unlock(lock.key())`) is released by hand, not on drop: the
                // binding is no guard, and an exit before it leaks the claim.
                if op.kind == OpKind::Release {
                    for &id in &op.handle_parts {
                        if let Some(claim) = self.claims.get_mut(id) {
                            claim.raii = false;
                        }
                    }
                }
                // So is a lock on an idempotency key by flow whose handle is
                // given to the completion or release (`claims.mark_done(&key,
                // held)`): it ends there. (A lease on a key known by name
                // keeps the benefit of the doubt.)
                for &id in &op.results {
                    if let Some(claim) = self.claims.get_mut(id) {
                        if claim.roots.iter().any(|r| super::findings::root_by_flow(r)) {
                            claim.raii = false;
                        }
                    }
                }
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
}

/// Whether a string literal can make a query or redis command a claim
/// (`INSERT … 'in_progress'`, `SETNX`, `NX`): the pre-filter's view of
/// `Walker::classify_chain` and the `query!` macros.
pub fn is_claim_literal(text: &str) -> bool {
    let trimmed = text.trim();
    if trimmed.eq_ignore_ascii_case("setnx") || trimmed.eq_ignore_ascii_case("nx") {
        return true;
    }
    // DynamoDB's conditional put (`claims/dynamo.rs`).
    if trimmed.starts_with("attribute_not_exists(") {
        return true;
    }
    trimmed
        .get(..6)
        .is_some_and(|head| head.eq_ignore_ascii_case("insert"))
        && matches!(sql_kind(text), Some((OpKind::Claim, _)))
}

/// What a SQL statement does to an idempotency record (claim, completion,
/// release) and the label a finding shows for it.
pub(super) fn sql_kind(text: &str) -> Option<(OpKind, String)> {
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

/// The binds of an executing call's arguments, one level of a tuple,
/// array, slice reference or macro (`params![..]`) opened; `held` keeps the
/// macros' parsed arguments.
fn flat_binds<'e>(args: &[&'e Expr], held: &'e mut Vec<Option<Rc<Vec<Expr>>>>) -> Vec<&'e Expr> {
    for arg in args {
        if let Expr::Macro(mac) = strip_ref(arg) {
            held.push(macro_args(&mac.mac));
        }
    }
    let mut macros = held.iter();
    let mut out = Vec::new();
    for arg in args {
        match strip_ref(arg) {
            Expr::Tuple(t) => out.extend(t.elems.iter()),
            Expr::Array(a) => out.extend(a.elems.iter()),
            Expr::Macro(_) => {
                if let Some(Some(params)) = macros.next() {
                    out.extend(params.iter());
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// The constants of the unit holding a SQL statement that claims,
/// completes or releases a record, with their text.
pub(super) fn sql_consts(
    index: &crate::analysis::index::CrateIndex<'_>,
) -> std::collections::HashMap<String, String> {
    (index.consts.iter())
        .filter_map(|(name, defs)| {
            let [def] = defs.as_slice() else {
                return None;
            };
            let text = lit_text(def.expr)?;
            sql_kind(&text).map(|_| (name.clone(), text))
        })
        .collect()
}

impl Walker<'_> {
    /// Whether a written attribute value is the request's response (by its
    /// names or a completed marker), not an in-progress marker.
    pub(super) fn writes_response(&self, expr: &Expr) -> bool {
        mentions_response(expr) && !marks_in_progress(expr)
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

/// Whether a written value is an in-progress marker (`"pending"`,
/// `Status::InProgress`, `State::Processing`).
fn marks_in_progress(expr: &Expr) -> bool {
    const MARKERS: &[&str] = &[
        "progress",
        "pending",
        "processing",
        "started",
        "running",
        "locked",
        "claimed",
        "inflight",
        "flight",
    ];
    let has_marker = |text: &str| words(text).iter().any(|w| MARKERS.contains(&w.as_str()));
    if let Some(text) = lit_text(expr) {
        let lower = text.to_ascii_lowercase();
        return MARKERS.iter().any(|m| lower.contains(m));
    }
    idents(expr).iter().any(|n| has_marker(n))
}

/// Whether a write option makes it happen only if the key is absent
/// (redis `NX` as an option value or literal, `.nx()` on an options
/// builder, or a binding `nx_options` holding one).
/// Whether a conditional set also returns the previous value: Redis's
/// `GET` option (`.arg("GET")`), fred's trailing `get: true` flag.
fn returns_previous_value(name: &str, args: &[&Expr]) -> bool {
    let fred_get = name == "set"
        && args.len() == 5
        && matches!(args.last().map(|a| strip_ref(a)),
            Some(Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(b), .. })) if b.value);
    fred_get
        || args
            .iter()
            .any(|a| word_text(a).is_some_and(|w| w.eq_ignore_ascii_case("get")))
}

pub(super) fn sets_only_if_absent(expr: &Expr, nx_options: &HashSet<String>) -> bool {
    struct Nx<'o>(bool, &'o HashSet<String>);
    impl<'ast> Visit<'ast> for Nx<'_> {
        fn visit_ident(&mut self, i: &'ast proc_macro2::Ident) {
            if i == "NX" || i == "nx" || self.1.contains(&i.to_string()) {
                self.0 = true;
            }
        }
        fn visit_lit_str(&mut self, s: &'ast syn::LitStr) {
            if s.value().trim().eq_ignore_ascii_case("nx") {
                self.0 = true;
            }
        }
    }
    let mut v = Nx(false, nx_options);
    v.visit_expr(expr);
    v.0
}

/// The arguments of a store operation. One request object built in place
/// (etcd-rs' `client.put(PutRequest::new(key, body))`,
/// `client.lock(LockRequest::new(key, lease))`) stands for the arguments
/// it is built from: they are the operation's key and value.
pub(super) fn request_object_args(
    args: &syn::punctuated::Punctuated<Expr, syn::token::Comma>,
) -> Vec<&Expr> {
    if let [only] = args.iter().collect::<Vec<_>>().as_slice() {
        if let Expr::Call(call) = strip_ref(only) {
            if let Expr::Path(func) = &*call.func {
                if let [.., ty, ctor] = path_segments(&func.path).as_slice() {
                    let request = ty.ends_with("Request") || ty.ends_with("Input");
                    if request && ctor == "new" && !call.args.is_empty() {
                        return call.args.iter().collect();
                    }
                }
            }
        }
    }
    args.iter().collect()
}

/// A chain of `.bind(..)`/`.arg(..)` calls down to the call that starts
/// it (`query(SQL)`, `cmd("SET")`, `Command::new("SET")`): that call and
/// the arguments, in order.
fn command_chain(mut cur: &Expr) -> Option<(&syn::ExprCall, Vec<&Expr>)> {
    let mut binds: Vec<&Expr> = Vec::new();
    loop {
        match cur {
            Expr::MethodCall(inner) => {
                if matches!(inner.method.to_string().as_str(), "bind" | "arg") {
                    binds.extend(inner.args.iter().rev());
                }
                cur = &inner.receiver;
            }
            Expr::Paren(p) => cur = &p.expr,
            Expr::Await(a) => cur = &a.base,
            Expr::Try(t) => cur = &t.expr,
            Expr::Call(root) => {
                binds.reverse();
                return Some((root, binds));
            }
            _ => return None,
        }
    }
}

/// The statement a chain of binds starts with where a method starts it
/// (`conn.query(SQL).bind(a).bind(b)`): the statement and the binds.
fn query_method_chain(
    mut cur: &Expr,
    is_statement: impl Fn(&Expr) -> bool,
) -> Option<(&Expr, Vec<&Expr>)> {
    let mut binds: Vec<&Expr> = Vec::new();
    loop {
        match cur {
            Expr::MethodCall(inner) => {
                let method = inner.method.to_string();
                // Or any method handed the statement itself (an in-house
                // pool's `conn.sql("INSERT ..")`): what it starts is known
                // by the SQL, not by the method's name.
                let named = matches!(method.as_str(), "query" | "query_as" | "query_scalar");
                if named || inner.args.first().is_some_and(&is_statement) {
                    binds.reverse();
                    return Some((inner.args.first()?, binds));
                }
                if method == "bind" {
                    binds.extend(inner.args.iter().rev());
                }
                cur = &inner.receiver;
            }
            Expr::Paren(p) => cur = &p.expr,
            Expr::Await(a) => cur = &a.base,
            Expr::Try(t) => cur = &t.expr,
            _ => return None,
        }
    }
}

/// `cmd(..)`, `redis::cmd(..)` or a command type's constructor
/// (`Command::new(..)`, `Cmd::new(..)`).
fn is_command_constructor(root: &syn::ExprCall) -> bool {
    let Expr::Path(func) = &*root.func else {
        return false;
    };
    match path_segments(&func.path).as_slice() {
        [.., last] if last == "cmd" => true,
        [.., ty, last] => last == "new" && (ty == "Cmd" || ty.ends_with("Command")),
        _ => false,
    }
}

/// The text of a string or byte-string literal (`"SET"`, `b"NX"`).
fn word_text(expr: &Expr) -> Option<String> {
    match strip_ref(expr) {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::ByteStr(b),
            ..
        }) => String::from_utf8(b.value()).ok(),
        other => lit_text(other),
    }
}

pub(super) fn lit_text(expr: &Expr) -> Option<String> {
    match strip_ref(expr) {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
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
}
