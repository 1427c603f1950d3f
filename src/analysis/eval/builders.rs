//! What a crate method called on a value hands on from that value, which
//! its summary cannot say (`self` is no parameter of it): a consuming
//! method of the crate's own builders (`fn principal(mut self, v) -> Self`,
//! `fn build(self) -> Slot`) hands on what the builder was built from and
//! what it is given (rules.md, "Evidence and confidence": builder chains
//! are a step), and a builder's own `.key(k)` setter is its method, not an
//! accessor; a method asked of a scope component (`principal.id()`)
//! answers with that component and where it was defaulted.

use super::{Evaluator, MethodCall};
use crate::analysis::value::Value;
use crate::analysis::vocab::{Component, SETTER_ACCESSORS};
use syn::Expr;

impl Evaluator<'_> {
    /// A setter named like an accessor (`.key(k)`) on a chain of one of
    /// the crate's own types that defines it (`SlotBuilder::default()
    /// ..key(k)`): the crate's method, which writes the field its `build`
    /// reads, not the transparent accessor of another crate's type.
    pub(super) fn own_setter(&self, call: &MethodCall<'_>) -> bool {
        SETTER_ACCESSORS.contains(&call.method.as_str())
            && !call.args.is_empty()
            && self
                .chain_type(&call.m.receiver)
                .is_some_and(|ty| !self.index.methods_of(&call.method, &ty).is_empty())
    }

    /// `value`, the result of the crate-local methods `ids` called on a
    /// receiver holding `recv`, with what a consuming method hands on.
    pub(super) fn consumed_receiver(
        &self,
        call: &MethodCall<'_>,
        ids: &[usize],
        on_self: bool,
        recv: Value,
        mut value: Value,
    ) -> Value {
        // Only a builder's: a record's own consuming method (a recovery
        // context's `with_post_cas_context(mut self, ..)`) does not build
        // a key from what it is given, and handing the record's whole
        // provenance on spread a session's defaults into stored records.
        let consumes = |id: &usize| {
            let def = &self.index.fns[*id];
            let builder = (def.self_ty.as_deref()).is_some_and(|t| t.ends_with("Builder"));
            builder && def.sig.receiver().is_some_and(|r| r.reference.is_none())
        };
        if on_self || ids.is_empty() {
            return value;
        }
        if !ids.iter().all(consumes) {
            // `principal.id()`, `tenant.as_str()`: a crate method asked of
            // a scope component, given nothing else, answers with that
            // component (its summary cannot say so: `self` is no parameter).
            if call.args.is_empty() && !value.has_component() && value.client_key.is_none() {
                // One of the answers, not the literal a sentinel arm gives.
                if recv.has_component() && recv.literal.is_none() {
                    value.literal = None;
                }
                for component in Component::ALL {
                    if let Some(origin) = recv.component(component) {
                        value.add_component(component, origin.clone());
                    }
                }
                // Where the receiver was defaulted (`None => Principal::Guest`),
                // the method's sentinel arm (`Guest => "guest"`) only renders
                // that default.
                if !recv.fallbacks.is_empty() {
                    value.fallbacks.clone_from(&recv.fallbacks);
                    value.attach_fallbacks();
                }
            }
            return value;
        }
        // The defaults a constructor starts the value with
        // (`SlotBuilder::new()` with empty fields) are what its setters
        // overwrite; what the setters are given stays.
        let mut recv = recv;
        if matches!(&*call.m.receiver, Expr::Call(_)) {
            recv.fallbacks.clear();
        }
        // A builder's `scoped(..)` given a server id is changed where the
        // chain that gives it is built (see `server_keys::substitute_server_facts`).
        let scoped_inside = value.scoped && value.construct.is_some() && value.server_id.is_none();
        if scoped_inside && recv.server_id.is_some() && value.server_concat.is_none() {
            value.server_concat = Some(self.site(call.expr));
        }
        value.join_as_part(&recv);
        // A setter named for a component (`.tenant(hdr(..).unwrap_or(""))`)
        // says what its argument is, as a parameter's name would: a default
        // given it is that component's.
        let component = self.vocab.component_of_name(&call.method);
        for arg in &call.args {
            let mut arg = arg.clone();
            if let Some(component) = component {
                arg.attach_fallbacks_to(&[component]);
            }
            value.join_as_part(&arg);
        }
        value
    }
}
