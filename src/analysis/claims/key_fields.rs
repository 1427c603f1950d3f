//! Fields a record is given a scoped key in (`Self { scope, .. }` where
//! `let scope = scoped(..)?`): a claim on such a field of any value
//! (`idem.begin(&msg.scope)`) is on a key by flow, whatever the field is
//! called. Read within each function: the constructor call and the record
//! literal are in the same body.

use std::collections::HashSet;

use syn::visit::Visit;
use syn::Expr;

use crate::analysis::index::CrateIndex;
use crate::analysis::syntax::path_string;
use crate::analysis::vocab::Vocabulary;

/// The names of the fields the unit's record literals give a scoped key.
pub(super) fn scoped_fields(index: &CrateIndex<'_>, vocab: &Vocabulary) -> HashSet<String> {
    let mut fields = HashSet::new();
    for def in &index.fns {
        let mut finder = Finder {
            vocab,
            scoped_locals: HashSet::new(),
            fields: &mut fields,
        };
        finder.visit_block(def.block);
    }
    // A field declared `key: ScopedKey` (in every record that has one of
    // that name) holds what only idem-scope's constructors make.
    for (name, types) in &index.field_types {
        if !types.is_empty() && types.iter().all(|ty| holds_scoped_key(ty)) {
            fields.insert(name.clone());
        }
    }
    fields
}

/// `ScopedKey`, through references and the usual wrappers
/// (`Option<ScopedKey>`, `Arc<idem_scope::ScopedKey>`).
fn holds_scoped_key(ty: &syn::Type) -> bool {
    crate::analysis::syntax::type_name_within(ty, &["Option", "Arc", "Rc", "Box"])
        .is_some_and(|name| name == "ScopedKey")
}

struct Finder<'v, 'f> {
    vocab: &'v Vocabulary,
    scoped_locals: HashSet<String>,
    fields: &'f mut HashSet<String>,
}

impl Finder<'_, '_> {
    /// Whether `expr` calls a key constructor or names a local bound from one.
    fn is_scoped(&self, expr: &Expr) -> bool {
        struct Calls<'a, 'v> {
            finder: &'a Finder<'v, 'a>,
            found: bool,
        }
        impl<'ast> Visit<'ast> for Calls<'_, '_> {
            fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
                if let Expr::Path(p) = &*c.func {
                    self.found |= self.finder.vocab.is_key_constructor(&path_string(&p.path));
                }
                syn::visit::visit_expr_call(self, c);
            }
            fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
                if let Some(ident) = p.path.get_ident() {
                    self.found |= self.finder.scoped_locals.contains(&ident.to_string());
                }
            }
            fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        }
        let mut calls = Calls {
            finder: self,
            found: false,
        };
        calls.visit_expr(expr);
        calls.found
    }
}

impl<'ast> Visit<'ast> for Finder<'_, '_> {
    fn visit_local(&mut self, local: &'ast syn::Local) {
        syn::visit::visit_local(self, local);
        let mut pat = &local.pat;
        if let syn::Pat::Type(typed) = pat {
            pat = &typed.pat;
        }
        if let (syn::Pat::Ident(ident), Some(init)) = (pat, &local.init) {
            let name = ident.ident.to_string();
            if self.is_scoped(&init.expr) {
                self.scoped_locals.insert(name);
            } else {
                self.scoped_locals.remove(&name);
            }
        }
    }

    fn visit_expr_struct(&mut self, s: &'ast syn::ExprStruct) {
        for field in &s.fields {
            if let syn::Member::Named(name) = &field.member {
                if self.is_scoped(&field.expr) {
                    self.fields.insert(name.to_string());
                }
            }
        }
        syn::visit::visit_expr_struct(self, s);
    }
}
