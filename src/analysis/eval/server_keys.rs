//! Facts for unnamespaced server keys (IDEM007): server-minted ids (names
//! such as `event_id`, the `id` field of a server entity, `Uuid::new_v4()`)
//! and the concatenation where one became part of a key, also across
//! function boundaries. `KeyEvent::store` (see `sinks`) names the store a
//! key reaches, so the rule can tell which stores client keys reach.

use syn::spanned::Spanned;
use syn::Expr;

use super::sinks::receiver_name;
use super::Evaluator;
use crate::analysis::value::Value;
use crate::analysis::vocab::{is_server_entity_word, words};

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
        if !matches!(field, "id" | "uuid" | "ulid") {
            return;
        }
        let entity = receiver_name(base)
            .map(|n| words(&n))
            .and_then(|w| w.last().cloned())
            .is_some_and(|w| is_server_entity_word(&w));
        if entity {
            value.server_id = Some(Box::new(self.origin(node)));
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
/// where the caller's server id became part of a key.
pub(super) fn substitute_server_facts(value: &Value, args: &[Value], out: &mut Value) {
    for (p, concat) in &value.concat_params {
        if let Some(arg) = args.get(*p) {
            if arg.server_id.is_some() && out.server_concat.is_none() {
                out.server_concat = Some(*concat);
            }
        }
    }
}
