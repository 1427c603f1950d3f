//! Client keys, defaults and strips carried in the fields of records
//! across functions: a command, message or event built with the key in one
//! function and destructured in another (`Cmd::Refund { idem_key: key, .. }`
//! sent on a channel, matched in the loop that stores it); an extractor's
//! `AuthCtx { tenant_id: org.unwrap_or_default(), .. }` read by a handler
//! as `ctx.tenant_id`. Struct fields and tuple
//! elements are flow steps (rules.md, "Evidence and confidence"); a field
//! is followed by the record's type or variant name, which is how the code
//! that builds and the code that takes the record apart both name it.
//!
//! Each function's summary lists the fields it writes a client key, a
//! default or a strip into and the records it destructures; the fixpoint (`analysis::fixpoint`)
//! gathers the writes of the unit into [`FieldKeys`] and evaluates again
//! the functions that read a record whose fields changed.

use std::collections::HashMap;

use super::{Evaluator, Summary};
use syn::Expr;

use crate::analysis::value::{Fallback, KeySource, Origin, ParamField, Sanitized, Value};
use crate::analysis::vocab::Component;
use crate::model::diagnostic::Confidence;

/// Per (record type or variant, field name or position): what is written
/// into it somewhere in the unit.
pub type FieldKeys = HashMap<(String, String), FieldFacts>;

/// What the unit writes into one field of a record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldFacts {
    /// Where a client key written into it comes from.
    pub key: Option<(Origin, KeySource)>,
    /// Defaults it is given (`tenant_id: claims.org.unwrap_or_default()`
    /// in an extractor): a key built of the field elsewhere is defaulted.
    pub fallbacks: Vec<Fallback>,
    /// Separators stripped from what it is given.
    pub sanitized: Vec<Sanitized>,
    /// Scope components pushed into a field (a builder's `parts` the
    /// tenant, principal and route are pushed to, `ELEMENTS`).
    pub components: Vec<(Component, Origin)>,
}

/// One fact a function writes into a record's field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldFact {
    /// The client's key, known by flow.
    Key((Origin, KeySource)),
    /// A defaulted value.
    Defaulted(Fallback),
    /// A value stripped of a separator.
    Stripped(Sanitized),
    /// A scope component.
    Component(Component, Origin),
}

/// Suffix of a field's name for what is pushed into it (`self.parts
/// .push(part)` writes `parts[]`): a collection's elements, the parts a
/// builder joins, carry their scope components too.
pub const ELEMENTS: &str = "[]";

/// A field keeps at most this many defaults and strips.
const MAX_FIELD_FACTS: usize = 4;

/// A function keeps at most this many field writes in its summary.
const MAX_WRITES: usize = 32;

/// A parameter written into a record's field (`self.key = Some(v)` in a
/// builder's setter, `Self { key, .. }` in a constructor): (record, field,
/// parameter). A call passing a client key there writes it into the field.
pub type ParamFieldWrite = (String, String, usize);

/// The client keys the unit's functions write into records' fields. The
/// first function (in index order) writing a field gives its origin, so
/// the map does not depend on the order evaluations finish in.
pub fn field_keys(summaries: &[Summary]) -> FieldKeys {
    let mut keys = FieldKeys::new();
    for summary in summaries {
        for (record, field, fact) in &summary.field_writes {
            let facts = keys.entry((record.clone(), field.clone())).or_default();
            match fact {
                FieldFact::Key(key) => {
                    facts.key.get_or_insert_with(|| key.clone());
                }
                FieldFact::Defaulted(f) => {
                    if facts.fallbacks.len() < MAX_FIELD_FACTS && !facts.fallbacks.contains(f) {
                        facts.fallbacks.push(f.clone());
                    }
                }
                FieldFact::Stripped(s) => {
                    if facts.sanitized.len() < MAX_FIELD_FACTS && !facts.sanitized.contains(s) {
                        facts.sanitized.push(s.clone());
                    }
                }
                FieldFact::Component(c, origin) => {
                    if !facts.components.iter().any(|(d, _)| d == c) {
                        facts.components.push((*c, origin.clone()));
                    }
                }
            }
        }
    }
    keys
}

/// The records whose fields differ between two maps.
pub fn changed_records(old: &FieldKeys, new: &FieldKeys) -> Vec<String> {
    let mut records: Vec<String> = (new.iter())
        .filter(|(k, v)| old.get(*k) != Some(*v))
        .chain(old.iter().filter(|(k, _)| !new.contains_key(*k)))
        .map(|((record, _), _)| record.clone())
        .collect();
    records.sort_unstable();
    records.dedup();
    records
}

impl Evaluator<'_> {
    /// Whether a path's last segment names a record type or an enum
    /// variant of the unit (`Cmd::Refund`, `Refund`): not a function, and
    /// not a wrapper of the standard library (`Some`, `Ok`), whose fields
    /// are whatever each use puts there.
    fn names_record(&self, record: &str) -> bool {
        // A unit may define its own `Some` or `String` variant; a call
        // named so is still most likely the standard library's.
        const PRELUDE: &[&str] = &[
            "Some", "None", "Ok", "Err", "String", "Vec", "Box", "Option", "Result", "Arc", "Rc",
            "Cow", "Borrowed", "Owned", "Text", "Binary", "Value",
        ];
        !PRELUDE.contains(&record)
            && (self.index.types.contains_key(record) || self.index.variants.contains(record))
    }

    /// Notes a binding typed as a record of the unit (`msg: Refund`,
    /// `cmd: &Cmd`): its fields are read by the record's name.
    pub(super) fn note_record_binding(&mut self, pat: &syn::Pat, ty: &syn::Type) {
        let (syn::Pat::Ident(pi), Some(record)) = (pat, record_of(ty)) else {
            return;
        };
        if self.index.types.contains_key(&record) {
            self.record_bindings.insert(pi.ident.to_string(), record);
        }
    }

    /// The record a place names: a binding typed as a record of the unit
    /// (`msg: Refund`), or `self` in a method of the `impl`'s own record.
    pub(super) fn place_record(&self, base: &syn::Expr) -> Option<String> {
        crate::analysis::syntax::place_name(base).and_then(|local| {
            match self.record_bindings.get(&local) {
                Some(record) => Some(record.clone()),
                None if local == "self" => self.self_ty.clone(),
                None => None,
            }
        })
    }

    /// Notes a binding whose type holds records of the unit, one type
    /// argument naming one (`rx: Receiver<Notify>`, `jobs: &Vec<Job>`):
    /// what is received from it or iterated out of it is that record.
    pub(super) fn note_element_binding(&mut self, pat: &syn::Pat, ty: &syn::Type) {
        let (syn::Pat::Ident(pi), Some(record)) = (pat, element_record_of(ty)) else {
            return;
        };
        if self.index.types.contains_key(&record) {
            self.element_bindings.insert(pi.ident.to_string(), record);
        }
    }

    /// `n` in `while let Ok(n) = rx.recv_async().await`, `let n =
    /// rx.recv()?` or `for n in &jobs`, where `rx`/`jobs` hold records of
    /// the unit ([`Self::note_element_binding`]): `n` is that record.
    pub(super) fn bind_received(&mut self, pat: &syn::Pat, from: &Expr, iterated: bool) {
        let Some(name) = received_binding(pat) else {
            return;
        };
        let source = if iterated {
            iterated_binding(from)
        } else {
            received_from(from)
        };
        let record = source.and_then(|s| self.element_bindings.get(&s).cloned());
        // `let token = ServiceToken(raw)`, `let b = Slot::new(..)`: a record
        // of the unit made here is of its type.
        let record = record.or_else(|| (!iterated).then(|| self.made_record(from)).flatten());
        if let Some(record) = record {
            self.record_bindings.insert(name, record);
        }
    }

    /// The record of the unit an expression makes: a tuple struct's
    /// constructor (`ServiceToken(raw)`) or a chain of its own type.
    fn made_record(&self, expr: &Expr) -> Option<String> {
        if let Expr::Call(c) = expr {
            if let Expr::Path(p) = &*c.func {
                if let Some(ty) = p.path.get_ident().map(|i| i.to_string()) {
                    let local = ty.starts_with(|c: char| c.is_ascii_uppercase())
                        && self.index.types.contains_key(&ty);
                    return local.then_some(ty);
                }
            }
        }
        self.chain_type(expr)
    }

    /// The record of the unit a method's receiver is, where it is known
    /// (`token` bound to `ServiceToken(..)`, `req: Json<ShipmentRequest>`):
    /// of a trait's impls for several types, the call reaches its own.
    pub(super) fn receiver_record(&self, receiver: &Expr) -> Option<String> {
        self.place_record(receiver)
            .filter(|r| r != "Self")
            .or_else(|| self.made_record(receiver))
    }

    /// A field of a binding typed as a record of the unit (`msg: Refund`,
    /// then `msg.idem_key`).
    pub(super) fn typed_record_field(&mut self, base: &syn::Expr, field: &str, value: &mut Value) {
        // `p.client_key` of a parameter `p`: that field of what callers pass.
        let index = value.params.trailing_zeros() as usize;
        let named = |b: String| {
            self.param_names
                .get(index)
                .is_some_and(|p| p.as_ref() == Some(&b))
        };
        if value.params.count_ones() == 1
            && value.fields.is_none()
            && crate::analysis::syntax::place_name(base).is_some_and(named)
        {
            value.param_field = Some(Box::new(ParamField {
                param: index,
                field: field.to_string(),
                component: self.vocab.component_of_name(field),
            }));
        }
        if let Some(record) = self.place_record(base) {
            self.field_key(&record, field, value);
        }
    }

    /// `self.key = v` (a builder's setter) or `cmd.key = v`: an assignment
    /// to a field of a record of the unit writes the value there, as a
    /// struct literal does.
    pub(super) fn note_place_write(&mut self, base: &syn::Expr, field: &str, value: &Value) {
        if let Some(record) = self.place_record(base) {
            self.note_field_write(&record, field, value);
            self.note_param_field_write(&record, field, value);
        }
    }

    /// Notes the parameters that `value`, written into `field` of `record`
    /// here, passes on unchanged: a caller giving a client key for one
    /// writes that key into the field ([`Self::apply_param_field_writes`]).
    pub(super) fn note_param_field_write(&mut self, record: &str, field: &str, value: &Value) {
        // Only a parameter passed on as it is: a part of a built key is
        // read where the key is built.
        let raw = value.concat.is_none() && value.construct.is_none() && !value.scoped;
        if value.params == 0 || value.client_key.is_some() || !raw {
            return;
        }
        let own = (record == "Self").then(|| self.self_ty.clone()).flatten();
        let record = own.as_deref().unwrap_or(record);
        if !self.names_record(record) {
            return;
        }
        for param in (0..64).filter(|i| value.params & (1u64 << i) != 0) {
            if self.param_field_writes.len() >= MAX_WRITES {
                return;
            }
            let write = (record.to_string(), field.to_string(), param);
            if !self.param_field_writes.contains(&write) {
                self.param_field_writes.push(write);
            }
        }
    }

    /// At a call of a crate-local function: the client keys its arguments
    /// carry into the fields its parameters are written to.
    pub(super) fn apply_param_field_writes(&mut self, writes: &[ParamFieldWrite], args: &[Value]) {
        for (record, field, param) in writes {
            if let Some(arg) = args.get(*param) {
                self.note_field_write(record, field, arg);
                // A parameter passed on (a setter calling `push_checked(what,
                // part)`): this function writes its own parameter there.
                self.note_param_field_write(record, field, arg);
            }
        }
    }

    /// Binds the elements of a tuple variant or struct pattern
    /// (`Cmd::Capture(tenant, key)`) where builders elsewhere give one a
    /// client key; returns false (nothing bound) where none does.
    pub(super) fn bind_record_elements(
        &mut self,
        record: &str,
        pats: &syn::punctuated::Punctuated<syn::Pat, syn::token::Comma>,
        value: &mut Value,
    ) -> bool {
        let mut from_fields: Vec<Value> = Vec::new();
        for i in 0..pats.len() {
            let mut element = Value::empty();
            self.field_key(record, &i.to_string(), &mut element);
            from_fields.push(element);
        }
        if from_fields.iter().all(|e| e.client_key.is_none()) {
            return false;
        }
        let mut shared = std::mem::take(value);
        shared.construct = None;
        let elems = shared.elems.take().filter(|e| e.len() == pats.len());
        for (i, pat) in pats.iter().enumerate() {
            let mut element = match &elems {
                Some(elems) => elems[i].clone(),
                None => shared.clone(),
            };
            if element.client_key.is_none() {
                element.client_key = from_fields[i].client_key.take();
            }
            self.bind_pat(pat, element, None);
        }
        true
    }

    /// Notes that `value` is written into `field` of `record` here: the
    /// client's key, a default or a strip it carries.
    pub(super) fn note_field_write(&mut self, record: &str, field: &str, value: &Value) {
        // Only a value as it is: a key built of parts is read where it is
        // built.
        let raw = value.concat.is_none() && value.construct.is_none() && !value.scoped;
        let stripped = value.resolved_sanitized().next().is_some();
        let defaulted = value.fallbacks.iter().any(|f| !f.initial);
        // A component pushed into a field (what a key is built of, pushed
        // into `parts`) is in what is read out.
        let component = value.has_component() && field.ends_with(ELEMENTS);
        if !raw || (value.client_key.is_none() && !defaulted && !stripped && !component) {
            return;
        }
        // `Self { key, .. }` in an `impl` builds that record.
        let own = (record == "Self").then(|| self.self_ty.clone()).flatten();
        let record = own.as_deref().unwrap_or(record);
        if !self.names_record(record) {
            return;
        }
        let mut facts: Vec<FieldFact> = Vec::new();
        // The client's key known by flow: one known by a name is as good as
        // the field's own name.
        if let Some(key) = &value.client_key {
            if key.1.confidence() == Confidence::Certain && !key.1.is_request_id() {
                facts.push(FieldFact::Key(key.clone()));
            }
        }
        // Its defaults (not a default constructor's initial value, which a
        // setter overwrites) and strips: they attach to the tenant or
        // principal the field is read as.
        let defaulted = value.fallbacks.iter().filter(|f| !f.initial);
        facts.extend(defaulted.cloned().map(FieldFact::Defaulted));
        facts.extend(value.resolved_sanitized().cloned().map(FieldFact::Stripped));
        if component {
            for c in Component::ALL {
                if let Some(origin) = value.component(c) {
                    facts.push(FieldFact::Component(c, origin.clone()));
                }
            }
        }
        for fact in facts {
            if self.field_writes.len() >= MAX_WRITES {
                return;
            }
            let write = (record.to_string(), field.to_string(), fact);
            if !self.field_writes.contains(&write) {
                self.field_writes.push(write);
            }
        }
    }

    /// The client key some function writes into `field` of `record`, for a
    /// value read out of it here that carries none of its own.
    pub(super) fn field_key(&mut self, record: &str, field: &str, value: &mut Value) {
        if !self.names_record(record) {
            return;
        }
        if !self.field_reads.iter().any(|r| r == record) {
            self.field_reads.push(record.to_string());
        }
        // The field as written, and what was pushed into it
        // (`ELEMENTS`): both are in what is read out of it.
        let own = self
            .field_keys
            .get(&(record.to_string(), field.to_string()));
        let elements = (self.field_keys).get(&(record.to_string(), format!("{field}{ELEMENTS}")));
        for facts in own.into_iter().chain(elements) {
            Self::read_field_facts(facts, value);
        }
    }

    fn read_field_facts(facts: &FieldFacts, value: &mut Value) {
        // What the field was given elsewhere is in what is read out of it.
        for f in &facts.fallbacks {
            if value.fallbacks.len() < MAX_FIELD_FACTS && !value.fallbacks.contains(f) {
                value.fallbacks.push(f.clone());
            }
        }
        for s in &facts.sanitized {
            if value.sanitized.len() < MAX_FIELD_FACTS && !value.sanitized.contains(s) {
                value.sanitized.push(s.clone());
            }
        }
        for (c, origin) in &facts.components {
            value.add_component(*c, origin.clone());
        }
        // A key the field's name alone gave gives way to the one written
        // there by flow.
        let by_name = (value.client_key.as_ref())
            .is_some_and(|(_, source)| source.confidence() == Confidence::Possible);
        if value.client_key.is_some() && !by_name {
            return;
        }
        if let Some(key) = &facts.key {
            if value.client_key.is_none() || key.1.confidence() == Confidence::Certain {
                value.client_key = Some(key.clone());
            }
        }
    }
}

/// Methods that give one element of a channel, queue or collection.
const RECEIVE_METHODS: &[&str] = &[
    "recv",
    "recv_async",
    "try_recv",
    "recv_timeout",
    "blocking_recv",
    "next",
    "try_next",
    "pop",
    "pop_front",
    "pop_back",
    "first",
    "last",
];

/// The type argument of a one-argument generic type that may name a record
/// (`Receiver<Notify>`, `Vec<Job>`), through references.
fn element_record_of(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Reference(r) => element_record_of(&r.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            crate::analysis::syntax::only_type_argument(p.path.segments.last()?).and_then(record_of)
        }
        _ => None,
    }
}

/// The binding a received value goes to: `n`, `Ok(n)`, `Some(n)`.
fn received_binding(pat: &syn::Pat) -> Option<String> {
    match pat {
        syn::Pat::Ident(pi) => Some(pi.ident.to_string()),
        syn::Pat::TupleStruct(ts) if ts.elems.len() == 1 => received_binding(ts.elems.first()?),
        syn::Pat::Type(pt) => received_binding(&pt.pat),
        _ => None,
    }
}

/// The binding an element is received from: `rx` of `rx.recv().await?`,
/// `rx.try_recv().unwrap()`.
fn received_from(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Await(a) => received_from(&a.base),
        Expr::Try(t) => received_from(&t.expr),
        Expr::Paren(p) => received_from(&p.expr),
        Expr::MethodCall(m) => {
            let method = m.method.to_string();
            if RECEIVE_METHODS.contains(&method.as_str()) {
                crate::analysis::syntax::place_name(&m.receiver)
            } else if matches!(method.as_str(), "unwrap" | "expect" | "ok" | "cloned") {
                received_from(&m.receiver)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The binding a `for` loop iterates: `jobs` of `for j in &jobs`,
/// `rx.iter()`, `queue.drain(..)`.
fn iterated_binding(expr: &Expr) -> Option<String> {
    match expr {
        Expr::MethodCall(m)
            if matches!(
                m.method.to_string().as_str(),
                "iter" | "into_iter" | "iter_mut" | "drain" | "try_iter" | "into_stream"
            ) =>
        {
            crate::analysis::syntax::place_name(&m.receiver)
        }
        other => crate::analysis::syntax::place_name(other),
    }
}

/// The record type a binding's type names, through references.
fn record_of(ty: &syn::Type) -> Option<String> {
    // What an extractor or a shared pointer holds is the record
    // (`req: Json<ShipmentRequest>`, `hub: Arc<ReplayHub>`).
    const WRAPPERS: &[&str] = &[
        "Json",
        "Form",
        "Query",
        "Path",
        "Arc",
        "Rc",
        "Box",
        "Data",
        "State",
        "Extension",
        "Valid",
        "Validated",
    ];
    match ty {
        syn::Type::Reference(r) => record_of(&r.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            let inner = match &last.arguments {
                syn::PathArguments::AngleBracketed(a) if a.args.len() == 1 => a.args.first(),
                _ => None,
            };
            match inner {
                Some(syn::GenericArgument::Type(inner))
                    if WRAPPERS.contains(&last.ident.to_string().as_str()) =>
                {
                    record_of(inner)
                }
                _ => Some(last.ident.to_string()),
            }
        }
        _ => None,
    }
}
