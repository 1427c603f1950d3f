//! A struct literal's value: a record whose fields keep what they hold,
//! and a key only through its key fields (or, with no key of any kind, the
//! identity it is looked up by).

use syn::Expr;

use super::Evaluator;
use crate::analysis::hashing;
use crate::analysis::syntax::last_ident;
use crate::analysis::value::{Construct, ConstructKind, Placeholder, Value};

impl Evaluator<'_> {
    pub(super) fn eval_struct(&mut self, s: &syn::ExprStruct, expr: &Expr) -> Value {
        let mut value = Value::empty();
        let mut fields = Vec::new();
        let mut digests = Vec::new();
        // A builder's setter rebuilding itself (`Slot { key: Some(k), ..self }`)
        // keeps what it is given for its `build`, which makes the key: the
        // field is no key position of its own.
        let rebuilds_self = s.rest.as_deref().is_some_and(super::sinks::is_self);
        for field in &s.fields {
            let mut v = self.eval(&field.expr);
            v = self.finish_sql(v);
            if let syn::Member::Named(name) = &field.member {
                let name = name.to_string();
                if self.vocab.is_key_position_name(&name) && !rebuilds_self {
                    let site = self.site(&field.expr);
                    self.key_position(v.clone(), site, false, false);
                }
                // `route: "".to_string()` names the component and leaves it
                // empty: a placeholder, as in a constructor's argument.
                let component = self.vocab.component_of_name(&name);
                match (component, v.literal.as_deref()) {
                    (Some(component), Some(text)) if self.vocab.is_placeholder(text) => {
                        let origin = self.origin(&field.expr);
                        value.placeholders.push(Placeholder { component, origin });
                    }
                    // A parameter whose declared type holds no key is
                    // none for the field's name (`Self { idempotency, .. }`
                    // of `idempotency: Option<Ctx>`): its type was read
                    // where it was bound.
                    _ if self.vocab.is_client_key_name(&name)
                        && self.is_keyless_param(&field.expr) => {}
                    _ => self.enrich_by_name(&mut v, &name, &field.member),
                }
                self.note_field_write(&last_ident(&s.path), &name, &v);
                self.note_param_field_write(&last_ident(&s.path), &name, &v);
                // The field keeps what it holds (`entry.slot` read back is
                // the hash-built key); the record is a key only through its
                // key fields.
                let as_part = hashing::struct_field_facts(&v, &name, self.vocab);
                if as_part.payload_hash.is_none() && v.payload_hash.is_some() {
                    digests.push(v.clone());
                }
                fields.push((name, v));
                value.join_as_part(&as_part);
                continue;
            }
            value.join_as_part(&v);
        }
        // A payload digest beside a key is its fingerprint; in a record
        // with no key of any kind (`{ tenant, route, digest }`) it is the
        // identity the record is looked up by.
        if value.client_key.is_none() && value.server_id.is_none() && !value.key_by_name {
            for digest in &digests {
                value.join_as_part(digest);
            }
        }
        let mut rest_known = true;
        if let Some(rest) = &s.rest {
            let v = self.eval(rest);
            rest_known = !v.carries_key() && !v.has_component() && v.params == 0;
            value.join_as_part(&v);
            // The fields it does not write are defaults (`None => Acting {
            // org_id, ..Default::default() }` leaves the actor empty):
            // read back, one of them is a defaulted component.
            // Only of the crate's own records: another crate's request
            // types (`ReadKeyRequest { key, ..Default::default() }`) leave
            // options to defaults, not identity.
            let own = self.index.types.contains_key(&last_ident(&s.path));
            if let (true, true, Some(defaulted)) = (rest_known, own, self.defaulted_rest(rest)) {
                fields.push(("..".to_string(), defaulted));
            }
        }
        // With `..rest` the fields not written here are unknown, unless the
        // rest carries nothing (`..Default::default()`).
        // A record its `Display` impl writes as one text with the key
        // (`write!(f, "{}|{}", self.tenant, self.key)`) is a concatenation
        // once rendered (`.to_string()`).
        let renders = self.text_builders().renders.get(&last_ident(&s.path));
        if let Some((written, site)) = renders {
            let keyed =
                |(name, v): &(String, Value)| v.client_key.is_some() && written.contains(name);
            if fields.iter().any(keyed) {
                value.rendered = Some(*site);
            }
        }
        if rest_known {
            value.fields = Some(Box::new(fields));
        }
        value.concat = None;
        value.scoped = false;
        if value.is_key_material() && !rebuilds_self {
            value.construct = Some(Construct {
                kind: ConstructKind::Struct,
                site: self.site(expr),
            });
        }
        // A server id in a struct key became part of it here, as in a
        // tuple (IDEM007 points at the struct literal); so did a payload
        // hash in a record with no other key (IDEM003 points there too).
        if value.server_id.is_some() && value.server_concat.is_none() {
            value.server_concat = Some(self.site(expr));
        }
        if value.payload_hash.is_some() && value.hash_keyed.is_none() {
            value.hash_keyed = Some(self.site(expr));
        }
        value
    }
}

impl Evaluator<'_> {
    /// Whether `expr` is a parameter as it was bound, of a declared type
    /// that holds no key.
    fn is_keyless_param(&self, expr: &Expr) -> bool {
        let Expr::Path(p) = expr else { return false };
        let Some(ident) = p.path.get_ident() else {
            return false;
        };
        let name = ident.to_string();
        let Some(index) = self.param_index(&name) else {
            return false;
        };
        index < 64
            && self.keyless_params & (1u64 << index) != 0
            && self
                .lookup(&name)
                .is_some_and(|v| v.params == 1u64 << index && !v.carries_key())
    }
}
