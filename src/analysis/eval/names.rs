//! Names as a fallback only, for all rules: a binding, parameter or field
//! named like the client key is taken for one only when its type may hold
//! a string. A visible type that cannot (`bool`, a number, a local `enum`,
//! a local struct of several fields) makes the name say nothing: a policy
//! enum held in `idempotency_key` is no key. Likewise a parameter named
//! like the key whose every crate-local caller passes a visibly
//! server-built value (a `format!` of server data, a uuid, a `scoped(..)`
//! key) holds no client key: its origin is visible at the call sites
//! ([`server_fed_params`]).

use syn::Expr;

use super::{bits, Evaluator};
use crate::analysis::index::{CrateIndex, LocalType};
use crate::analysis::syntax::{place_name, strip_ref, TRANSPARENT_WRAPPERS};
use crate::analysis::value::{KeySource, Value};
use crate::analysis::vocab::{names_handle_type, words, Component, OWN_ACCESSORS};

use super::Summary;

/// Whether an argument is visibly built by the server: no client key flows
/// in and it is a construction (`format!`, a tuple), a `scoped(..)` key, a
/// minted id or a digest. Plain values of unseen origin are not.
pub(super) fn server_built(arg: &Value) -> bool {
    arg.client_key.is_none()
        && (arg.construct.is_some()
            || arg.scoped
            || arg.server_id.is_some()
            || arg.digest.is_some())
}

/// Per function, the parameters that are a client key by name only and
/// whose every crate-local call site passes a server-built value. A
/// parameter no crate-local call reaches keeps its name (a library's API).
pub fn server_fed_params(summaries: &[Summary]) -> Vec<u64> {
    let mut called = vec![false; summaries.len()];
    let mut client_fed = vec![0u64; summaries.len()];
    for summary in summaries {
        for &(callee, client_args) in &summary.calls {
            if let (Some(c), Some(f)) = (called.get_mut(callee), client_fed.get_mut(callee)) {
                *c = true;
                *f |= client_args;
            }
        }
    }
    summaries
        .iter()
        .enumerate()
        .map(|(id, s)| {
            if called[id] {
                s.named_key_params & !client_fed[id]
            } else {
                0
            }
        })
        .collect()
}

/// Primitive types that never hold a client key's text.
const SCALARS: &[&str] = &[
    "bool", "char", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128",
    "isize", "f32", "f64",
];

/// Newtypes over newtypes are followed this deep.
const MAX_NEWTYPES: usize = 4;

/// Whether `ty` is visibly a type that holds no client key.
pub(super) fn type_holds_no_key(index: &CrateIndex<'_>, ty: &syn::Type) -> bool {
    holds_no_key(index, ty, 0)
}

/// [`type_holds_no_key`], `depth` newtypes deep (recursive newtypes end).
fn holds_no_key(index: &CrateIndex<'_>, ty: &syn::Type, depth: usize) -> bool {
    if depth > MAX_NEWTYPES {
        return false;
    }
    match ty {
        syn::Type::Reference(r) => holds_no_key(index, &r.elem, depth),
        syn::Type::Paren(p) => holds_no_key(index, &p.elem, depth),
        syn::Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return false;
            };
            let name = last.ident.to_string();
            if SCALARS.contains(&name.as_str()) {
                return true;
            }
            if TRANSPARENT_WRAPPERS.contains(&name.as_str()) {
                return inner_type(last).is_some_and(|inner| holds_no_key(index, inner, depth));
            }
            if names_handle_type(&name) {
                return true;
            }
            match index.types.get(&name) {
                Some(LocalType::Enum | LocalType::Record) => true,
                // `struct Flag(bool)` is a flag; `struct IdemKey(String)` may be a key.
                Some(LocalType::Newtype) => index
                    .newtype_inner
                    .get(&name)
                    .is_some_and(|inner| holds_no_key(index, inner, depth + 1)),
                None => false,
            }
        }
        _ => false,
    }
}

fn inner_type(segment: &syn::PathSegment) -> Option<&syn::Type> {
    let syn::PathArguments::AngleBracketed(args) = &segment.arguments else {
        return None;
    };
    args.args.iter().find_map(|arg| match arg {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    })
}

impl Evaluator<'_> {
    /// Whether every local struct field called `name` is declared with a
    /// type that holds no key (unknown fields keep the name fallback).
    pub(super) fn field_holds_no_key(&self, name: &str) -> bool {
        self.index
            .field_types
            .get(name)
            .is_some_and(|types| types.iter().all(|ty| type_holds_no_key(self.index, ty)))
    }

    /// Drops a client key that only the name of a binding typed `ty` gave
    /// (`had_key`: whether the value carried one before it was bound).
    pub(super) fn unname_binding(&mut self, pat: &syn::Pat, ty: &syn::Type, had_key: bool) {
        if !had_key && type_holds_no_key(self.index, ty) {
            self.unname_pat(pat);
        }
    }

    /// Parameter `index` bound by `pat`: notes whether only its name made it
    /// a client key, and drops that key where callers show it holds none.
    pub(super) fn unname_server_fed_param(&mut self, pat: &syn::Pat, index: usize, had_key: bool) {
        let syn::Pat::Ident(pi) = pat else { return };
        let named = !had_key
            && self
                .lookup(&pi.ident.to_string())
                .is_some_and(|v| v.client_key.is_some());
        if !named {
            return;
        }
        self.named_key_params |= 1u64 << index;
        if self.unnamed_params & (1u64 << index) != 0 {
            self.key_param_mask &= !(1u64 << index);
            self.unname_pat(pat);
        }
    }

    /// A field of a parameter (`req.idempotency_key`) that only its name made
    /// a client key: noted like a key-named parameter, and dropped where
    /// every caller passes a visibly server-built record.
    pub(super) fn unname_server_fed_field(&mut self, value: &mut Value) {
        let params = value.params;
        if params == 0 {
            return;
        }
        self.named_key_params |= params;
        if self.unnamed_params & params == params {
            value.client_key = None;
            value.key_by_name = false;
        }
    }

    /// Drops the client key of the binding `pat` names, if it is one name.
    pub(super) fn unname_pat(&mut self, pat: &syn::Pat) {
        if let syn::Pat::Ident(pi) = pat {
            self.update(&pi.ident.to_string(), |v: &mut Value| v.client_key = None);
        }
    }
}

/// The parameters a function's doc comment describes as the client's
/// idempotency key.
pub(super) fn documented_params(attrs: &[syn::Attribute]) -> Vec<String> {
    let mut names = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        let syn::Meta::NameValue(nv) = &attr.meta else {
            continue;
        };
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) = &nv.value
        else {
            continue;
        };
        if let Some(name) = crate::analysis::vocab::documented_parameter(&text.value()) {
            names.push(name.to_string());
        }
    }
    names
}

/// Whether a parameter pattern binds `name`.
pub(super) fn names_param(pat: &syn::Pat, name: &str) -> bool {
    matches!(pat, syn::Pat::Ident(pi) if pi.ident == name)
}

impl Evaluator<'_> {
    /// A key type made from a credential, the client key and a route
    /// (`CredentialKey::new(credential, "orders.create", k)`) is scoped by
    /// the credential, which pins tenant and caller both (rules.md: such a
    /// constructor already combines the scope).
    pub(super) fn credential_scope(&self, v: &mut Value, call: &Expr) {
        let Expr::Call(c) = call else { return };
        for arg in &c.args {
            let Some(name) = place_name(arg) else {
                continue;
            };
            if words(&name)
                .iter()
                .any(|w| matches!(w.as_str(), "credential" | "credentials" | "creds"))
            {
                let origin = self.origin(arg);
                v.add_component(Component::Tenant, origin.clone());
                v.add_component(Component::Principal, origin);
            }
        }
    }
}

/// Whether every argument in `params` visibly carries no client key: a
/// server-built value, a literal, or a struct literal whose fields are known.
pub(super) fn args_show_no_key(params: u64, args: &[Value]) -> bool {
    bits(params).all(|p| {
        args.get(p).is_some_and(|a| {
            a.client_key.is_none() && (server_built(a) || a.fields.is_some() || a.literal.is_some())
        })
    })
}

/// `slot.storage_key()` where `slot` holds one parameter and nothing else
/// known (a `&ScopedKey` a helper is handed).
pub(super) fn is_storage_key_of_param(expr: &Expr, key: &Value) -> bool {
    matches!(strip_ref(expr), Expr::MethodCall(m)
        if is_bare_param(key) && m.args.is_empty() && OWN_ACCESSORS.contains(&m.method.to_string().as_str()))
}

/// A value that is one parameter and nothing else known.
pub(super) fn is_bare_param(key: &Value) -> bool {
    key.params.count_ones() == 1
        && key.client_key.is_none()
        && key.payload_hash.is_none()
        && key.server_id.is_none()
        && key.construct.is_none()
        && !key.scoped
        && !key.has_component()
}

impl Evaluator<'_> {
    /// A text parameter stored as it is in a store named for idempotency
    /// keys (`self.idempotency_keys.try_get_with(n.clone(), ..)`) holds a
    /// client key by that name: `possible`, and gone at a caller whose
    /// argument shows where it comes from. Not one every caller in the
    /// unit fills with a server-made id, nor one beside another argument
    /// that is or may be the key (`idempotency.begin(scope, key, ..)`: the
    /// text is its scope). The caller leaves out a store type's own method
    /// (`IdemCache::put(&self, key, ..)`), whose callers make the key.
    pub(super) fn name_text_param_key(
        &mut self,
        key: &mut Value,
        primary: usize,
        args: &[Value],
        key_expr: &Expr,
    ) {
        let text_param = key.params & !self.text_params == 0
            && key.params & self.unnamed_params == 0
            && key.param_field.is_none();
        let other_key = args.iter().enumerate().any(|(i, a)| {
            a.carries_key() || (i != primary && a.params & !key.params & self.key_param_mask != 0)
        });
        if is_bare_param(key) && text_param && !other_key {
            key.client_key = Some((self.origin(key_expr), KeySource::Named));
            key.key_by_name = true;
            self.named_key_params |= key.params;
        }
    }
}

/// Whether `block` reads a scope component out of the parameter `pat`
/// binds (`partner.account_id` of `partner: PartnerKey`): a record of who
/// calls, named for a credential, not a key a caller builds.
pub(super) fn reads_components_of(
    block: &syn::Block,
    pat: &syn::Pat,
    vocab: &crate::analysis::vocab::Vocabulary,
) -> bool {
    struct Reads<'a> {
        name: String,
        vocab: &'a crate::analysis::vocab::Vocabulary,
        found: bool,
    }
    impl<'ast> syn::visit::Visit<'ast> for Reads<'_> {
        fn visit_expr_field(&mut self, f: &'ast syn::ExprField) {
            let base = matches!(&*f.base, Expr::Path(p) if p.path.is_ident(&self.name));
            if let (true, syn::Member::Named(field)) = (base, &f.member) {
                self.found |= self.vocab.component_of_name(&field.to_string()).is_some();
            }
            syn::visit::visit_expr_field(self, f);
        }
    }
    let syn::Pat::Ident(pi) = pat else {
        return false;
    };
    let mut reads = Reads {
        name: pi.ident.to_string(),
        vocab,
        found: false,
    };
    syn::visit::Visit::visit_block(&mut reads, block);
    reads.found
}
