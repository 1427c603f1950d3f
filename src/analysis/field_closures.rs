//! Closures held in struct fields (`Keyer { derive: Box::new(|who, k|
//! format!(..)) }`): a call `(keyer.derive)(who, key)` runs one of them, so
//! the evaluator evaluates their bodies with the call's arguments
//! (rules.md, "Evidence and confidence": calls of closures held in struct
//! fields are flow steps). Which one runs is not visible without types, so
//! every closure held in a field of that name in the caller's file is taken.

use std::collections::HashMap;

use syn::visit::Visit;
use syn::Expr;

/// Per field name, the closures written into a field so named: (file, closure).
pub type FieldClosures<'a> = HashMap<String, Vec<(u32, &'a syn::ExprClosure)>>;

/// A field keeps at most this many closures.
const MAX_PER_FIELD: usize = 8;

/// The closures `block` writes into struct fields, added to `out`.
pub fn collect<'a>(file: u32, block: &'a syn::Block, out: &mut FieldClosures<'a>) {
    let mut collector = Collector {
        file,
        out,
        bound: HashMap::new(),
    };
    collector.visit_block(block);
}

struct Collector<'o, 'a> {
    file: u32,
    out: &'o mut FieldClosures<'a>,
    /// Closures bound to names first (`let on_retry: KeyFn = Box::new(|d|
    /// ..);`), then written into a field by that name (`Self { on_retry }`).
    bound: HashMap<String, &'a syn::ExprClosure>,
}

impl<'a> Visit<'a> for Collector<'_, 'a> {
    fn visit_local(&mut self, local: &'a syn::Local) {
        let name = crate::analysis::syntax::pat_ident(&local.pat);
        if let (Some(name), Some(init)) = (name, &local.init) {
            match held(&init.expr) {
                Some(closure) => self.bound.insert(name, closure),
                None => self.bound.remove(&name),
            };
        }
        syn::visit::visit_local(self, local);
    }

    fn visit_expr_struct(&mut self, s: &'a syn::ExprStruct) {
        for field in &s.fields {
            let closure = held(&field.expr).or_else(|| match &field.expr {
                Expr::Path(p) => {
                    (p.path.get_ident()).and_then(|i| self.bound.get(&i.to_string()).copied())
                }
                _ => None,
            });
            if let (syn::Member::Named(name), Some(closure)) = (&field.member, closure) {
                let closures = self.out.entry(name.to_string()).or_default();
                if closures.len() < MAX_PER_FIELD {
                    closures.push((self.file, closure));
                }
            }
        }
        syn::visit::visit_expr_struct(self, s);
    }
}

/// The closure an expression holds: itself, or the one it boxes
/// (`Box::new(|..| ..)`, `Arc::new(..)`).
fn held(expr: &Expr) -> Option<&syn::ExprClosure> {
    match expr {
        Expr::Closure(c) => Some(c),
        Expr::Paren(p) => held(&p.expr),
        Expr::Call(call) if call.args.len() == 1 => {
            let Expr::Path(p) = &*call.func else {
                return None;
            };
            let segments = crate::analysis::syntax::path_segments(&p.path);
            let boxed = match segments.as_slice() {
                [.., handle, new] => {
                    matches!(handle.as_str(), "Box" | "Arc" | "Rc") && new == "new"
                }
                _ => false,
            };
            boxed.then(|| held(call.args.first()?)).flatten()
        }
        _ => None,
    }
}
