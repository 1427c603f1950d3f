//! Macro calls, for all rules: which macros are evaluated and how.
//! `format!`/`write!` build strings (see `concat`), `query!` starts a SQL
//! chain (see `sinks`), logging and assertion macros never make keys, and
//! the arguments of any other macro are evaluated for key positions inside
//! and flow on to its result.

use std::rc::Rc;

use proc_macro2::Span as PmSpan;
use syn::Expr;

use super::Evaluator;
use crate::analysis::syntax::{
    last_ident, macro_args, macro_expansion, object_entries, span_of, ObjectValue,
};
use crate::analysis::value::{Construct, ConstructKind, Site, Value};
use crate::model::diagnostic::Confidence;

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

impl Evaluator<'_> {
    pub(super) fn eval_macro(&mut self, mac: &syn::Macro, span: PmSpan) -> Value {
        let name = last_ident(&mac.path);
        if matches!(name.as_str(), "doc" | "bson") {
            self.eval_document(mac, false, None);
            return Value::empty();
        }
        if name == "json" {
            return self.json_payload(&mac.tokens);
        }
        let Some(args) = macro_args(mac) else {
            return Value::empty();
        };
        let site = Site {
            file: self.file,
            span: span_of(span),
        };
        match name.as_str() {
            "format" | "format_args" => self.eval_format(&args, site),
            "write" | "writeln" => self.eval_write(&args, site),
            // rusqlite's `params![a, b]` and cdrs' `query_values!(a, b)`
            // bind in order, as `&[&a, &b]` does.
            "vec" | "params" | "query_values" => {
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
                self.sql_macro(&name, &args)
            }
            _ if LOG_MACROS.contains(&name.as_str()) => Value::empty(),
            _ => {
                if let Some(expanded) = self.local_expansion(mac) {
                    return self.eval(&expanded);
                }
                // Unknown macros: their arguments are evaluated for key
                // positions inside, and what they carry flows on to the
                // result, as through a call the analysis does not know
                // (`key!(tenant, idem)` builds a key from both).
                let values: Vec<Value> = args.iter().map(|a| self.eval(a)).collect();
                let lengths_only = args
                    .iter()
                    .all(|a| matches!(a, syn::Expr::Lit(l) if matches!(l.lit, syn::Lit::Int(_))));
                if lengths_only && crate::analysis::vocab::names_minting_macro(&name) {
                    return Value {
                        server_id: Some(self.fact_origin(mac)),
                        ..Value::default()
                    };
                }
                Value::derived(values.iter())
            }
        }
    }
}

impl Evaluator<'_> {
    /// `json!({ "origin": input.origin, .. })` of the request's input is
    /// that input re-encoded (a canonical body whose hash is a payload
    /// hash): the value carries the payload of the locals it names, and
    /// nothing else. Client keys and components do not flow through it:
    /// a JSON document is a stored value or a response, not a key.
    fn json_payload(&self, tokens: &proc_macro2::TokenStream) -> Value {
        let mut out = Value::empty();
        let mut stack: Vec<proc_macro2::TokenStream> = vec![tokens.clone()];
        while let Some(stream) = stack.pop() {
            for tree in stream {
                match tree {
                    proc_macro2::TokenTree::Group(g) => stack.push(g.stream()),
                    proc_macro2::TokenTree::Ident(ident) if out.payload.is_none() => {
                        let payload = self.lookup(&ident.to_string()).and_then(|v| {
                            (v.client_key.is_none() && v.payload_hash.is_none())
                                .then(|| v.payload.clone())
                                .flatten()
                        });
                        out.payload = payload;
                    }
                    _ => {}
                }
            }
        }
        out
    }
}

impl Evaluator<'_> {
    /// What a call of one of the unit's own `macro_rules!` helpers defined
    /// in this file expands to (`analysis::macro_rules`), once per call.
    fn local_expansion(&self, mac: &syn::Macro) -> Option<Rc<Expr>> {
        let name = mac.path.get_ident()?.to_string();
        let rules = self.index.macro_rules.get(&name)?.as_ref()?;
        if rules.file != self.file {
            return None;
        }
        macro_expansion(mac, || rules.expand(&mac.tokens))
    }
}

/// Methods of a mongodb collection whose first argument is a filter.
const FILTER_METHODS: &[&str] = &[
    "find_one",
    "find",
    "find_one_and_update",
    "find_one_and_replace",
    "find_one_and_delete",
    "update_one",
    "replace_one",
    "delete_one",
    "count_documents",
];

/// The `doc!`/`bson!` document `expr` is, when it is the filter argument of
/// `method` (see [`Evaluator::eval_document`]).
pub(super) fn document_filter<'e>(method: &str, expr: &'e Expr) -> Option<&'e syn::Macro> {
    let Expr::Macro(m) = expr else {
        return None;
    };
    (FILTER_METHODS.contains(&method) && matches!(last_ident(&m.mac.path).as_str(), "doc" | "bson"))
        .then_some(&m.mac)
}

/// Methods of a mongodb (or polodb) collection that insert or replace whole
/// documents: their document's `_id` is the key the collection keeps.
pub(super) fn inserts_document(method: &str) -> bool {
    matches!(
        method,
        "insert_one" | "insert_many" | "replace_one" | "find_one_and_replace"
    )
}

/// The collection a document operation runs on (`done(&db).insert_one(..)`,
/// `self.dedup.find_one(..)`): one store for its filters and inserts.
pub(super) fn collection_name(receiver: &Expr) -> Option<String> {
    super::sinks::receiver_name(receiver).map(|n| format!("collection:{}", n.to_ascii_lowercase()))
}

impl Evaluator<'_> {
    /// A document inserted into a collection: `doc! { "_id": k, .. }` or a
    /// record literal whose `_id` field holds `k` (`Done { _id: k, .. }`)
    /// puts `k` in key position of that collection.
    pub(super) fn inserted_document(&mut self, arg: &Expr, store: Option<String>) -> Value {
        match crate::analysis::syntax::strip_ref(arg) {
            Expr::Macro(m) if matches!(last_ident(&m.mac.path).as_str(), "doc" | "bson") => {
                self.eval_document(&m.mac, false, store);
                Value::empty()
            }
            Expr::Struct(record) => {
                let id = record
                    .fields
                    .iter()
                    .find(|f| matches!(&f.member, syn::Member::Named(n) if n == "_id"));
                let record_value = self.eval(arg);
                if let Some(id) = id {
                    // The record's own `_id` field as the literal gave it,
                    // read back rather than evaluated again.
                    let key = (record_value.fields.as_deref())
                        .and_then(|fields| fields.iter().find(|(name, _)| name == "_id"))
                        .map(|(_, v)| v.clone());
                    let key = key.unwrap_or_else(|| self.eval(&id.expr));
                    let site = self.site(&id.expr);
                    self.key_position_in(key, site, true, false, store);
                }
                record_value
            }
            other => self.eval(other),
        }
    }
}

impl Evaluator<'_> {
    /// A BSON document (`doc! { "_id": key, .. }`), walked once: `_id` is
    /// the document's primary key, so its value is in key position wherever
    /// the document goes; the other fields are stored or compared values,
    /// evaluated for what happens inside. As a lookup's `filter`
    /// (`find_one(doc! { "idempotency_key": key })`), a collection looked
    /// up by its client-key field is an idempotency store by use, like a
    /// table looked up by its client-key column: the filter's fields
    /// together (the client key and the scope fields beside it) are the key.
    pub(super) fn eval_document(&mut self, mac: &syn::Macro, filter: bool, store: Option<String>) {
        let mut key = Value::empty();
        let mut key_site = None;
        let entries = object_entries(mac.tokens.clone());
        self.document_entries(entries, &store, &mut |this, name, expr, v| {
            if !filter || name == "_id" {
                return;
            }
            // A filter entry holding the client key is the lookup's key,
            // whatever the field is called (`"key": &key`); a key known by
            // name only counts under a key's name.
            let by_flow = v
                .client_key
                .as_ref()
                .is_some_and(|(_, s)| s.confidence() == Confidence::Certain);
            if (by_flow || this.vocab.is_client_key_name(name)) && v.client_key.is_some() {
                key_site.get_or_insert(this.site(expr));
            } else if let Some(component) = this.vocab.component_of_name(name) {
                key.add_component(component, this.origin(expr));
            }
            key.join_as_part(v);
        });
        if let Some(site) = key_site {
            self.key_position_in(key, site, true, false, store);
        }
    }

    /// Evaluates each entry (nested documents too), puts `_id` values in
    /// key position, and hands each top-level entry to `top`.
    fn document_entries(
        &mut self,
        entries: Vec<(String, ObjectValue)>,
        store: &Option<String>,
        top: &mut dyn FnMut(&mut Self, &str, &Expr, &Value),
    ) {
        for (name, value) in entries {
            match value {
                ObjectValue::Object(inner) => {
                    self.document_entries(inner, store, &mut |_, _, _, _| {})
                }
                ObjectValue::Expr(expr) => {
                    let v = self.eval(&expr);
                    if name == "_id" {
                        let site = self.site(&*expr);
                        self.key_position_in(v.clone(), site, true, false, store.clone());
                    }
                    top(self, &name, &expr, &v);
                }
            }
        }
    }
}
