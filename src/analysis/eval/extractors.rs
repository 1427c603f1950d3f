//! Custom request extractors, for all rules: a type whose
//! `FromRequestParts`/`FromRequest` impl (axum, actix), or any trait's
//! `from_*` constructor (`FromHead::from_head`), reads the
//! idempotency-key header makes every handler parameter of that type a
//! client key, whatever the type or the binding is called
//! (`Dedupe(tag): Dedupe`, `key: Option<IdemKey>`). The impl's body is
//! evaluated like any function; its summary's return value says whether the
//! header's value flows out of it.

use syn::spanned::Spanned;

use super::Evaluator;
use crate::analysis::value::{KeySource, Value};
use crate::analysis::vocab::Vocabulary;

/// Wrappers a handler may put around an extractor type: still the extractor.
const EXTRACTOR_WRAPPERS: &[&str] = &["Option", "Result"];

/// The extractor type a parameter type names: the type itself, behind
/// references and `Option<..>`/`Result<..>`.
fn extractor_type(ty: &syn::Type) -> Option<String> {
    crate::analysis::syntax::type_name_within(ty, EXTRACTOR_WRAPPERS)
}

impl Evaluator<'_> {
    /// Marks a parameter as the client key when its type is a crate-local
    /// extractor whose constructor returns the key header's value.
    pub(super) fn extractor_param(
        &mut self,
        ty: &syn::Type,
        value: &mut Value,
        node: &impl Spanned,
    ) {
        if value.client_key.is_some() {
            return;
        }
        let Some(name) = extractor_type(ty) else {
            return;
        };
        let index = self.index;
        let summaries = self.summaries;
        for &id in index.extractor_fns.get(&name).into_iter().flatten() {
            // Re-evaluated when the extractor's summary changes.
            self.callees.push(id);
            let Some(ret) = summaries.get(id).map(|s| &s.ret) else {
                continue;
            };
            if let Some((_, source)) = &ret.client_key {
                value.client_key = Some((self.origin(node), *source));
                // What the impl did to the key's text stays done
                // (`raw.trim_end_matches(':')`, IDEM006).
                value.sanitized.extend(ret.sanitized.iter().cloned());
                // And the record it builds is what the handler reads:
                // its scope fields, with their defaults (IDEM005).
                if value.fields.is_none() {
                    value.fields.clone_from(&ret.fields);
                }
                return;
            }
        }
        // A typed header (`impl Header for IdemHeader`): the impl's
        // decoder builds the value of the header its `name()` names, so
        // where that is the key header, the value is the client's key.
        // Also inside a framework's wrapper (`TypedHeader<IdemHeader>`).
        let inner = (crate::analysis::syntax::type_path_within(ty, EXTRACTOR_WRAPPERS))
            .and_then(|p| p.segments.last())
            .and_then(crate::analysis::syntax::only_type_argument)
            .and_then(extractor_type);
        let typed_key_header = [Some(name), inner].into_iter().flatten().any(|name| {
            (index.extractor_fns.get(&name).into_iter().flatten())
                .any(|&id| self.names_key_header_beside(id))
        });
        if typed_key_header {
            value.client_key = Some((self.origin(node), KeySource::IdempotencyKey));
        }
    }

    /// Whether the impl holding function `id` has a function given nothing
    /// that returns the key header's name (`fn name() -> &'static
    /// HeaderName { &IDEMPOTENCY_KEY }`).
    fn names_key_header_beside(&mut self, id: usize) -> bool {
        let index = self.index;
        let def = &index.fns[id];
        let (Some(ty), Some(_)) = (&def.self_ty, &def.trait_of) else {
            return false;
        };
        let siblings: Vec<usize> = (index.fns.iter().enumerate())
            .filter(|(_, f)| {
                f.self_ty.as_ref() == Some(ty)
                    && f.trait_of == def.trait_of
                    && f.sig.inputs.is_empty()
            })
            .map(|(n, _)| n)
            .collect();
        siblings.into_iter().any(|n| {
            self.callees.push(n);
            (self.summaries.get(n)).is_some_and(|s| s.ret.key_header_name.is_some())
        })
    }
}

/// Whether a type is a request extractor of a client key
/// (`TypedHeader<IdempotencyKey>`, `Header<XIdempotencyKey>`, `IdempotencyKeyHeader`).
/// A plain `&IdempotencyKey` parameter is a value handed in by a caller, not
/// a read of the request: callers decide what it is.
pub(super) fn type_mentions_client_key(ty: &syn::Type, vocab: &Vocabulary) -> bool {
    let text = quote::ToTokens::to_token_stream(ty).to_string();
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .collect();
    let key_type = words
        .iter()
        .any(|word| word.ends_with("Key") && vocab.is_client_key_name(word));
    let extractor = words.iter().any(|w| {
        matches!(
            *w,
            "TypedHeader" | "Header" | "Extension" | "Headers" | "ReqData"
        ) || (w.ends_with("Header") && vocab.is_client_key_name(w.trim_end_matches("Header")))
    });
    key_type && extractor
        || words.iter().any(|w| {
            w.ends_with("KeyHeader") && vocab.is_client_key_name(w.trim_end_matches("Header"))
        })
}

/// Whether a parameter's attributes document it as the client's idempotency
/// key (`#[graphql(desc = "The client's idempotency key")]`, a rename to
/// the key header): a source by documentation.
pub(super) fn documented_as_client_key(attrs: &[syn::Attribute], vocab: &Vocabulary) -> bool {
    use quote::ToTokens;
    attrs.iter().any(|attr| {
        let text = attr.meta.to_token_stream().to_string();
        crate::analysis::vocab::attribute_documents_client_key(&text, vocab)
    })
}
