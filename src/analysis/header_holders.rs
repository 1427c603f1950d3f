//! Where the unit keeps the idempotency-key header's *name*, for all rules:
//! struct fields and enum variants that are ever given a key-header literal
//! (`Self { header: "Idempotency-Key" }` in a `new`/`Default` impl,
//! `self.header_name = HDR.to_string()`, `CacheKeySource::Header(name
//! .unwrap_or(DEFAULT_HEADER).to_string())`). A read of that field
//! (`headers.get(&config.header_name)`) or a binding out of that variant
//! (`if let CacheKeySource::Header(name) = ..`) then names the header, so
//! the value read with it is the client key, whatever the field is called.
//!
//! The initialiser is followed through the forms that keep a string what
//! it is (references, `to_string`, `into`, `unwrap_or(default)`,
//! `String::from`, `HeaderName::from_static`, constants). A field whose
//! `#[serde(default = "f")]` function returns the name holds it too
//! (`CrateIndex::build`). The pre-filter's
//! token scan (`prefilter::scan`, `holder_before`) looks for the same shapes
//! and must stay a superset of them.

use std::collections::{HashMap, HashSet};

use syn::visit::Visit;
use syn::Expr;

use super::syntax::last_ident;
use super::syntax::ConstDef;
use super::vocab::Vocabulary;

/// Calls that wrap a header name without changing it (`String::from(..)`,
/// `HeaderName::from_static(..)`, `Some(..)`). Shared with the pre-filter.
pub const NAME_WRAPPERS: &[&str] = &[
    "from",
    "from_static",
    "from_str",
    "from_bytes",
    "from_lowercase",
    "try_from",
    "new",
    "Some",
    "Borrowed",
    "Owned",
];

/// Methods that keep a header name what it is (`"..".to_string()`).
const NAME_METHODS: &[&str] = &[
    "to_string",
    "to_owned",
    "into",
    "clone",
    "as_str",
    "as_bytes",
    "as_ref",
    "to_lowercase",
    "to_ascii_lowercase",
    "parse",
    "unwrap",
    "expect",
];

/// Whether a path's last segment is named like a constant (`DEFAULT_HEADER`):
/// only those are followed, so the pre-filter can tell them by their token.
pub fn is_const_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// What holds a header name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Holder {
    /// A struct field, by name.
    Field(String),
    /// A tuple enum variant (or tuple struct) with one element, by name.
    Variant(String),
}

/// The end of an initialiser: a literal, or a path that may be a constant.
#[derive(Debug, Clone)]
enum Leaf {
    /// A literal and the file it is written in.
    Literal(String, u32),
    /// A path's last segment and the file it is written in: a constant
    /// defined in that file wins over same-named ones elsewhere.
    Path(String, u32),
}

/// Holder candidates of a unit, found while indexing: every field or
/// variant given a string literal or a path, resolved against the
/// vocabulary on first use.
#[derive(Debug, Default)]
pub struct HeaderHolders {
    candidates: Vec<(Holder, Leaf)>,
    resolved: std::cell::OnceCell<Resolved>,
}

/// The holders given the key header's name: in the unit, and per file.
#[derive(Debug, Default)]
struct Resolved {
    unit: HashSet<Holder>,
    /// (holder, file) pairs the file gives any name.
    given_in_file: HashSet<(Holder, u32)>,
    /// (holder, file) pairs the file gives the key header's name.
    key_in_file: HashSet<(Holder, u32)>,
}

impl HeaderHolders {
    /// Whether `holder`, read in `file`, holds the name of the
    /// idempotency-key header: what the file itself gives it, as with
    /// constants, else whether the unit ever gives it that name. Two
    /// structs' `header_name` fields (an API-key config's `"X-API-Key"`, a
    /// dedup config's `"Idempotency-Key"`) are told apart by the file that
    /// fills and reads each.
    pub fn holds_key_header(
        &self,
        holder: &Holder,
        file: u32,
        vocab: &Vocabulary,
        consts: &HashMap<String, Vec<ConstDef<'_>>>,
    ) -> bool {
        if self.candidates.is_empty() {
            return false;
        }
        let resolved = self.resolved.get_or_init(|| self.resolve(vocab, consts));
        let here = (holder.clone(), file);
        if resolved.given_in_file.contains(&here) {
            resolved.key_in_file.contains(&here)
        } else {
            resolved.unit.contains(holder)
        }
    }

    /// The names of the fields and variants given the key header's name.
    pub fn names(
        &self,
        vocab: &Vocabulary,
        consts: &HashMap<String, Vec<ConstDef<'_>>>,
    ) -> Vec<String> {
        if self.candidates.is_empty() {
            return Vec::new();
        }
        let resolved = self.resolved.get_or_init(|| self.resolve(vocab, consts));
        (resolved.unit.iter())
            .map(|holder| match holder {
                Holder::Field(name) | Holder::Variant(name) => name.clone(),
            })
            .collect()
    }

    fn resolve(&self, vocab: &Vocabulary, consts: &HashMap<String, Vec<ConstDef<'_>>>) -> Resolved {
        let mut out = Resolved::default();
        for (holder, leaf) in &self.candidates {
            let file = match leaf {
                Leaf::Literal(_, file) | Leaf::Path(_, file) => *file,
            };
            out.given_in_file.insert((holder.clone(), file));
            if leaf_is_key_header(leaf, vocab, consts, 0) {
                out.unit.insert(holder.clone());
                out.key_in_file.insert((holder.clone(), file));
            }
        }
        out
    }
}

fn leaf_is_key_header(
    leaf: &Leaf,
    vocab: &Vocabulary,
    consts: &HashMap<String, Vec<ConstDef<'_>>>,
    depth: usize,
) -> bool {
    match leaf {
        Leaf::Literal(text, _) => vocab.is_key_header(text),
        Leaf::Path(name, file) if depth < 8 => {
            let Some(defs) = consts.get(name) else {
                return false;
            };
            // Module-private constants share names across files
            // (`DEFAULT_HEADER`): the one in the same file is meant, and
            // elsewhere every definition must agree.
            let local: Vec<&ConstDef<'_>> = defs.iter().filter(|d| d.file == *file).collect();
            let candidates: Vec<&ConstDef<'_>> = if local.is_empty() {
                defs.iter().collect()
            } else {
                local
            };
            candidates.iter().all(|def| {
                leaves(def.expr, def.file)
                    .iter()
                    .any(|l| leaf_is_key_header(l, vocab, consts, depth + 1))
            })
        }
        Leaf::Path(..) => false,
    }
}

/// The literals and paths an initialiser may evaluate to.
fn leaves(expr: &Expr, file: u32) -> Vec<Leaf> {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            syn::Lit::Str(s) => vec![Leaf::Literal(s.value(), file)],
            _ => Vec::new(),
        },
        Expr::Path(p) => {
            let name = last_ident(&p.path);
            if is_const_name(&name) {
                vec![Leaf::Path(name, file)]
            } else {
                Vec::new()
            }
        }
        Expr::Reference(r) => leaves(&r.expr, file),
        Expr::Paren(p) => leaves(&p.expr, file),
        Expr::Group(g) => leaves(&g.expr, file),
        Expr::MethodCall(m) => {
            let method = m.method.to_string();
            if method == "unwrap_or" {
                // The default is the header name; the receiver may be one too.
                let mut out: Vec<Leaf> = m.args.iter().flat_map(|a| leaves(a, file)).collect();
                out.extend(leaves(&m.receiver, file));
                out
            } else if NAME_METHODS.contains(&method.as_str()) {
                leaves(&m.receiver, file)
            } else {
                Vec::new()
            }
        }
        Expr::Call(c) if c.args.len() == 1 => match &*c.func {
            Expr::Path(p) if NAME_WRAPPERS.contains(&last_ident(&p.path).as_str()) => {
                c.args.iter().flat_map(|a| leaves(a, file)).collect()
            }
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// Collects holder candidates from one function body (or any expression).
#[derive(Default)]
pub(super) struct HolderCollector {
    pub(super) holders: HeaderHolders,
    /// The file of the body being visited.
    pub(super) file: u32,
}

impl HolderCollector {
    /// `holder` is given the value of `init`.
    pub(super) fn push(&mut self, holder: Holder, init: &Expr) {
        for leaf in leaves(init, self.file) {
            self.holders.candidates.push((holder.clone(), leaf));
        }
    }
}

impl<'ast> Visit<'ast> for HolderCollector {
    fn visit_expr_struct(&mut self, s: &'ast syn::ExprStruct) {
        for field in &s.fields {
            if let syn::Member::Named(name) = &field.member {
                self.push(Holder::Field(name.to_string()), &field.expr);
            }
        }
        syn::visit::visit_expr_struct(self, s);
    }

    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        if let Expr::Field(f) = &*a.left {
            if let syn::Member::Named(name) = &f.member {
                self.push(Holder::Field(name.to_string()), &a.right);
            }
        }
        syn::visit::visit_expr_assign(self, a);
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if let (Expr::Path(p), 1) = (&*c.func, c.args.len()) {
            let name = last_ident(&p.path);
            let variant = name.chars().next().is_some_and(|ch| ch.is_uppercase())
                && !NAME_WRAPPERS.contains(&name.as_str());
            if let (true, Some(arg)) = (variant, c.args.first()) {
                self.push(Holder::Variant(name), arg);
            }
        }
        syn::visit::visit_expr_call(self, c);
    }
}
