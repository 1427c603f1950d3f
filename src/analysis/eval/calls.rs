//! Calls, for all rules: crate-local functions through their summaries (and
//! [`substitute`], which puts a caller's arguments into a callee's values),
//! key constructors, header reads, closure adapters, and the dispatch of a
//! method call through the steps that recognise it.

use std::ops::ControlFlow;

use syn::Expr;

use std::sync::Arc;

use crate::analysis::key_event::KeyEvent;
use crate::analysis::value::{CallSite, Via};

use super::sinks::is_self;
use super::{
    bits, names, payload_hash, server_built, server_keys, Demanded, Evaluator, MethodCall,
};
use crate::analysis::hashing::{self, HashCall};
use crate::analysis::syntax::{last_ident, path_segments, path_string, place_name};
use crate::analysis::value::{Construct, ConstructKind, KeySource, Placeholder, Site, Value};
use crate::analysis::vocab::{
    is_claim_api_method, names_fresh_id_call, Component, MINTING_CONSTRUCTORS, OWN_ACCESSORS,
    TRANSPARENT_METHODS,
};
use crate::model::diagnostic::Confidence;

/// Methods that set a header on a request or response (`insert`,
/// `append`, `set` only on a header map).
pub(super) const HEADER_SETTERS: &[&str] = &[
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

impl Evaluator<'_> {
    /// `let rk: ReplayKey = parts.into();` (or `.try_into()?`): the crate's
    /// `impl From<..> for ReplayKey` converts, so its `from` (`try_from`) is
    /// called with the receiver; `None` when the crate has none.
    pub(super) fn conversion_into(&mut self, ty: &syn::Type, init: &Expr) -> Option<Value> {
        if let Some(parsed) = self.parsed_into_record(ty, init) {
            return Some(parsed);
        }
        let syn::Type::Path(target) = ty else {
            return None;
        };
        let target = target.path.segments.last()?.ident.to_string();
        // `let slot: String = [org, SEP, key].into_iter().collect();`
        if let (Expr::MethodCall(m), "String") = (init, target.as_str()) {
            if m.method == "collect" && m.args.is_empty() && m.turbofish.is_none() {
                let parts = self.eval(&m.receiver);
                return Some(self.collected_text(parts, init));
            }
        }
        let (call, tried) = match init {
            Expr::Try(t) => (&*t.expr, true),
            other => (other, false),
        };
        let Expr::MethodCall(m) = call else {
            return None;
        };
        let from = match (m.method.to_string().as_str(), tried) {
            ("into", false) => "from",
            ("try_into", true) => "try_from",
            _ => return None,
        };
        if !m.args.is_empty() {
            return None;
        }
        let ids = self
            .index
            .resolve_path(&[target, from.to_string()], None, None);
        if ids.is_empty() {
            return None;
        }
        let recv = self.eval(&m.receiver);
        Some(self.apply_call(&ids, &[recv], &[&m.receiver], init, false))
    }

    /// A call of a path (`f(..)`, `Type::f(..)`): key constructors, reads
    /// of the client key, SQL query roots, hash calls, crate-local functions
    /// and, last, library functions. Any other callee is evaluated and its
    /// value joined with the arguments'.
    pub(super) fn eval_call(&mut self, c: &syn::ExprCall, expr: &Expr) -> Value {
        let Expr::Path(func) = &*c.func else {
            let f = self.eval(&c.func);
            let args: Vec<Value> = c.args.iter().map(|a| self.eval(a)).collect();
            if let Some(value) = self.field_closure_call(c, &args) {
                return value;
            }
            let mut v = Value::derived(args.iter());
            v.join(&f);
            return v;
        };
        let args: Vec<Value> = c.args.iter().map(|a| self.eval(a)).collect();
        // A tuple variant or struct built with a client key in it (`Cmd::Refund(key, reply)`).
        let record = last_ident(&func.path);
        for (i, arg) in args.iter().enumerate() {
            self.note_field_write(&record, &i.to_string(), arg);
            self.note_param_field_write(&record, &i.to_string(), arg);
        }
        // Whatever the call makes of its arguments, the unresolved calls
        // that gave them flow on (`Via`).
        let mut via = Via::default();
        for arg in &args {
            via.extend(&arg.via);
        }
        let mut value = self.eval_path_call(c, func, args, expr);
        value.via.extend(&via);
        self.body_taken_by_type(&func.path, &mut value, expr);
        // `FeedMessage::decode(bytes)`: a server entity made from what it is given.
        value.entity_borne |= server_keys::names_entity_type_call(&func.path);
        value
    }

    /// [`Self::eval_call`] of a path.
    fn eval_path_call(
        &mut self,
        c: &syn::ExprCall,
        func: &syn::ExprPath,
        args: Vec<Value>,
        expr: &Expr,
    ) -> Value {
        let path = path_string(&func.path);
        let name = last_ident(&func.path);
        let arg_exprs: Vec<&Expr> = c.args.iter().collect();

        if self.vocab.is_key_constructor(&path) {
            return self.scoped_constructor(&path, &args, &arg_exprs, expr);
        }
        let segments: Vec<String> = path_segments(&func.path);
        // The crate's own `IdemKey::from_request_parts(parts)` is read
        // through its body first (which shows whether the header flows
        // out); the type's name judges only what the body does not show.
        let mut ids =
            (self.index).resolve_path(&segments, self.self_ty.as_deref(), Some(self.file));
        // `crate::statements::archive(..)` inside a handler named `archive`
        // is another module's function, not a recursion.
        if segments.len() >= 2 && segments[segments.len() - 2].starts_with(char::is_lowercase) {
            ids.retain(|&id| !self.is_current_fn(id));
        }
        let named = self.typed_key_call(func, &args, expr);
        if ids.is_empty() {
            if let Some(v) = named {
                return v;
            }
        }
        if let Some(v) = self.sql_query_fn(&name, &args, &arg_exprs) {
            return v;
        }
        if let Some(v) = self.diesel_statement_fn(&name, &args) {
            return v;
        }
        if let Some(v) = self.header_read_call(&name, &args, expr) {
            return v;
        }
        // `String::from_iter([org, SEP, user, SEP, key])`: a text glued
        // from the array's parts, as `[..].concat()` is.
        let text_type = segments.len() >= 2 && {
            let ty = &segments[segments.len() - 2];
            ty.ends_with("String") || ty.ends_with("Str")
        };
        let parts = arg_exprs
            .first()
            .and_then(|e| crate::analysis::syntax::array_of_parts(e));
        if ids.is_empty() && text_type && name == "from_iter" && args.len() == 1 && parts.is_some()
        {
            return self.concat_value(&args, expr);
        }
        // A record's own decoder, the crate's impl or not, reads a message.
        let decoder = payload_hash::decodes_record(&segments);
        let deserialised =
            (ids.is_empty() || decoder) && self.deserialised_bytes(&segments, &arg_exprs, expr);
        if let Some(v) = self.orm_primary_key_fn(&segments, &args, &arg_exprs) {
            return v;
        }
        if let Some(v) =
            self.trait_path_hasher_call(&ids, &segments, &name, &args, &arg_exprs, expr)
        {
            return v;
        }
        // A crate function named like a hash (`fn keccak(..)`) is read by
        // its body, which shows what it hashes.
        let by_body = !ids.is_empty() && hashing::is_digest_fn_name(&name);
        let resolved = self.foreign_call_path(&segments, !ids.is_empty());
        let foreign_digest = (ids.is_empty() && !arg_exprs.is_empty())
            .then_some(HashCall::Digest)
            .filter(|_| hashing::is_foreign_digest(&resolved));
        let fresh = (ids.is_empty() && arg_exprs.is_empty() && names_fresh_id_call(&resolved))
            .then_some(HashCall::FreshId);
        if let Some(call) = (self.classify_hash_call(&resolved, &arg_exprs))
            .filter(|_| !by_body)
            .or(foreign_digest)
            .or(fresh)
        {
            return self.hash_call(call, &args, &arg_exprs, expr);
        }
        // Crate-local functions: apply their summaries.
        if !ids.is_empty() {
            // `Type::method(receiver, args..)`: the first argument is `self`.
            let skip = usize::from(self.index.fns[ids[0]].has_receiver());
            let exprs = arg_exprs.get(skip..).unwrap_or_default();
            let value = match (skip, args.split_first()) {
                (1, Some((recv, rest))) => {
                    let args = self.with_receiver(&ids, rest, recv);
                    self.apply(&ids, &args, exprs, expr)
                }
                _ => self.apply(&ids, &args, exprs, expr),
            };
            return match named {
                Some(named) if value.client_key.is_none() => named,
                _ => value,
            };
        }
        if let Some(value) = self.local_closure_call(func, &args) {
            return value;
        }
        if self.associated_store_call(&segments, &args, &arg_exprs) {
            return Value::empty();
        }
        let inputs = Demanded::of(args.iter());
        if name != "Err" {
            self.write_out_params(&name, &[], &args, &arg_exprs);
        }
        // A file's content parsed is stored data (a settings file), not a request.
        let of_file = args.iter().any(|a| a.stored);
        // What another crate makes of a server entity's bytes still came
        // from that entity (`decode(&msg.payload)`).
        let entity_borne = args.iter().any(|a| a.entity_borne);
        // `Webhooks::create(..)`: the type the path names.
        let ty = (segments.len() >= 2).then(|| segments[segments.len() - 2].clone());
        self.note_key_call(&name, ty, &args, expr);
        let mut value = self.library_call(func, &name, &segments, args, expr);
        value.entity_borne |= entity_borne;
        if name != "Err" {
            let site = self.unresolved_call(&name, inputs, &mut value);
            self.lent_through_unresolved(&site, &arg_exprs);
        }
        // `let cmd: TopUp = serde_json::from_slice(raw)?`: the record is
        // the deserialised input, what its bytes are.
        // The record deserialised out of bytes is the request by flow, even
        // where the bytes were a payload by their name only.
        let by_name = (value.payload.as_ref()).is_none_or(|p| p.by_name);
        if deserialised && by_name && value.client_key.is_none() && !of_file {
            // Bytes of no known source are request data by this use only:
            // what the record's fields are named says no more than before.
            let parsed = value.payload.is_none();
            let mut origin = self.fact_origin(expr);
            origin.parsed = parsed;
            value.payload = Some(origin);
        }
        if deserialised || payload_hash::parses_record(&segments) {
            // A default of the text (`body.unwrap_or_default()`) is no
            // default of the fields parsed out of it: an empty text does
            // not parse into a record.
            value.fallbacks.clear();
        }
        value
    }

    /// A call the index does not resolve, which may be of a crate-local
    /// function this round of the pre-filter left out: its result records
    /// the name (`Via`: demanded where it reaches a key position), and the
    /// call is demanded where it is given a value that may carry a fact
    /// into the callee (`prefilter::Demand`; decided after the fixpoint,
    /// which knows what the parameters carry).
    /// Returns the call's site.
    pub(super) fn unresolved_call(
        &mut self,
        name: &str,
        inputs: Demanded,
        result: &mut Value,
    ) -> Arc<CallSite> {
        let site = self.call_site(name);
        result.via.push(&site);
        self.demand_site(&site, inputs);
        site
    }

    /// A call of `name` made in the evaluated function.
    pub(super) fn call_site(&self, name: &str) -> Arc<CallSite> {
        Arc::new(CallSite {
            file: self.file,
            caller: self.fn_name.clone(),
            callee: name.into(),
        })
    }

    /// Records that the unresolved call `site` (made here, or where a value
    /// reaching here passed) is given `inputs`: the pre-filter's next round
    /// analyses it where they carry a fact.
    pub(super) fn demand_site(&mut self, site: &Arc<CallSite>, inputs: Demanded) {
        if inputs.is_some() {
            match self.demands.iter_mut().find(|(known, _)| known == site) {
                Some((_, known)) => known.add(inputs),
                None => self.demands.push((site.clone(), inputs)),
            }
        }
    }

    /// `IdempotencyKey::parse(..)`, `IdempotencyKey::from_headers(..)`:
    /// the type's name says the value is the client's key, which is a
    /// judgement by name (`KeySource::Named`, `possible`); an argument that
    /// carries the client key by flow keeps its own source (the default
    /// propagation of the library call). Made from literals only
    /// (`IdempotencyKey::new("demo")`) or minted (`IdempotencyKey::generate(..)`),
    /// the key's origin is visible and is not the client.
    fn typed_key_call(&self, func: &syn::ExprPath, args: &[Value], expr: &Expr) -> Option<Value> {
        let from_literals = !args.is_empty()
            && args
                .iter()
                .all(|a| a.literal.is_some() && a.client_key.is_none() && a.params == 0);
        let by_flow = args.iter().any(|a| {
            a.client_key
                .as_ref()
                .is_some_and(|(_, s)| s.confidence() == Confidence::Certain)
        });
        let mut segments = func.path.segments.iter().rev();
        let constructor = segments.next()?.ident.to_string();
        // `IdemKey::builder()` given nothing starts an empty builder: what
        // its setters are given (`.key(..)`) is the key, not a header read.
        let empty =
            args.is_empty() && matches!(constructor.as_str(), "builder" | "new" | "default");
        if from_literals || by_flow || empty || MINTING_CONSTRUCTORS.contains(&constructor.as_str())
        {
            return None;
        }
        let ty = segments.next()?.ident.to_string();
        (ty.ends_with("Key") && self.vocab.is_client_key_name(&ty)).then(|| Value {
            client_key: Some((self.origin(expr), KeySource::Named)),
            ..Value::default()
        })
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
            // A literal one path gives a value others give otherwise
            // (`token_user().unwrap_or_else(|| GUEST.to_owned())`) is a
            // default, IDEM005's; a placeholder is what every path gives.
            let literal = (args.get(i))
                .filter(|a| a.fallbacks.is_empty())
                .and_then(|a| a.literal.clone());
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
        Self::constructor_sanitizers(args, &mut value);
        self.constructor_fallbacks(args, &mut value);
        self.hash_as_key_argument(args, exprs);
        self.components_built_into_key(&value, expr);
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

    /// Applies the summaries of crate-local functions `ids` at a call site.
    pub(super) fn apply(
        &mut self,
        ids: &[usize],
        args: &[Value],
        exprs: &[&Expr],
        call: &Expr,
    ) -> Value {
        self.apply_call(ids, args, exprs, call, false)
    }

    /// [`Self::apply`]; `store_verb`: the call is a store wrapper's
    /// collection verb (see [`storing_call_site`]).
    fn apply_call(
        &mut self,
        ids: &[usize],
        args: &[Value],
        exprs: &[&Expr],
        call: &Expr,
        store_verb: bool,
    ) -> Value {
        let call_site = self.site(call);
        let arg_sites: Vec<Site> = exprs.iter().map(|e| self.site(*e)).collect();
        // A wrapper called by a store's verb (`store.begin(&scope, &key)`,
        // a claim verb included) is the storing call its caller sees.
        let called_by_verb = match call {
            Expr::MethodCall(m) => self.vocab.is_store_method(&m.method.to_string()),
            Expr::Call(c) => matches!(&*c.func, Expr::Path(p)
                if self.vocab.is_store_method(&last_ident(&p.path))),
            _ => false,
        };
        let mut result = Value::empty();
        let summaries = self.summaries;
        let param_names = ids
            .first()
            .and_then(|id| summaries.get(*id))
            .map(|s| s.param_names.clone())
            .unwrap_or_default();
        let args = &self.argument_facts(&param_names, args)[..];
        let client_args = args
            .iter()
            .take(64)
            .enumerate()
            .filter(|(_, a)| !server_built(a))
            .fold(0u64, |mask, (i, _)| mask | 1u64 << i);
        let flows: Vec<Demanded> = args.iter().map(|a| Demanded::of([a])).collect();
        for &id in ids {
            self.callees.push(id);
            self.calls.push((id, client_args));
            if flows.iter().any(|f| f.is_some()) {
                self.arg_flows.push((id, flows.clone()));
            }
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
            // A key the callee builds under a key's name and also stores is
            // reported once, where the callee's store is called.
            let stored: Vec<Site> = (summary.pending.iter())
                .filter(|event| event.raw_ok)
                .filter_map(|event| event.value.construct.map(|c| c.site))
                .collect();
            for event in &summary.pending {
                let named_only = !event.raw_ok;
                if named_only && (event.value.construct).is_some_and(|c| stored.contains(&c.site)) {
                    continue;
                }
                let (value, site) = {
                    // A position known by a name only (`fn cache_key(..)`)
                    // is where the key is built, not a store wrapper; so is
                    // the tuple or record of a helper not called by a store's
                    // verb (`self.replay(&who, &key)` storing `(who.tenant_id,
                    // key)`): that tuple is the key expression (rules.md).
                    let tuple = (event.value.construct).is_some_and(|c| {
                        matches!(c.kind, ConstructKind::Tuple | ConstructKind::Struct)
                    });
                    let flow = if event.raw_ok && (called_by_verb || !tuple) {
                        Flow::Pending
                    } else {
                        Flow::Returned
                    };
                    substitute(&event.value, args, call_site, &arg_sites, event.site, flow)
                };
                let (site, at_call) = storing_call_site(event, site, &arg_sites, store_verb);
                self.key_position_event(
                    value,
                    site,
                    event.raw_ok,
                    event.strong,
                    event.store.clone(),
                    event.store_owner.clone(),
                    at_call,
                );
            }
            self.apply_absorbs(&summary.absorbs, args, exprs, call_site, &arg_sites);
            self.apply_param_field_writes(&summary.param_field_writes, args);
            let (ret, _) = substitute(
                &summary.ret,
                args,
                call_site,
                &arg_sites,
                call_site,
                Flow::Returned,
            );
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

    /// At a call site: what the callee fed into a hasher parameter is fed
    /// into the caller's hasher (`hash_field(&mut hasher, &body)`).
    fn apply_absorbs(
        &mut self,
        absorbs: &[(usize, Value)],
        args: &[Value],
        exprs: &[&Expr],
        call_site: Site,
        arg_sites: &[Site],
    ) {
        for (i, fed) in absorbs {
            let (fed, _) = substitute(fed, args, call_site, arg_sites, call_site, Flow::Returned);
            if let Some(var) = exprs.get(*i).and_then(|e| place_name(e)) {
                self.absorb_into(&var, &fed);
            }
        }
    }

    /// A method call: closure adapters first (their closure sees the
    /// receiver), then the steps of [`Self::method_steps`].
    pub(super) fn eval_method_call(&mut self, m: &syn::ExprMethodCall, expr: &Expr) -> Value {
        let method = m.method.to_string();
        let recv = self.eval(&m.receiver);
        let exprs: Vec<&Expr> = m.args.iter().collect();

        // Closure-taking adapters: the closure sees the receiver's value.
        // Their arguments are closures or functions (after `map_or`'s
        // default): diesel's `filter(column.eq(v))` takes a predicate, a
        // query step; a cache's `get_or_insert_with(key, || ..)` stores.
        let defaults = usize::from(matches!(method.as_str(), "map_or" | "map_or_else"));
        let adapter = exprs
            .iter()
            .skip(defaults)
            .all(|e| matches!(e, Expr::Closure(_) | Expr::Path(_)));
        if CLOSURE_METHODS.contains(&method.as_str()) && adapter {
            let via = recv.via.clone();
            let mut value = self.closure_method(&method, recv, &exprs);
            value.via.extend(&via);
            return value;
        }

        // A closure handed to any other method of a value that carries
        // something receives that value (`stream.try_for_each(|k| ..)`,
        // `fut.and_then(|k| ..)` of a futures combinator, a helper's
        // `[org, key].iter().for_each(|part| ..)`). A mongodb filter
        // document is walked once, as the lookup's key.
        let filter = exprs
            .first()
            .and_then(|e| super::macros::document_filter(&method, e));
        let folds = matches!(method.as_str(), "fold" | "try_fold" | "rfold");
        let mut args: Vec<Value> = Vec::with_capacity(m.args.len());
        for (i, a) in m.args.iter().enumerate() {
            let value = match (i, filter) {
                (0, Some(mac)) => {
                    self.eval_document(mac, true, super::macros::collection_name(&m.receiver));
                    Value::empty()
                }
                (0, None) if super::macros::inserts_document(&method) => {
                    self.inserted_document(a, super::macros::collection_name(&m.receiver))
                }
                _ => match a {
                    // `fold(init, |acc, x| ..)`: the accumulator starts as
                    // `init`, the elements are the receiver's.
                    Expr::Closure(c) if folds && i == 1 => {
                        let init = args.first().cloned().unwrap_or_default();
                        self.eval_fold_closure(c, init, recv.clone())
                    }
                    // `map_err(|e| ..)` sees the error, never the key.
                    Expr::Closure(c)
                        if recv.carries_flow()
                            && !matches!(method.as_str(), "map_err" | "inspect_err") =>
                    {
                        self.eval_closure(c, Some(recv.clone()))
                    }
                    _ => self.eval(a),
                },
            };
            args.push(value);
        }
        let call = MethodCall {
            m,
            expr,
            method,
            args,
            exprs,
        };
        let mut via = recv.via.clone();
        for arg in &call.args {
            via.extend(&arg.via);
        }
        let mut value = match self.method_steps(&call, recv) {
            ControlFlow::Break(value) | ControlFlow::Continue(value) => value,
        };
        value.via.extend(&via);
        value
    }

    /// The kinds of method call, in the order they are recognised: each
    /// step either gives the call's value (`Break`) or hands the receiver's
    /// value on to the next (`Continue`).
    fn method_steps(&mut self, call: &MethodCall<'_>, recv: Value) -> ControlFlow<Value, Value> {
        let recv = self.hash_method_step(call, recv)?;
        let recv = self.typed_key_read(call, recv)?;
        let recv = self.decoded_by_turbofish(call, recv)?;
        let recv = self.header_read(call, recv)?;
        let recv = self.sql_builder_step(call, recv)?;
        let recv = self.diesel_step(call, recv)?;
        let recv = self.sql_method(call, recv)?;
        let recv = self.store_call(call, recv)?;
        let recv = self.redis_arg(call, recv)?;
        let recv = self.string_building(call, recv)?;
        let recv = self.defaulting_method(call, recv)?;
        let recv = self.crate_method(call, recv)?;
        let receiver = super::sinks::receiver_name(&call.m.receiver);
        self.note_key_call(&call.method, receiver, &call.args, call.expr);
        ControlFlow::Break(self.library_method(call, recv))
    }

    /// `headers.typed_get::<IdempotencyKey>()` reads the client key.
    fn typed_key_read(&self, call: &MethodCall<'_>, recv: Value) -> ControlFlow<Value, Value> {
        if let Some(turbofish) = &call.m.turbofish {
            let text = quote::ToTokens::to_token_stream(turbofish).to_string();
            if text
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w.ends_with("Key") && self.vocab.is_client_key_name(w))
            {
                return ControlFlow::Break(Value {
                    client_key: Some((self.origin(call.expr), KeySource::IdempotencyKey)),
                    ..Value::default()
                });
            }
        }
        ControlFlow::Continue(recv)
    }

    /// `a.unwrap_or(b)`: either value.
    fn defaulting_method(&self, call: &MethodCall<'_>, recv: Value) -> ControlFlow<Value, Value> {
        if !matches!(call.method.as_str(), "unwrap_or" | "or" | "get_or_insert") {
            return ControlFlow::Continue(recv);
        }
        let mut v = recv;
        for a in &call.args {
            v = v.union(a);
        }
        ControlFlow::Break(v)
    }

    /// Crate-local methods: apply their summaries.
    fn crate_method(&mut self, call: &MethodCall<'_>, recv: Value) -> ControlFlow<Value, Value> {
        let method = call.method.as_str();
        let on_self = is_self(&call.m.receiver);
        let builtin = TRANSPARENT_METHODS.contains(&method) || self.vocab.is_store_method(method);
        if on_self
            || !builtin
            || own_accessor(method, &recv)
            || self.own_setter(call)
            || self.stores_in_summary(method, &call.m.receiver)
        {
            let mut ids =
                self.index
                    .resolve_method(method, on_self, self.self_ty.as_deref(), !builtin);
            if !on_self {
                // A name several types define: the chain's own type decides
                // (`SlotBuilder::default().client_key(k).build()`).
                // So does a receiver known to be one of the unit's records
                // (`token` bound to `ServiceToken(..)`, `req:
                // Json<ShipmentRequest>`): of a trait's impls for several
                // types, the call reaches its own.
                if ids.is_empty() {
                    let ty = (self.chain_type(&call.m.receiver))
                        .or_else(|| self.receiver_record(&call.m.receiver));
                    if let Some(ty) = ty {
                        ids = self.index.methods_of(method, &ty);
                    }
                }
                // A decorator (`impl Service for Middleware<S>`) calling the
                // same method on the value it wraps reaches that value's
                // implementation, which we cannot see; resolving it to the
                // current function would read the wrapper's own stores as
                // the callee's.
                ids.retain(|&id| !self.is_current_fn(id));
                self.drop_own_types_of_foreign(&call.m.receiver, &mut ids);
                // Another record's impl is never this receiver's (the one
                // of its own type may be left out of this round).
                // A trait's default method (its `self_ty` is the trait) is
                // any implementor's.
                if let Some(ty) = self.receiver_record(&call.m.receiver) {
                    ids.retain(|&id| {
                        let def = &self.index.fns[id];
                        let own = def.self_ty.as_deref();
                        let default = own.is_some() && own == def.trait_of.as_deref();
                        default
                            || own
                                .is_none_or(|own| own == ty || !self.index.types.contains_key(own))
                    });
                }
            }
            if !ids.is_empty() {
                // A collection verb, not a claim API verb: those keep the
                // storing call inside the wrapper (`storing_call_site`).
                let store_verb =
                    !on_self && self.vocab.is_store_method(method) && !is_claim_api_method(method);
                let args = self.with_receiver(&ids, &call.args, &recv);
                let value = self.apply_call(&ids, &args, &call.exprs, call.expr, store_verb);
                let value = self.consumed_receiver(call, &ids, on_self, recv, value);
                return ControlFlow::Break(value);
            }
        }
        ControlFlow::Continue(recv)
    }

    /// Whether `receiver` is a parameter typed by another crate's type.
    pub(super) fn is_foreign_param(&self, receiver: &Expr) -> bool {
        let Expr::Path(p) = receiver else {
            return false;
        };
        (p.path.get_ident()).is_some_and(|i| {
            let name = i.to_string();
            self.foreign_params.contains(&name) && self.env.level_of(&name) == Some(0)
        })
    }

    /// On a parameter typed by another crate's type, drops the methods of
    /// the crate's own structs and enums from `ids`: `headers.get(..)` of
    /// `headers: &HeaderMap` is the map's method, not a store wrapper's of
    /// the same name. An extension trait's methods (`impl RequestExt for
    /// http::Request<T>`) stay.
    pub(super) fn drop_own_types_of_foreign(&self, receiver: &Expr, ids: &mut Vec<usize>) {
        if !self.is_foreign_param(receiver) {
            return;
        }
        let types = &self.index.types;
        ids.retain(|&id| {
            !(self.index.fns[id].self_ty.as_deref()).is_some_and(|t| types.contains_key(t))
        });
    }

    /// Whether `id` is the function being evaluated.
    fn is_current_fn(&self, id: usize) -> bool {
        let def = &self.index.fns[id];
        *def.name == *self.fn_name && def.self_ty == self.self_ty
    }
}

/// idem-scope's accessor of a key its constructor made is transparent; the
/// same name on a value no key constructor made is the crate's own method
/// on a record of its own (a `storage_key(&self)` that packs the fields by
/// hand), resolved and demanded like any crate method.
pub(super) fn own_accessor(method: &str, recv: &Value) -> bool {
    OWN_ACCESSORS.contains(&method) && !recv.scoped
}

/// What a callee's value is at its call: what it returns, or a key it
/// stores (a pending key event).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Returned,
    Pending,
}

/// A callee's sanitiser of parameter N is the caller's when the argument
/// is a client key, tenant or principal; still pending when the argument is
/// the caller's own parameter; gone otherwise (a route, a literal).
fn resolve_sanitized_params(out: &mut Value, args: &[Value]) {
    out.sanitized.retain_mut(|s| {
        if s.params == 0 {
            return true;
        }
        let passed = || bits(s.params).filter_map(|p| args.get(p));
        let keyish =
            passed().any(|a| a.client_key.is_some() || a.tenant.is_some() || a.principal.is_some());
        // A strip: whether the value is a key component is decided where it
        // is built into a key, as for a value sanitised in place
        // (`tenant_from_host(&conn)` stripping `:` from a host name). A
        // truncation of what is not yet a component parses it.
        s.params = if keyish {
            0
        } else {
            passed().fold(0, |acc, a| acc | a.params)
        };
        keyish || s.params != 0 || !s.truncates
    });
}

/// Replaces the parameters of a callee's value with the caller's arguments.
/// Returns the value and the site of the key expression at the caller.
fn substitute(
    value: &Value,
    args: &[Value],
    call_site: Site,
    arg_sites: &[Site],
    own_site: Site,
    flow: Flow,
) -> (Value, Site) {
    if value.params == 0 {
        return (value.clone(), own_site);
    }
    let mut out = value.clone();
    out.params = 0;
    // Before the arguments join: their own pending sanitisers are the caller's.
    resolve_sanitized_params(&mut out, args);
    if value.key_by_name && names::args_show_no_key(value.params, args) {
        // Only a name inside the callee made this a client key; the
        // caller's arguments show where the value comes from.
        out.client_key = None;
        out.key_by_name = false;
    }
    // A key named inside the callee (`req.idempotency_key`) of an argument
    // that is the request's payload is the client's key by flow.
    if bits(value.params).any(|p| args.get(p).is_some_and(|a| a.payload.is_some())) {
        out.client_key = out.client_key.take().map(|(o, s)| (o, s.by_flow()));
    }
    let intrinsic_key = out.client_key.is_some();
    let mut key_arg_site = None;
    for p in bits(value.params) {
        if let Some(arg) = args.get(p) {
            // A field of the parameter: that field of the argument, where
            // the argument's fields are known.
            let param_field = (value.param_field.as_deref()).filter(|f| f.param == p);
            let field = param_field.and_then(|f| arg.field(&f.field));
            // Of a record whose fields are unknown, a field named for one
            // component is that component, not the others the record
            // stands for (`c.merchant_id` of `&caller`, the principal).
            let narrowed = match (field, param_field.and_then(|f| f.component)) {
                (None, Some(own)) => {
                    let mut narrowed = arg.clone();
                    narrowed.keep_only_component(own);
                    Some(narrowed)
                }
                _ => None,
            };
            let arg = field.or(narrowed.as_ref()).unwrap_or(arg);
            if arg.client_key.is_some() && key_arg_site.is_none() {
                key_arg_site = arg_sites.get(p).copied();
            }
            out.join(arg);
        }
    }
    out.param_field = None;
    // The parameter itself used as the key (`self.attempts.put(slot, ..)`)
    // is the argument's text: it starts with the argument's prefix.
    let mut params = bits(value.params);
    if let (Some(p), None, None, None) = (
        params.next(),
        params.next(),
        &value.prefix,
        &value.construct,
    ) {
        if value.concat.is_none() {
            out.prefix = args.get(p).and_then(|a| a.prefix.clone());
        }
    }
    if let Some(elems) = &value.elems {
        let elems: Vec<Value> = elems
            .iter()
            .map(|e| substitute(e, args, call_site, arg_sites, own_site, flow).0)
            .collect();
        // A tuple's scope is its elements': an element that is one field of
        // an argument (`c.merchant_id`) brings that field, not the record.
        for component in Component::ALL {
            out.clear_component(component);
            if let Some(origin) = elems.iter().find_map(|e| e.component(component)) {
                out.add_component(component, origin.clone());
            }
        }
        out.elems = Some(elems);
    }
    if let Some(fields) = &value.fields {
        let fields = fields
            .iter()
            .map(|(n, f)| {
                (
                    n.clone(),
                    substitute(f, args, call_site, arg_sites, own_site, flow).0,
                )
            })
            .collect();
        out.fields = Some(Box::new(fields));
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
    payload_hash::substitute_payload_facts(value, args, &mut out);
    server_keys::substitute_server_facts(value, args, call_site, &mut out);
    if let Some(arg_site) = brought_by_argument(value, args, arg_sites, &out) {
        site = arg_site;
    }
    if !intrinsic_key && out.client_key.is_some() {
        // The caller supplied the key. A key the helper builds is reported
        // where it is built (rules.md, "Key position" 2), like IDEM001's
        // concatenation; the call is where the event enters the caller.
        match value.construct {
            Some(_) if !value.scoped && flow == Flow::Pending => {
                // A store wrapper called by its verb is the storage call its
                // caller sees: the key is the tuple of its key arguments.
                out.construct = Some(Construct {
                    kind: ConstructKind::Call,
                    site: call_site,
                });
                site = call_site;
            }
            Some(_) => site = call_site,
            None => site = key_arg_site.unwrap_or(call_site),
        }
    }
    (out, site)
}

/// Where a callee's raw key parameter that reaches storage is reported: at
/// the key argument of the call into the storing function, the first call
/// that hands it a key parameter. A key travels through wrappers
/// (`check(tenant, key)` → `check_db(key)` → `queries::find(pool, key)`)
/// and the scope is lost where the storing call gets the key alone; an
/// outer caller's argument is only one part of its key tuple.
///
/// A call of a store wrapper by a collection verb (`store.save(&key, &body)`,
/// `outermost`) is itself the storage operation its caller sees, whatever
/// the wrapper does inside: its key argument is reported.
fn storing_call_site(
    event: &KeyEvent,
    site: Site,
    arg_sites: &[Site],
    outermost: bool,
) -> (Site, bool) {
    let value = &event.value;
    let raw = value.construct.is_none() && value.client_key.is_none() && !value.scoped;
    let key_arg = bits(event.key_params).find_map(|p| arg_sites.get(p).copied());
    match key_arg {
        Some(arg_site) if outermost || (raw && !event.at_call) => (arg_site, true),
        _ if event.at_call => (event.site, true),
        _ => (site, false),
    }
}

/// A key that only the caller's argument made interesting (it brought the
/// payload hash or the server id) is reported at that argument, unless the
/// callee concatenated it in (then the callee's concatenation is the site).
fn brought_by_argument(
    value: &Value,
    args: &[Value],
    arg_sites: &[Site],
    out: &Value,
) -> Option<Site> {
    if out.client_key.is_some() {
        return None;
    }
    let brought = |arg: &Value| {
        (value.payload_hash.is_none() && arg.payload_hash.is_some())
            || (value.server_id.is_none() && arg.server_id.is_some())
    };
    // An element of a tuple or struct the callee builds is built into the
    // key there, like a concatenated part.
    // But a value only encoded there is keyed where the caller uses it
    // (`payload_hash::encodes_only`).
    let encoded = |p: usize| {
        args.get(p)
            .is_some_and(|a| payload_hash::encodes_only(value, p, a))
    };
    let built_in = |p: usize| {
        (value.concat_params.iter().any(|(q, _)| *q == p) && !encoded(p))
            || (value.elems.iter().flatten()).any(|e| bits(e.params).any(|q| q == p))
    };
    let from_arg = bits(value.params).find(|&p| args.get(p).is_some_and(brought) && !built_in(p));
    from_arg.and_then(|p| arg_sites.get(p)).copied()
}
