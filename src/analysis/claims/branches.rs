//! Branches: which claim an `if`/`match` condition tests, which arms mean
//! "not claimed", and how the open claims of the arms merge.

use std::collections::BTreeSet;

use syn::visit::Visit;
use syn::{Expr, Pat};

use super::names::pat_idents;
use super::walker::{merge, Walker};
use crate::analysis::syntax::place_name;
use crate::analysis::vocab::{words, NOT_CLAIMED_VARIANTS};

/// Words of a predicate's name that make it true when the claim was not
/// taken (`already_exists(&r)`, `is_conflict(&r)`).
const NEGATIVE_PREDICATE_WORDS: &[&str] = &[
    "not",
    "exists",
    "existed",
    "conflict",
    "duplicate",
    "taken",
    "failed",
    "rejected",
    "busy",
];

impl Walker<'_> {
    /// Which claim a condition tests, and whether `true` means "claimed".
    pub(super) fn tested_claim(&self, cond: &Expr) -> Option<(usize, bool)> {
        match cond {
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => {
                self.tested_claim(&u.expr).map(|(id, p)| (id, !p))
            }
            Expr::Paren(p) => self.tested_claim(&p.expr),
            Expr::Await(a) => self.tested_claim(&a.base),
            Expr::Try(t) => self.tested_claim(&t.expr),
            Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|id| self.claim_results.get(&id.to_string()).copied())
                .map(|id| (id, !self.claims[id].returns_previous)),
            Expr::MethodCall(m) => {
                if let Some(&id) = self.claim_at.get(&self.site(cond)) {
                    return Some((id, true));
                }
                match m.method.to_string().as_str() {
                    "is_some" | "is_ok" | "unwrap" | "expect" | "unwrap_or"
                    | "unwrap_or_default" | "rows_affected" | "map_err" | "context"
                    | "with_context" | "wrap_err" => self.tested_claim(&m.receiver),
                    "is_none" | "is_err" => self.tested_claim(&m.receiver).map(|(id, p)| (id, !p)),
                    // A predicate of the claim's result (`claim.is_new()`,
                    // `lease.was_acquired()`), negative by its name as a
                    // predicate function's is (`claim.is_duplicate()`).
                    method if m.args.is_empty() && is_predicate_name(method) => {
                        let (id, polarity) = self.tested_claim(&m.receiver)?;
                        let negative = words(method)
                            .iter()
                            .any(|w| NEGATIVE_PREDICATE_WORDS.contains(&w.as_str()));
                        Some((id, polarity != negative))
                    }
                    _ => None,
                }
            }
            Expr::Call(call) => {
                if let Some(&id) = self.claim_at.get(&self.site(cond)) {
                    return Some((id, true));
                }
                // A predicate on the claim's result (`lwt_applied(&claim)`,
                // `was_inserted(&rows)`) says whether it was taken, unless
                // its name says the opposite (`already_exists(&r)`).
                let [arg] = call.args.iter().collect::<Vec<_>>()[..] else {
                    return None;
                };
                let (id, polarity) = self.tested_claim(crate::analysis::syntax::strip_ref(arg))?;
                let Expr::Path(func) = &*call.func else {
                    return None;
                };
                let name = crate::analysis::syntax::last_ident(&func.path);
                let negative = words(&name)
                    .iter()
                    .any(|w| NEGATIVE_PREDICATE_WORDS.contains(&w.as_str()));
                Some((id, polarity != negative))
            }
            // `inserted.rows_affected() == 0`, `claimed == false`, `reply != "OK"`.
            Expr::Binary(b) => {
                let (side, lit, flipped) = match (&*b.left, &*b.right) {
                    (other, Expr::Lit(l)) => (other, &l.lit, false),
                    (Expr::Lit(l), other) => (other, &l.lit, true),
                    _ => return None,
                };
                let (id, polarity) = self.tested_claim(side)?;
                let n: i64 = match lit {
                    syn::Lit::Int(i) => i.base10_parse().ok()?,
                    syn::Lit::Bool(v) => i64::from(v.value),
                    // A redis reply: `SET .. NX` answers `OK` when it set.
                    syn::Lit::Str(s) if s.value().eq_ignore_ascii_case("OK") => {
                        if !matches!(b.op, syn::BinOp::Eq(_) | syn::BinOp::Ne(_)) {
                            return None;
                        }
                        1
                    }
                    _ => return None,
                };
                // Whether the comparison holds when the claim was taken
                // (count >= 1, flag true).
                let holds_when_taken = match (&b.op, flipped) {
                    (syn::BinOp::Eq(_), _) => n >= 1,
                    (syn::BinOp::Ne(_), _) => n == 0,
                    (syn::BinOp::Gt(_), false) | (syn::BinOp::Lt(_), true) => n == 0,
                    (syn::BinOp::Ge(_), false) | (syn::BinOp::Le(_), true) => n <= 1,
                    (syn::BinOp::Lt(_), false) | (syn::BinOp::Gt(_), true) => n > 1,
                    (syn::BinOp::Le(_), false) | (syn::BinOp::Ge(_), true) => n >= 1,
                    _ => return None,
                };
                Some((id, holds_when_taken == polarity))
            }
            _ => None,
        }
    }

    pub(super) fn eval_if(&mut self, i: &syn::ExprIf) {
        let tail = std::mem::replace(&mut self.tail, false);
        let (tested, then_claimed, err_binding) = match &*i.cond {
            Expr::Let(l) => {
                self.expr(&l.expr);
                self.bind_unwrapped(&l.pat, &l.expr);
                let failure = pat_not_claimed(&l.pat);
                let binding = pat_is_err(&l.pat).then(|| place_name(&l.expr)).flatten();
                (
                    self.tested_claim(&l.expr).map(|(id, _)| id),
                    !failure,
                    binding,
                )
            }
            cond => {
                self.expr(cond);
                let binding = match cond {
                    Expr::MethodCall(m) if m.method == "is_err" => place_name(&m.receiver),
                    _ => None,
                };
                match self.tested_claim(cond) {
                    Some((id, p)) => (Some(id), p, binding),
                    None => (None, true, binding),
                }
            }
        };
        if let Some(id) = tested {
            self.claims[id].tested = true;
        }
        let start = self.state.clone();
        let open_before = self.open_now();
        if let (Some(id), false) = (tested, then_claimed) {
            self.close(&BTreeSet::from([id]));
        }
        self.tail = tail;
        let shadowed = match (&*i.cond, tested) {
            (Expr::Let(l), Some(id)) => Some(self.bind_claim_results(&l.pat, id)),
            _ => None,
        };
        self.block(&i.then_branch);
        if let Some(shadowed) = shadowed {
            self.unbind_claim_results(shadowed);
        }
        if let Some(name) = err_binding {
            let released: BTreeSet<usize> =
                open_before.difference(&self.open_now()).copied().collect();
            if !released.is_empty() {
                self.err_released.entry(name).or_default().extend(released);
            }
        }
        let then_state = self.state.take();
        self.state = start;
        if let (Some(id), true) = (tested, then_claimed) {
            self.close(&BTreeSet::from([id]));
        }
        if let Expr::Let(l) = &*i.cond {
            self.close_unmatched(&l.pat, &l.expr);
        }
        if let Some((_, else_branch)) = &i.else_branch {
            self.tail = tail;
            self.expr(else_branch);
        }
        self.state = merge(vec![then_state, self.state.take()]);
    }

    /// `Begun::Fresh(held) => { ..; held.complete(..) }`: the names a
    /// pattern takes out of a claim's result are that result, as a `let`
    /// binding of it is (a method completing on one makes the claim a
    /// guard). Returns what they shadowed, for the end of the arm.
    fn bind_claim_results(&mut self, pat: &Pat, id: usize) -> Vec<(String, Option<usize>)> {
        pat_idents(pat)
            .into_iter()
            .map(|name| {
                let before = self.claim_results.insert(name.clone(), id);
                (name, before)
            })
            .collect()
    }

    fn unbind_claim_results(&mut self, shadowed: Vec<(String, Option<usize>)>) {
        for (name, before) in shadowed {
            match before {
                Some(id) => self.claim_results.insert(name, id),
                None => self.claim_results.remove(&name),
            };
        }
    }

    /// The `else` of `if let Some(key) = idempotency_key`: a claim whose key
    /// was made from that value's content was never taken where it is absent
    /// (the handler claims and completes under the same `if let`).
    fn close_unmatched(&mut self, pat: &Pat, scrutinee: &Expr) {
        let Pat::TupleStruct(ts) = pat else {
            return;
        };
        let wrapper = ts.path.segments.last().map(|s| s.ident.to_string());
        if !matches!(wrapper.as_deref(), Some("Some" | "Ok")) {
            return;
        }
        let Some(name) = place_name(scrutinee) else {
            return;
        };
        let made_from: BTreeSet<usize> = self
            .open_now()
            .into_iter()
            .filter(|&id| self.claims[id].roots.contains(&name))
            .collect();
        self.close(&made_from);
    }

    pub(super) fn eval_match(&mut self, m: &syn::ExprMatch) {
        let tail = std::mem::replace(&mut self.tail, false);
        let err = self.expr(&m.expr);
        let tested = self.tested_claim(&m.expr).map(|(id, _)| id);
        if let Some(id) = tested {
            self.claims[id].tested = true;
        }
        let mut classes: Vec<Option<bool>> = m.arms.iter().map(|a| pat_class(&a.pat)).collect();
        // `Ok(Some(_)) => return .., Ok(None) => {}`: whatever the variants
        // say, an arm that only leaves is an outcome where this caller holds
        // no claim (replayed, busy), and an arm that goes on to the work
        // holds it.
        // A variant that names the outcome (`Claimed::Existing(..)`,
        // `Outcome::InProgress`) says it whatever its arm does next (decide
        // to replay, or go on for a stale record); `None`, `false` and
        // `Err` mean "not claimed" or "nothing there" depending on the API.
        if tested.is_some() && m.arms.iter().any(|a| !only_leaves(&a.body)) {
            for (class, arm) in classes.iter_mut().zip(&m.arms) {
                // The arm that goes on holds the claim (`Ok(None) => {}`);
                // a claim's `false` is "not claimed" whatever the arm does
                // (`false => Ok(Reply::in_progress())` as the function's value).
                *class = Some(match pat_bool(&arm.pat) {
                    Some(claimed) => !claimed,
                    None => names_unclaimed_outcome(&arm.pat) || only_leaves(&arm.body),
                });
            }
        }
        let any_success = classes.contains(&Some(false));
        let start = self.state.clone();
        let mut ends = Vec::new();
        for (arm, class) in m.arms.iter().zip(classes) {
            self.state = start.clone();
            let not_claimed = class.unwrap_or(any_success);
            if let (Some(id), true) = (tested, not_claimed) {
                self.close(&BTreeSet::from([id]));
            }
            if pat_is_err(&arm.pat) {
                self.close(&err);
            }
            if let Some((_, guard)) = &arm.guard {
                self.expr(guard);
            }
            self.tail = tail;
            let shadowed = tested.map(|id| self.bind_claim_results(&arm.pat, id));
            self.expr(&arm.body);
            if let Some(shadowed) = shadowed {
                self.unbind_claim_results(shadowed);
            }
            ends.push(self.state.take());
        }
        self.state = if m.arms.is_empty() {
            start
        } else {
            merge(ends)
        };
    }
}

/// Whether an arm's body ends by leaving: `return ..`,
/// `{ let code = ..; return ..; }`, or in a loop `continue`/`break`.
fn only_leaves(body: &syn::Expr) -> bool {
    match body {
        syn::Expr::Return(_) | syn::Expr::Continue(_) | syn::Expr::Break(_) => true,
        syn::Expr::Block(b) => match b.block.stmts.last() {
            Some(syn::Stmt::Expr(e, _)) => only_leaves(e),
            _ => false,
        },
        _ => false,
    }
}

/// `Some(true)` when the pattern means "not claimed" (`None`, `false`,
/// `Err(..)`, `Outcome::InProgress`), `Some(false)` when it names the
/// claimed case, `None` for `_` and bare bindings.
fn pat_class(pat: &Pat) -> Option<bool> {
    struct Class {
        failure: bool,
        success: bool,
    }
    impl<'ast> Visit<'ast> for Class {
        fn visit_path(&mut self, p: &'ast syn::Path) {
            if let Some(last) = p.segments.last() {
                let name = last.ident.to_string();
                if NOT_CLAIMED_VARIANTS.contains(&name.as_str()) {
                    self.failure = true;
                } else {
                    self.success = true;
                }
            }
        }
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            let name = p.ident.to_string();
            if NOT_CLAIMED_VARIANTS.contains(&name.as_str()) {
                self.failure = true;
            }
            syn::visit::visit_pat_ident(self, p);
        }
        fn visit_lit_bool(&mut self, b: &'ast syn::LitBool) {
            if b.value {
                self.success = true;
            } else {
                self.failure = true;
            }
        }
    }
    let mut c = Class {
        failure: false,
        success: false,
    };
    c.visit_pat(pat);
    if c.failure {
        Some(true)
    } else if c.success {
        Some(false)
    } else {
        None
    }
}

/// Whether a pattern names a not-claimed outcome by a variant of its own
/// (`Claimed::Existing(..)`, `InProgress`), not by `None`, `Err` or `false`.
fn names_unclaimed_outcome(pat: &Pat) -> bool {
    struct Named(bool);
    impl<'ast> Visit<'ast> for Named {
        fn visit_path(&mut self, p: &'ast syn::Path) {
            if let Some(last) = p.segments.last() {
                let name = last.ident.to_string();
                self.0 |= !matches!(name.as_str(), "None" | "Err")
                    && NOT_CLAIMED_VARIANTS.contains(&name.as_str());
            }
        }
    }
    let mut named = Named(false);
    named.visit_pat(pat);
    named.0
}

/// The boolean a pattern matches (`false`, `Ok(true)`), if it is one.
fn pat_bool(pat: &Pat) -> Option<bool> {
    match pat {
        Pat::Lit(l) => match &l.lit {
            syn::Lit::Bool(b) => Some(b.value),
            _ => None,
        },
        Pat::TupleStruct(ts) if ts.path.is_ident("Ok") && ts.elems.len() == 1 => {
            ts.elems.first().and_then(pat_bool)
        }
        Pat::Paren(p) => pat_bool(&p.pat),
        _ => None,
    }
}

fn pat_not_claimed(pat: &Pat) -> bool {
    pat_class(pat) == Some(true)
}

/// `Err(..)` patterns.
fn pat_is_err(pat: &Pat) -> bool {
    match pat {
        Pat::TupleStruct(ts) => ts.path.segments.last().is_some_and(|s| s.ident == "Err"),
        Pat::Paren(p) => pat_is_err(&p.pat),
        _ => false,
    }
}

/// `is_new`, `was_acquired`, `has_lock`: a yes/no question asked of a value.
fn is_predicate_name(method: &str) -> bool {
    ["is_", "was_", "has_"]
        .iter()
        .any(|p| method.strip_prefix(p).is_some_and(|rest| !rest.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arm_classes() {
        let class = |src: &str| {
            pat_class(
                &syn::parse_str::<syn::Arm>(&format!("{src} => ()"))
                    .map(|a| a.pat)
                    .expect("pattern"),
            )
        };
        assert_eq!(class("Ok(false)"), Some(true));
        assert_eq!(class("None"), Some(true));
        assert_eq!(class("Claim::InProgress"), Some(true));
        assert_eq!(class("Ok(true)"), Some(false));
        assert_eq!(class("Some(lease)"), Some(false));
        assert_eq!(class("_"), None);
    }
}
