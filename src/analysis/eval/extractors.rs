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
    match ty {
        syn::Type::Reference(r) => extractor_type(&r.elem),
        syn::Type::Paren(p) => extractor_type(&p.elem),
        syn::Type::Path(p) => {
            let last = p.path.segments.last()?;
            let name = last.ident.to_string();
            if !EXTRACTOR_WRAPPERS.contains(&name.as_str()) {
                return Some(name);
            }
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                return None;
            };
            args.args.iter().find_map(|arg| match arg {
                syn::GenericArgument::Type(inner) => extractor_type(inner),
                _ => None,
            })
        }
        _ => None,
    }
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
            let ids = index.resolve_path(&[name.clone(), (*f).to_string()], None);
            for id in ids {
                // Re-evaluated when the extractor's summary changes.
                self.callees.push(id);
                let source = summaries
                    .get(id)
                    .and_then(|s| s.ret.client_key.as_ref())
                    .map(|(_, source)| *source);
                if let Some(source) = source {
                    value.client_key = Some((self.origin(node), source));
                    return;
                }
            }
        }
    }
}
