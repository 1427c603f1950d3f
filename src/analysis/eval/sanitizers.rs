//! Facts for separator-sanitized (IDEM006): where a key separator is
//! stripped from a value or the value is truncated at one (`replace(':',
//! "")`, `filter(|c| c.is_alphanumeric())`, `split(':').next()`).
//!
//! The evaluator calls [`Evaluator::note_sanitiser_method`] after every
//! method call (`note_facts`); the facts travel with the [`Value`] and are
//! attached to scope components when the value becomes part of a key.

use syn::visit::Visit;
use syn::{Expr, ExprMethodCall};

use super::{Evaluator, MAX_LOOKUP};
use crate::analysis::syntax::{last_ident, place_name, short_text, span_of};
use crate::analysis::value::{Sanitized, Value};
use crate::analysis::vocab::{is_escape_replacement, KEY_SEPARATORS};

/// Finds what a character predicate strips: a separator literal it compares
/// with, or an allow-list class (`is_alphanumeric`) that strips them all.
#[derive(Default)]
struct PredicateScan<'ast> {
    found: Option<String>,
    /// Paths it compares with (`*c != RS`): a constant may hold a separator.
    paths: Vec<&'ast syn::ExprPath>,
}

impl<'ast> Visit<'ast> for PredicateScan<'ast> {
    fn visit_expr_path(&mut self, path: &'ast syn::ExprPath) {
        if path.path.segments.len() == 1 {
            self.paths.push(path);
        }
        syn::visit::visit_expr_path(self, path);
    }

    fn visit_lit(&mut self, lit: &'ast syn::Lit) {
        if self.found.is_none() {
            if let syn::Lit::Char(c) = lit {
                if KEY_SEPARATORS.contains(&c.value()) {
                    self.found = Some(short_text(c));
                }
            }
        }
    }

    fn visit_ident(&mut self, ident: &'ast proc_macro2::Ident) {
        if self.found.is_none() && is_allow_list_class(&ident.to_string()) {
            self.found = Some(ident.to_string());
        }
    }

    /// `!matches!(c, ':' | '|')`: the macro's tokens hold the literals.
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.scan_tokens(mac.tokens.clone());
    }
}

impl PredicateScan<'_> {
    fn scan_tokens(&mut self, tokens: proc_macro2::TokenStream) {
        for tree in tokens {
            match tree {
                proc_macro2::TokenTree::Group(g) => self.scan_tokens(g.stream()),
                proc_macro2::TokenTree::Literal(l) if self.found.is_none() => {
                    if let syn::Lit::Char(c) = syn::Lit::new(l) {
                        if KEY_SEPARATORS.contains(&c.value()) {
                            self.found = Some(short_text(&c));
                        }
                    }
                }
                proc_macro2::TokenTree::Ident(i)
                    if self.found.is_none() && is_allow_list_class(&i.to_string()) =>
                {
                    self.found = Some(i.to_string());
                }
                _ => {}
            }
        }
    }
}

fn is_allow_list_class(name: &str) -> bool {
    matches!(
        name,
        "is_alphanumeric" | "is_ascii_alphanumeric" | "is_alphabetic" | "is_ascii_alphabetic"
    )
}

impl Evaluator<'_> {
    /// A method call that strips or truncates at a separator marks its value
    /// (`String::retain` marks the variable it changes in place).
    pub(super) fn note_sanitiser_method(
        &mut self,
        m: &ExprMethodCall,
        expr: &Expr,
        mut value: Value,
    ) -> Value {
        let method = m.method.to_string();
        let args: Vec<&Expr> = m.args.iter().collect();
        // Truncating at a separator parses a structured text (a host's
        // `host:port`) unless the text is already a key or a component
        // there, or a parameter the caller fills.
        let truncates = matches!(method.as_str(), "next" | "last" | "next_back");
        let component =
            value.client_key.is_some() || value.tenant.is_some() || value.principal.is_some();
        if truncates && !component && value.params == 0 {
            // The whole chain parses (`path.trim_start_matches('/')
            // .split('/').next()`, a path's first segment): a trim at the
            // separator it splits at is part of that parse.
            if let Some(separator) = self.sanitiser(m, &method, &args) {
                value.sanitized.retain(|s| s.separator != separator);
            }
            return value;
        }
        // A parameter's truncation waits for what its callers pass.
        let pending = if truncates && !component {
            value.params
        } else {
            0
        };
        if let Some(separator) = self.sanitiser(m, &method, &args) {
            let mut origin = self.method_origin(m, expr);
            if let Expr::MethodCall(split) = &*m.receiver {
                if matches!(method.as_str(), "next" | "last" | "nth" | "next_back") {
                    // `split(':').next()`: the truncation starts at `split`.
                    origin.site.span.start = span_of(split.method.span()).start;
                    origin.text = format!(
                        "{}({}).{}",
                        split.method,
                        short_text(&split.args),
                        origin.text
                    );
                }
            }
            // A trim at the separator the chain then splits at is part of
            // that split (`path.trim_start_matches('/').split('/').next()`).
            if truncates {
                value
                    .sanitized
                    .retain(|s| s.truncates || s.separator != separator);
            }
            let sanitized = Sanitized {
                origin,
                separator,
                params: pending,
                truncates,
            };
            if method == "retain" {
                if let Some(var) = place_name(&m.receiver) {
                    self.update(&var, |v| {
                        if !v.sanitized.contains(&sanitized) {
                            v.sanitized.push(sanitized.clone());
                        }
                    });
                }
            } else if !value.sanitized.contains(&sanitized) && value.sanitized.len() < 8 {
                value.sanitized.push(sanitized);
            }
        }
        value
    }

    /// The separator a method call strips or truncates at, if it does.
    fn sanitiser(&self, m: &ExprMethodCall, method: &str, args: &[&Expr]) -> Option<String> {
        match method {
            "replace" | "replacen" => {
                let separator = self.separator(args.first()?, 0)?;
                let replacement = args.get(1).and_then(|a| self.string_literal(a, 0));
                // An escape keeps components apart only where the escape
                // character is escaped first: `replace('|', "%7C")` alone
                // makes `a%7Cb` and `a|b` one key.
                let escape = replacement.as_deref().filter(|r| is_escape_replacement(r));
                if escape.is_some_and(|r| self.escapes_char(&m.receiver, r.chars().next())) {
                    return None;
                }
                Some(separator)
            }
            "trim_matches" | "trim_start_matches" | "trim_end_matches" | "trim_left_matches"
            | "trim_right_matches" => self.separator(args.first()?, 0),
            "filter" => {
                let Expr::MethodCall(inner) = &*m.receiver else {
                    return None;
                };
                if !matches!(inner.method.to_string().as_str(), "chars" | "bytes") {
                    return None;
                }
                self.char_predicate(args.first()?)
            }
            "retain" => {
                // `String::retain` takes one `char`; a map's `retain(|k, v| ..)` takes two.
                let Expr::Closure(c) = args.first()? else {
                    return None;
                };
                if c.inputs.len() != 1 {
                    return None;
                }
                self.char_predicate(args.first()?)
            }
            // `split('/').nth(1)` picks a segment out of a structured text
            // (a topic, a path): parsing, not truncating a component.
            "next" | "last" | "next_back" => {
                let Expr::MethodCall(split) = &*m.receiver else {
                    return None;
                };
                let at = match split.method.to_string().as_str() {
                    "split" | "rsplit" | "split_terminator" | "split_inclusive" => 0,
                    "splitn" | "rsplitn" => 1,
                    _ => return None,
                };
                self.separator(split.args.iter().nth(at)?, 0)
            }
            _ => None,
        }
    }

    /// Whether a receiver chain replaces `escape` itself before this call
    /// (`.replace('%', "%25").replace(':', "%3A")`).
    fn escapes_char(&self, mut receiver: &Expr, escape: Option<char>) -> bool {
        let Some(escape) = escape else {
            return false;
        };
        for _ in 0..MAX_LOOKUP * 4 {
            let Expr::MethodCall(m) = receiver else {
                return false;
            };
            let method = m.method.to_string();
            if matches!(method.as_str(), "replace" | "replacen") {
                let pattern = m.args.first().and_then(|a| self.string_literal(a, 0));
                if pattern.is_some_and(|p| p == escape.to_string()) {
                    return true;
                }
            }
            receiver = &m.receiver;
        }
        false
    }

    /// A character predicate that strips separators: `|c| *c != ':'`,
    /// `|c| c.is_ascii_alphanumeric()`, `char::is_alphanumeric`.
    fn char_predicate(&self, expr: &Expr) -> Option<String> {
        match expr {
            Expr::Closure(c) => {
                let mut scan = PredicateScan::default();
                scan.visit_expr(&c.body);
                // A constant the predicate compares with (`*c != RS`).
                (scan.found).or_else(|| {
                    (scan.paths.iter()).find_map(|p| self.separator(&Expr::Path((*p).clone()), 1))
                })
            }
            Expr::Path(p) => {
                let name = last_ident(&p.path);
                is_allow_list_class(&name).then_some(name)
            }
            Expr::Reference(r) => self.char_predicate(&r.expr),
            _ => None,
        }
    }

    /// Whether a pattern argument is a key separator (`':'`, `"\x1e"`,
    /// `[':', '|']`, a constant holding one, or a predicate matching one).
    fn separator(&self, expr: &Expr, depth: usize) -> Option<String> {
        if depth > MAX_LOOKUP {
            return None;
        }
        match expr {
            Expr::Lit(l) => match &l.lit {
                syn::Lit::Char(c) => KEY_SEPARATORS.contains(&c.value()).then(|| short_text(l)),
                syn::Lit::Str(s) => {
                    let v = s.value();
                    (!v.is_empty() && v.chars().all(|c| KEY_SEPARATORS.contains(&c)))
                        .then(|| short_text(l))
                }
                _ => None,
            },
            Expr::Reference(r) => self.separator(&r.expr, depth + 1),
            Expr::Paren(p) => self.separator(&p.expr, depth + 1),
            Expr::Group(g) => self.separator(&g.expr, depth + 1),
            Expr::Index(i) => self.separator(&i.expr, depth + 1),
            Expr::Array(a) => a.elems.iter().find_map(|e| self.separator(e, depth + 1)),
            Expr::Closure(_) => self.char_predicate(expr),
            Expr::Path(p) => {
                let name = last_ident(&p.path);
                if is_allow_list_class(&name) {
                    return Some(name);
                }
                let def = self.index.consts.get(&name)?.first()?;
                self.separator(def.expr, depth + 1).map(|_| name)
            }
            _ => None,
        }
    }

    /// The text of a string or char literal argument, through constants.
    pub(super) fn string_literal(&self, expr: &Expr, depth: usize) -> Option<String> {
        if depth > MAX_LOOKUP {
            return None;
        }
        match expr {
            Expr::Lit(l) => match &l.lit {
                syn::Lit::Str(s) => Some(s.value()),
                syn::Lit::Char(c) => Some(c.value().to_string()),
                _ => None,
            },
            Expr::Reference(r) => self.string_literal(&r.expr, depth + 1),
            Expr::Paren(p) => self.string_literal(&p.expr, depth + 1),
            Expr::Path(p) => {
                let def = self.index.consts.get(&last_ident(&p.path))?.first()?;
                self.string_literal(def.expr, depth + 1)
            }
            _ => None,
        }
    }

    /// `scoped(..)` builds the key tuple: a component stripped of a
    /// separator or defaulted on its way in is built into a key there,
    /// whether or not the store the key reaches is visible (a helper that
    /// returns the `ScopedKey` to callers elsewhere). Only those facts
    /// travel: the scope and the other sinks are judged where it is stored.
    pub(super) fn components_built_into_key(&mut self, value: &Value, expr: &Expr) {
        if value.sanitized.is_empty() && value.fallbacks.is_empty() {
            return;
        }
        let Some(construct) = value.construct else {
            return;
        };
        // Its components, so that the scope reads complete here: whether it
        // is, is judged where the key is stored.
        let built = Value {
            scoped: true,
            construct: Some(construct),
            tenant: value.tenant.clone(),
            principal: value.principal.clone(),
            route: value.route.clone(),
            resource: value.resource.clone(),
            sanitized: value.sanitized.clone(),
            fallbacks: value.fallbacks.clone(),
            params: value.params,
            ..Value::default()
        };
        self.key_position(built, self.site(expr), true, true);
    }

    /// Sanitisers of the arguments of a key constructor
    /// (`idem_scope::scoped(tenant, principal, route, key)`) become the key's.
    pub(super) fn constructor_sanitizers(args: &[Value], value: &mut Value) {
        for arg in args {
            // The route too (rules.md lists it among the components): a
            // trimmed route is as sanitised as a trimmed tenant, where
            // rejecting it would fail closed.
            for s in &arg.sanitized {
                if !value.sanitized.contains(s) {
                    value.sanitized.push(s.clone());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::analysis::vocab::is_escape_replacement;

    #[test]
    fn escapes_are_not_sanitisers() {
        assert!(is_escape_replacement("%3A"));
        assert!(is_escape_replacement("\\:"));
        assert!(!is_escape_replacement(""));
        assert!(!is_escape_replacement("_"));
        assert!(!is_escape_replacement("%"));
    }
}
