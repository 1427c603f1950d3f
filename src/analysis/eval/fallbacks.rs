//! Facts for global-scope-fallback (IDEM005): where a value is replaced by a
//! sentinel default when identity is missing (`unwrap_or("anon")`,
//! `Default::default()`, an `if`/`match` arm yielding one), and where a
//! check past which the value is known not to be the default clears it.
//!
//! The evaluator calls these after every expression (`note_facts`); the
//! defaults travel with the [`Value`] and are attached to scope components
//! when the value is named (binding, field, parameter) or becomes part of a
//! key (see [`Value::join_as_part`]). A scoped key carrying a default is a
//! key event too (see `sinks`).

use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Expr, ExprMethodCall, Pat, Stmt};

use super::{Evaluator, MAX_LOOKUP};
use crate::analysis::syntax::{
    last_ident, macro_args, path_segments, place_name, short_text, span_of,
};
use crate::analysis::value::{Fallback, Origin, Site, Value};
use crate::analysis::vocab::{
    is_sentinel_literal, is_sentinel_name, Component, TRANSPARENT_METHODS,
};
use crate::diagnostic::Span;

/// Zero-argument methods that keep a sentinel what it is (`"anon".to_string()`).
const SENTINEL_KEEPING: &[&str] = &[
    "to_string",
    "to_owned",
    "into",
    "clone",
    "as_str",
    "as_ref",
    "as_bytes",
    "to_vec",
    "into_owned",
    "to_uppercase",
    "to_lowercase",
    "to_ascii_lowercase",
    "to_ascii_uppercase",
];

/// One-argument calls that wrap a sentinel without changing it.
const SENTINEL_WRAPPERS: &[&str] = &[
    "Some",
    "Ok",
    "from",
    "new",
    "from_static",
    "from_str",
    "Borrowed",
    "Owned",
    "to_string",
];

/// Whether a block always leaves (returns, breaks, panics or bails).
fn diverges(block: &syn::Block) -> bool {
    block.stmts.iter().any(|stmt| match stmt {
        Stmt::Expr(e, _) => expr_diverges(e),
        Stmt::Macro(m) => macro_diverges(&m.mac),
        _ => false,
    })
}

fn expr_diverges(expr: &Expr) -> bool {
    match expr {
        Expr::Return(_) | Expr::Break(_) | Expr::Continue(_) => true,
        Expr::Macro(m) => macro_diverges(&m.mac),
        Expr::Block(b) => diverges(&b.block),
        _ => false,
    }
}

fn macro_diverges(mac: &syn::Macro) -> bool {
    matches!(
        last_ident(&mac.path).as_str(),
        "panic" | "unreachable" | "todo" | "unimplemented" | "bail"
    )
}

/// The value a block evaluates to, if it ends in an expression.
fn block_tail(block: &syn::Block) -> Option<&Expr> {
    match block.stmts.last() {
        Some(Stmt::Expr(e, None)) => Some(e),
        _ => None,
    }
}

/// Finds a `return` of the function itself (not of a closure, async block
/// or nested item).
#[derive(Default)]
struct ReturnFinder(bool);

impl<'ast> Visit<'ast> for ReturnFinder {
    fn visit_expr_return(&mut self, _: &'ast syn::ExprReturn) {
        self.0 = true;
    }
    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
    fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {}
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// Whether a statement before a body's tail can return early:
/// `if let Some(c) = claims { return c.sub; }`.
fn has_early_return(stmts: &[Stmt]) -> bool {
    let mut finder = ReturnFinder::default();
    for stmt in stmts {
        finder.visit_stmt(stmt);
    }
    finder.0
}

/// The names a pattern binds.
fn pat_bindings(pat: &Pat, out: &mut Vec<String>) {
    match pat {
        Pat::Ident(pi) => {
            if !pi.ident.to_string().starts_with(char::is_uppercase) {
                out.push(pi.ident.to_string());
            }
            if let Some((_, sub)) = &pi.subpat {
                pat_bindings(sub, out);
            }
        }
        Pat::TupleStruct(ts) => ts.elems.iter().for_each(|p| pat_bindings(p, out)),
        Pat::Tuple(t) => t.elems.iter().for_each(|p| pat_bindings(p, out)),
        Pat::Struct(ps) => ps.fields.iter().for_each(|f| pat_bindings(&f.pat, out)),
        Pat::Reference(r) => pat_bindings(&r.pat, out),
        Pat::Paren(p) => pat_bindings(&p.pat, out),
        Pat::Type(t) => pat_bindings(&t.pat, out),
        _ => {}
    }
}

/// The variable an identity check looks at (`tenant`, `tenant.trim()`, `&tenant`).
fn checked_var(expr: &Expr) -> Option<String> {
    match expr {
        Expr::MethodCall(m)
            if m.args.is_empty()
                && TRANSPARENT_METHODS.contains(&m.method.to_string().as_str()) =>
        {
            checked_var(&m.receiver)
        }
        Expr::Field(f) => match &f.member {
            syn::Member::Named(_) => checked_var(&f.base),
            syn::Member::Unnamed(_) => None,
        },
        other => place_name(other),
    }
}

impl Evaluator<'_> {
    /// From a method's name to the end of the call: `unwrap_or("")` in a
    /// long chain, so the diagnostic points at the step that matters.
    pub(super) fn method_origin(&self, m: &syn::ExprMethodCall, expr: &Expr) -> Origin {
        let start = span_of(m.method.span()).start;
        let end = span_of(expr.span()).end;
        Origin {
            site: Site {
                file: self.file,
                span: Span { start, end },
            },
            text: format!("{}({})", m.method, short_text(&m.args)),
            by_name: false,
            parsed: false,
        }
    }

    fn add_fallback(value: &mut Value, origin: Origin, sentinel: (String, bool)) {
        Self::add_fallback_of(value, origin, sentinel, false);
    }

    /// [`Self::add_fallback`]; `initial`: see [`Fallback::initial`].
    fn add_fallback_of(value: &mut Value, origin: Origin, sentinel: (String, bool), initial: bool) {
        // `unwrap_or(String::new())`: one default, reported at the outer call.
        value.fallbacks.retain(|f| {
            f.component.is_some()
                || f.origin.site.file != origin.site.file
                || !(origin.site.span.start <= f.origin.site.span.start
                    && f.origin.site.span.end <= origin.site.span.end)
        });
        let fallback = Fallback {
            component: None,
            origin,
            sentinel: sentinel.0,
            empty: sentinel.1,
            initial,
        };
        if value.fallbacks.len() < 8 && !value.fallbacks.contains(&fallback) {
            value.fallbacks.push(fallback);
        }
        // A defaulted tenant is still the tenant: attach at once.
        value.attach_fallbacks();
    }

    /// What a struct update's `..Default::default()` gives the fields a
    /// literal does not write: a default, there.
    pub(super) fn defaulted_rest(&self, rest: &Expr) -> Option<Value> {
        let Expr::Call(c) = rest else { return None };
        let Expr::Path(p) = &*c.func else { return None };
        let path = crate::analysis::syntax::path_segments(&p.path);
        let name = path.last()?;
        if !c.args.is_empty() || name != "default" || !self.is_default_ctor(name, &path) {
            return None;
        }
        let mut value = Value::empty();
        Self::add_fallback(&mut value, self.origin(rest), (short_text(rest), true));
        Some(value)
    }

    /// `unwrap_or("anon")`, `unwrap_or_default()`, `or_else(|| GUEST)`.
    pub(super) fn note_default_method(
        &mut self,
        m: &ExprMethodCall,
        expr: &Expr,
        mut value: Value,
    ) -> Value {
        let method = m.method.to_string();
        let args: Vec<&Expr> = m.args.iter().collect();
        let sentinel = match method.as_str() {
            "unwrap_or_default" if args.is_empty() => {
                Some(("unwrap_or_default()".to_string(), true))
            }
            "unwrap_or" | "or" | "get_or_insert" | "map_or" => {
                args.first().and_then(|a| self.sentinel(a, 0))
            }
            "unwrap_or_else" | "or_else" | "get_or_insert_with" | "map_or_else" => {
                args.first().and_then(|a| self.lazy_sentinel(a))
            }
            _ => None,
        };
        if let Some(sentinel) = sentinel {
            let origin = self.method_origin(m, expr);
            Self::add_fallback(&mut value, origin, sentinel);
        }
        value
    }

    /// The sentinel an expression stands for, if it is one: its text and
    /// whether it is empty. A bare `None` is absence, not a sentinel.
    fn sentinel(&self, expr: &Expr, depth: usize) -> Option<(String, bool)> {
        if depth > MAX_LOOKUP {
            return None;
        }
        let whole = |empty: bool| Some((short_text(expr), empty));
        match expr {
            Expr::Paren(p) => self.sentinel(&p.expr, depth + 1),
            Expr::Group(g) => self.sentinel(&g.expr, depth + 1),
            Expr::Reference(r) => self.sentinel(&r.expr, depth + 1),
            Expr::Block(b) => self.sentinel(block_tail(&b.block)?, depth + 1),
            Expr::Lit(l) => match &l.lit {
                syn::Lit::Str(s) => is_sentinel_literal(&s.value())
                    .then(|| (short_text(l), s.value().trim().is_empty())),
                syn::Lit::ByteStr(b) => {
                    let text = String::from_utf8_lossy(&b.value()).into_owned();
                    is_sentinel_literal(&text).then(|| (short_text(l), text.trim().is_empty()))
                }
                syn::Lit::Int(i) => (i.base10_digits() == "0").then(|| (short_text(l), false)),
                _ => None,
            },
            Expr::Path(p) => {
                let name = last_ident(&p.path);
                if name == "None" {
                    return None;
                }
                if is_sentinel_name(&name) {
                    return whole(false);
                }
                let def = self.index.consts.get(&name)?.first()?;
                let (_, empty) = self.sentinel(def.expr, depth + 1)?;
                whole(empty)
            }
            Expr::Field(f) => match &f.member {
                syn::Member::Named(name) if is_sentinel_name(&name.to_string()) => whole(false),
                _ => None,
            },
            Expr::MethodCall(m)
                if m.args.is_empty()
                    && SENTINEL_KEEPING.contains(&m.method.to_string().as_str()) =>
            {
                let (_, empty) = self.sentinel(&m.receiver, depth + 1)?;
                whole(empty)
            }
            Expr::Call(c) => {
                let Expr::Path(func) = &*c.func else {
                    return None;
                };
                let name = last_ident(&func.path);
                let path: Vec<String> = path_segments(&func.path);
                match c.args.len() {
                    0 => {
                        if self.is_default_ctor(&name, &path) {
                            whole(true)
                        } else {
                            is_sentinel_name(&name).then(|| (short_text(expr), false))
                        }
                    }
                    1 if SENTINEL_WRAPPERS.contains(&name.as_str()) => {
                        let (_, empty) = self.sentinel(c.args.first()?, depth + 1)?;
                        whole(empty)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `Default::default()`, `T::default()`, `String::new()`, `Uuid::nil()`.
    fn is_default_ctor(&self, name: &str, path: &[String]) -> bool {
        // A decoder's own record starts empty (`let mut msg = Self::default()`
        // in `fn from_reader`, `let mut opts = Opts::default()` in `fn
        // parse_opts() -> Result<Opts, _>`) and is filled from the message:
        // a field the message lacks is the message's, no identity's default.
        let decoder = ["from_", "decode", "parse", "read_", "deserialize"]
            .iter()
            .any(|p| self.fn_name.starts_with(p));
        match name {
            "default" => !(decoder && path.first().is_some_and(|s| self.decodes_into(s))),
            "new" => path.len() == 2 && path[0] == "String",
            "nil" => true,
            _ => false,
        }
    }

    /// Whether `ty` is the record a decoder fills: `Self`, or the type it
    /// returns (in a `Result` or `Option`).
    fn decodes_into(&self, ty: &str) -> bool {
        if ty == "Self" {
            return true;
        }
        let syn::ReturnType::Type(_, out) = self.output else {
            return false;
        };
        let wrappers = ["Result", "Option", "Box", "Arc", "Rc"];
        crate::analysis::syntax::type_name_within(out, &wrappers).is_some_and(|n| n == ty)
    }

    /// The sentinel a lazily evaluated default yields: `|| "anon".into()`,
    /// `String::new`, `Default::default`, `Principal::anonymous`.
    fn lazy_sentinel(&self, expr: &Expr) -> Option<(String, bool)> {
        match expr {
            Expr::Closure(c) => {
                let (_, empty) = self.sentinel(&c.body, 0)?;
                Some((short_text(&c.body), empty))
            }
            Expr::Path(p) => {
                let name = last_ident(&p.path);
                let path: Vec<String> = path_segments(&p.path);
                if self.is_default_ctor(&name, &path) {
                    Some((short_text(p), true))
                } else if is_sentinel_name(&name) && name != "None" {
                    Some((short_text(p), false))
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// A function whose identity paths `return` early and whose tail is a
    /// sentinel (`.. return format!("user:{}", sub); } "anon".to_string()`)
    /// falls back to it: the tail is what callers without identity get.
    pub(super) fn note_tail_fallback(&self, block: &syn::Block, mut value: Value) -> Value {
        let Some(tail) = block_tail(block) else {
            return value;
        };
        let before = &block.stmts[..block.stmts.len() - 1];
        if !has_early_return(before) {
            return value;
        }
        if let Some(sentinel) = self.sentinel(tail, 0) {
            let origin = self.origin(tail);
            Self::add_fallback(&mut value, origin, sentinel);
        }
        value
    }

    pub(super) fn note_call(&mut self, c: &syn::ExprCall, expr: &Expr, mut value: Value) -> Value {
        if !c.args.is_empty() {
            return value;
        }
        let Expr::Path(func) = &*c.func else {
            return value;
        };
        let name = last_ident(&func.path);
        let path: Vec<String> = path_segments(&func.path);
        if self.is_default_ctor(&name, &path) {
            let origin = self.origin(expr);
            let text = origin.text.clone();
            Self::add_fallback_of(&mut value, origin, (text, true), true);
        }
        value
    }

    pub(super) fn note_if(&mut self, i: &syn::ExprIf, mut value: Value) -> Value {
        let mut tails: Vec<&Expr> = block_tail(&i.then_branch).into_iter().collect();
        if let Some((_, e)) = &i.else_branch {
            if let Expr::Block(b) = &**e {
                tails.extend(block_tail(&b.block));
            }
        }
        for tail in tails {
            if let Some(sentinel) = self.sentinel(tail, 0) {
                let origin = self.origin(tail);
                Self::add_fallback(&mut value, origin, sentinel);
            }
        }
        // `if tenant.is_empty() { return Err(..) }`: past the check the
        // value is known not to be the default.
        let then_leaves = diverges(&i.then_branch);
        let else_leaves = match &i.else_branch {
            Some((_, e)) => expr_diverges(e),
            None => false,
        };
        let mut checked = Vec::new();
        if then_leaves {
            checked.extend(self.non_default_when(&i.cond, false));
        }
        if else_leaves {
            checked.extend(self.non_default_when(&i.cond, true));
        }
        for var in checked {
            self.update(&var, |v| v.fallbacks.clear());
        }
        value
    }

    pub(super) fn note_match(&mut self, m: &syn::ExprMatch, mut value: Value) -> Value {
        // `match tenant { Tenant::Unknown => return .., Tenant::Org(id) => id }`:
        // the sentinel case leaves, so what the other arms yield is identity.
        let sentinel_leaves = m
            .arms
            .iter()
            .any(|arm| self.sentinel_pat(&arm.pat) && expr_diverges(&arm.body));
        if sentinel_leaves {
            value.fallbacks.clear();
            if let Some(var) = checked_var(&m.expr) {
                self.update(&var, |v| v.fallbacks.clear());
            }
        }
        // `match self { Principal::Guest => "guest", .. }` in the enum's own
        // method renders the variant: its default is where the receiver was
        // made that variant (a caller's `None => Principal::Guest`).
        let renders_self = crate::analysis::syntax::place_name(&m.expr).as_deref() == Some("self");
        for arm in &m.arms {
            if renders_self && self.sentinel_pat(&arm.pat) {
                continue;
            }
            if let Some(sentinel) = self.sentinel(&arm.body, 0) {
                let origin = self.origin(&*arm.body);
                Self::add_fallback(&mut value, origin, sentinel);
            }
            // `Auth::Anonymous => ("anonymous".into(), "anonymous".into())`:
            // each sentinel element defaults that element of the tuple.
            if let (Expr::Tuple(t), Some(elems)) = (&*arm.body, value.elems.as_mut()) {
                if elems.len() == t.elems.len() {
                    for (elem, expr) in elems.iter_mut().zip(&t.elems) {
                        if let Some(sentinel) = self.sentinel(expr, 0) {
                            Self::add_fallback(elem, self.origin(expr), sentinel);
                        }
                    }
                }
            }
        }
        value
    }

    /// `ensure!(!tenant.is_empty(), ..)`, `assert!(..)`: past the statement
    /// the condition holds, so a default it excludes is rejected.
    pub(super) fn note_assertion(&mut self, mac: &syn::Macro) {
        let name = last_ident(&mac.path);
        if !matches!(name.as_str(), "ensure" | "assert" | "assert_ne") {
            return;
        }
        let Some(args) = macro_args(mac) else {
            return;
        };
        let mut args = args.iter().cloned();
        let cond = match (name.as_str(), args.next(), args.next()) {
            ("assert_ne", Some(left), Some(right)) => Expr::Binary(syn::ExprBinary {
                attrs: Vec::new(),
                left: Box::new(left),
                op: syn::BinOp::Ne(Default::default()),
                right: Box::new(right),
            }),
            ("assert_ne", _, _) => return,
            (_, Some(cond), _) => cond,
            _ => return,
        };
        self.narrow(&cond, true);
    }

    /// Inside a branch of `if cond`, clears the defaults of the variables
    /// that the condition proves are not the default.
    pub(super) fn narrow(&mut self, cond: &Expr, outcome: bool) {
        for var in self.non_default_when(cond, outcome) {
            self.update(&var, |v| v.fallbacks.clear());
        }
    }

    /// The variables known not to hold a sentinel when `cond` is `outcome`:
    /// `tenant.is_empty()` false, `principal != Principal::Anonymous` true.
    fn non_default_when(&self, cond: &Expr, outcome: bool) -> Vec<String> {
        match cond {
            Expr::Paren(p) => self.non_default_when(&p.expr, outcome),
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => {
                self.non_default_when(&u.expr, !outcome)
            }
            Expr::Binary(b) => match b.op {
                syn::BinOp::Or(_) if !outcome => {
                    let mut v = self.non_default_when(&b.left, false);
                    v.extend(self.non_default_when(&b.right, false));
                    v
                }
                syn::BinOp::And(_) if outcome => {
                    let mut v = self.non_default_when(&b.left, true);
                    v.extend(self.non_default_when(&b.right, true));
                    v
                }
                syn::BinOp::Eq(_) | syn::BinOp::Ne(_) => {
                    let equal = matches!(b.op, syn::BinOp::Eq(_));
                    if equal == outcome {
                        return Vec::new();
                    }
                    let var = if self.sentinel(&b.right, 0).is_some() {
                        checked_var(&b.left)
                    } else if self.sentinel(&b.left, 0).is_some() {
                        checked_var(&b.right)
                    } else {
                        None
                    };
                    var.into_iter().collect()
                }
                _ => Vec::new(),
            },
            Expr::MethodCall(m) if m.method == "is_empty" && m.args.is_empty() && !outcome => {
                checked_var(&m.receiver).into_iter().collect()
            }
            Expr::Let(l) if !outcome => {
                if self.sentinel_pat(&l.pat) {
                    checked_var(&l.expr).into_iter().collect()
                } else {
                    Vec::new()
                }
            }
            // `if let Tenant::Org(id) = tenant`: a variant other than the
            // sentinel binds real identity (`Some`/`Ok` may still wrap a default).
            Expr::Let(l) if outcome => match &*l.pat {
                Pat::TupleStruct(ts)
                    if !matches!(last_ident(&ts.path).as_str(), "Some" | "Ok")
                        && !is_sentinel_name(&last_ident(&ts.path)) =>
                {
                    let mut names = Vec::new();
                    pat_bindings(&l.pat, &mut names);
                    names
                }
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// Whether a pattern matches only the sentinel (`Principal::Anonymous`, `""`).
    fn sentinel_pat(&self, pat: &Pat) -> bool {
        match pat {
            Pat::Path(p) => is_sentinel_name(&last_ident(&p.path)),
            Pat::Ident(pi) if pi.subpat.is_none() => {
                // A unit variant imported by name (`Anonymous =>`), never a binding.
                let name = pi.ident.to_string();
                name.chars().next().is_some_and(char::is_uppercase) && is_sentinel_name(&name)
            }
            Pat::TupleStruct(ts) => is_sentinel_name(&last_ident(&ts.path)),
            Pat::Struct(ps) => is_sentinel_name(&last_ident(&ps.path)),
            Pat::Lit(lit) => self.sentinel(&Expr::Lit(lit.clone()), 0).is_some(),
            Pat::Or(o) => o.cases.iter().all(|c| self.sentinel_pat(c)),
            _ => false,
        }
    }

    /// Defaults of the arguments of a key constructor
    /// (`idem_scope::scoped(tenant, principal, route, key)`): argument N is
    /// component N. An empty default counts too, as rules.md lists it
    /// (`unwrap_or_default()`, `Default::default()`): `idem_scope` rejecting
    /// it at run time turns every caller without identity into an error,
    /// and a constructor of the service's own may not reject it at all.
    pub(super) fn constructor_fallbacks(&self, args: &[Value], value: &mut Value) {
        for (i, arg) in args.iter().enumerate() {
            let component = match i {
                0 => Component::Tenant,
                1 => Component::Principal,
                _ => continue,
            };
            for f in &arg.fallbacks {
                let mut attached = f.clone();
                attached.component = Some(component);
                if !value.fallbacks.contains(&attached) {
                    value.fallbacks.push(attached);
                }
            }
        }
    }

    /// Arguments passed to a crate-local function whose parameter is named
    /// like a tenant or principal: pending defaults become that component's;
    /// defaults and sanitisers of other arguments are kept only when they are
    /// identity or the client key themselves.
    pub(super) fn argument_facts(
        &self,
        param_names: &[Option<String>],
        args: &[Value],
    ) -> Vec<Value> {
        args.iter()
            .enumerate()
            .map(|(i, arg)| {
                let mut arg = arg.clone();
                let param_component = param_names
                    .get(i)
                    .and_then(|n| n.as_deref())
                    .and_then(|n| self.vocab.component_of_name(n));
                let named = param_component
                    .filter(|c| matches!(c, Component::Tenant | Component::Principal));
                if let Some(component) = named {
                    arg.attach_fallbacks_to(&[component]);
                } else if param_component.is_none() {
                    arg.attach_fallbacks();
                } else {
                    // A parameter named as the route says more of what the
                    // value is than the field it was read from (a NATS
                    // `msg.subject` is no JWT subject).
                    arg.fallbacks.retain(|f| f.component.is_none());
                }
                let key_param = param_names
                    .get(i)
                    .and_then(|n| n.as_deref())
                    .is_some_and(|n| self.vocab.is_client_key_name(n));
                if named.is_none() && !key_param {
                    arg.resolve_part_facts();
                }
                arg
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::analysis::vocab::{is_sentinel_literal, is_sentinel_name};

    #[test]
    fn sentinel_names() {
        for name in [
            "Anonymous",
            "MERCHANT_ID_NOT_FOUND",
            "DEFAULT_TENANT",
            "GLOBAL",
            "default_org",
            "Guest",
            "SYSTEM_ACTOR",
            "nil",
        ] {
            assert!(is_sentinel_name(name), "{name}");
        }
        for name in ["None", "tenant_id", "Org", "ACME", "found_tenant", "User"] {
            assert!(!is_sentinel_name(name), "{name}");
        }
    }

    #[test]
    fn sentinel_literals() {
        for text in [
            "",
            " ",
            "*",
            "-",
            "ANON",
            "anonymous-user",
            "public",
            "n/a",
            "0",
        ] {
            assert!(is_sentinel_literal(text), "{text:?}");
        }
        for text in ["acme", "t_123", "charge", "user"] {
            assert!(!is_sentinel_literal(text), "{text:?}");
        }
    }
}
