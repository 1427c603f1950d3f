//! The value-flow evaluator: walks one function body in source order and
//! computes, for every expression, the abstract [`Value`] it carries, and
//! records every place where a value reaches a key position.

mod facts;

use std::collections::HashMap;

use proc_macro2::Span as PmSpan;
use syn::spanned::Spanned;
use syn::{Expr, Pat, Stmt};

use super::format_string::{self, FormatArg};
use super::hashing;
use super::index::{CrateIndex, FnDef};
// `span_of` stays reachable here: the pipeline and older passes import it from `eval`.
pub use super::syntax::span_of;
use super::syntax::{last_ident, macro_args, path_string, place_name, short_text, strip_ref};
use super::value::{
    Construct, ConstructKind, KeySource, Origin, Placeholder, Site, SqlChain, Value,
};
use super::vocab::{
    Component, Vocabulary, OPAQUE_GETTERS, STRONG_STORE_WORDS, TRANSPARENT_METHODS,
};

mod payload_server;

/// Recursion bound for expressions: deeper code is not followed (never a crash).
const MAX_DEPTH: usize = 200;
/// At most this many pending key positions are kept per function summary.
const MAX_PENDING: usize = 32;

/// A value that reaches a key position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyEvent {
    /// The value.
    pub value: Value,
    /// The key expression.
    pub site: Site,
    /// A real storage call: a raw client key counts here. Name-based
    /// positions (`let cache_key = …`) only count constructed keys.
    pub raw_ok: bool,
    /// An idempotency store (request ids count as client keys here).
    pub strong: bool,
    /// Which store the key reaches, when it is a storage call: the receiver's
    /// name (`idem_store`, `session`), `redis`, or `sql:<table>`. Equal names
    /// across the crate are taken to be the same store.
    pub store: Option<String>,
    /// Parameters of the enclosing function, flowing into the key, whose
    /// names say they may hold a client key (`key`, `idem_key`): whether the
    /// key is a client key is only known at the call site.
    pub key_params: u64,
}

impl KeyEvent {
    /// The client key this value carries, when it counts here: a request id
    /// is a client key only where it reaches an idempotency store.
    pub fn client_key(&self) -> Option<(&Origin, KeySource)> {
        let (origin, source) = self.value.client_key.as_ref()?;
        (*source == KeySource::IdempotencyKey || self.strong).then_some((origin, *source))
    }
}

/// See [`Value::signature`].
pub type ValueSignature = (bool, bool, bool, bool, u64, bool, bool, bool, usize, u8);

/// One alternative of a branch, evaluated from the branch's start environment.
type Branch<'x, 'a> = Box<dyn Fn(&mut Evaluator<'a>) -> Value + 'x>;

/// What callers need to know about a function.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// The returned value, with parameters symbolic.
    pub ret: Value,
    /// Key positions reached by parameters, with parameters symbolic.
    pub pending: Vec<KeyEvent>,
    /// Parameter names (receiver excluded).
    pub param_names: Vec<Option<String>>,
    /// Crate-local functions whose summaries this one used.
    pub callees: Vec<usize>,
    /// Values fed into a hasher parameter (`hasher.update(field)` where
    /// `hasher` is parameter N), with parameters symbolic.
    pub absorbs: Vec<(usize, Value)>,
}

impl Summary {
    /// A cheap signature to detect a fixpoint.
    pub fn signature(&self) -> (Vec<ValueSignature>, usize) {
        let mut sig = vec![self.ret.signature()];
        sig.extend(self.pending.iter().map(|e| e.value.signature()));
        // Callees are not part of what callers see.
        sig.extend(self.absorbs.iter().map(|(_, v)| v.signature()));
        (sig, self.pending.len())
    }
}

/// Evaluates one function.
pub struct Evaluator<'a> {
    index: &'a CrateIndex<'a>,
    vocab: &'a Vocabulary,
    summaries: &'a [Summary],
    file: u32,
    self_ty: Option<String>,
    scopes: Vec<HashMap<String, Value>>,
    events: Vec<KeyEvent>,
    pending: Vec<KeyEvent>,
    ret: Value,
    depth: usize,
    const_stack: Vec<String>,
    callees: Vec<usize>,
    param_names: Vec<Option<String>>,
    key_param_mask: u64,
    absorbs: Vec<(usize, Value)>,
}

fn bits(mask: u64) -> impl Iterator<Item = usize> {
    (0..64).filter(move |i| mask & (1u64 << i) != 0)
}

/// Peels references, parens, `?`, `.await` and clones to find the name of
/// the thing a method is called on (`state.redis.clone()` → `redis`).
fn receiver_name(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Path(p) => Some(last_ident(&p.path)),
        Expr::Field(f) => match &f.member {
            syn::Member::Named(name) => Some(name.to_string()),
            syn::Member::Unnamed(_) => receiver_name(&f.base),
        },
        Expr::MethodCall(m) => {
            let name = m.method.to_string();
            if TRANSPARENT_METHODS.contains(&name.as_str())
                || matches!(
                    name.as_str(),
                    "lock"
                        | "read"
                        | "write"
                        | "get_mut"
                        | "borrow_mut"
                        | "get_connection"
                        | "get_multiplexed_async_connection"
                        | "get_async_connection"
                        | "acquire"
                        | "begin"
                        | "conn"
                        | "connection"
                        | "await"
                )
            {
                receiver_name(&m.receiver).or(Some(name))
            } else {
                Some(name)
            }
        }
        Expr::Reference(r) => receiver_name(&r.expr),
        Expr::Paren(p) => receiver_name(&p.expr),
        Expr::Try(t) => receiver_name(&t.expr),
        Expr::Await(a) => receiver_name(&a.base),
        Expr::Unary(u) => receiver_name(&u.expr),
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => Some(last_ident(&p.path)),
            _ => None,
        },
        _ => None,
    }
}

fn is_self(expr: &Expr) -> bool {
    match expr {
        Expr::Path(p) => p.path.is_ident("self"),
        Expr::Reference(r) => is_self(&r.expr),
        Expr::Paren(p) => is_self(&p.expr),
        _ => false,
    }
}

/// Whether a type is a request extractor of a client key
/// (`TypedHeader<IdempotencyKey>`, `Header<XIdempotencyKey>`, `IdempotencyKeyHeader`).
/// A plain `&IdempotencyKey` parameter is a value handed in by a caller, not
/// a read of the request: callers decide what it is.
fn type_mentions_client_key(ty: &syn::Type, vocab: &Vocabulary) -> bool {
    let text = quote::ToTokens::to_token_stream(ty).to_string();
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .collect();
    let key_type = words
        .iter()
        .any(|word| word.ends_with("Key") && vocab.is_client_key_name(word));
    let extractor = words.iter().any(|w| {
        matches!(
            *w,
            "TypedHeader" | "Header" | "Extension" | "Headers" | "ReqData"
        ) || (w.ends_with("Header") && vocab.is_client_key_name(w.trim_end_matches("Header")))
    });
    key_type && extractor
        || words.iter().any(|w| {
            w.ends_with("KeyHeader") && vocab.is_client_key_name(w.trim_end_matches("Header"))
        })
}

const HEADER_SETTERS: &[&str] = &[
    "insert",
    "append",
    "header",
    "set",
    "typed_insert",
    "insert_header",
    "append_header",
    "with_header",
    "try_insert",
    "set_header",
];

const CLOSURE_METHODS: &[&str] = &[
    "map",
    "and_then",
    "map_or",
    "map_or_else",
    "unwrap_or_else",
    "or_else",
    "filter",
    "filter_map",
    "inspect",
    "then",
    "find",
    "find_map",
    "flat_map",
    "get_or_insert_with",
    "ok_or_else",
];

const LOG_MACROS: &[&str] = &[
    "println",
    "print",
    "eprintln",
    "eprint",
    "info",
    "debug",
    "warn",
    "error",
    "trace",
    "event",
    "span",
    "info_span",
    "debug_span",
    "warn_span",
    "error_span",
    "trace_span",
    "log",
    "panic",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "anyhow",
    "bail",
    "ensure",
    "eyre",
    "unreachable",
    "todo",
    "unimplemented",
    "matches",
    "instrument",
    "json",
    "include_str",
    "include_bytes",
    "env",
    "option_env",
    "cfg",
    "line",
    "file",
    "column",
    "module_path",
    "stringify",
    "compile_error",
    "tracing",
];

impl<'a> Evaluator<'a> {
    /// A fresh evaluator for a function in `file`.
    pub fn new(
        index: &'a CrateIndex<'a>,
        vocab: &'a Vocabulary,
        summaries: &'a [Summary],
        def: &FnDef<'_>,
    ) -> Self {
        Evaluator {
            index,
            vocab,
            summaries,
            file: def.file,
            self_ty: def.self_ty.clone(),
            scopes: vec![HashMap::new()],
            events: Vec::new(),
            pending: Vec::new(),
            ret: Value::empty(),
            depth: 0,
            const_stack: Vec::new(),
            callees: Vec::new(),
            param_names: Vec::new(),
            key_param_mask: 0,
            absorbs: Vec::new(),
        }
    }

    /// Evaluates a function; returns its summary and the key events found.
    pub fn run(mut self, def: &FnDef<'_>) -> (Summary, Vec<KeyEvent>) {
        let mut param_names = Vec::new();
        let mut index = 0usize;
        for input in &def.sig.inputs {
            let syn::FnArg::Typed(pat_type) = input else {
                continue;
            };
            let mut value = Value::empty();
            if index < 64 {
                value.params = 1u64 << index;
            }
            if type_mentions_client_key(&pat_type.ty, self.vocab) {
                value.client_key = Some((self.origin(&*pat_type.pat), KeySource::IdempotencyKey));
            }
            value.hasher = hashing::type_is_hasher(&pat_type.ty);
            param_names.push(match &*pat_type.pat {
                Pat::Ident(pi) => Some(pi.ident.to_string()),
                _ => None,
            });
            if index < 64
                && param_names
                    .last()
                    .and_then(|n| n.as_deref())
                    .is_some_and(|n| hashing::may_hold_client_key(n, self.vocab))
                || hashing::type_may_hold_key(&pat_type.ty)
            {
                self.key_param_mask |= 1u64 << index;
            }
            self.bind_pat(&pat_type.pat, value, None);
            index += 1;
        }
        self.param_names.clone_from(&param_names);
        let body = self.eval_block(def.block);
        let ret = self.ret.clone().union(&body);
        if self.vocab.is_key_maker_fn(&def.name) {
            if let Some(construct) = ret.construct {
                self.key_position(ret.clone(), construct.site, false, false);
            } else {
                self.key_maker_returns_hash(&def.name, &ret);
            }
        }
        let mut callees = std::mem::take(&mut self.callees);
        callees.sort_unstable();
        callees.dedup();
        let summary = Summary {
            ret,
            pending: std::mem::take(&mut self.pending),
            param_names,
            callees,
            absorbs: std::mem::take(&mut self.absorbs),
        };
        (summary, self.events)
    }

    fn site(&self, node: &impl Spanned) -> Site {
        Site {
            file: self.file,
            span: span_of(node.span()),
        }
    }

    fn origin(&self, node: &impl Spanned) -> Origin {
        Origin {
            site: self.site(node),
            text: short_text(node),
        }
    }

    // ---- environment ------------------------------------------------------

    fn lookup(&self, name: &str) -> Option<&Value> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn declare(&mut self, name: String, value: Value) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name, value);
        }
    }

    fn assign(&mut self, name: &str, value: Value) {
        for scope in self.scopes.iter_mut().rev() {
            if let Some(slot) = scope.get_mut(name) {
                *slot = value;
                return;
            }
        }
        self.declare(name.to_string(), value);
    }

    fn update(&mut self, name: &str, f: impl FnOnce(&mut Value)) {
        for scope in self.scopes.iter_mut().rev() {
            if let Some(slot) = scope.get_mut(name) {
                f(slot);
                return;
            }
        }
    }

    /// Runs `f` in a nested scope.
    fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        self.scopes.push(HashMap::new());
        let out = f(self);
        self.scopes.pop();
        out
    }

    /// Runs alternative branches from the same starting environment and
    /// merges what they did to it.
    fn branches(&mut self, arms: Vec<&dyn Fn(&mut Self) -> Value>) -> Value {
        let start = self.scopes.clone();
        let mut merged: Option<Vec<HashMap<String, Value>>> = None;
        let mut result = Value::empty();
        for arm in arms {
            self.scopes = start.clone();
            let value = arm(self);
            result = result.union(&value);
            merged = Some(match merged {
                None => self.scopes.clone(),
                Some(mut acc) => {
                    for (level, scope) in self.scopes.iter().enumerate() {
                        if let Some(acc_scope) = acc.get_mut(level) {
                            for (name, v) in scope {
                                let joined = match acc_scope.get(name) {
                                    Some(prev) => prev.clone().union(v),
                                    None => v.clone(),
                                };
                                acc_scope.insert(name.clone(), joined);
                            }
                        }
                    }
                    acc
                }
            });
        }
        if let Some(scopes) = merged {
            self.scopes = scopes;
        }
        result
    }

    // ---- naming -----------------------------------------------------------

    /// Adds what a name says about a value: a client key, a request id or a
    /// scope component.
    fn enrich_by_name(&self, value: &mut Value, name: &str, node: &impl Spanned) {
        self.enrich_payload_and_server(value, name, node);
        if value.client_key.is_none() && value.construct.is_none() && !value.scoped {
            if self.vocab.is_client_key_name(name) {
                value.client_key = Some((self.origin(node), KeySource::IdempotencyKey));
                return;
            }
            if self.vocab.is_request_id_name(name) {
                value.client_key = Some((self.origin(node), KeySource::RequestId));
                return;
            }
        }
        if let Some(component) = self.vocab.component_of_name(name) {
            if value.client_key.is_none() || value.component(component).is_none() {
                value.add_component(component, self.origin(node));
            }
            value.attach_fallbacks();
        }
    }

    // ---- key positions ----------------------------------------------------

    fn key_position(&mut self, value: Value, site: Site, raw_ok: bool, strong: bool) {
        self.key_position_in(value, site, raw_ok, strong, None);
    }

    /// A key position of the store named `store` (see [`KeyEvent::store`]).
    fn key_position_in(
        &mut self,
        value: Value,
        site: Site,
        raw_ok: bool,
        strong: bool,
        store: Option<String>,
    ) {
        // A payload hash is the key by itself: a key-named binding holding
        // one counts even when nothing was constructed.
        let hash_only = value.client_key.is_none() && value.payload_hash.is_some();
        if !raw_ok && value.construct.is_none() && !hash_only {
            return;
        }
        let key_params = value.params & self.key_param_mask;
        let event = KeyEvent {
            value,
            site,
            raw_ok,
            strong,
            store,
            key_params,
        };
        if event.value.params != 0 && self.pending.len() < MAX_PENDING {
            self.pending.push(event.clone());
        }
        // A scoped key carries no client-key taint, but a default or a
        // sanitiser in its components is still reportable (IDEM005/IDEM006).
        let scoped_facts = event.value.scoped
            && (!event.value.fallbacks.is_empty() || !event.value.sanitized.is_empty());
        let interesting = event.value.client_key.is_some()
            || scoped_facts
            || event.value.payload_hash.is_some()
            || event.value.server_id.is_some()
            || event.value.client_ns;
        if interesting && !self.events.contains(&event) {
            self.events.push(event);
        }
    }

    // ---- patterns ---------------------------------------------------------

    fn bind_pat(&mut self, pat: &Pat, value: Value, hint: Option<&str>) {
        match pat {
            Pat::Ident(pi) => {
                let name = pi.ident.to_string();
                let mut value = value;
                if let Some(hint) = hint {
                    self.enrich_by_name(&mut value, hint, &pi.ident);
                }
                self.enrich_by_name(&mut value, &name, &pi.ident);
                if let Some((origin, _)) = value.client_key.as_mut() {
                    // Help texts name the variable the user holds the key in.
                    if origin.site.file == self.file && value.construct.is_none() {
                        origin.text = name.clone();
                    }
                }
                if let Some((_, sub)) = &pi.subpat {
                    self.bind_pat(sub, value.clone(), None);
                }
                self.declare(name, value);
            }
            Pat::Tuple(t) => self.bind_elems(t.elems.iter(), value),
            Pat::TupleStruct(ts) => {
                let mut value = value;
                let ty = last_ident(&ts.path);
                if ty.ends_with("Key")
                    && self.vocab.is_client_key_name(&ty)
                    && value.client_key.is_none()
                {
                    value.client_key = Some((self.origin(pat), KeySource::IdempotencyKey));
                }
                if ts.elems.len() == 1 {
                    if let Some(inner) = ts.elems.first() {
                        self.bind_pat(inner, value, None);
                    }
                } else {
                    self.bind_elems(ts.elems.iter(), value);
                }
            }
            Pat::Struct(ps) => {
                for field in &ps.fields {
                    let member = match &field.member {
                        syn::Member::Named(name) => Some(name.to_string()),
                        syn::Member::Unnamed(_) => None,
                    };
                    let mut v = value.clone();
                    v.elems = None;
                    self.bind_pat(&field.pat, v, member.as_deref());
                }
            }
            Pat::Reference(r) => self.bind_pat(&r.pat, value, hint),
            Pat::Paren(p) => self.bind_pat(&p.pat, value, hint),
            Pat::Type(pt) => {
                let mut value = value;
                if value.client_key.is_none() && type_mentions_client_key(&pt.ty, self.vocab) {
                    value.client_key = Some((self.origin(&*pt.pat), KeySource::IdempotencyKey));
                }
                self.bind_pat(&pt.pat, value, hint);
            }
            Pat::Slice(s) => {
                for elem in &s.elems {
                    self.bind_pat(elem, value.clone(), None);
                }
            }
            Pat::Or(o) => {
                for case in &o.cases {
                    self.bind_pat(case, value.clone(), hint);
                }
            }
            _ => {}
        }
    }

    fn bind_elems<'p>(&mut self, pats: impl ExactSizeIterator<Item = &'p Pat>, value: Value) {
        let len = pats.len();
        match value.elems.clone() {
            Some(elems) if elems.len() == len => {
                for (pat, v) in pats.zip(elems) {
                    self.bind_pat(pat, v, None);
                }
            }
            _ => {
                let mut shared = value;
                shared.elems = None;
                shared.construct = None;
                for pat in pats {
                    self.bind_pat(pat, shared.clone(), None);
                }
            }
        }
    }

    // ---- statements -------------------------------------------------------

    /// Evaluates a block in its own scope; returns the value of its tail.
    pub fn eval_block(&mut self, block: &syn::Block) -> Value {
        self.scoped(|this| this.eval_stmts(&block.stmts))
    }

    fn eval_stmts(&mut self, stmts: &[Stmt]) -> Value {
        let mut last = Value::empty();
        for stmt in stmts {
            last = Value::empty();
            match stmt {
                Stmt::Local(local) => self.eval_local(local),
                Stmt::Item(_) => {}
                Stmt::Expr(expr, semi) => {
                    let value = self.eval(expr);
                    let value = self.finish_sql(value);
                    if semi.is_none() {
                        last = value;
                    }
                }
                Stmt::Macro(m) => {
                    self.note_assertion(&m.mac);
                    let value = self.eval_macro(&m.mac, m.mac.span());
                    if m.semi_token.is_none() {
                        last = value;
                    }
                }
            }
        }
        last
    }

    fn eval_local(&mut self, local: &syn::Local) {
        let Some(init) = &local.init else {
            self.bind_pat(&local.pat, Value::empty(), None);
            return;
        };
        let value = self.eval(&init.expr);
        let value = self.finish_sql(value);
        if let Some((_, diverge)) = &init.diverge {
            self.eval(diverge);
        }
        let mut value = value;
        if let Some(name) = pat_ident(&local.pat) {
            if self.vocab.is_key_position_name(&name) {
                let site = self.site(&*init.expr);
                let keyed = self.hash_becomes_key(&mut value, &name, site);
                self.key_position(keyed, site, false, false);
            }
        }
        self.bind_pat(&local.pat, value, None);
    }

    // ---- expressions ------------------------------------------------------

    /// Evaluates an expression.
    pub fn eval(&mut self, expr: &Expr) -> Value {
        if self.depth >= MAX_DEPTH {
            return Value::empty();
        }
        self.depth += 1;
        let value = self.eval_inner(expr);
        let value = self.note_facts(expr, value);
        self.depth -= 1;
        value
    }

    fn eval_inner(&mut self, expr: &Expr) -> Value {
        match expr {
            Expr::Lit(lit) => self.eval_lit(&lit.lit),
            Expr::Path(p) => self.eval_path(p),
            Expr::Reference(r) => self.eval(&r.expr),
            Expr::Paren(p) => self.eval(&p.expr),
            Expr::Group(g) => self.eval(&g.expr),
            Expr::Try(t) => self.eval(&t.expr),
            Expr::Await(a) => self.eval(&a.base),
            Expr::Cast(c) => self.eval(&c.expr),
            Expr::Unary(u) => {
                let v = self.eval(&u.expr);
                match u.op {
                    syn::UnOp::Deref(_) => v,
                    _ => Value::empty(),
                }
            }
            Expr::Block(b) => self.eval_block(&b.block),
            Expr::Async(a) => self.eval_block(&a.block),
            Expr::Unsafe(u) => self.eval_block(&u.block),
            Expr::TryBlock(t) => self.eval_block(&t.block),
            Expr::Const(c) => self.eval_block(&c.block),
            Expr::Array(a) => {
                let elems: Vec<Value> = a.elems.iter().map(|e| self.eval(e)).collect();
                self.array_value(elems, expr)
            }
            Expr::Repeat(r) => self.eval(&r.expr),
            Expr::Tuple(t) => {
                let elems: Vec<Value> = t.elems.iter().map(|e| self.eval(e)).collect();
                if elems.len() < 2 {
                    return elems.into_iter().next().unwrap_or_default();
                }
                let mut value = Value::derived(elems.iter());
                value.concat = None;
                if value.is_key_material() {
                    value.construct = Some(Construct {
                        kind: ConstructKind::Tuple,
                        site: self.site(expr),
                    });
                }
                value.elems = Some(elems);
                value
            }
            Expr::Field(f) => {
                let base = self.eval(&f.base);
                match &f.member {
                    syn::Member::Unnamed(index) => match &base.elems {
                        Some(elems) => elems.get(index.index as usize).cloned().unwrap_or_default(),
                        None => base,
                    },
                    syn::Member::Named(name) => {
                        let mut value = base;
                        value.elems = None;
                        value.sql = None;
                        value.hasher = false;
                        self.enrich_by_name(&mut value, &name.to_string(), f);
                        self.entity_id_field(&mut value, &f.base, &name.to_string(), f);
                        value
                    }
                }
            }
            Expr::Index(i) => {
                self.eval(&i.index);
                let mut v = self.eval(&i.expr);
                v.elems = None;
                v
            }
            Expr::Range(r) => {
                if let Some(s) = &r.start {
                    self.eval(s);
                }
                if let Some(e) = &r.end {
                    self.eval(e);
                }
                Value::empty()
            }
            Expr::Let(l) => {
                let v = self.eval(&l.expr);
                self.bind_pat(&l.pat, v, None);
                Value::empty()
            }
            Expr::If(i) => self.eval_if(i),
            Expr::Match(m) => {
                let scrutinee = self.eval(&m.expr);
                let arms: Vec<Branch<'_, 'a>> = m
                    .arms
                    .iter()
                    .map(|arm| {
                        let scrutinee = scrutinee.clone();
                        Box::new(move |this: &mut Self| {
                            this.scoped(|this| {
                                this.bind_pat(&arm.pat, scrutinee.clone(), None);
                                if let Some((_, guard)) = &arm.guard {
                                    this.eval(guard);
                                }
                                this.eval(&arm.body)
                            })
                        }) as Branch<'_, 'a>
                    })
                    .collect();
                let refs: Vec<&dyn Fn(&mut Self) -> Value> =
                    arms.iter().map(|b| b.as_ref()).collect();
                self.branches(refs)
            }
            Expr::ForLoop(f) => {
                let iter = self.eval(&f.expr);
                self.scoped(|this| {
                    let mut item = iter;
                    item.elems = None;
                    this.bind_pat(&f.pat, item, None);
                    this.eval_block(&f.body);
                });
                Value::empty()
            }
            Expr::While(w) => {
                self.scoped(|this| {
                    this.eval(&w.cond);
                    this.eval_block(&w.body);
                });
                Value::empty()
            }
            Expr::Loop(l) => self.eval_block(&l.body),
            Expr::Break(b) => b.expr.as_ref().map(|e| self.eval(e)).unwrap_or_default(),
            Expr::Return(r) => {
                if let Some(e) = &r.expr {
                    let v = self.eval(e);
                    let v = self.finish_sql(v);
                    self.ret = std::mem::take(&mut self.ret).union(&v);
                }
                Value::empty()
            }
            Expr::Yield(y) => {
                if let Some(e) = &y.expr {
                    self.eval(e);
                }
                Value::empty()
            }
            Expr::Closure(c) => self.eval_closure(c, None),
            Expr::Assign(a) => {
                let v = self.eval(&a.right);
                let v = self.finish_sql(v);
                self.assign_to(&a.left, v);
                Value::empty()
            }
            Expr::Binary(b) => self.eval_binary(b, expr),
            Expr::Struct(s) => self.eval_struct(s, expr),
            Expr::Call(c) => {
                let v = self.eval_call(c, expr);
                self.after_call(v, &c.func)
            }
            Expr::MethodCall(m) => {
                let v = self.eval_method_call(m, expr);
                self.after_method_call(v, m, expr)
            }
            Expr::Macro(m) => self.eval_macro(&m.mac, expr.span()),
            _ => Value::empty(),
        }
    }

    fn eval_if(&mut self, i: &syn::ExprIf) -> Value {
        let then_branch = |this: &mut Self| {
            this.scoped(|this| {
                this.eval(&i.cond);
                this.narrow(&i.cond, true);
                this.eval_block(&i.then_branch)
            })
        };
        let else_branch = |this: &mut Self| {
            this.narrow(&i.cond, false);
            match &i.else_branch {
                Some((_, e)) => this.eval(e),
                None => Value::empty(),
            }
        };
        self.branches(vec![&then_branch, &else_branch])
    }

    fn eval_lit(&mut self, lit: &syn::Lit) -> Value {
        let text = match lit {
            syn::Lit::Str(s) => s.value(),
            syn::Lit::ByteStr(b) => String::from_utf8_lossy(&b.value()).into_owned(),
            _ => return Value::empty(),
        };
        let mut value = Value::empty();
        if self.vocab.is_key_header(&text) {
            value.key_header_name = Some(KeySource::IdempotencyKey);
        } else if self.vocab.is_request_id_header(&text) {
            value.key_header_name = Some(KeySource::RequestId);
        } else if self.vocab.literal_names_route(&text) {
            value.route = Some(self.origin(lit));
        }
        value.server_ns = self.vocab.has_server_namespace_prefix(&text);
        value.literal = Some(text);
        value
    }

    fn eval_path(&mut self, p: &syn::ExprPath) -> Value {
        if p.qself.is_none() && p.path.segments.len() == 1 {
            let name = last_ident(&p.path);
            if let Some(v) = self.lookup(&name) {
                return v.clone();
            }
        }
        let name = last_ident(&p.path);
        if let Some(v) = self.eval_const(&name) {
            return v;
        }
        let mut value = Value::empty();
        if name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        {
            // An unresolved constant such as `headers::IDEMPOTENCY_KEY`.
            let upper = name.to_ascii_uppercase();
            if upper.contains("IDEMPOTENCY") || upper.contains("IDEM_KEY") {
                value.key_header_name = Some(KeySource::IdempotencyKey);
            }
            return value;
        }
        if name != "self" && name != "Self" {
            self.enrich_by_name(&mut value, &name, p);
        }
        hashing::namespace_path(&p.path, &mut value);
        value
    }

    fn eval_const(&mut self, name: &str) -> Option<Value> {
        let index = self.index;
        let def = index.consts.get(name)?.first()?;
        if self.const_stack.iter().any(|n| n == name) || self.const_stack.len() > 8 {
            return None;
        }
        self.const_stack.push(name.to_string());
        let saved = self.file;
        self.file = def.file;
        let value = self.eval(def.expr);
        self.file = saved;
        self.const_stack.pop();
        Some(value)
    }

    fn assign_to(&mut self, place: &Expr, value: Value) {
        match place {
            Expr::Path(p) if p.path.segments.len() == 1 => {
                let name = last_ident(&p.path);
                if self.vocab.is_key_position_name(&name) {
                    let site = self.site(place);
                    self.key_position(value.clone(), site, false, false);
                }
                self.assign(&name, value);
            }
            Expr::Field(f) => {
                if let syn::Member::Named(name) = &f.member {
                    if self.vocab.is_key_position_name(&name.to_string()) {
                        let site = self.site(place);
                        self.key_position(value, site, false, false);
                    }
                }
            }
            Expr::Unary(u) => self.assign_to(&u.expr, value),
            Expr::Paren(p) => self.assign_to(&p.expr, value),
            _ => {}
        }
    }

    fn eval_binary(&mut self, b: &syn::ExprBinary, expr: &Expr) -> Value {
        let left = self.eval(&b.left);
        let right = self.eval(&b.right);
        match b.op {
            syn::BinOp::Add(_) => self.concat_value(&[left, right], expr),
            syn::BinOp::AddAssign(_) => {
                let joined = self.concat_value(&[left, right], expr);
                self.assign_to(&b.left, joined);
                Value::empty()
            }
            _ => Value::empty(),
        }
    }

    /// The value of an ad-hoc concatenation of `parts` at `node`.
    fn concat_value(&self, parts: &[Value], node: &impl Spanned) -> Value {
        let site = self.site(node);
        self.concat_value_at(parts, site)
    }

    fn array_value(&self, elems: Vec<Value>, node: &impl Spanned) -> Value {
        let mut value = Value::derived(elems.iter());
        if value.is_key_material() {
            value.construct = Some(Construct {
                kind: ConstructKind::Array,
                site: self.site(node),
            });
        }
        value.elems = Some(elems);
        value
    }

    fn eval_struct(&mut self, s: &syn::ExprStruct, expr: &Expr) -> Value {
        let mut value = Value::empty();
        for field in &s.fields {
            let mut v = self.eval(&field.expr);
            v = self.finish_sql(v);
            if let syn::Member::Named(name) = &field.member {
                let name = name.to_string();
                if self.vocab.is_key_position_name(&name) {
                    let site = self.site(&field.expr);
                    self.key_position(v.clone(), site, false, false);
                }
                self.enrich_by_name(&mut v, &name, &field.member);
                hashing::struct_field_facts(&mut v, &name, self.vocab);
            }
            value.join_as_part(&v);
        }
        if let Some(rest) = &s.rest {
            let v = self.eval(rest);
            value.join_as_part(&v);
        }
        value.concat = None;
        value.scoped = false;
        if value.is_key_material() {
            value.construct = Some(Construct {
                kind: ConstructKind::Struct,
                site: self.site(expr),
            });
        }
        value
    }

    fn eval_closure(&mut self, c: &syn::ExprClosure, arg: Option<Value>) -> Value {
        self.scoped(|this| {
            for input in &c.inputs {
                this.bind_pat(input, arg.clone().unwrap_or_default(), None);
            }
            // A `return` inside a closure returns from the closure.
            let saved_ret = std::mem::take(&mut this.ret);
            let body = this.eval(&c.body);
            let inner_ret = std::mem::replace(&mut this.ret, saved_ret);
            body.union(&inner_ret)
        })
    }

    // ---- calls ------------------------------------------------------------

    fn eval_call(&mut self, c: &syn::ExprCall, expr: &Expr) -> Value {
        let Expr::Path(func) = &*c.func else {
            let f = self.eval(&c.func);
            let args: Vec<Value> = c.args.iter().map(|a| self.eval(a)).collect();
            let mut v = Value::derived(args.iter());
            v.join(&f);
            return v;
        };
        let path = path_string(&func.path);
        let name = last_ident(&func.path);
        let args: Vec<Value> = c.args.iter().map(|a| self.eval(a)).collect();
        let arg_exprs: Vec<&Expr> = c.args.iter().collect();

        if self.vocab.is_key_constructor(&path) {
            return self.scoped_constructor(&path, &args, &arg_exprs, expr);
        }
        // `IdempotencyKey::parse(..)`, `IdempotencyKey::from_headers(..)`.
        if let Some(ty) = func.path.segments.iter().rev().nth(1) {
            let ty = ty.ident.to_string();
            if ty.ends_with("Key") && self.vocab.is_client_key_name(&ty) {
                return Value {
                    client_key: Some((self.origin(expr), KeySource::IdempotencyKey)),
                    ..Value::default()
                };
            }
        }
        if matches!(
            name.as_str(),
            "query" | "query_as" | "query_scalar" | "query_with" | "query_as_with"
        ) {
            if let Some(sql) = args.first().and_then(|a| a.literal.clone()) {
                return self.sql_root(&sql, arg_exprs[0]);
            }
        }
        let header_name_ctor = matches!(
            name.as_str(),
            "from_static"
                | "from_bytes"
                | "from_str"
                | "from_name"
                | "new"
                | "from"
                | "try_from"
                | "from_lowercase"
        );
        if !header_name_ctor && args.iter().any(|a| a.key_header_name.is_some()) {
            // `header_value(&req, "Idempotency-Key")`.
            let source = args.iter().find_map(|a| a.key_header_name);
            return Value {
                client_key: source.map(|s| (self.origin(expr), s)),
                ..Value::default()
            };
        }
        let segments: Vec<String> = func
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        if let Some(call) = hashing::classify_call(&segments, args.len()) {
            return self.hash_call(call, &args, &arg_exprs, expr);
        }
        // Crate-local functions: apply their summaries.
        let ids = self.index.resolve_path(&segments, self.self_ty.as_deref());
        if !ids.is_empty() {
            // `Type::method(receiver, args..)`: the first argument is `self`.
            let skip = usize::from(self.index.fns[ids[0]].has_receiver());
            let args = args.get(skip..).unwrap_or_default();
            let exprs = arg_exprs.get(skip..).unwrap_or_default();
            return self.apply(&ids, args, exprs, expr);
        }
        if name == "Err" {
            // Error values never become keys; what they mention does not matter.
            return Value::empty();
        }
        if args.len() == 1 && is_wrapper_call(&name, &segments) {
            // `Some(x)`, `Box::new(x)`, `String::from(x)`: the value itself.
            return args.into_iter().next().unwrap_or_default();
        }
        if !segments
            .iter()
            .any(|s| s.chars().next().is_some_and(|c| c.is_uppercase()))
            || args.len() == 1
        {
            // An unknown function: its result depends on its inputs, but is
            // not the key they were building.
            let mut v = Value::derived(args.iter());
            v.construct = None;
            v.concat = None;
            v.concat_params.clear();
            return v;
        }
        let mut v = Value::derived(args.iter());
        let key_type = func.path.segments.iter().rev().nth(1).is_some_and(|s| {
            let ty = s.ident.to_string();
            ty.contains("Key") || ty.contains("Scope")
        });
        if (key_type || name.chars().next().is_some_and(|c| c.is_uppercase()))
            && v.is_key_material()
        {
            // A tuple-struct key such as `CacheKey(tenant, key)`.
            v.concat = None;
            v.construct = Some(Construct {
                kind: ConstructKind::Struct,
                site: self.site(expr),
            });
        }
        v
    }

    /// `idem_scope::scoped(tenant, principal, route, key)` and friends.
    fn scoped_constructor(
        &mut self,
        path: &str,
        args: &[Value],
        exprs: &[&Expr],
        expr: &Expr,
    ) -> Value {
        let mut value = Value {
            scoped: true,
            construct: Some(Construct {
                kind: ConstructKind::Call,
                site: self.site(expr),
            }),
            ..Value::default()
        };
        for (i, component) in Component::ALL.iter().enumerate() {
            let Some(arg) = exprs.get(i) else { continue };
            let literal = args.get(i).and_then(|a| a.literal.clone());
            match literal {
                Some(text) if self.vocab.is_placeholder(&text) => {
                    value.placeholders.push(Placeholder {
                        component: *component,
                        origin: self.origin(*arg),
                    })
                }
                _ => value.add_component(*component, self.origin(*arg)),
            }
        }
        for arg in args {
            value.params |= arg.params;
        }
        self.constructor_facts(path, args, &mut value);
        hashing::constructor_namespace(path, args, &mut value);
        if !value.placeholders.is_empty() {
            let key_origin = exprs
                .get(3)
                .map(|e| self.origin(*e))
                .unwrap_or_else(|| self.origin(expr));
            value.client_key = Some((key_origin, KeySource::IdempotencyKey));
        }
        value
    }

    /// A call whose argument names the idempotency-key header reads the key.
    fn header_getter(&self, args: &[Value], setter: bool, expr: &Expr) -> Option<Value> {
        if setter || args.len() != 1 {
            return None;
        }
        let source = args[0].key_header_name?;
        Some(Value {
            client_key: Some((self.origin(expr), source)),
            ..Value::default()
        })
    }

    /// Applies the summaries of crate-local functions `ids` at a call site.
    fn apply(&mut self, ids: &[usize], args: &[Value], exprs: &[&Expr], call: &Expr) -> Value {
        let call_site = self.site(call);
        let arg_sites: Vec<Site> = exprs.iter().map(|e| self.site(*e)).collect();
        let mut result = Value::empty();
        let summaries = self.summaries;
        let param_names = ids
            .first()
            .and_then(|id| summaries.get(*id))
            .map(|s| s.param_names.clone())
            .unwrap_or_default();
        let args = &self.argument_facts(&param_names, args)[..];
        for &id in ids {
            self.callees.push(id);
            let Some(summary) = summaries.get(id) else {
                continue;
            };
            // Name-based parameter positions: `fn save(cache_key: &str)`.
            for (i, name) in summary.param_names.iter().enumerate() {
                if let (Some(name), Some(arg), Some(site)) = (name, args.get(i), arg_sites.get(i)) {
                    if self.vocab.is_key_position_name(name) {
                        self.key_position(arg.clone(), *site, false, false);
                    }
                }
            }
            for event in &summary.pending {
                let (value, site) =
                    substitute(&event.value, args, call_site, &arg_sites, event.site);
                self.key_position_in(value, site, event.raw_ok, event.strong, event.store.clone());
            }
            self.apply_absorbs(&summary.absorbs, args, exprs, call_site, &arg_sites);
            let (ret, _) = substitute(&summary.ret, args, call_site, &arg_sites, call_site);
            result = result.union(&ret);
        }
        // The key enters this function at the call: labels and help point here.
        if let Some((origin, _)) = result.client_key.as_mut() {
            if origin.site.file != call_site.file || !args.iter().any(|a| a.client_key.is_some()) {
                *origin = self.origin(call);
            }
        }
        result
    }

    fn eval_method_call(&mut self, m: &syn::ExprMethodCall, expr: &Expr) -> Value {
        let method = m.method.to_string();
        let recv = self.eval(&m.receiver);
        let arg_exprs: Vec<&Expr> = m.args.iter().collect();

        // Closure-taking adapters: the closure sees the receiver's value.
        if CLOSURE_METHODS.contains(&method.as_str()) {
            return self.closure_method(&method, recv, &arg_exprs);
        }

        let args: Vec<Value> = m.args.iter().map(|a| self.eval(a)).collect();

        if let Some(v) = self.hash_method(&method, &recv, &args, &m.receiver, &arg_exprs, expr) {
            return v;
        }

        if let Some(turbofish) = &m.turbofish {
            let text = quote::ToTokens::to_token_stream(turbofish).to_string();
            if text
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w.ends_with("Key") && self.vocab.is_client_key_name(w))
            {
                return Value {
                    client_key: Some((self.origin(expr), KeySource::IdempotencyKey)),
                    ..Value::default()
                };
            }
        }

        let setter = HEADER_SETTERS.contains(&method.as_str()) && args.len() >= 2;
        if args.first().is_some_and(|a| a.key_header_name.is_some()) {
            if let Some(v) = self.header_getter(&args, setter, expr) {
                return v;
            }
            return recv;
        }

        // SQL: `query(SQL).bind(a).bind(b)`, `client.query_one(SQL, &[&a, &b])`.
        if method == "bind" || method == "push_bind" {
            let mut value = recv;
            if let (Some(chain), Some(arg), Some(arg_expr)) =
                (value.sql.as_mut(), args.first(), arg_exprs.first())
            {
                chain.binds.push((arg.clone(), self.site(*arg_expr)));
            }
            return value;
        }
        if matches!(
            method.as_str(),
            "query"
                | "query_one"
                | "query_opt"
                | "query_raw"
                | "execute"
                | "execute_raw"
                | "prepare_cached"
        ) && args.len() >= 2
        {
            if let Some(sql) = args[0].literal.clone() {
                let mut chain = self.sql_root(&sql, arg_exprs[0]);
                if let (Some(c), Some(elems)) = (chain.sql.as_mut(), args[1].elems.as_ref()) {
                    let sites: Vec<Site> = match strip_ref(arg_exprs[1]) {
                        Expr::Array(a) => a.elems.iter().map(|e| self.site(e)).collect(),
                        Expr::Macro(_) | Expr::Reference(_) => {
                            vec![self.site(arg_exprs[1]); elems.len()]
                        }
                        other => vec![self.site(other); elems.len()],
                    };
                    for (v, site) in elems.iter().zip(sites) {
                        c.binds.push((v.clone(), site));
                    }
                }
                return self.finish_sql(chain);
            }
        }
        let recv = self.finish_sql(recv);

        // Storage calls: the first argument is the key.
        if self.vocab.is_store_method(&method) && !args.is_empty() {
            let name = receiver_name(&m.receiver).unwrap_or_default();
            let headers = name.to_ascii_lowercase().contains("header");
            let names_store = self.vocab.is_store_receiver(&name);
            let key = &args[0];
            let any_receiver = key.client_key.is_some() || key.payload_hash.is_some();
            if !headers && (names_store || any_receiver) && !is_self(&m.receiver) {
                let strong = names_store
                    && STRONG_STORE_WORDS
                        .iter()
                        .any(|s| name.to_lowercase().contains(s));
                let site = self.site(arg_exprs[0]);
                let store = Some(name.to_ascii_lowercase()).filter(|n| !n.is_empty());
                self.key_position_in(key.clone(), site, true, strong, store);
                return Value::empty();
            }
        }
        // redis: `cmd("SET").arg(&key)`.
        if method == "arg" && is_redis_cmd(&m.receiver) {
            if let (Some(key), Some(e)) = (args.first(), arg_exprs.first()) {
                let site = self.site(*e);
                self.key_position_in(key.clone(), site, true, false, Some("redis".to_string()));
            }
            return Value::empty();
        }

        // String building on a variable: `s.push_str(&key)`.
        if matches!(
            method.as_str(),
            "push_str" | "extend_from_slice" | "extend" | "insert_str" | "write_str" | "append"
        ) {
            if let (Some(arg), Some(var)) = (args.last(), place_name(&m.receiver)) {
                let site = self.site(expr);
                self.update(&var, |v| {
                    let before = v.clone();
                    v.join_as_part(arg);
                    v.mark_concat(&[arg], site);
                    if before.client_key.is_some() && v.concat.is_none() {
                        v.concat = Some(site);
                    }
                    if v.is_key_material() {
                        v.construct = Some(Construct {
                            kind: ConstructKind::Concat,
                            site,
                        });
                    }
                    v.scoped = false;
                });
            }
            return Value::empty();
        }
        if method == "push" {
            if let (Some(arg), Some(var)) = (args.first(), place_name(&m.receiver)) {
                let arg = arg.clone();
                self.update(&var, |v| {
                    v.join_as_part(&arg);
                    if let Some(elems) = v.elems.as_mut() {
                        elems.push(arg.clone());
                    }
                });
            }
            return Value::empty();
        }
        if matches!(method.as_str(), "join" | "concat") && args.len() <= 1 {
            let mut parts = vec![recv];
            parts.extend(args);
            return self.concat_value(&parts, expr);
        }
        if matches!(method.as_str(), "unwrap_or" | "or" | "get_or_insert") {
            let mut v = recv;
            for a in &args {
                v = v.union(a);
            }
            return v;
        }

        // Crate-local methods.
        let builtin =
            TRANSPARENT_METHODS.contains(&method.as_str()) || self.vocab.is_store_method(&method);
        if is_self(&m.receiver) || !builtin {
            let ids =
                self.index
                    .resolve_method(&method, is_self(&m.receiver), self.self_ty.as_deref());
            if !ids.is_empty() {
                return self.apply(&ids, &args, &arg_exprs, expr);
            }
        }

        if TRANSPARENT_METHODS.contains(&method.as_str()) {
            return recv;
        }
        if OPAQUE_GETTERS.contains(&method.as_str()) {
            return Value::empty();
        }
        let mut value = recv;
        value.elems = None;
        // An unknown method keeps where the text came from, not the key shape.
        value.construct = None;
        value.concat = None;
        value.concat_params.clear();
        value.sql = None;
        if self.vocab.is_client_key_name(&method) && !method.starts_with("set") {
            value
                .client_key
                .get_or_insert((self.origin(expr), KeySource::IdempotencyKey));
        } else if let Some(component) = self.vocab.component_of_name(&method) {
            value.add_component(component, self.origin(expr));
        }
        value
    }

    fn closure_method(&mut self, method: &str, recv: Value, args: &[&Expr]) -> Value {
        let mut result = Value::empty();
        let mut keep_recv = matches!(
            method,
            "unwrap_or_else"
                | "or_else"
                | "filter"
                | "inspect"
                | "get_or_insert_with"
                | "ok_or_else"
        );
        for (i, arg) in args.iter().enumerate() {
            match arg {
                Expr::Closure(c) => {
                    let input = if matches!(
                        method,
                        "unwrap_or_else" | "or_else" | "ok_or_else" | "get_or_insert_with"
                    ) || (method == "map_or_else" && i == 0)
                    {
                        Value::empty()
                    } else {
                        recv.clone()
                    };
                    let v = self.eval_closure(c, Some(input));
                    if method != "filter" && method != "inspect" && method != "ok_or_else" {
                        result = result.union(&v);
                    }
                }
                other => {
                    let v = self.eval(other);
                    if method == "map_or" && i == 0 {
                        result = result.union(&v);
                    } else if matches!(
                        method,
                        "map" | "and_then" | "then" | "filter_map" | "flat_map"
                    ) {
                        // A function path: `map(String::from)` keeps the value.
                        keep_recv = true;
                    }
                }
            }
        }
        if keep_recv {
            result = recv.union(&result);
        }
        result
    }

    // ---- SQL --------------------------------------------------------------

    fn sql_root(&self, sql: &str, node: &Expr) -> Value {
        let lower = sql.to_ascii_lowercase();
        let tables = sql_tables(&lower);
        let table = tables
            .iter()
            .find(|t| ["idempot", "dedup", "replay"].iter().any(|w| t.contains(w)))
            .cloned();
        let idempotency_table = table.is_some();
        let mut columns = Vec::new();
        for word in lower.split(|c: char| !c.is_ascii_alphanumeric() && c != '_') {
            if let Some(component) = self.vocab.component_of_name(word) {
                if !columns.iter().any(|(c, _)| *c == component)
                    && word != "path"
                    && word != "method"
                {
                    columns.push((component, self.origin(node)));
                }
            }
        }
        Value {
            literal: Some(sql.to_string()),
            sql: Some(Box::new(SqlChain {
                idempotency_table,
                table,
                columns,
                binds: Vec::new(),
            })),
            ..Value::default()
        }
    }

    /// A SQL chain stops growing: judge its binds as one key.
    fn finish_sql(&mut self, mut value: Value) -> Value {
        let Some(chain) = value.sql.take() else {
            return value;
        };
        if !chain.idempotency_table {
            return value;
        }
        let first_key = chain
            .binds
            .iter()
            .find(|(v, _)| v.client_key.is_some())
            .or_else(|| chain.binds.iter().find(|(v, _)| v.params != 0))
            .or_else(|| {
                chain
                    .binds
                    .iter()
                    .find(|(v, _)| v.server_id.is_some() || v.payload_hash.is_some())
            });
        let Some(first_key) = first_key else {
            return value;
        };
        let site = first_key.1;
        let mut key = Value::empty();
        for (v, _) in &chain.binds {
            key.join_as_part(v);
        }
        for (component, origin) in &chain.columns {
            key.add_component(*component, origin.clone());
        }
        key.concat = first_key.0.concat;
        key.construct = first_key.0.construct;
        key.scoped = chain.binds.iter().any(|(v, _)| v.scoped);
        let store = chain.table.as_ref().map(|t| format!("sql:{t}"));
        self.key_position_in(key, site, true, true, store);
        value
    }

    // ---- macros -----------------------------------------------------------

    fn eval_macro(&mut self, mac: &syn::Macro, span: PmSpan) -> Value {
        let name = last_ident(&mac.path);
        let Some(args) = macro_args(mac) else {
            return Value::empty();
        };
        let site = Site {
            file: self.file,
            span: span_of(span),
        };
        match name.as_str() {
            "format" | "format_args" => self.eval_format(&args, site),
            "write" | "writeln" => {
                let Some((dst, rest)) = args.split_first() else {
                    return Value::empty();
                };
                let v = self.eval_format(rest, site);
                if let Some(var) = place_name(dst) {
                    self.update(&var, |d| {
                        let had_key = d.client_key.is_some();
                        d.join_as_part(&v);
                        d.mark_concat(&[&v], site);
                        if had_key && d.concat.is_none() {
                            d.concat = Some(site);
                        }
                        if d.is_key_material() {
                            d.construct = Some(Construct {
                                kind: ConstructKind::Concat,
                                site,
                            });
                        }
                    });
                }
                Value::empty()
            }
            "vec" => {
                let elems: Vec<Value> = args.iter().map(|a| self.eval(a)).collect();
                let mut v = Value::derived(elems.iter());
                if v.is_key_material() {
                    v.construct = Some(Construct {
                        kind: ConstructKind::Array,
                        site,
                    });
                }
                v.elems = Some(elems);
                v
            }
            "dbg" => args.first().map(|a| self.eval(a)).unwrap_or_default(),
            "query" | "query_as" | "query_scalar" | "query_unchecked" | "query_as_unchecked" => {
                let Some(first) = args.first() else {
                    return Value::empty();
                };
                let sql_value = self.eval(first);
                let Some(sql) = sql_value.literal else {
                    return Value::empty();
                };
                let mut chain = self.sql_root(&sql, first);
                let rest: Vec<(Value, Site)> = args[1..]
                    .iter()
                    .filter(|a| !matches!(a, Expr::Path(p) if p.path.segments.len() > 1 && name.contains("as") && p.path.segments.len() == 1))
                    .map(|a| (self.eval(a), self.site(a)))
                    .collect();
                if let Some(c) = chain.sql.as_mut() {
                    c.binds.extend(rest);
                }
                self.finish_sql(chain)
            }
            _ if LOG_MACROS.contains(&name.as_str()) => Value::empty(),
            _ => {
                // Unknown macros: evaluate their arguments for key positions inside.
                for a in &args {
                    self.eval(a);
                }
                Value::empty()
            }
        }
    }

    fn eval_format(&mut self, args: &[Expr], site: Site) -> Value {
        let Some((fmt_expr, rest)) = args.split_first() else {
            return Value::empty();
        };
        let Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(fmt_lit),
            ..
        }) = fmt_expr
        else {
            let parts: Vec<Value> = args.iter().map(|a| self.eval(a)).collect();
            return self.concat_value_at(&parts, site);
        };
        let fmt = fmt_lit.value();
        let server_prefix = self.vocab.has_server_namespace_prefix(&fmt);
        let mut positional = Vec::new();
        let mut named: Vec<(String, Value)> = Vec::new();
        for arg in rest {
            match arg {
                Expr::Assign(a) => {
                    let name = match &*a.left {
                        Expr::Path(p) => last_ident(&p.path),
                        _ => String::new(),
                    };
                    let mut v = self.eval(&a.right);
                    self.enrich_by_name(&mut v, &name, &*a.left);
                    named.push((name, v));
                }
                other => positional.push(self.eval(other)),
            }
        }
        let parsed = format_string::parse(&fmt);
        let mut parts = Vec::new();
        let mut next = 0usize;
        for arg in &parsed.args {
            match arg {
                FormatArg::Next => {
                    if let Some(v) = positional.get(next) {
                        parts.push(v.clone());
                    }
                    next += 1;
                }
                FormatArg::Index(i) => {
                    if let Some(v) = positional.get(*i) {
                        parts.push(v.clone());
                    }
                }
                FormatArg::Named(name) => {
                    if let Some((_, v)) = named.iter().find(|(n, _)| n == name) {
                        parts.push(v.clone());
                    } else {
                        // Inline capture: `{tenant}`.
                        let mut v = self.lookup(name).cloned().unwrap_or_default();
                        if self.lookup(name).is_none() {
                            self.enrich_by_name(&mut v, name, fmt_lit);
                        }
                        parts.push(v);
                    }
                }
            }
        }
        for piece in &parsed.literals {
            if self.vocab.literal_names_route(piece) {
                parts.push(Value {
                    route: Some(self.origin(fmt_lit)),
                    ..Value::default()
                });
                break;
            }
        }
        let mut value = self.concat_value_at(&parts, site);
        value.server_ns |= server_prefix;
        value
    }

    fn concat_value_at(&self, parts: &[Value], site: Site) -> Value {
        let mut value = Value::derived(parts.iter());
        value.scoped = false;
        value.concat = None;
        value.concat_params.clear();
        value.mark_concat(&parts.iter().collect::<Vec<_>>(), site);
        if value.is_key_material() {
            value.construct = Some(Construct {
                kind: ConstructKind::Concat,
                site,
            });
        }
        value
    }
}

/// Replaces the parameters of a callee's value with the caller's arguments.
/// Returns the value and the site of the key expression at the caller.
fn substitute(
    value: &Value,
    args: &[Value],
    call_site: Site,
    arg_sites: &[Site],
    own_site: Site,
) -> (Value, Site) {
    if value.params == 0 {
        return (value.clone(), own_site);
    }
    let mut out = value.clone();
    out.params = 0;
    let intrinsic_key = value.client_key.is_some();
    let mut key_arg_site = None;
    for p in bits(value.params) {
        if let Some(arg) = args.get(p) {
            if arg.client_key.is_some() && key_arg_site.is_none() {
                key_arg_site = arg_sites.get(p).copied();
            }
            out.join(arg);
        }
    }
    if let Some(elems) = &value.elems {
        out.elems = Some(
            elems
                .iter()
                .map(|e| substitute(e, args, call_site, arg_sites, own_site).0)
                .collect(),
        );
    }
    if !intrinsic_key && out.client_key.is_some() {
        // The concatenation that appended the parameter carrying the key.
        let key_param =
            bits(value.params).find(|&p| args.get(p).is_some_and(|a| a.client_key.is_some()));
        if let Some(site) =
            key_param.and_then(|p| value.concat_params.iter().find(|(q, _)| *q == p))
        {
            out.concat = Some(site.1);
        }
    }
    out.concat_params = Vec::new();
    for (p, site) in &value.concat_params {
        if let Some(arg) = args.get(*p) {
            for q in bits(arg.params) {
                if !out.concat_params.iter().any(|(r, _)| *r == q) {
                    out.concat_params.push((q, *site));
                }
            }
        }
    }
    let mut site = own_site;
    payload_server::substitute_facts(value, args, arg_sites, &mut out, &mut site);
    if !intrinsic_key && out.client_key.is_some() {
        // The caller supplied the key: the scope is the caller's to fix.
        match value.construct {
            Some(c) if !value.scoped => {
                out.construct = Some(Construct {
                    kind: ConstructKind::Call,
                    site: call_site,
                });
                let _ = c;
                site = call_site;
            }
            Some(_) => site = call_site,
            None => site = key_arg_site.unwrap_or(call_site),
        }
    }
    (out, site)
}

/// Table names in a SQL text: the word after FROM, INTO, UPDATE, JOIN, TABLE.
pub(crate) fn sql_tables(lower: &str) -> Vec<String> {
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '"'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut tables = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if matches!(*w, "from" | "into" | "update" | "join" | "table" | "exists") {
            if let Some(next) = words.get(i + 1) {
                if !matches!(*next, "if" | "only" | "not") {
                    tables.push(next.trim_matches('"').to_string());
                }
            }
        }
    }
    tables
}

/// Calls that wrap their argument without changing what it is.
fn is_wrapper_call(name: &str, segments: &[String]) -> bool {
    if segments.len() == 1 && name.chars().next().is_some_and(|c| c.is_uppercase()) {
        // `Some(x)`, `Ok(x)`, `Json(x)`, `CacheKey(x)`.
        return true;
    }
    matches!(
        name,
        "new"
            | "from"
            | "from_str"
            | "from_static"
            | "from_string"
            | "from_bytes"
            | "try_from"
            | "into"
            | "borrow"
            | "parse_str"
            | "to_string"
            | "to_owned"
            | "encode"
            | "encode_upper"
            | "encode_to_string"
            | "escape"
            | "identity"
            | "Owned"
            | "Borrowed"
            | "copy_from_slice"
    )
}

fn pat_ident(pat: &Pat) -> Option<String> {
    match pat {
        Pat::Ident(pi) => Some(pi.ident.to_string()),
        Pat::Type(pt) => pat_ident(&pt.pat),
        _ => None,
    }
}

fn is_redis_cmd(expr: &Expr) -> bool {
    match expr {
        Expr::Call(c) => matches!(&*c.func, Expr::Path(p) if last_ident(&p.path) == "cmd"),
        Expr::Paren(p) => is_redis_cmd(&p.expr),
        _ => false,
    }
}
