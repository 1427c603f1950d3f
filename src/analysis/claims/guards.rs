//! What releases a claim without naming it at every exit: local types
//! whose `Drop` calls a release verb, crate-local helpers that release,
//! and guard values (`ClaimGuard::new(..)`, `scopeguard::guard(..)`).
//! Verbs are asked of the configured [`Vocabulary`], so a configured
//! release verb in a `Drop` impl makes a guard too.

use std::collections::HashSet;

use syn::visit::Visit;
use syn::Expr;

use super::names::peel;
use super::walker::Walker;
use crate::analysis::index::CrateIndex;
use crate::analysis::syntax::path_string;
use crate::analysis::vocab::Vocabulary;

/// Whether a body calls a method or function whose name satisfies `verb`.
fn calls_verb(block: &syn::Block, verb: &dyn Fn(&str) -> bool) -> bool {
    struct Finder<'v> {
        verb: &'v dyn Fn(&str) -> bool,
        found: bool,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
            if (self.verb)(&m.method.to_string()) {
                self.found = true;
            }
            syn::visit::visit_expr_method_call(self, m);
        }
        fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
            if let Expr::Path(p) = &*c.func {
                if p.path
                    .segments
                    .last()
                    .is_some_and(|s| (self.verb)(&s.ident.to_string()))
                {
                    self.found = true;
                }
            }
            syn::visit::visit_expr_call(self, c);
        }
    }
    let mut finder = Finder { verb, found: false };
    finder.visit_block(block);
    finder.found
}

/// Types of the unit whose `Drop` impl calls a release verb: holding one is
/// a guard that releases the claim on every exit.
pub(super) fn releasing_drop_types(index: &CrateIndex<'_>, vocab: &Vocabulary) -> HashSet<String> {
    let release = |name: &str| vocab.is_release_verb(name);
    index
        .fns
        .iter()
        .filter(|f| f.name == "drop" && f.has_receiver())
        .filter(|f| calls_verb(f.block, &release))
        .filter_map(|f| f.self_ty.clone())
        .collect()
}

/// Crate-local helpers named otherwise (`cleanup(&state, &key)`) that
/// release and neither claim nor complete: calling one with the key counts
/// as a release. Only releases are followed, so a helper can silence a
/// finding but never create one.
pub(super) fn releasing_helpers(index: &CrateIndex<'_>, vocab: &Vocabulary) -> HashSet<String> {
    let claim = |name: &str| vocab.is_claim_verb(name);
    let complete = |name: &str| vocab.is_complete_verb(name);
    let release = |name: &str| vocab.is_release_verb(name);
    index
        .fns
        .iter()
        .filter(|f| f.name != "drop" && !claim(&f.name) && !complete(&f.name) && !release(&f.name))
        .filter(|f| {
            calls_verb(f.block, &release)
                && !calls_verb(f.block, &claim)
                && !calls_verb(f.block, &complete)
        })
        .map(|f| f.name.clone())
        .collect()
}

impl Walker<'_> {
    /// A value whose drop releases: `ClaimGuard::new(..)`, `scopeguard::guard(..)`,
    /// or a local type with a releasing `Drop`.
    pub(super) fn is_guard_expr(&self, expr: &Expr) -> bool {
        let named_guard = |path: &syn::Path| {
            path.segments.iter().any(|s| {
                let n = s.ident.to_string();
                n == "ClaimGuard" || self.unit.drop_guards.contains(&n)
            }) || path.segments.last().is_some_and(|s| {
                matches!(s.ident.to_string().as_str(), "guard" | "guard_on_unwind")
            })
        };
        match peel(expr) {
            Expr::Call(c) => match &*c.func {
                Expr::Path(p) => {
                    named_guard(&p.path)
                        || (matches!(
                            path_string(&p.path).as_str(),
                            "Some" | "Ok" | "Box::new" | "Arc::new"
                        ) && c.args.first().is_some_and(|a| self.is_guard_expr(a)))
                }
                _ => false,
            },
            Expr::Struct(s) => named_guard(&s.path),
            // `let guard = { let k = ..; ClaimGuard::new(move || ..) };`
            Expr::Block(b) => match b.block.stmts.last() {
                Some(syn::Stmt::Expr(tail, None)) => self.is_guard_expr(tail),
                _ => false,
            },
            _ => false,
        }
    }
}
