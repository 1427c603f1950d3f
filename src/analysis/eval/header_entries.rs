//! A header entry picked out by the key header's name: inside
//! `match h.name.as_str() { "idempotency-key" => key = h.value.., }` or
//! `if name.eq_ignore_ascii_case("Idempotency-Key") { .. value .. }`, the
//! entry the name was read from (`h`, or the pair's other binding) is
//! the key header, so what the arm reads of it is the client's key.

use syn::visit::Visit;
use syn::{BinOp, Expr, Pat};

use super::Evaluator;
use crate::analysis::syntax::{access_levels, place_name};
use crate::analysis::value::KeySource;

impl Evaluator<'_> {
    /// A `match` arm whose pattern names the key header (alone or among
    /// alternatives): the scrutinee's entry is that header in the arm.
    pub(super) fn key_header_arm(&mut self, scrutinee: &Expr, pat: &Pat) {
        if let Some((source, lit)) = self.pattern_names_header(pat) {
            self.entry_is_header(scrutinee, source, &Expr::Lit(lit));
        }
    }

    /// An `if` condition comparing a name with the key header's name:
    /// the entry the name is of is that header in the `then` branch.
    pub(super) fn key_header_condition(&mut self, cond: &Expr) {
        let (name, literal) = match cond {
            Expr::MethodCall(m)
                if matches!(m.method.to_string().as_str(), "eq_ignore_ascii_case" | "eq")
                    && m.args.len() == 1 =>
            {
                (&*m.receiver, &m.args[0])
            }
            Expr::Binary(b) if matches!(b.op, BinOp::Eq(_)) => match (&*b.left, &*b.right) {
                (name, lit @ Expr::Lit(_)) | (lit @ Expr::Lit(_), name) => (name, lit),
                _ => return,
            },
            _ => return,
        };
        let Some(source) = self.literal_names_header(literal) else {
            return;
        };
        self.entry_is_header(name, source, literal);
    }

    fn pattern_names_header(&mut self, pat: &Pat) -> Option<(KeySource, syn::ExprLit)> {
        match pat {
            Pat::Lit(lit) => {
                let source = self.eval_lit(&lit.lit).key_header_name?;
                Some((source, lit.clone()))
            }
            Pat::Or(or) => or.cases.iter().find_map(|p| self.pattern_names_header(p)),
            _ => None,
        }
    }

    fn literal_names_header(&mut self, expr: &Expr) -> Option<KeySource> {
        let lit = match crate::analysis::syntax::strip_ref(expr) {
            Expr::Lit(lit) => lit,
            _ => return None,
        };
        self.eval_lit(&lit.lit).key_header_name
    }

    /// Declares, for the rest of the current scope, the local binding the
    /// header's name was read from (`h` of `h.name.to_ascii_lowercase()`)
    /// as the header itself; a name bound alone (`(name, value)` pairs)
    /// leaves its sibling to the pattern that bound both.
    fn entry_is_header(&mut self, name: &Expr, source: KeySource, at: &Expr) {
        let levels = access_levels(name);
        let Some(root) = levels.last().and_then(|root| place_name(root)) else {
            return;
        };
        // Only an entry of the function's own (`for h in req.headers()`),
        // never `self`.
        if root == "self" || self.env.lookup(&root).is_none() {
            return;
        }
        let value = self.header_value(Some(source), at);
        // The bare name of a `(name, value)` pair: its value is the
        // binding bound beside it (`for (name, value) in req.headers()`).
        if matches!(name, Expr::Path(_)) {
            if let Some(sibling) = pair_sibling(self.body, &root) {
                if self.env.lookup(&sibling).is_some() {
                    self.declare(sibling, value);
                }
            }
            return;
        }
        self.declare(root, value);
    }
}

/// The other binding of a two-binding tuple pattern in `body` that binds
/// `name` (`value` of `for (name, value) in ..`, of `|(name, value)|`).
fn pair_sibling(body: &syn::Block, name: &str) -> Option<String> {
    struct Finder<'n> {
        name: &'n str,
        found: Option<String>,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_pat_tuple(&mut self, t: &'ast syn::PatTuple) {
            let idents: Vec<String> = (t.elems.iter())
                .filter_map(|p| match p {
                    Pat::Ident(pi) => Some(pi.ident.to_string()),
                    Pat::Reference(r) => match &*r.pat {
                        Pat::Ident(pi) => Some(pi.ident.to_string()),
                        _ => None,
                    },
                    _ => None,
                })
                .collect();
            if let [a, b] = idents.as_slice() {
                if t.elems.len() == 2 && self.found.is_none() {
                    if a == self.name {
                        self.found = Some(b.clone());
                    } else if b == self.name {
                        self.found = Some(a.clone());
                    }
                }
            }
            syn::visit::visit_pat_tuple(self, t);
        }
    }
    let mut finder = Finder { name, found: None };
    finder.visit_block(body);
    finder.found
}
