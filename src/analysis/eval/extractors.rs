//! Custom request extractors, for all rules: a type whose
//! `FromRequestParts`/`FromRequest` impl (axum, actix) reads the
//! idempotency-key header makes every handler parameter of that type a
//! client key, whatever the type or the binding is called
//! (`Dedupe(tag): Dedupe`, `key: Option<IdemKey>`). The impl's body is
//! evaluated like any function; its summary's return value says whether the
//! header's value flows out of it.

use syn::spanned::Spanned;

use super::Evaluator;
use crate::analysis::index::EXTRACTOR_FNS;
use crate::analysis::value::Value;

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
        for f in EXTRACTOR_FNS {
            let ids = index.resolve_path(&[name.clone(), (*f).to_string()], None, None);
            for id in ids {
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
}
