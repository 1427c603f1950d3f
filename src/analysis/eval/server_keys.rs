//! Facts for unnamespaced server keys (IDEM007): server-minted ids (names
//! such as `event_id`, the `id` field of a server entity, `Uuid::new_v4()`)
//! and the concatenation where one became part of a key, also across
//! function boundaries. `KeyEvent::store` (see `sinks`) names the store a
//! key reaches, so the rule can tell which stores client keys reach.

use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::Expr;

use super::sinks::receiver_name;
use super::Evaluator;
use crate::analysis::index::{Acknowledged, FnDef};
use crate::analysis::value::{Site, Value};
use crate::analysis::vocab::{is_server_entity_word, mints_id_method, words};

impl Evaluator<'_> {
    /// A name that says the value is a server id (`event_id`, `delivery_id`).
    pub(super) fn server_id_by_name(&self, value: &mut Value, name: &str, node: &impl Spanned) {
        if value.server_id.is_none() && self.vocab.is_server_id_name(name) {
            value.server_id = Some(Box::new(self.origin(node)));
        }
    }

    /// `event.id`, `delivery.id`, `self.msg.uuid`: the id of a server entity.
    pub(super) fn entity_id_field(
        &self,
        value: &mut Value,
        base: &Expr,
        field: &str,
        node: &impl Spanned,
    ) {
        if value.server_id.is_some() || value.client_key.is_some() {
            return;
        }
        if !is_id_field(field) && !is_position_field(field) && !is_dedup_id_field(field) {
            return;
        }
        let name = receiver_name(base);
        let entity = (name.as_ref())
            .map(|n| words(n))
            .and_then(|w| w.last().cloned())
            .is_some_and(|w| is_server_entity_word(&w))
            || name.is_some_and(|n| self.entity_bindings.contains(&n));
        if entity {
            value.server_id = Some(Box::new(self.origin(node)));
        }
    }

    /// A record that came out of a server entity (`let tap: TapFrame =
    /// serde_json::from_slice(&payload)` of a consumed `msg`, an `entity`
    /// of a decoded `FeedMessage`): its own id and its ids of things that
    /// are no scope component (`tap.tap_id`, not `tap.user_id`) were minted
    /// by its sender.
    pub(super) fn entity_borne_id_field(
        &self,
        value: &mut Value,
        field: &str,
        node: &impl Spanned,
    ) {
        let named_id = is_id_field(field)
            || words(field).last().is_some_and(|w| is_id_field(w)) && words(field).len() > 1;
        if value.entity_borne
            && named_id
            && value.server_id.is_none()
            && value.client_key.is_none()
            && self.vocab.component_of_name(field).is_none()
        {
            value.server_id = Some(Box::new(self.origin(node)));
        }
    }

    /// `let Message { id, .. } = &msg`: the id of a server entity's type
    /// (its name ends in an entity word) taken out by a pattern.
    pub(super) fn entity_pattern_id(
        &self,
        value: &mut Value,
        ty: &str,
        field: &str,
        node: &impl Spanned,
    ) {
        let entity = words(ty).last().is_some_and(|w| is_server_entity_word(w));
        if entity && is_id_field(field) && value.server_id.is_none() && value.client_key.is_none() {
            value.server_id = Some(Box::new(self.origin(node)));
        }
    }

    /// Remembers a binding declared with a server entity's type: the
    /// type, or a wrapper's type argument (`Json<PspEvent>`), ends in an
    /// entity word (`PspEvent`, `WebhookDelivery`, `OutboxMessage`).
    pub(super) fn note_entity_binding(&mut self, pat: &syn::Pat, ty: &syn::Type) {
        if !names_server_entity(ty) {
            return;
        }
        let mut names = Vec::new();
        pat_names(pat, &mut names);
        self.entity_bindings.extend(names);
    }

    /// A binding the function acknowledges (`tote.ack()`, `msg.nack(..)`,
    /// `delivery.acknowledge()`) is a consumed message, whatever its type
    /// is called: its `id()` was minted by its sender.
    /// So is a parameter of a type the unit's callers hand acknowledged
    /// bindings to (`handle_fix(&desk, &cargo)` before `cargo.ack()`).
    pub(super) fn note_acknowledged(&mut self, def: &FnDef<'_>) {
        let known = self.acknowledged();
        let mut acked = match known.by_body.get(&body_address(def.block)) {
            Some(acked) => acked.clone(),
            None => acknowledged_in(def.block),
        };
        if !known.types.is_empty() {
            for (name, ty) in typed_params(def) {
                if known.types.contains(&ty) {
                    acked.push(name);
                }
            }
        }
        self.entity_bindings.extend(acked.iter().cloned());
        self.acknowledged.extend(acked);
    }

    fn acknowledged(&self) -> &Acknowledged {
        (self.index.acknowledged).get_or_init(|| {
            let mut found = Acknowledged::default();
            for def in &self.index.fns {
                let acked = acknowledged_in(def.block);
                if !acked.is_empty() {
                    let mut calls = HandedOn {
                        acked: &acked,
                        out: Vec::new(),
                    };
                    calls.visit_block(def.block);
                    for (callee, position) in calls.out {
                        for &id in self.index.fns_by_name.get(&callee).into_iter().flatten() {
                            let params: Vec<(String, String)> = typed_params(&self.index.fns[id]);
                            if let Some((_, ty)) = params.get(position) {
                                found.types.insert(ty.clone());
                            }
                        }
                    }
                }
                found.by_body.insert(body_address(def.block), acked);
            }
            found
        })
    }

    /// A generator's next id, asked with nothing given and no crate method
    /// of that name in reach (`ids.lock().map(|mut g| g.generate())`): a
    /// fresh id, as `Uuid::new_v4()` is.
    pub(super) fn generated_id(&self, value: &mut Value, method: &str, node: &impl Spanned) {
        if value.server_id.is_none() && value.client_key.is_none() && mints_id_method(method) {
            *value = Value {
                server_id: Some(Box::new(self.origin(node))),
                ..Value::default()
            };
        }
    }

    /// A fresh id minted here (`Uuid::new_v4()`, `Ulid::new()`).
    pub(super) fn fresh_id(&self, expr: &Expr) -> Value {
        Value {
            server_id: Some(self.fact_origin(expr)),
            ..Value::default()
        }
    }
}

/// The IDEM007 part of `substitute`: a concatenation inside the callee is
/// where the caller's server id became part of a key. A helper's
/// `scoped(..)` that callers give client keys and server ids alike is
/// changed at the call that gives it a server id (`call_site`): that caller
/// is the one to use `scoped_server`.
pub(super) fn substitute_server_facts(
    value: &Value,
    args: &[Value],
    call_site: Site,
    out: &mut Value,
) {
    let scoped_here = value.scoped && value.construct.is_some();
    let given_server_id =
        super::bits(value.params).any(|p| args.get(p).is_some_and(|a| a.server_id.is_some()));
    if scoped_here && given_server_id && value.server_id.is_none() && out.server_concat.is_none() {
        out.server_concat = Some(call_site);
    }
    for (p, concat) in &value.concat_params {
        if let Some(arg) = args.get(*p) {
            if arg.server_id.is_some() && out.server_concat.is_none() {
                out.server_concat = Some(*concat);
            }
        }
    }
}

/// Whether a type names a server entity: its own name or, for a wrapper
/// (`Json<T>`, `&T`, `Option<T>`), a type argument's ends in an entity word.
fn names_server_entity(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Reference(r) => names_server_entity(&r.elem),
        syn::Type::Paren(p) => names_server_entity(&p.elem),
        syn::Type::Path(p) => p.path.segments.last().is_some_and(|seg| {
            let own = words(&seg.ident.to_string())
                .last()
                .is_some_and(|w| is_server_entity_word(w));
            let inner = match &seg.arguments {
                syn::PathArguments::AngleBracketed(args) => args
                    .args
                    .iter()
                    .any(|a| matches!(a, syn::GenericArgument::Type(t) if names_server_entity(t))),
                _ => false,
            };
            own || inner
        }),
        _ => false,
    }
}

/// The names a pattern binds through newtype wrappers and references
/// (`ev`, `Json(ev)`, `&ev`); tuples and structs bind parts, not the entity.
fn pat_names(pat: &syn::Pat, out: &mut Vec<String>) {
    match pat {
        syn::Pat::Ident(pi) => out.push(pi.ident.to_string()),
        syn::Pat::TupleStruct(ts) if ts.elems.len() == 1 => {
            if let Some(inner) = ts.elems.first() {
                pat_names(inner, out);
            }
        }
        syn::Pat::Reference(r) => pat_names(&r.pat, out),
        syn::Pat::Paren(p) => pat_names(&p.pat, out),
        syn::Pat::Type(t) => pat_names(&t.pat, out),
        _ => {}
    }
}

/// A field holding a record's own id (`id`, `uuid`, Twilio's `sid`).
fn is_id_field(field: &str) -> bool {
    crate::analysis::vocab::is_record_id_word(field)
}

/// The id an entity's sender gives it for receivers to drop repeats by
/// (`deduplication_id` of a network server's uplink event, `dedup_id`).
fn is_dedup_id_field(field: &str) -> bool {
    let w = words(field);
    matches!(w.as_slice(), [dedup, last]
        if is_id_field(last) && matches!(dedup.as_str(), "dedup" | "dedupe" | "deduplication"))
}

/// Where a broker put a message, which names it as its id does
/// (`m.offset()` of a Kafka message, a JetStream `stream_sequence`).
fn is_position_field(field: &str) -> bool {
    matches!(
        field,
        "offset" | "sequence" | "seq" | "stream_sequence" | "sequence_number" | "seq_no"
    )
}

/// A decoder of a server entity type (`FeedMessage::decode(..)`,
/// `Event::from_slice(..)`): what it decodes was sent by another server.
pub(super) fn names_entity_type_call(path: &syn::Path) -> bool {
    let segments = &path.segments;
    let decoder = segments.last().is_some_and(|f| {
        let f = f.ident.to_string();
        f == "decode" || f == "parse" || f.starts_with("from_") || f.starts_with("decode_")
    });
    decoder
        && segments.len() >= 2
        && segments.iter().nth_back(1).is_some_and(|ty| {
            let ty = ty.ident.to_string();
            ty.starts_with(|c: char| c.is_ascii_uppercase())
                && words(&ty).last().is_some_and(|w| is_server_entity_word(w))
        })
}

/// The last word of a binding that holds what was received from another
/// server (`msg`, `message`, `delivery`): not the entity words a service's
/// own resources are also named (`webhook`, `event`, `job`, `task` are
/// rows of a CRUD API too).
fn is_received_word(word: &str) -> bool {
    matches!(word, "msg" | "message" | "delivery" | "envelope")
}

/// Whether a local binding's name says it holds what was received from
/// another server (`msg`, `delivery`; not a `webhook: &Webhook` row of the
/// service's own API, whose type names an entity too).
pub(super) fn names_server_entity_binding(name: &str) -> bool {
    words(name).last().is_some_and(|w| is_received_word(w))
}

/// The bindings a body acknowledges (`tote.ack()`, `msg.nack(..)`).
/// A body's identity for the unit's memo: its syntax tree is not moved
/// while the unit is analysed.
fn body_address(block: &syn::Block) -> usize {
    std::ptr::from_ref(block) as usize
}

fn acknowledged_in(block: &syn::Block) -> Vec<String> {
    struct Acked(Vec<String>);
    impl<'ast> Visit<'ast> for Acked {
        fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
            let method = m.method.to_string();
            if matches!(
                method.as_str(),
                "ack" | "nack" | "acknowledge" | "ack_with" | "nack_with" | "negative_ack"
            ) {
                if let Some(name) = crate::analysis::syntax::place_name(&m.receiver) {
                    self.0.push(name);
                }
            }
            visit::visit_expr_method_call(self, m);
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut acked = Acked(Vec::new());
    acked.visit_block(block);
    acked.0
}

/// Calls of crate functions by name given an acknowledged binding: the
/// callee's name and the argument's position.
struct HandedOn<'a> {
    acked: &'a [String],
    out: Vec<(String, usize)>,
}

impl<'ast> Visit<'ast> for HandedOn<'_> {
    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if let Expr::Path(p) = &*c.func {
            let callee = crate::analysis::syntax::last_ident(&p.path);
            for (n, arg) in c.args.iter().enumerate() {
                let given = crate::analysis::syntax::place_name(arg);
                if given.is_some_and(|g| self.acked.contains(&g)) {
                    self.out.push((callee.clone(), n));
                }
            }
        }
        visit::visit_expr_call(self, c);
    }
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// A function's parameters bound to a name, with their type names.
fn typed_params(def: &FnDef<'_>) -> Vec<(String, String)> {
    (def.named_params())
        .filter_map(|(name, ty)| Some((name, crate::analysis::syntax::type_name_within(ty, &[])?)))
        .collect()
}
