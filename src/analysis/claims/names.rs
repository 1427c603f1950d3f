//! Small syntax helpers of the walk: the identifiers an expression or
//! pattern mentions, and the wrappers (`?`, `.await`, parentheses,
//! `map_err`…) it looks through.

use syn::visit::Visit;
use syn::{Expr, Pat};

use crate::analysis::syntax::macro_args;

/// All identifiers and field names an expression mentions (closures included).
pub(super) fn idents(expr: &Expr) -> Vec<String> {
    struct Idents(Vec<String>);
    impl<'ast> Visit<'ast> for Idents {
        fn visit_ident(&mut self, i: &'ast proc_macro2::Ident) {
            self.0.push(i.to_string());
        }
        fn visit_macro(&mut self, mac: &'ast syn::Macro) {
            if let Some(args) = macro_args(mac) {
                for a in args.iter() {
                    self.visit_expr(a);
                }
            }
        }
    }
    let mut v = Idents(Vec::new());
    v.visit_expr(expr);
    v.0
}

pub(super) fn pat_idents(pat: &Pat) -> Vec<String> {
    struct Names(Vec<String>);
    impl<'ast> Visit<'ast> for Names {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            let name = p.ident.to_string();
            if name != "_" && !name.starts_with(|c: char| c.is_uppercase()) {
                self.0.push(name);
            }
            syn::visit::visit_pat_ident(self, p);
        }
    }
    let mut v = Names(Vec::new());
    v.visit_pat(pat);
    v.0
}

/// `async { .. }.await` or `(|| ..)()`, possibly parenthesised.
pub(super) fn runs_inline(expr: &Expr) -> bool {
    match expr {
        Expr::Paren(p) => runs_inline(&p.expr),
        Expr::Await(a) => matches!(strip_paren(&a.base), Expr::Async(_)),
        Expr::Call(c) => matches!(strip_paren(&c.func), Expr::Closure(_)),
        _ => false,
    }
}

pub(super) fn peel(expr: &Expr) -> &Expr {
    match expr {
        Expr::Try(t) => peel(&t.expr),
        Expr::Await(a) => peel(&a.base),
        Expr::Paren(p) => peel(&p.expr),
        Expr::Reference(r) => peel(&r.expr),
        Expr::MethodCall(m)
            if matches!(
                m.method.to_string().as_str(),
                "map_err" | "context" | "with_context" | "unwrap" | "expect" | "into"
            ) =>
        {
            peel(&m.receiver)
        }
        other => other,
    }
}

pub(super) fn strip_paren(expr: &Expr) -> &Expr {
    crate::analysis::syntax::strip_parens(expr)
}
