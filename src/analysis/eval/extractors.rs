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
use crate::analysis::value::Value;
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
