//! The value-flow evaluator, core for all rules: walks one function body in
//! source order and computes, for every expression, the abstract [`Value`]
//! it carries, and records every place where a value reaches a key position
//! (a [`KeyEvent`]).
//!
//! The environment is a stack of scopes; alternatives (`if`, `match` arms)
//! run from the same starting environment; their bindings merge (`environment`).
//! A key position is a storage call, a SQL bind on an idempotency table, a
//! redis `cmd(..).arg`, or a key-named binding, field, parameter or return
//! of a key-making function. Crate-local calls apply the callee's
//! [`Summary`] (its return value and the key positions its parameters
//! reach, with the caller's arguments substituted); `analysis::analyze`
//! iterates the summaries to a fixpoint.
//!
//! This module holds the interpreter itself: the environment, patterns,
//! statements and expressions. The rest of `impl Evaluator` lives in child
//! modules by concern, each naming on its first line the rules it serves:
//! `calls` (crate-local calls, summaries and their substitution, method
//! dispatch), `library_calls` (functions outside the crate), `sinks` (key
//! positions: storage, redis and SQL binds), `concat` (string building,
//! IDEM001), `macros` (which macros are evaluated), and the fact producers `fallbacks` (IDEM005), `sanitizers`
//! (IDEM006), `payload_hash` (IDEM003) and `server_keys` (IDEM007).
//! Children reach the evaluator's private state directly and call each
//! other's methods; their `use` imports go to this module and to `sinks`
//! (receiver names), never back up into a child.

mod builders;
mod calls;
mod closures;
mod concat;
mod demanded;
mod diesel;
mod environment;
mod extractors;
mod fallbacks;
mod header_entries;
mod header_reads;
mod key_calls;
mod library_calls;
mod macros;
mod names;
mod out_params;
mod outbound_headers;
mod patterns;
mod payload_hash;
mod record_fields;
mod record_methods;
mod request_builders;
mod request_input;
mod sanitizers;
mod server_keys;
mod sinks;
mod sql_binds;
mod sql_builder;
mod struct_literals;
#[cfg(test)]
mod tests;

use crate::analysis::payload_sources;
use crate::analysis::workspace_flow::KeyCallSite;
use std::collections::HashMap;
use std::sync::Arc;

use syn::spanned::Spanned;
use syn::{Expr, Pat, Stmt};

use super::hashing;
use super::header_holders::Holder;
use super::index::{CrateIndex, FnDef};
use super::syntax::{binds_pattern, last_ident, pat_ident, short_text};
use super::value::{CallSite, Construct, ConstructKind, KeySource, Origin, Site, Value};
use super::vocab::{names_key_header_constant, Vocabulary};

// Paths kept for callers outside: the pipeline imports `span_of`, the rules
// `KeyEvent` and the prefilter `sql_tables` from `eval`.
pub use super::key_event::KeyEvent;
pub(crate) use super::sql::sql_tables;
pub use super::syntax::span_of;
pub use super::value::ValueSignature;
// The call-site test (`calls`) and the per-unit pass (`analysis::analyze`).
pub use demanded::{Carried, Demanded};
use names::server_built;
pub use names::server_fed_params;
pub use record_fields::{
    changed_records, field_keys, FieldFact, FieldFacts, FieldKeys, ParamFieldWrite,
};

/// Recursion bound for expressions: deeper code is not followed (never a crash).
const MAX_DEPTH: usize = 200;

/// Sentinel and separator lookups through constants stop at this depth.
const MAX_LOOKUP: usize = 8;

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
    /// Parameters that are a client key by their name (or type name) only:
    /// bit N = parameter N.
    pub named_key_params: u64,
    /// Crate-local calls made here: the callee and the arguments that may
    /// carry a client key (bit N = argument N is not visibly server-built).
    pub calls: Vec<(usize, u64)>,
    /// Unresolved calls given a value that may carry a fact into the
    /// callee, by name: the pre-filter's next round analyses those whose
    /// inputs do carry one.
    pub demands: Vec<(Arc<CallSite>, Demanded)>,
    /// Crate-local calls made here and what each argument may carry.
    pub arg_flows: Vec<(usize, Vec<Demanded>)>,
    /// Facts written into records' fields here: (record, field, fact).
    pub field_writes: Vec<(String, String, FieldFact)>,
    /// Parameters written into records' fields here.
    pub param_field_writes: Vec<ParamFieldWrite>,
    /// The records destructured here (`record_fields`).
    pub field_reads: Vec<String>,
    /// Calls into other crates given the client's key by flow
    /// (`workspace_flow`).
    pub key_calls: Vec<KeyCallSite>,
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
    /// The evaluated function's name: `inner.call(req)` inside `fn call`
    /// is delegation to the wrapped value, not a call of this function.
    /// Also what the calls it cannot resolve are demanded from.
    fn_name: Arc<str>,
    /// The evaluated function's body: which function a key event is in.
    fn_site: Site,
    env: environment::Env,
    events: Vec<KeyEvent>,
    pending: Vec<KeyEvent>,
    ret: Value,
    depth: usize,
    const_stack: Vec<String>,
    callees: Vec<usize>,
    param_names: Vec<Option<String>>,
    key_param_mask: u64,
    absorbs: Vec<(usize, Value)>,
    /// Parameters whose name says nothing: every crate-local caller passes
    /// a server-built value there (see `names::server_fed_params`).
    unnamed_params: u64,
    /// Parameters another crate's callers give the client's key (bit N =
    /// parameter N; `workspace_flow::Seeds`).
    seeded_params: u64,
    /// Calls into other crates given the client's key by flow.
    key_calls: Vec<KeyCallSite>,
    /// The lines of the evaluated function, signature included.
    lines: (usize, usize),
    /// Parameters typed by another crate's type (`headers: &HeaderMap`):
    /// their methods are that crate's, not a crate method of the same name.
    foreign_params: Vec<String>,
    /// Those parameters' type names (`ask: &Ask` → `Ask`).
    foreign_param_types: Vec<(String, String)>,
    /// Type parameters bounded by a hashing trait (`D: Digest`): hashers.
    hash_generics: Vec<String>,
    named_key_params: u64,
    /// Parameters declared as text (`&str`, `String`, `Option<String>`,
    /// bytes): what a client key is, unlike a `ScopedKey` or a record.
    text_params: u64,
    /// Parameters whose declared type holds no key (`Option<Ctx>` of a
    /// local record, a number): see [`names::type_holds_no_key`].
    pub(super) keyless_params: u64,
    /// Some value of the function carries a tenant (`who.tenant_id` passed
    /// on): the service has one here (see [`KeyEvent::tenant_at_hand`]).
    tenant_seen: bool,
    calls: Vec<(usize, u64)>,
    /// Locals bound to a field's handle (`let cache = self.replay_cache.clone()`):
    /// as a receiver, the local is that field's store.
    receiver_aliases: HashMap<String, String>,
    /// Locals holding a guard or handle of a field of `self`
    /// (`let mut s = self.shipments.write().unwrap();`): a store wrapper's
    /// own map, as the field itself is (see `sinks::field_of_self`).
    self_field_locals: HashMap<String, String>,
    /// Parameters lent as `&mut` maps (`seen: &mut HashMap<..>`): stores.
    lent_stores: Vec<String>,
    /// `QueryBuilder` locals and the statement each holds so far.
    sql_builders: HashMap<String, sql_builder::SqlBuilder>,
    /// The columns this function's statements look each idempotency table
    /// up by (`sql_binds::lookup_columns`), for its plain `INSERT`s.
    table_keys: std::cell::RefCell<HashMap<String, Vec<String>>>,
    /// Closures bound to a local (`let key_for = |k| format!(..)`): a call
    /// of the local evaluates the body with the call's arguments.
    local_closures: HashMap<String, std::rc::Rc<syn::ExprClosure>>,
    /// Local closures being evaluated at a call, innermost last: a closure
    /// calling itself, or closures calling each other more than
    /// [`MAX_CLOSURE_NESTING`] deep, are not entered again (each call
    /// evaluates the body afresh, so nesting multiplies the work).
    closure_calls: Vec<String>,
    /// Bindings declared with the type of a server entity (`ev: PspEvent`,
    /// `Json(d): Json<WebhookDelivery>`): their `id` is a server id.
    entity_bindings: std::collections::HashSet<String>,
    /// Bindings the function acknowledges (`tote.ack()`): consumed
    /// messages, so what is decoded from them came from their sender.
    acknowledged: std::collections::HashSet<String>,
    /// The method call whose result the statement being evaluated throws
    /// away (`window.set_nx(&id, ttl).await?;`, `let _ = ..`), by address:
    /// a conditional insert nothing decides on is no dedup check.
    discarded_call: usize,
    /// Unresolved calls given a value that may carry a fact (see
    /// `calls::unresolved_call`).
    demands: Vec<(Arc<CallSite>, Demanded)>,
    /// Resolved calls and what their arguments may carry.
    arg_flows: Vec<(usize, Vec<Demanded>)>,
    /// Client keys, defaults and strips other functions write into
    /// records' fields.
    field_keys: &'a FieldKeys,
    /// Facts written into records' fields here.
    field_writes: Vec<(String, String, FieldFact)>,
    /// Parameters written into records' fields here.
    param_field_writes: Vec<ParamFieldWrite>,
    /// The records destructured here.
    field_reads: Vec<String>,
    /// Locals typed as a record of the unit: their record.
    record_bindings: HashMap<String, String>,
    /// Locals holding records of the unit (`rx: Receiver<Notify>`): the record.
    element_bindings: HashMap<String, String>,
    /// The function's body.
    body: &'a syn::Block,
    /// What the function returns, as written.
    output: &'a syn::ReturnType,
    /// Bindings the function parses into a record somewhere
    /// (`payload_hash::parsed_names`), found when first asked.
    parsed_later: Option<Vec<String>>,
}

/// The field keys of an evaluation that reads none.
static NO_FIELD_KEYS: std::sync::LazyLock<FieldKeys> = std::sync::LazyLock::new(FieldKeys::new);

/// How deep calls of local closures are followed into each other's bodies.
const MAX_CLOSURE_NESTING: usize = 3;

/// A method call with its evaluated arguments, as the dispatch steps of
/// [`calls`] see it.
struct MethodCall<'c> {
    /// The call.
    m: &'c syn::ExprMethodCall,
    /// The call as an expression (sites of values it makes).
    expr: &'c Expr,
    /// The method's name.
    method: String,
    /// The values of the arguments.
    args: Vec<Value>,
    /// The argument expressions.
    exprs: Vec<&'c Expr>,
}

/// The parameter bit a payload record's method knows its `self` by (see
/// [`Evaluator::bind_payload_receiver`]): the last, which no real
/// parameter list reaches.
pub(super) const RECEIVER_PARAM: usize = 63;

fn bits(mask: u64) -> impl Iterator<Item = usize> {
    (0..64).filter(move |i| mask & (1u64 << i) != 0)
}

impl<'a> Evaluator<'a> {
    /// A fresh evaluator for a function in `file`.
    pub fn new(
        index: &'a CrateIndex<'a>,
        vocab: &'a Vocabulary,
        summaries: &'a [Summary],
        def: &FnDef<'a>,
    ) -> Self {
        Evaluator {
            body: def.block,
            output: &def.sig.output,
            index,
            vocab,
            summaries,
            file: def.file,
            self_ty: def.self_ty.clone(),
            fn_name: def.name.as_str().into(),
            fn_site: Site {
                file: def.file,
                // The braces' span, not `Spanned::span`, which prints the
                // whole body to tokens to find its ends.
                span: span_of(def.block.brace_token.span.join()),
            },
            env: environment::Env::new(),
            events: Vec::new(),
            pending: Vec::new(),
            ret: Value::empty(),
            depth: 0,
            const_stack: Vec::new(),
            callees: Vec::new(),
            param_names: Vec::new(),
            key_param_mask: 0,
            absorbs: Vec::new(),
            unnamed_params: 0,
            seeded_params: 0,
            key_calls: Vec::new(),
            lines: (0, 0),
            foreign_params: Vec::new(),
            foreign_param_types: Vec::new(),
            hash_generics: payload_hash::hash_generics(def.sig),
            named_key_params: 0,
            tenant_seen: false,
            text_params: 0,
            keyless_params: 0,
            calls: Vec::new(),
            receiver_aliases: HashMap::new(),
            self_field_locals: Default::default(),
            lent_stores: Vec::new(),
            sql_builders: HashMap::new(),
            table_keys: Default::default(),
            local_closures: HashMap::new(),
            closure_calls: Vec::new(),
            entity_bindings: Default::default(),
            acknowledged: Default::default(),
            discarded_call: 0,
            demands: Vec::new(),
            arg_flows: Vec::new(),
            field_keys: &NO_FIELD_KEYS,
            field_writes: Vec::new(),
            param_field_writes: Vec::new(),
            field_reads: Vec::new(),
            record_bindings: HashMap::new(),
            element_bindings: HashMap::new(),
            parsed_later: None,
        }
    }

    /// Reads client keys written into records' fields elsewhere in the
    /// unit from `keys`.
    pub fn with_field_keys(mut self, keys: &'a FieldKeys) -> Self {
        self.field_keys = keys;
        self
    }

    /// Turns the name fallback off for parameters `mask` (bit N = parameter
    /// N): their callers show what they hold.
    pub fn without_names_for(mut self, mask: u64) -> Self {
        self.unnamed_params = mask;
        self
    }

    /// Makes parameters `mask` (bit N = parameter N) the client's key by
    /// flow: another crate's callers give it to them
    /// (`workspace_flow::Seeds`).
    pub fn with_seeded_params(mut self, mask: u64) -> Self {
        self.seeded_params = mask;
        self
    }

    /// Evaluates a function; returns its summary and the key events found.
    pub fn run(mut self, def: &FnDef<'_>) -> (Summary, Vec<KeyEvent>) {
        self.lines = (def.sig.span().start().line, def.block.span().end().line);
        let mut param_names = Vec::new();
        // Parameters the function's doc describes as the client's key are
        // a source (rules.md, "Evidence and confidence").
        let documented_params = names::documented_params(def.attrs);
        let entry_point =
            payload_sources::is_entry_point(def.attrs) || self.index.implements_entry_point(def);
        let mut index = 0usize;
        for input in &def.sig.inputs {
            let syn::FnArg::Typed(pat_type) = input else {
                continue;
            };
            let mut value = Value::empty();
            if index < 64 {
                value.params = 1u64 << index;
            }
            if extractors::type_mentions_client_key(&pat_type.ty, self.vocab)
                || extractors::documented_as_client_key(&pat_type.attrs, self.vocab)
                || documented_params
                    .iter()
                    .any(|p| names::names_param(&pat_type.pat, p))
            {
                value.client_key = Some((self.origin(&*pat_type.pat), KeySource::IdempotencyKey));
            }
            if index < 64 && self.seeded_params & (1u64 << index) != 0 {
                value.client_key = Some((self.origin(&*pat_type.pat), KeySource::IdempotencyKey));
            }
            self.extractor_param(&pat_type.ty, &mut value, &*pat_type.pat);
            value.hasher = hashing::type_is_hasher(&pat_type.ty);
            self.body_extractor_param(&pat_type.ty, &mut value, &*pat_type.pat);
            self.destructured_extractor_param(&pat_type.pat, &pat_type.ty, &mut value);
            if def.trait_of.is_some() && def.has_receiver() {
                self.rpc_message_param(&pat_type.ty, &mut value, &*pat_type.pat);
            }
            if entry_point {
                self.entry_point_param(&pat_type.ty, &mut value, &*pat_type.pat);
            }
            param_names.push(match &*pat_type.pat {
                Pat::Ident(pi) => Some(pi.ident.to_string()),
                _ => None,
            });
            let foreign = self.index.is_foreign_type(&pat_type.ty, def.file)
                && !self.index.wraps_own_type(&pat_type.ty);
            if let (Pat::Ident(pi), true) = (&*pat_type.pat, foreign) {
                self.foreign_params.push(pi.ident.to_string());
                if let Some(ty) = crate::analysis::syntax::type_name_within(&pat_type.ty, &[]) {
                    (self.foreign_param_types).push((pi.ident.to_string(), ty));
                }
            }
            if index < 64 && crate::analysis::syntax::is_text_type(&pat_type.ty) {
                self.text_params |= 1u64 << index;
            }
            let no_key = names::type_holds_no_key(self.index, &pat_type.ty);
            if index < 64 && no_key {
                self.keyless_params |= 1u64 << index;
            }
            if index < 64
                && !no_key
                && (param_names
                    .last()
                    .and_then(|n| n.as_deref())
                    .is_some_and(|n| hashing::may_hold_client_key(n, self.vocab))
                    || (hashing::type_may_hold_key(&pat_type.ty)
                        && !names::reads_components_of(def.block, &pat_type.pat, self.vocab)))
            {
                self.key_param_mask |= 1u64 << index;
            }
            let had_key = value.client_key.is_some();
            self.note_store_typed_param(&pat_type.pat, &pat_type.ty);
            self.note_entity_binding(&pat_type.pat, &pat_type.ty);
            self.note_record_binding(&pat_type.pat, &pat_type.ty);
            self.note_element_binding(&pat_type.pat, &pat_type.ty);
            self.bind_pat(&pat_type.pat, value, None);
            self.parsed_later(&pat_type.pat, None);
            self.unname_binding(&pat_type.pat, &pat_type.ty, had_key);
            if index < 64 {
                self.unname_server_fed_param(&pat_type.pat, index, had_key);
            }
            index += 1;
        }
        self.param_names.clone_from(&param_names);
        self.bind_payload_receiver(def);
        self.note_acknowledged(def);
        let body = self.eval_block(def.block);
        let body = self.note_tail_fallback(def.block, body);
        let mut ret = self.ret.clone().union(&body);
        // A hash the crate writes by hand returns a digest of its input.
        // Arithmetic passes no text on, so the input is every parameter.
        if crate::analysis::mixing_fns::is_mixing_fn(def.sig, def.block) {
            ret.params |= (1u64 << self.param_names.len().min(63)) - 1;
            ret = self.digest_value(&ret, &def.sig.ident);
        }
        // A function named for keys that gives back nothing (`-> Result<(),
        // E>`) makes no key, whatever its calls' results carried.
        // Nor one that appends to a field of `self` (a text builder's
        // `with_client_key(mut self, k)`): the receiver's own parts are
        // joined where it is called (`builders::consumed_receiver`).
        let builds_on_self = self.env.binds_prefixed(concat::SELF_FIELD);
        if self.vocab.is_key_maker_fn(&def.name)
            && !super::syntax::returns_no_value(def.sig)
            && !builds_on_self
        {
            if let Some(construct) = ret.construct {
                self.key_position(ret.clone(), construct.site, false, false);
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
            named_key_params: self.named_key_params,
            calls: std::mem::take(&mut self.calls),
            demands: std::mem::take(&mut self.demands),
            arg_flows: std::mem::take(&mut self.arg_flows),
            field_writes: std::mem::take(&mut self.field_writes),
            param_field_writes: std::mem::take(&mut self.param_field_writes),
            field_reads: std::mem::take(&mut self.field_reads),
            key_calls: std::mem::take(&mut self.key_calls),
        };
        let tenant_seen = self.tenant_seen;
        let mut events = self.events;
        for event in &mut events {
            event.tenant_at_hand = tenant_seen;
        }
        (summary, events)
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
            by_name: false,
            parsed: false,
        }
    }

    // ---- environment ------------------------------------------------------

    fn lookup(&self, name: &str) -> Option<&Value> {
        self.env.lookup(name)
    }

    fn declare(&mut self, name: String, value: Value) {
        self.env.declare(name, value);
    }

    fn assign(&mut self, name: &str, value: Value) {
        self.env.assign(name, value);
    }

    fn update(&mut self, name: &str, f: impl FnOnce(&mut Value)) {
        self.env.update(name, f);
    }

    /// Runs `f` in a nested scope.
    fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        self.env.push();
        let out = f(self);
        self.env.pop();
        out
    }

    /// Runs alternative branches from the same starting environment and
    /// merges what they did to it.
    fn branches(&mut self, arms: Vec<&dyn Fn(&mut Self) -> Value>) -> Value {
        if let [arm] = arms[..] {
            return arm(self);
        }
        let mut result = Value::empty();
        let mut ends = Vec::with_capacity(arms.len());
        for arm in arms {
            self.env.begin_arm();
            let value = arm(self);
            result = result.union(&value);
            ends.push(self.env.end_arm());
        }
        self.env.merge(ends);
        result
    }

    /// The index of the parameter bound as `name`, if it is one.
    pub(super) fn param_index(&self, name: &str) -> Option<usize> {
        (self.param_names.iter()).position(|n| n.as_deref() == Some(name))
    }

    // ---- naming -----------------------------------------------------------

    /// Adds what a name says about a value: a client key, a request id or a
    /// scope component (and payloads and server ids, see `payload_hash`).
    fn enrich_by_name(&self, value: &mut Value, name: &str, node: &impl Spanned) {
        self.enrich_payload_and_server(value, name, node);
        // A name says nothing of a value whose server origin is visible (a
        // minted or derived id, a digest, a construction).
        if value.client_key.is_none() && !names::server_built(value) {
            if self.vocab.is_client_key_name(name) {
                value.client_key = Some((self.origin(node), KeySource::Named));
                value.key_by_name = value.params != 0;
                return;
            }
            if self.vocab.is_request_id_name(name) {
                value.client_key = Some((self.origin(node), KeySource::NamedRequestId));
                value.key_by_name = value.params != 0;
                return;
            }
        }
        if let Some(component) = self.vocab.component_of_name(name) {
            // A key built of several parts is named for what it is as a
            // whole (`let path = [ns, tenant, key].concat()`), not for one
            // of its parts.
            let built_key =
                value.client_key.is_some() && (value.concat.is_some() || value.construct.is_some());
            if !built_key && (value.client_key.is_none() || value.component(component).is_none()) {
                value.add_component(component, self.origin(node));
            }
            // The name says which component a default of this value is,
            // even for a construction (`format!("user:{}", claims.sub)`
            // returned beside a sentinel tail).
            if value.client_key.is_none() && value.construct.is_some() {
                value.attach_fallbacks_to(&[component]);
            }
            value.attach_fallbacks();
        }
    }

    /// A field or variant the unit gives the key header's name holds that
    /// name: a header read with it reads the client key.
    fn header_holder(&self, value: &mut Value, holder: Holder) {
        if value.key_header_name.is_none()
            && self.index.holds_key_header(&holder, self.file, self.vocab)
        {
            value.key_header_name = Some(KeySource::IdempotencyKey);
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
            if super::test_support::stmt_is_test(stmt) {
                continue;
            }
            match stmt {
                Stmt::Local(local) => self.eval_local(local),
                Stmt::Item(_) => {}
                Stmt::Expr(expr, semi) => {
                    if semi.is_some() {
                        self.discarded_call = super::syntax::discarded_call(expr);
                    }
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
        if matches!(local.pat, Pat::Wild(_)) {
            self.discarded_call = super::syntax::discarded_call(&init.expr);
        }
        let converted = match &local.pat {
            Pat::Type(typed) => self.conversion_into(&typed.ty, &init.expr),
            _ => None,
        };
        let value = converted.unwrap_or_else(|| self.eval(&init.expr));
        // A statement held before any bind (`let mut q = Query::new(SQL);`)
        // is bound in place later (`q.bind(key);`).
        let unbound = (value.sql.as_ref()).is_some_and(|chain| chain.binds.is_empty());
        let value = if unbound {
            value
        } else {
            self.finish_sql(value)
        };
        if let Some((_, diverge)) = &init.diverge {
            self.eval(diverge);
        }
        let mut value = value;
        if let Some(name) = pat_ident(&local.pat) {
            match sinks::field_handle(&init.expr) {
                Some(field) => self.receiver_aliases.insert(name.clone(), field),
                None => self.receiver_aliases.remove(&name),
            };
            match sinks::field_of_self(&init.expr) {
                Some(field) => self.self_field_locals.insert(name.clone(), field),
                None => self.self_field_locals.remove(&name),
            };
            self.bind_sql_builder(&name, &init.expr);
            match &*init.expr {
                Expr::Closure(c) => {
                    (self.local_closures).insert(name.clone(), std::rc::Rc::new(c.clone()))
                }
                _ => self.local_closures.remove(&name),
            };
            if self.vocab.is_key_position_name(&name)
                && !outbound_headers::only_sent_as_header(self.body, &name)
            {
                let site = self.site(&*init.expr);
                let keyed = self.hash_becomes_key(&mut value, &name, site);
                self.key_position(keyed, site, false, false);
            } else if value.payload_hash.is_some() && self.vocab.is_client_key_name(&name) {
                // `let idem_key = format!("{:x}", Sha512_256::digest(body))`:
                // the hash put in the client key's place becomes the key
                // here, whatever stores it later (no sink by the name alone).
                let site = self.site(&*init.expr);
                self.hash_becomes_key(&mut value, &name, site);
            }
        }
        self.bind_received(&local.pat, &init.expr, false);
        self.bind_pat(&local.pat, value, None);
        self.parsed_later(&local.pat, Some(&init.expr));
    }

    // ---- expressions ------------------------------------------------------

    /// Evaluates an expression.
    pub fn eval(&mut self, expr: &Expr) -> Value {
        crate::limits::checkpoint();
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
                // `[tenant, user, "fx.lock", key]`: a literal naming an
                // operation is the key's route, as in a `format!`.
                let elems: Vec<Value> = (a.elems.iter())
                    .map(|e| {
                        let mut v = self.eval(e);
                        self.literal_route(&mut v, e);
                        v
                    })
                    .collect();
                self.array_value(elems, expr)
            }
            Expr::Repeat(r) => self.eval(&r.expr),
            Expr::Tuple(t) => {
                let mut elems: Vec<Value> = t.elems.iter().map(|e| self.eval(e)).collect();
                if elems.len() < 2 {
                    return elems.into_iter().next().unwrap_or_default();
                }
                // A payload hash, or a helper's digest of its parameter, put in
                // a key tuple (two scope components beside it) became part of a
                // key here, also where the tuple is taken apart later (`let
                // (t, c, route, k) = slot(..)`); not in `(hash, item)`.
                let site = self.site(expr);
                let scope =
                    |v: &Value| (v.tenant.is_some() || v.principal.is_some()) && v.digest.is_none();
                let key_tuple = elems.iter().filter(|v| scope(v)).count() >= 2;
                for elem in elems.iter_mut().filter(|_| key_tuple) {
                    let digest = elem.payload_hash.is_some()
                        || elem.digest.is_some() && elem.hashed_params != 0;
                    if digest && elem.hash_keyed.is_none() {
                        elem.hash_keyed = Some(site);
                    }
                }
                let mut value = Value::derived(elems.iter());
                value.concat = None;
                if value.is_key_material() {
                    value.construct = Some(Construct {
                        kind: ConstructKind::Tuple,
                        site: self.site(expr),
                    });
                }
                // A server id in a tuple key became part of it here, as in
                // a concatenation (IDEM007 points at the tuple).
                if value.server_id.is_some() && value.server_concat.is_none() {
                    value.server_concat = Some(self.site(expr));
                }
                // So did a payload hash (IDEM003 points at the tuple).
                if value.payload_hash.is_some() && value.hash_keyed.is_none() {
                    value.hash_keyed = Some(self.site(expr));
                }
                value.elems = Some(elems);
                value
            }
            Expr::Field(f) => {
                let written = concat::self_field_name(expr).and_then(|n| self.lookup(&n));
                if let Some(written) = written {
                    return written.clone();
                }
                let base = self.eval(&f.base);
                match &f.member {
                    syn::Member::Unnamed(index) => match base.tuple_element(index.index as usize) {
                        Some(elem) => elem,
                        None => base,
                    },
                    syn::Member::Named(name) => {
                        // `response.body` is the server's answer, not the payload.
                        let of_response =
                            base.payload.is_none() && payload_hash::names_response(&f.base);
                        // A field of a struct literal is what was written
                        // there, not the whole record.
                        let mut value = match base.field(&name.to_string()) {
                            Some(field) => field.clone(),
                            None => base,
                        };
                        value.elems = None;
                        value.sql = None;
                        value.hasher = false;
                        let had_key = value.client_key.is_some();
                        let of_payload =
                            (value.payload.as_ref()).is_some_and(|p| !p.parsed && !p.by_name);
                        self.enrich_by_name(&mut value, &name.to_string(), f);
                        self.request_body_field(&mut value, &f.base, &name.to_string());
                        // A field of the request's payload named like the
                        // key is the client's key by flow, not by name alone.
                        // So is a field the code documents as the key.
                        let documented = self.vocab.is_documented_key(&name.to_string());
                        if (of_payload || documented) && !had_key {
                            value.client_key =
                                value.client_key.take().map(|(o, s)| (o, s.by_flow()));
                        }
                        if !had_key && self.field_holds_no_key(&name.to_string()) {
                            value.client_key = None;
                        }
                        if !had_key && value.client_key.is_some() {
                            self.unname_server_fed_field(&mut value);
                        }
                        self.typed_record_field(&f.base, &name.to_string(), &mut value);
                        if of_response {
                            value.payload = None;
                        }
                        self.identity_field(&mut value, &name.to_string());
                        self.entity_id_field(&mut value, &f.base, &name.to_string(), f);
                        self.entity_borne_id_field(&mut value, &name.to_string(), f);
                        self.header_holder(&mut value, Holder::Field(name.to_string()));
                        value
                    }
                }
            }
            Expr::Index(i) => {
                // `headers["Idempotency-Key"]`: a header map indexed by
                // the header's name reads it, as `get` does.
                let index = self.eval(&i.index);
                if let Some(source) = index.key_header_name {
                    self.eval(&i.expr);
                    return self.header_value(Some(source), expr);
                }
                let mut v = self.eval(&i.expr);
                v.elems = None;
                v.fallbacks.clear();
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
                self.bind_received(&l.pat, &l.expr, false);
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
                                this.key_header_arm(&m.expr, &arm.pat);
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
                    // An iterator of pairs (`a.zip(b)`, `enumerate()`) keeps
                    // its elements for a pattern of pairs; any other
                    // collection's elements are its items, not parts of one.
                    let pairs = matches!(
                        (&*f.pat, &item.elems),
                        (Pat::Tuple(t), Some(e)) if t.elems.len() == 2 && e.len() == 2
                    );
                    if !pairs {
                        item.elems = None;
                    }
                    // A defaulted collection is empty: its items are never
                    // the default (`for m in out.messages.unwrap_or_default()`).
                    item.fallbacks.clear();
                    this.bind_received(&f.pat, &f.expr, true);
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
                self.read_into_buffer(m, expr);
                self.after_method_call(v, m, expr)
            }
            Expr::Macro(m) => self.eval_macro(&m.mac, expr.span()),
            _ => Value::empty(),
        }
    }

    fn eval_if(&mut self, i: &syn::ExprIf) -> Value {
        // A condition runs before either branch: what it writes
        // (`rd.read_line(&mut line)? <= 2`) is written on both paths. One
        // that binds (`if let`) binds in the `then` branch only.
        let binds = binds_pattern(&i.cond);
        if !binds {
            self.eval(&i.cond);
        }
        let then_branch = |this: &mut Self| {
            this.scoped(|this| {
                if binds {
                    this.eval(&i.cond);
                }
                this.narrow(&i.cond, true);
                this.key_header_condition(&i.cond);
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
        } else if self.vocab.is_sender_id_header(&text) {
            value.key_header_name = Some(KeySource::SenderId);
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
                let mut v = v.clone();
                v.entity_borne |= server_keys::names_server_entity_binding(&name)
                    || self.acknowledged.contains(&name);
                return v;
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
            if names_key_header_constant(&name) {
                value.key_header_name = Some(KeySource::IdempotencyKey);
            }
            return value;
        }
        if name != "self" && name != "Self" {
            self.enrich_by_name(&mut value, &name, p);
        }
        if p.path.segments.len() == 1 {
            value.entity_borne |= server_keys::names_server_entity_binding(&name);
        }
        hashing::namespace_path(&p.path, &mut value);
        value
    }

    fn eval_const(&mut self, name: &str) -> Option<Value> {
        let index = self.index;
        // Module-private constants share names across files: the one
        // defined in this file is the one meant.
        let defs = index.consts.get(name)?;
        let def = defs
            .iter()
            .find(|d| d.file == self.file)
            .or_else(|| defs.first())?;
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
                    let name = name.to_string();
                    self.note_place_write(&f.base, &name, &value);
                    if self.vocab.is_key_position_name(&name) {
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

    /// Adds the facts of `expr` that travel with its value: defaults
    /// (IDEM005, `fallbacks`) and sanitisers (IDEM006, `sanitizers`). They
    /// are attached to scope components when the value becomes part of a key
    /// (see [`Value::join_as_part`]).
    fn note_facts(&mut self, expr: &Expr, value: Value) -> Value {
        self.tenant_seen |= value.tenant.is_some();
        match expr {
            Expr::MethodCall(m) => {
                let value = self.note_default_method(m, expr, value);
                self.note_sanitiser_method(m, expr, value)
            }
            Expr::Call(c) => self.note_call(c, expr, value),
            Expr::If(i) => self.note_if(i, value),
            Expr::Match(m) => self.note_match(m, value),
            _ => value,
        }
    }
}
