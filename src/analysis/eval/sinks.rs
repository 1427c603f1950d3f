//! Key positions, for all rules: where a value becomes a key ([`KeyEvent`]s
//! and the pending positions of a summary), and the sinks recognised as
//! such: storage calls, redis `cmd(..).arg(key)`, and SQL query chains whose
//! binds reach an idempotency table.

use std::ops::ControlFlow;

use syn::Expr;

use super::request_builders::{dynamo_key_attribute, object_request_key, OBJECT_STORE};
use super::sql_binds::{client_key_lookup, key_binds_known, lookup_columns};
use super::{names, Demanded, Evaluator, MethodCall};
use crate::analysis::index::unions_impls;
use crate::analysis::key_event::KeyEvent;
use crate::analysis::sql::sql_tables;
use crate::analysis::sql_literals::looks_like_dml;
use crate::analysis::syntax::{last_ident, path_string, place_name, strip_parens, strip_ref};
use crate::analysis::value::{
    is_store_by_use, sql_store, ConstructKind, Origin, Site, SqlChain, Value,
};
use crate::analysis::vocab::{
    is_claim_api_method, is_conditional_insert, names_idempotency_store, names_map_entry,
    names_request_extensions, names_strong_store, names_transaction_handle, words, Component,
    CLOSURE_ENTRY_METHODS, DYNAMO_STORE, POSITIONAL_SQL_METHODS, PREPARED_EXECUTE_METHODS,
    TRANSPARENT_METHODS,
};

/// Whether an argument holds a statement's binds: several values, or one
/// written as a tuple or an array (`(key,)`, `[key]`).
fn holds_binds(arg: &Value, expr: &Expr) -> bool {
    arg.elems.is_some() || matches!(strip_ref(expr), Expr::Tuple(_) | Expr::Array(_))
}

/// At most this many pending key positions are kept per function summary.
const MAX_PENDING: usize = 32;

impl Evaluator<'_> {
    pub(super) fn key_position(&mut self, value: Value, site: Site, raw_ok: bool, strong: bool) {
        self.key_position_in(value, site, raw_ok, strong, None);
    }

    /// A key position of the store named `store` (see [`KeyEvent::store`]).
    pub(super) fn key_position_in(
        &mut self,
        value: Value,
        site: Site,
        raw_ok: bool,
        strong: bool,
        store: Option<String>,
    ) {
        self.key_position_event(value, site, raw_ok, strong, store, None, false);
    }

    /// A key position. `store_owner`: the type whose method uses the
    /// receiver store (a callee's, when its pending position is applied);
    /// `at_call`: see [`KeyEvent::at_call`].
    #[allow(clippy::too_many_arguments)]
    pub(super) fn key_position_event(
        &mut self,
        value: Value,
        site: Site,
        raw_ok: bool,
        strong: bool,
        store: Option<String>,
        store_owner: Option<String>,
        at_call: bool,
    ) {
        let mut value = value;
        if store.as_deref().is_some_and(is_store_by_use) {
            // A business table is a store only of the client keys it is
            // looked up by: a server-built or content-hash key in a column
            // of it is that table's own business (a quote cache keyed by
            // content), not an idempotency key.
            value.payload_hash = None;
            value.server_id = None;
        }
        if !raw_ok {
            // A position known only by its name (`let cache_key = ..`,
            // `fn compose_ingest_key(..)`, a `*_key` field) is where a key
            // is built, not where one is stored: a hash there may be a
            // cryptographic key id or a content address. A payload hash is
            // a key only where it reaches a store or `scoped()`.
            value.payload_hash = None;
        }
        if !raw_ok && value.construct.is_none() {
            return;
        }
        let key_params = value.params & self.key_param_mask;
        let event = KeyEvent {
            value,
            site,
            raw_ok,
            strong,
            store,
            store_owner,
            key_params,
            at_call,
            function: self.fn_site,
            tenant_at_hand: false,
        };
        if event.value.params != 0 && self.pending.len() < MAX_PENDING {
            self.pending.push(event.clone());
        }
        // A scoped key carries no client-key taint, but a default, a
        // sanitiser or a placeholder in its components is still reportable
        // (IDEM005/IDEM006/IDEM002), also where a helper stores it.
        let scoped_facts = event.value.scoped
            && (!event.value.fallbacks.is_empty()
                || !event.value.sanitized.is_empty()
                || !event.value.placeholders.is_empty());
        let interesting = event.value.client_key.is_some()
            || scoped_facts
            || event.value.payload_hash.is_some()
            || event.value.server_id.is_some()
            || event.value.client_ns;
        if interesting && !self.events.contains(&event) {
            self.events.push(event);
        }
    }

    /// `sqlx::query(SQL)` and friends (diesel's `sql_query(SQL)`) start a
    /// query chain.
    pub(super) fn sql_query_fn(
        &self,
        name: &str,
        args: &[Value],
        exprs: &[&Expr],
    ) -> Option<Value> {
        let sql = args.first().and_then(|a| a.literal.clone())?;
        // Any constructor of a statement from its text (`Query::new(SQL)`).
        let named = matches!(
            name,
            "query" | "query_as" | "query_scalar" | "query_with" | "query_as_with" | "sql_query"
        );
        if !(named || args.len() == 1 && looks_like_dml(&sql)) {
            return None;
        }
        Some(self.sql_root(&sql, exprs[0]))
    }

    /// SQL: `query(SQL).bind(a).bind(b)`, `client.query_one(SQL, &[&a, &b])`,
    /// `conn.query_row(SQL, params![a, b], |row| ..)`.
    /// Any other method ends the receiver's query chain.
    pub(super) fn sql_method(
        &mut self,
        call: &MethodCall<'_>,
        recv: Value,
    ) -> ControlFlow<Value, Value> {
        let (method, args, exprs) = (call.method.as_str(), &call.args, &call.exprs);
        if method == "bind" || method == "push_bind" {
            let mut value = recv;
            if let (Some(chain), Some(arg), Some(arg_expr)) =
                (value.sql.as_mut(), args.first(), exprs.first())
            {
                chain.binds.push((arg.clone(), self.site(*arg_expr)));
                // `q.bind(key);` on a statement held in a local binds in place.
                if let Some(name) = place_name(&call.m.receiver) {
                    self.assign(&name, value.clone());
                }
            }
            return ControlFlow::Break(value);
        }
        if recv.sql.is_none() && args.len() == 1 {
            // `client.query(SQL)`: a method given a statement's text alone
            // starts a chain of binds, whatever the client calls it.
            if let Some(sql) = (args[0].literal.as_deref()).filter(|sql| looks_like_dml(sql)) {
                let sql = sql.to_string();
                return ControlFlow::Break(self.sql_root(&sql, exprs[0]));
            }
        }
        if args.len() >= 2 {
            let statement = (args[0].literal.clone()).filter(|sql| {
                POSITIONAL_SQL_METHODS.contains(&method)
                    || (holds_binds(&args[1], exprs[1]) && looks_like_dml(sql))
            });
            if let Some(sql) = statement {
                return ControlFlow::Break(self.sql_with_params(&sql, args, exprs));
            }
        }
        // `session.prepare(SQL)`: a statement whose binds come later.
        if method.starts_with("prepare") && args.len() == 1 {
            if let Some(sql) = args[0].literal.clone() {
                let chain = self.sql_root(&sql, exprs[0]);
                if chain.sql.is_some() {
                    return ControlFlow::Break(chain);
                }
            }
        }
        // `stmt.execute((a, b))` on a prepared statement: its binds, in order.
        if recv.sql.is_some() && !args.is_empty() && PREPARED_EXECUTE_METHODS.contains(&method) {
            let mut binds = Vec::new();
            for (arg, expr) in args.iter().zip(exprs) {
                match &arg.elems {
                    Some(elems) => binds.extend(self.element_binds(elems, expr)),
                    None => binds.push((arg.clone(), self.site(*expr))),
                }
            }
            let mut value = recv;
            if let Some(chain) = value.sql.as_mut() {
                chain.binds.extend(binds);
            }
            return ControlFlow::Break(self.finish_sql(value));
        }
        ControlFlow::Continue(self.finish_sql(recv))
    }

    /// `client.query_one(SQL, &[&a, &b])`: the parameter slice binds in order.
    fn sql_with_params(&mut self, sql: &str, args: &[Value], exprs: &[&Expr]) -> Value {
        let mut chain = self.sql_root(sql, exprs[0]);
        let binds = match args[1].elems.as_ref() {
            Some(elems) => self.element_binds(elems, exprs[1]),
            // `(key,)`: a tuple of one is its element.
            None => match strip_ref(exprs[1]) {
                Expr::Tuple(t) if t.elems.len() == 1 => {
                    vec![(args[1].clone(), self.site(&t.elems[0]))]
                }
                Expr::Array(a) if a.elems.len() == 1 => {
                    vec![(args[1].clone(), self.site(&a.elems[0]))]
                }
                _ => Vec::new(),
            },
        };
        if let Some(c) = chain.sql.as_mut() {
            c.binds.extend(binds);
        }
        self.finish_sql(chain)
    }

    /// The binds an argument holding several gives, each at its element
    /// where the argument is written as an array or tuple (`&[&a, &b]`,
    /// `(a, b)`), else all at the argument (`params![a, b]`).
    fn element_binds(&self, elems: &[Value], expr: &Expr) -> Vec<(Value, Site)> {
        let sites: Vec<Site> = match strip_ref(expr) {
            Expr::Array(a) => a.elems.iter().map(|e| self.site(e)).collect(),
            Expr::Tuple(t) => t.elems.iter().map(|e| self.site(e)).collect(),
            other => vec![self.site(other); elems.len()],
        };
        elems.iter().cloned().zip(sites).collect()
    }

    /// Storage calls: the key argument and the scope parts before it are
    /// the key (see [`key_of_arguments`]).
    pub(super) fn store_call(
        &mut self,
        call: &MethodCall<'_>,
        recv: Value,
    ) -> ControlFlow<Value, Value> {
        let (m, args) = (call.m, &call.args);
        // `frame.put(bytes)` on a local buffer (`BufMut`): bytes written, no
        // key and value; a store's one-argument `put` is reached through a
        // field (`self.dedup.put(key)`).
        let local = matches!(store_place(&m.receiver), Expr::Path(_))
            && !self.holds_field_of_self(&m.receiver);
        // `slot.extend(&["idem", org, user, route, key])`: a literal beside
        // the parts appends text (path segments, a string), where a set of
        // keys is extended by keys.
        let literal_parts = |e: &Expr| {
            crate::analysis::syntax::array_of_parts(e)
                .is_some_and(|a| a.elems.iter().any(|x| matches!(x, Expr::Lit(_))))
        };
        let buffer = match call.method.as_str() {
            "put_slice" => true,
            "put" => args.len() == 1 && local,
            "extend" | "extend_from_slice" => call.exprs.len() == 1 && literal_parts(call.exprs[0]),
            _ => false,
        };
        if buffer {
            return ControlFlow::Continue(recv);
        }
        let wrappers = self.wrapper_targets(&call.method, &m.receiver);
        if self.any_stores(&wrappers) {
            return ControlFlow::Continue(recv);
        }
        if self.vocab.is_store_method(&call.method) {
            // Read as a storage operation for now; if a wrapper this call
            // may reach turns out to store keys, this function is evaluated
            // again once the wrapper's summary says so.
            self.callees.extend(wrappers.iter().copied());
        }
        if wrappers.is_empty() && self.vocab.is_store_method(&call.method) {
            // A wrapper of the store may be a function this round left out.
            let inputs = Demanded::of(std::iter::once(&recv).chain(args));
            let site = self.call_site(&call.method);
            self.demand_site(&site, inputs);
            // The unresolved calls that gave the other arguments may give the
            // key's scope (`begin(&principal_of(req), &route, key)`).
            for arg in args {
                for site in arg.via.calls() {
                    self.demand_site(site, inputs);
                }
            }
        }
        if let Some(key) = dynamo_key_attribute(&call.method, args, &call.exprs, &call.m.receiver) {
            // `put_item().item("pk", AttributeValue::S(key))`: the
            // partition key attribute of a DynamoDB item.
            let site = self.site(call.exprs[1]);
            self.key_position_in(key, site, true, false, Some(DYNAMO_STORE.to_string()));
            return ControlFlow::Continue(recv);
        }
        if let Some(key) = object_request_key(&call.method, args, &call.m.receiver) {
            // `s3.get_object().bucket(b).key(&k).send()`: the object's key.
            let site = self.site(call.exprs[0]);
            self.key_position_in(key, site, true, false, Some(OBJECT_STORE.to_string()));
            return ControlFlow::Continue(recv);
        }
        if let Some((table, key, site)) = self.table_record_id(args, &call.exprs) {
            self.key_position_in(key, site, true, true, Some(table));
            return ControlFlow::Break(Value::empty());
        }
        let keyed = self.vocab.is_store_method(&call.method)
            || reads_entry_with(call)
            || self.store_interface(&call.method);
        if keyed && !args.is_empty() {
            let name = receiver_name(&m.receiver).unwrap_or_default();
            let name = (self.receiver_aliases.get(&name))
                .or_else(|| self.self_field_locals.get(&name))
                .filter(|field| !field.is_empty())
                .cloned()
                .unwrap_or(name);
            // A newtype store (`self.0.lock()`) is named by its type.
            let own_type = name == "self";
            let name = match (name.as_str(), &self.self_ty) {
                ("self", Some(ty)) => ty.clone(),
                _ => name,
            };
            // Header maps and request extensions are per-request maps, not stores.
            let headers =
                name.to_ascii_lowercase().contains("header") || names_request_extensions(&name);
            let names_store = self.vocab.is_store_receiver(&name);
            if call.method == "insert" && args.len() == 1 && names_map_entry(&name) {
                // `Entry::Vacant(slot) => slot.insert(response)`: the entry's
                // key was given to `entry(..)`; this is its value.
                return ControlFlow::Continue(recv);
            }
            if call.method == "insert" && hands_on_typed_record(&m.receiver, &call.exprs) {
                return ControlFlow::Continue(recv);
            }
            if stores_under_fixed_name(args, &call.exprs) {
                // `depot.insert("idem_header", key)`: the client key is the
                // value kept under a fixed name, not the key of a record.
                return ControlFlow::Continue(recv);
            }
            let (primary, mut key) = key_of_arguments(&call.method, args, &call.exprs);
            // An idempotency or dedup store is never a blob store.
            let strong_name = names_strong_store(&name);
            if !own_type && names_idempotency_store(&name) {
                self.name_text_param_key(&mut key, primary, args, call.exprs[primary]);
            }
            if !strong_name && super::payload_hash::content_addressed(&key, &args[primary + 1..]) {
                key.payload_hash = None;
            }
            // A key by flow (the client's, a payload's digest, or one a key
            // constructor or namespace made) is stored wherever a store
            // method takes it, whatever the receiver is called.
            // So is a server-minted key: the receiver is a store by use where
            // client keys reach it too, which IDEM007 asks of the unit's
            // other writes (`KeyEvent::same_store`).
            // And a parameter's value stored in a field of `self` (a store
            // wrapper's own map, `self.inner.lock().await.insert(key, ..)`):
            // whether it is a key is the caller's to say (the pending event
            // carries it). Any local map would make every helper a store.
            // A claim verb (`vault.claim(sk, ttl)`, `try_claim_key`) is an
            // idempotency store's by its meaning: a parameter it claims is a
            // pending key position whatever holds the store (`ctx.vault`).
            // Not a verb that only mentions a claim (`replace_claim_context`).
            // So is a parameter's `storage_key()` (idem_scope's `ScopedKey`):
            // whatever the caller scoped, a helper stores a key there.
            let any_receiver = key.stored_by_any_receiver()
                || key.server_id.is_some()
                || (key.params != 0
                    && (self.holds_field_of_self(&m.receiver)
                        || starts_with_claim(&call.method)
                        || names::is_storage_key_of_param(call.exprs[primary], &key)));
            // `self` is a store only in an impl on another crate's type
            // (`impl ResponseArchive for Records { .. self.load(key) }`);
            // the crate's own types are read where their methods are called.
            // Not a trait's default method, whose `self` is any implementor.
            let foreign_self = (self.self_ty.as_deref()).is_some_and(|t| {
                !self.index.types.contains_key(t)
                    && !(self.index.trait_methods.iter()).any(|(tr, _)| tr == t)
            });
            if !headers && (names_store || any_receiver) && (!is_self(&m.receiver) || foreign_self)
            {
                // A write that succeeds once per key (`drift.put_if_absent(
                // &request_id, ..)`) dedups by what it does, whatever holds it.
                // Only where its answer is used: a rate window's `set_nx`
                // whose result is thrown away decides nothing.
                let decides = std::ptr::from_ref(call.m) as usize != self.discarded_call;
                let strong =
                    names_store && strong_name || decides && is_conditional_insert(&call.method);
                let site = self.site(call.exprs[primary]);
                let store = Some(name.to_ascii_lowercase())
                    .filter(|n| !n.is_empty())
                    .map(|n| match named_partition(&call.exprs[..primary]) {
                        Some(part) => format!("{n}/{part}"),
                        None => n,
                    });
                // A receiver is a field of the local type a field holds
                // (`self.bus.dedup`: `CommandBus`'s), a field of `self`
                // whose type is one local store type in every struct
                // (`dedup: Arc<DedupTable>`: that type's, whichever struct
                // holds it), or else a field or local of the type whose
                // method this is; a SQL table or redis is one store for all.
                // A field of a binding typed as a record of the unit
                // (`hub.replays` of `hub: ReplayHub`) is that record's.
                // So is a field of a local taken from `self`'s field
                // (`let inner = self.inner.clone(); inner.locker.set_nx(..)`).
                let owner = owner_field(&m.receiver)
                    .and_then(|field| self.index.field_type_name(&field))
                    .or_else(|| match store_place(&m.receiver) {
                        Expr::Field(f) if !is_self(&f.base) => {
                            self.place_record(&f.base).or_else(|| {
                                let local = place_name(&f.base)?;
                                let field = self.self_field_locals.get(&local)?;
                                self.index.field_type_name(field)
                            })
                        }
                        _ => None,
                    })
                    .or_else(|| self.self_ty.clone());
                self.key_position_event(key, site, true, strong, store, owner, false);
                return ControlFlow::Break(Value::empty());
            }
        }
        ControlFlow::Continue(recv)
    }

    /// A record id of an idempotency table, whatever the call is named:
    /// `db.select(("idem_replies", key))`, `create(("dedup", id))` (a
    /// document store's `(table, id)` pair). The table name is the store,
    /// the rest of the pair its key.
    fn table_record_id(&self, args: &[Value], exprs: &[&Expr]) -> Option<(String, Value, Site)> {
        args.iter().zip(exprs).find_map(|(arg, expr)| {
            let elems = arg.elems.as_deref()?;
            let (first, rest) = elems.split_first()?;
            let table = first.literal.as_deref()?;
            // A header's name and value (`("X-Upstream-Idempotency-Key", k)`
            // pushed onto an outgoing request) is no table's record.
            let header = self.vocab.is_key_header(table)
                || table.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("x-"));
            if rest.is_empty() || header || !self.vocab.is_idempotency_table(table) {
                return None;
            }
            let key = match rest {
                [only] => only.clone(),
                _ => Value::derived(rest.iter()),
            };
            let site = match strip_ref(expr) {
                Expr::Tuple(t) if t.elems.len() == elems.len() => self.site(&t.elems[1]),
                other => self.site(other),
            };
            Some((table.to_ascii_lowercase(), key, site))
        })
    }

    /// A claim API verb (`try_acquire`, `mark_completed`) of a crate-local
    /// method whose body stores keys: the body shows which argument is the
    /// key (a record passed whole is a row, not a key), so its summary is
    /// applied instead of reading the call as a storage operation.
    ///
    /// A collection verb (`store.get(key)`, `store.set(key, v)`) is read the
    /// same way when it resolves to a crate-local wrapper whose body stores
    /// keys (an `IdempotencyStore::get` that builds `idem:{tenant}:{key}`):
    /// the wrapper decides what the key is. Not from inside the wrapper's
    /// own type, where `conn.get(..)` is the store it wraps.
    pub(super) fn stores_in_summary(&self, method: &str, receiver: &Expr) -> bool {
        self.any_stores(&self.wrapper_targets(method, receiver))
    }

    /// Whether one of the functions `ids` stores keys by its summary.
    fn any_stores(&self, ids: &[usize]) -> bool {
        (ids.iter()).any(|&id| {
            self.summaries
                .get(id)
                .is_some_and(|s| !s.pending.is_empty())
        })
    }

    /// The crate-local methods a store call may be a wrapper's: for a
    /// claim API verb, any of that name; for a collection verb, one of a
    /// type the receiver names (a collection verb is as common as
    /// `map.get(..)`: `idempotency_store`, `store` or `redis` name an
    /// `IdempotencyStore` or a `RedisIdempotencyStore`), never from inside
    /// that type, where `conn.get(..)` is the store it wraps.
    fn wrapper_targets(&self, method: &str, receiver: &Expr) -> Vec<usize> {
        if is_self(receiver) {
            return Vec::new();
        }
        let claim_verb = is_claim_api_method(method);
        if !claim_verb && *method == *self.fn_name {
            return Vec::new();
        }
        let receiver_words = receiver_name(receiver)
            .map(|n| words(&n))
            .unwrap_or_default();
        let names_type = |ty: &str| {
            let ty_words = words(ty);
            receiver_words.iter().any(|w| ty_words.contains(w))
        };
        let mut ids = self.index.resolve_method(
            method,
            false,
            self.self_ty.as_deref(),
            unions_impls(method, self.vocab),
        );
        ids.retain(|&id| {
            let ty = self.index.fns[id].self_ty.as_deref();
            let own_type = ty.is_some() && ty == self.self_ty.as_deref();
            claim_verb || (!own_type && ty.is_some_and(names_type))
        });
        self.drop_own_types_of_foreign(receiver, &mut ids);
        ids
    }

    /// redis: `cmd("SET").arg(&key)`.
    pub(super) fn redis_arg(
        &mut self,
        call: &MethodCall<'_>,
        recv: Value,
    ) -> ControlFlow<Value, Value> {
        // `cmd("SET").arg(&key)`, and a Lua script's `Script::new(..).key(&key)`.
        let redis_key = match call.method.as_str() {
            "arg" => is_redis_cmd(&call.m.receiver),
            "key" => is_redis_script(&call.m.receiver),
            _ => false,
        };
        if !redis_key {
            return ControlFlow::Continue(recv);
        }
        if let (Some(key), Some(e)) = (call.args.first(), call.exprs.first()) {
            let site = self.site(*e);
            self.key_position_in(key.clone(), site, true, false, Some("redis".to_string()));
        }
        ControlFlow::Break(Value::empty())
    }

    // ---- SQL --------------------------------------------------------------

    pub(super) fn sql_root(&self, sql: &str, node: &Expr) -> Value {
        let lower = sql.to_ascii_lowercase();
        let tables = sql_tables(&lower);
        let table = tables
            .iter()
            .find(|t| ["idempot", "dedup", "replay"].iter().any(|w| t.contains(w)))
            .cloned();
        let (table, key, by_use) = match table {
            Some(t) => {
                let mut known = self.table_keys.borrow_mut();
                let key = key_binds_known(&lower, self.vocab, known.get(&t).map(Vec::as_slice));
                if let Some(columns) = lookup_columns(&lower) {
                    known.insert(t.clone(), columns);
                }
                (Some(t), key, false)
            }
            None => match client_key_lookup(&lower, self.vocab) {
                Some(k) => (tables.first().cloned(), Some(k), true),
                None => (None, None, false),
            },
        };
        let idempotency_table = table.is_some();
        // Scope components count where the statement keys on them: its key
        // columns when they can be read, otherwise any column it names.
        let named: Vec<&str> = match &key {
            Some(k) => k.columns.iter().map(String::as_str).collect(),
            None => lower
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .collect(),
        };
        // A key column that holds another resource's id scopes the key to
        // that resource; read only where the key columns are known.
        let resource = (key.as_ref()).and_then(|k| {
            let column = k.columns.iter().find(|c| self.vocab.names_resource_id(c))?;
            let binds = (k.filled.iter())
                .filter(|(c, _)| c == column)
                .map(|(_, p)| *p)
                .collect();
            let origin = Origin {
                text: column.clone(),
                by_name: true,
                ..self.origin(node)
            };
            Some((origin, binds))
        });
        let mut columns = Vec::new();
        for word in named {
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
                by_use,
                table,
                columns,
                resource,
                binds: Vec::new(),
                key_binds: key.map(|k| k.binds),
            })),
            ..Value::default()
        }
    }

    /// A SQL chain stops growing: judge its binds as one key.
    pub(super) fn finish_sql(&mut self, mut value: Value) -> Value {
        let Some(chain) = value.sql.take() else {
            return value;
        };
        if !chain.idempotency_table {
            return value;
        }
        // Only the binds that fill key columns are the key; the stored
        // values (a cached response, a server id set on completion) are not.
        let key_binds: Vec<&(Value, Site)> = match &chain.key_binds {
            Some(indices) => indices.iter().filter_map(|i| chain.binds.get(*i)).collect(),
            None => chain.binds.iter().collect(),
        };
        let first_key = key_binds
            .iter()
            .find(|(v, _)| v.client_key.is_some())
            // A server id or payload hash is the key bind before a value that
            // merely comes from a parameter (the tenant of the same event).
            .or_else(|| {
                key_binds
                    .iter()
                    .find(|(v, _)| v.server_id.is_some() || v.payload_hash.is_some())
            })
            .or_else(|| key_binds.iter().find(|(v, _)| v.params != 0));
        let Some(first_key) = first_key else {
            return value;
        };
        let site = first_key.1;
        let mut key = Value::empty();
        for (v, _) in &key_binds {
            key.join_as_part(v);
        }
        for (component, origin) in &chain.columns {
            key.add_component(*component, origin.clone());
        }
        if let Some((origin, binds)) = &chain.resource {
            // A column named like a resource whose value is a scope
            // component (`app_id` holding the tenant) is that component.
            let bare = |i: &usize| {
                chain.binds.get(*i).is_some_and(|(v, _)| {
                    !v.has_component() && !v.carries_key() && v.resource.is_none()
                })
            };
            if key.resource.is_none() && !binds.is_empty() && binds.iter().all(bare) {
                key.resource = Some(Box::new(origin.clone()));
            }
        }
        key.concat = first_key.0.concat;
        key.construct = first_key.0.construct;
        key.scoped = key_binds.iter().any(|(v, _)| v.scoped);
        let store = (chain.table.as_ref()).map(|t| sql_store(t, chain.by_use));
        self.key_position_in(key, site, true, true, store);
        value
    }

    /// `sqlx::query!(SQL, a, b)`: the arguments after the SQL bind in order.
    pub(super) fn sql_macro(&mut self, name: &str, args: &[Expr]) -> Value {
        // `query_as!(Row, SQL, a, b)`: the record type comes first.
        let typed = name.starts_with("query_as") && matches!(args.first(), Some(Expr::Path(_)));
        let args = if typed { &args[1..] } else { args };
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
            .map(|a| (self.eval(a), self.site(a)))
            .collect();
        if let Some(c) = chain.sql.as_mut() {
            c.binds.extend(rest);
        }
        self.finish_sql(chain)
    }
}

/// `insert("name", value)`, `set(SLOT, value)`: two arguments, the first a
/// string literal or a constant (a fixed slot name), and the client key only
/// in the second, the stored value.
/// `p.locals_mut().insert(ReplayMarker(k))`, `req.extensions_mut()
/// .insert(Ctx { .. })`: a whole record given alone to a map another value
/// hands out is kept by its type for later code (a request's typed map),
/// not stored under a key.
fn hands_on_typed_record(receiver: &Expr, exprs: &[&Expr]) -> bool {
    let handed_out = matches!(strip_parens(receiver), Expr::MethodCall(m) if m.args.is_empty());
    let record = match exprs {
        [arg] => match strip_parens(arg) {
            Expr::Struct(_) => true,
            Expr::Call(c) => matches!(&*c.func, Expr::Path(p)
            if p.path.segments.last().is_some_and(|s| {
                let name = s.ident.to_string();
                name.starts_with(|c: char| c.is_ascii_uppercase())
                    && !matches!(name.as_str(), "Some" | "Ok" | "Err" | "Box" | "Arc" | "Rc")
            })),
            _ => false,
        },
        _ => false,
    };
    handed_out && record
}

fn stores_under_fixed_name(args: &[Value], exprs: &[&Expr]) -> bool {
    let ([name, value], [name_expr, _]) = (args, exprs) else {
        return false;
    };
    // A literal, also through conversions (`"sha256".to_string()`), or a
    // constant.
    let fixed = name.literal.is_some()
        || match strip_ref(name_expr) {
            Expr::Lit(_) => true,
            Expr::Path(p) => last_ident(&p.path)
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'),
            _ => false,
        };
    // `digests.insert("sha256", digest)`: a value under a fixed name, too.
    let keyish = |v: &Value| v.carries_key() || v.payload_hash.is_some() || v.server_id.is_some();
    fixed && !keyish(name) && keyish(value)
}

/// The key of a storage call and the index of its key argument. The key
/// argument is the one that carries the client key, raw or scoped (else a server-minted
/// id or a payload hash, else the first function parameter that is not a
/// scope component, else the first argument); the arguments before it are the rest of the key tuple
/// (`put(tenant, key, value)`, `get(&owner, &key)`) and join their scope
/// components, defaults and parameters; the arguments after it are the
/// stored value and options (`set(&key, &bytes, ttl)`), never the key.
///
/// Only scope parts can come before the key: behind an argument that
/// carries no scope component, no key and no id (`replace(claim, record)`,
/// `put(handle, envelope)`), what carries the client key is a stored value,
/// and the first argument is the key. A transaction handle leads the
/// arguments of some stores (heed's `db.put(&mut wtxn, &key, &value)`,
/// fdb's and lmdb's): it is no part of the key and is skipped.
fn key_of_arguments(method: &str, args: &[Value], exprs: &[&Expr]) -> (usize, Value) {
    if let ([txn, _, ..], [txn_expr, _, ..]) = (args, exprs) {
        let handle = (names_transaction(txn_expr) && !txn.carries_key() && !txn.has_component())
            || (opaque_handle(txn, txn_expr) && args.len() > 1 + stored_values(method));
        if handle {
            let (primary, key) = key_of_arguments(method, &args[1..], &exprs[1..]);
            return (primary + 1, key);
        }
    }
    let carrier = args.iter().position(Value::carries_key);
    let primary = carrier
        .or_else(|| {
            args.iter()
                .position(|a| a.server_id.is_some() || a.payload_hash.is_some())
        })
        .or_else(|| args.iter().position(|a| a.params != 0 && !a.is_identity()))
        .or_else(|| args.iter().position(|a| a.params != 0))
        .unwrap_or(0);
    // A value with a literal prefix of its own (`format!("audit/{}", id)`)
    // is a whole key in its namespace, not one part of a tuple. So is one
    // concatenated from several scope components (`format!("{t}:{u}:{r}:
    // {digest}")`) ahead of an argument taken for the key only for being
    // an id: that is the stored value (`put(&dedup, job.id)`).
    let scope_part = |a: &Value| {
        let components = Component::ALL
            .into_iter()
            .filter(|&c| a.component(c).is_some())
            .count();
        let whole_key = (carrier.is_none()
            && components >= 2
            && a.construct.is_some_and(|c| c.kind == ConstructKind::Concat))
            // A tuple is a key of its own (`put(&(org, "pinned"), raw)`):
            // what follows it is the stored value. A verb that stores no
            // value takes a key in parts (`bay.entry(&owner, &digest)`).
            || (a.elems.is_some() && stored_values(method) > 0);
        (a.has_component() || !a.fallbacks.is_empty() || a.literal.is_some())
            && a.prefix.is_none()
            && !whole_key
    };
    let primary = if args[..primary].iter().all(scope_part) {
        primary
    } else {
        0
    };
    let mut key = request_record_key(&args[primary]);
    for (part, expr) in args[..primary].iter().zip(exprs) {
        // A literal naming an idempotency store's part (`tx.put("journal_idem",
        // key, id)`) says where the key goes, not which operation it is for.
        if let Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) = strip_ref(expr)
        {
            if names_strong_store(&text.value()) {
                continue;
            }
        }
        for component in Component::ALL {
            if let Some(origin) = part.component(component) {
                key.add_component(component, origin.clone());
            }
        }
        let mut identity = part.clone();
        identity.attach_fallbacks();
        for fallback in identity.fallbacks.iter().filter(|f| f.component.is_some()) {
            if !key.fallbacks.contains(fallback) {
                key.fallbacks.push(fallback.clone());
            }
        }
        // An identity stripped of a separator is as lossy in its own
        // argument (`crib.get(&tenant, &principal, route, key)`) as glued
        // into one text: two principals become one key.
        if part.tenant.is_some() || part.principal.is_some() {
            for s in &part.sanitized {
                if !key.sanitized.contains(s) {
                    key.sanitized.push(s.clone());
                }
            }
        }
        key.params |= part.params;
    }
    (primary, key)
}

impl Evaluator<'_> {
    /// A storage operation called on an idempotency store's type
    /// (`ReplayGuard::<T>::insert(id, block)` of a FRAME storage map,
    /// `PaymentDedup::fetch_one(&key, db)` of an ORM model): keyed on its
    /// arguments like a method of a store. Returns whether it was one.
    pub(super) fn associated_store_call(
        &mut self,
        segments: &[String],
        args: &[Value],
        exprs: &[&Expr],
    ) -> bool {
        let [.., ty, method] = segments else {
            return false;
        };
        let verb = self.vocab.is_store_method(method)
            || matches!(
                method.as_str(),
                "fetch_one" | "fetch_optional" | "find_by_id"
            );
        let store_type = ty.starts_with(|c: char| c.is_ascii_uppercase()) && names_strong_store(ty);
        if !verb || !store_type || args.is_empty() {
            return false;
        }
        let (primary, key) = key_of_arguments(method, args, exprs);
        let site = self.site(exprs[primary]);
        let store = Some(ty.to_ascii_lowercase());
        self.key_position_event(key, site, true, true, store, None, false);
        true
    }
}

/// The key of a store call's argument: a request record holding nothing
/// but the key (`ReadKeyRequest { key: &path, ..Default::default() }`) is
/// that key, so a finding points where it was built.
fn request_record_key(arg: &Value) -> Value {
    let Some(fields) = arg.fields.as_deref() else {
        return arg.clone();
    };
    // The fields left to defaults (`..`) hold nothing given.
    let mut holding = fields.iter().filter(|(n, v)| n != ".." && !v.is_empty());
    match (holding.next(), holding.next()) {
        (Some((_, only)), None) if only.carries_key() => {
            let mut key = only.clone();
            key.via.extend(&arg.via);
            key
        }
        _ => arg.clone(),
    }
}

/// Whether a store call's first argument is a handle the key is looked
/// up in (lmdb's `txn.put(self.idem, &k, &v, flags)`, `get(db, &k)`): a
/// place holding nothing the analysis knows, given before the key and a
/// stored value.
fn opaque_handle(arg: &Value, expr: &Expr) -> bool {
    // Or options made in place (leveldb's `db.get(ReadOptions::new(), key)`).
    let options = |e: &Expr| matches!(e, Expr::Call(c) if c.args.is_empty() && matches!(&*c.func, Expr::Path(p) if p.path.segments.len() == 2));
    arg.is_empty()
        && (matches!(strip_ref(expr), Expr::Path(_) | Expr::Field(_)) || options(strip_ref(expr)))
}

/// How many stored values a storage verb takes after its key: none for a
/// read or a delete, one for a write.
fn stored_values(method: &str) -> usize {
    let verb = method.split('_').next().unwrap_or(method);
    usize::from(!matches!(
        verb,
        "get"
            | "contains"
            | "exists"
            | "del"
            | "delete"
            | "remove"
            | "lookup"
            | "load"
            | "find"
            | "entry"
            | "has"
            | "peek"
            | "fetch"
    ))
}

/// Whether an argument names a database transaction (`&mut wtxn`, `&txn`)
/// or the call context some stores take first (wasmCloud's
/// `kv.get(ctx, &key)`).
fn names_transaction(expr: &Expr) -> bool {
    let context = |name: &str| {
        words(name)
            .iter()
            .any(|w| matches!(w.as_str(), "ctx" | "cx" | "context"))
    };
    match strip_ref(expr) {
        Expr::Path(p) => {
            let name = last_ident(&p.path);
            names_transaction_handle(&name) || context(&name)
        }
        // A handle held in a field: `deps.storage`, `ctx.txn`.
        Expr::Field(f) => {
            matches!(&f.member, syn::Member::Named(name) if names_transaction_handle(&name.to_string()))
        }
        _ => false,
    }
}

/// Peels references, parens, `?`, `.await` and clones to find the name of
/// the thing a method is called on (`state.redis.clone()` → `redis`).
/// The field a handle is taken from: `self.cache.clone()`,
/// `Arc::clone(&state.cache)`, `&self.cache`.
pub(super) fn field_handle(expr: &Expr) -> Option<String> {
    match strip_ref(expr) {
        Expr::Field(f) => match &f.member {
            syn::Member::Named(name) => Some(name.to_string()),
            syn::Member::Unnamed(_) => None,
        },
        Expr::MethodCall(m) if m.method == "clone" && m.args.is_empty() => {
            field_handle(&m.receiver)
        }
        Expr::Call(c) if c.args.len() == 1 => match &*c.func {
            Expr::Path(p) if last_ident(&p.path) == "clone" => field_handle(&c.args[0]),
            _ => None,
        },
        _ => None,
    }
}

/// A concurrent map's entry read or updated through a closure
/// ([`CLOSURE_ENTRY_METHODS`]): a storage operation on its first argument.
fn reads_entry_with(call: &MethodCall<'_>) -> bool {
    CLOSURE_ENTRY_METHODS.contains(&call.method.as_str())
        && matches!(call.exprs.as_slice(), [_, Expr::Closure(_)])
}

/// The field whose type owns a store read through `expr`: the field
/// holding the store's own field (`bus` of `self.bus.dedup`,
/// `state.bus.dedup.lock()`), else the store's field when it is one of
/// `self` (`dedup` of `self.dedup`); through no-argument methods,
/// references, `.await` and `?`. `None` for a store held in a local.
fn owner_field(expr: &Expr) -> Option<String> {
    let named = |member: &syn::Member| match member {
        syn::Member::Named(name) => Some(name.to_string()),
        syn::Member::Unnamed(_) => None,
    };
    let Expr::Field(f) = store_place(expr) else {
        return None;
    };
    match &*f.base {
        Expr::Field(holder) => named(&holder.member),
        base if is_self(base) => named(&f.member),
        _ => None,
    }
}

/// The place a receiver reads, inside the no-argument methods
/// (`.lock()`, `.clone()`), references, parentheses, `.await` and `?`
/// around it.
fn store_place(expr: &Expr) -> &Expr {
    match expr {
        Expr::MethodCall(m) if m.args.is_empty() => store_place(&m.receiver),
        Expr::Reference(r) => store_place(&r.expr),
        Expr::Paren(p) => store_place(&p.expr),
        Expr::Await(a) => store_place(&a.base),
        Expr::Try(t) => store_place(&t.expr),
        other => other,
    }
}

impl Evaluator<'_> {
    /// A trait method declared without a body that takes a key beside a
    /// scope component (`fn fetch(&self, tenant: &str, principal: &str,
    /// route: &str, key: &str)`): a store's interface, whatever its verb;
    /// its implementations are the stores.
    fn store_interface(&self, method: &str) -> bool {
        // Implementations of the unit's own are followed instead: the call
        // reaches them (`CrateIndex::resolve_method`).
        let implemented = (self.index.fns_by_name.get(method)).is_some_and(|ids| {
            (ids.iter()).any(|&id| {
                let def = &self.index.fns[id];
                def.has_receiver() && def.trait_of.is_some()
            })
        });
        !implemented
            && (self
                .index
                .abstract_methods
                .get(method)
                .into_iter()
                .flatten())
            .any(|params| {
                params
                    .iter()
                    .any(|p| p == "key" || self.vocab.is_client_key_name(p))
                    && params
                        .iter()
                        .any(|p| self.vocab.component_of_name(p).is_some())
            })
    }

    /// A parameter whose declared type names an idempotency store
    /// (`window: web::Data<DedupWindow>`) is that store as a receiver,
    /// whatever the parameter is called; a map or set lent `&mut` (`seen:
    /// &mut HashMap<..>`) is the caller's store, written here.
    pub(super) fn note_store_typed_param(&mut self, pat: &syn::Pat, ty: &syn::Type) {
        const HANDLES: &[&str] = &["Data", "State", "Extension", "Arc", "Rc", "Box"];
        let syn::Pat::Ident(pi) = pat else { return };
        if let syn::Type::Reference(r) = ty {
            let collection = |w: &str| matches!(w, "map" | "set" | "cache" | "store");
            let last = match &*r.elem {
                syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
                _ => None,
            };
            if r.mutability.is_some()
                && last.is_some_and(|t| words(&t).iter().any(|w| collection(w)))
            {
                self.lent_stores.push(pi.ident.to_string());
            }
        }
        // A parameter its own name makes a store keeps that name.
        if self.vocab.is_strong_store_receiver(&pi.ident.to_string()) {
            return;
        }
        if let Some(name) = crate::analysis::syntax::type_name_within(ty, HANDLES) {
            if self.vocab.names_store_type(&name) {
                self.receiver_aliases.insert(pi.ident.to_string(), name);
            }
        }
    }
}

pub(super) fn receiver_name(expr: &Expr) -> Option<String> {
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

/// Whether a receiver is reached through a field of `self`
/// (`self.inner.lock().await`, `self.cache.entries`), past what
/// [`store_place`] looks through.
pub(super) fn field_of_self(expr: &Expr) -> Option<String> {
    let mut place = store_place(expr);
    let mut field: Option<String> = None;
    while let Expr::Field(f) = place {
        // A newtype's `self.0` is a field too; a named one names the store.
        let name = match &f.member {
            syn::Member::Named(name) => name.to_string(),
            syn::Member::Unnamed(_) => String::new(),
        };
        if field.as_deref().is_none_or(str::is_empty) {
            field = Some(name);
        }
        place = store_place(&f.base);
    }
    field.filter(|_| is_self(place))
}

impl Evaluator<'_> {
    /// [`field_of_self`], or a local holding one's guard or handle.
    fn holds_field_of_self(&self, receiver: &Expr) -> bool {
        let local = |i: &syn::Ident| {
            let name = i.to_string();
            self.self_field_locals.contains_key(&name) || self.lent_stores.contains(&name)
        };
        field_of_self(receiver).is_some()
            || matches!(store_place(receiver), Expr::Path(p) if p.path.get_ident().is_some_and(local))
    }
}

pub(super) fn is_self(expr: &Expr) -> bool {
    match expr {
        Expr::Path(p) => p.path.is_ident("self"),
        Expr::Reference(r) => is_self(&r.expr),
        Expr::Paren(p) => is_self(&p.expr),
        _ => false,
    }
}

/// `redis::Script::new(SRC)`, `script.prepare_invoke()`, or a chain of
/// `.key(..)`/`.arg(..)` on one.
fn is_redis_script(expr: &Expr) -> bool {
    match expr {
        Expr::Call(c) => {
            matches!(&*c.func, Expr::Path(p) if path_string(&p.path).ends_with("Script::new"))
        }
        Expr::MethodCall(m) => match m.method.to_string().as_str() {
            "prepare_invoke" => true,
            "key" | "arg" => is_redis_script(&m.receiver),
            _ => false,
        },
        Expr::Paren(p) => is_redis_script(&p.expr),
        Expr::Reference(r) => is_redis_script(&r.expr),
        _ => false,
    }
}

fn is_redis_cmd(expr: &Expr) -> bool {
    match expr {
        Expr::Call(c) => matches!(&*c.func, Expr::Path(p) if last_ident(&p.path) == "cmd"),
        Expr::Paren(p) => is_redis_cmd(&p.expr),
        _ => false,
    }
}

/// The part of a store the argument before the key names: a constant or
/// a string literal (`tx.put(REPLAY_INDEX, key, id)`, `db.insert("jobs",
/// ..)`): keys in differently named parts of one store never meet.
fn named_partition(before_key: &[&Expr]) -> Option<String> {
    match strip_ref(before_key.last()?) {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        Expr::Path(p) => {
            let last = last_ident(&p.path);
            crate::analysis::header_holders::is_const_name(&last).then_some(last)
        }
        _ => None,
    }
}

/// Whether a method's name starts with the verb `claim` (`claim`,
/// `claim_slot`, `try_claim`).
fn starts_with_claim(method: &str) -> bool {
    let w = words(method);
    match w.as_slice() {
        [first, ..] if first == "claim" => true,
        [first, second, ..] => first == "try" && second == "claim",
        _ => false,
    }
}
