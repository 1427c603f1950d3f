//! Binding a value to a pattern (`let`, parameters, arms, `for`): what
//! each name a pattern takes holds, by element, field or wrapper, and what
//! the pattern's own shape says of it (a body extractor, a key newtype, a
//! server entity's id). Serves every rule through the bindings it makes.

use syn::Pat;

use super::{extractors, Evaluator, Holder};
use crate::analysis::syntax::last_ident;
use crate::analysis::value::{KeySource, Value};

impl Evaluator<'_> {
    pub(super) fn bind_pat(&mut self, pat: &Pat, value: Value, hint: Option<&str>) {
        match pat {
            Pat::Ident(pi) => {
                let name = pi.ident.to_string();
                let mut value = value;
                if let Some(hint) = hint {
                    let had_key = value.client_key.is_some();
                    self.enrich_by_name(&mut value, hint, &pi.ident);
                    // A field the code documents as the client's key is one
                    // by flow when destructured too, as it is when read
                    // (`msg.idem`).
                    if !had_key && self.vocab.is_documented_key(hint) {
                        value.client_key = (value.client_key.take()).map(|(o, s)| (o, s.by_flow()));
                    }
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
                self.header_holder(&mut value, Holder::Variant(ty.clone()));
                self.body_extractor_pattern(&ty, &mut value, pat);
                if ty.ends_with("Key")
                    && self.vocab.is_client_key_name(&ty)
                    && value.client_key.is_none()
                {
                    value.client_key = Some((self.origin(pat), KeySource::IdempotencyKey));
                }
                if !self.bind_record_elements(&ty, &ts.elems, &mut value) {
                    if ts.elems.len() == 1 {
                        if let Some(inner) = ts.elems.first() {
                            self.bind_pat(inner, value, None);
                        }
                    } else {
                        self.bind_elems(ts.elems.iter(), value);
                    }
                }
            }
            Pat::Struct(ps) => {
                for field in &ps.fields {
                    let member = match &field.member {
                        syn::Member::Named(name) => Some(name.to_string()),
                        syn::Member::Unnamed(_) => None,
                    };
                    let mut v = member
                        .as_deref()
                        .and_then(|m| value.field(m))
                        .unwrap_or(&value)
                        .clone();
                    v.elems = None;
                    if let Some(member) = &member {
                        self.header_holder(&mut v, Holder::Field(member.clone()));
                        self.field_key(&last_ident(&ps.path), member, &mut v);
                        self.entity_pattern_id(&mut v, &last_ident(&ps.path), member, field);
                    }
                    let had_key = v.client_key.is_some();
                    self.bind_pat(&field.pat, v, member.as_deref());
                    if !had_key && member.is_some_and(|m| self.field_holds_no_key(&m)) {
                        self.unname_pat(&field.pat);
                    }
                }
            }
            Pat::Reference(r) => self.bind_pat(&r.pat, value, hint),
            Pat::Paren(p) => self.bind_pat(&p.pat, value, hint),
            Pat::Type(pt) => {
                let mut value = value;
                if value.client_key.is_none()
                    && extractors::type_mentions_client_key(&pt.ty, self.vocab)
                {
                    value.client_key = Some((self.origin(&*pt.pat), KeySource::IdempotencyKey));
                }
                let had_key = value.client_key.is_some();
                self.note_entity_binding(&pt.pat, &pt.ty);
                self.note_record_binding(&pt.pat, &pt.ty);
                self.note_element_binding(&pt.pat, &pt.ty);
                self.bind_pat(&pt.pat, value, hint);
                self.unname_binding(&pt.pat, &pt.ty, had_key);
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

    pub(super) fn bind_elems<'p>(
        &mut self,
        pats: impl ExactSizeIterator<Item = &'p Pat>,
        value: Value,
    ) {
        let len = pats.len();
        match value.elems.clone() {
            Some(elems) if elems.len() == len => {
                for (pat, v) in pats.zip(elems) {
                    self.bind_pat(pat, v.destructured_from(&value, self.fn_site), None);
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
}
