//! The order the fixpoint evaluates functions in: callees before their
//! callers, so that a caller mostly reads its callees' final summaries the
//! first time it is evaluated.
//!
//! The call graph here is read off the syntax alone: every name a body
//! calls (`f(..)`, `a.f(..)`, `T::f(..)`, inside the macros that parse too)
//! links to every function of that name. It over-approximates (a method name
//! several types define links to all of them) and may miss calls the
//! evaluator resolves otherwise; that only costs re-evaluations, because
//! the fixpoint re-evaluates a function whenever a callee's summary changes
//! after it was read. A cycle (recursion) is broken where the depth-first
//! walk meets it.

use super::index::CrateIndex;
use super::syntax::macro_args;
use std::collections::HashSet;
use syn::visit::Visit;

/// Function ids of `index`, each after the functions it calls (cycles
/// aside), every id once.
pub fn callee_first(index: &CrateIndex<'_>) -> Vec<usize> {
    let calls: Vec<Vec<usize>> = (index.fns.iter())
        .map(|def| {
            let mut names = CalledNames::default();
            names.visit_block(def.block);
            let mut ids: Vec<usize> = (names.0.iter())
                .filter_map(|name| index.fns_by_name.get(name.as_str()))
                .flatten()
                .copied()
                .collect();
            ids.sort_unstable();
            ids.dedup();
            ids
        })
        .collect();
    post_order(&calls)
}

/// Depth-first post-order over `edges` (a node after everything it reaches,
/// back edges ignored), iterative so that a long call chain cannot overflow
/// the stack.
fn post_order(edges: &[Vec<usize>]) -> Vec<usize> {
    let n = edges.len();
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        stack.push((root, 0));
        while let Some((node, next)) = stack.last_mut() {
            let node = *node;
            match edges[node].get(*next) {
                Some(&callee) => {
                    *next += 1;
                    if callee < n && !seen[callee] {
                        seen[callee] = true;
                        stack.push((callee, 0));
                    }
                }
                None => {
                    order.push(node);
                    stack.pop();
                }
            }
        }
    }
    order
}

/// The names a body calls.
#[derive(Default)]
struct CalledNames(HashSet<String>);

impl<'ast> Visit<'ast> for CalledNames {
    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        if let syn::Expr::Path(path) = &*call.func {
            if let Some(last) = path.path.segments.last() {
                self.0.insert(last.ident.to_string());
            }
        }
        syn::visit::visit_expr_call(self, call);
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        self.0.insert(call.method.to_string());
        syn::visit::visit_expr_method_call(self, call);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // The parse the evaluator reads too (memoised per analysis).
        if let Some(args) = macro_args(mac) {
            for arg in args.iter() {
                self.visit_expr(arg);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::post_order;

    #[test]
    fn callees_come_before_callers_and_cycles_end() {
        // 0 calls 1, 1 calls 2, 2 calls 0 (a cycle), 3 calls 1.
        let edges = vec![vec![1], vec![2], vec![0], vec![1]];
        let order = post_order(&edges);
        assert_eq!(order, vec![2, 1, 0, 3]);
        let chain: Vec<Vec<usize>> = (0..100_000).map(|i| vec![i + 1]).collect();
        let order = post_order(&chain);
        assert_eq!(order.len(), 100_000);
        assert_eq!(order[0], 99_999);
    }
}
