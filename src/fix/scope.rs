//! The names in scope where a fix inserts its `let`: the enclosing
//! function's parameters and the `let`s of the statements before it, with
//! where each was initialised and its declared type. A suggested argument
//! must be one of these (or an expression inside the key itself): a name
//! from a helper's signature, or a literal bound to a variable elsewhere,
//! would not compile there or would change what the code says.

use syn::spanned::Spanned;
use syn::visit::Visit;

use crate::analysis::syntax::span_of;
use crate::model::{Position, Span};

/// A name bound where the fix goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The identifier.
    pub name: String,
    /// The expression it was initialised with (`let name = init;`).
    pub init: Option<Span>,
    /// The last segment of its declared type (`AuthContext` of
    /// `ctx: &AuthContext`), when written.
    pub ty: Option<String>,
}

/// What is in scope at one key expression.
#[derive(Debug, Default)]
pub struct Scope {
    /// The enclosing function (not a closure), when there is one.
    pub function: Option<Span>,
    /// Parameters, then earlier `let`s, outermost first.
    pub bindings: Vec<Binding>,
    /// Top-level `const`s and `static`s of the file (in scope anywhere in it).
    pub consts: Vec<Binding>,
}

impl Scope {
    /// The scope at `span` of `ast`, whose `i`-th item ends at `item_ends[i]`
    /// and whose top-level constants are `consts` ([`consts`]).
    pub fn at(ast: &syn::File, item_ends: &[Position], consts: &[Binding], span: Span) -> Scope {
        let mut walker = Walker {
            span,
            scope: Scope::default(),
        };
        walker.scope.consts = consts.to_vec();
        let at = item_ends.partition_point(|&end| end < span.start);
        if let Some(item) = ast.items.get(at) {
            walker.visit_item(item);
        }
        walker.scope
    }

    /// The binding (or const) initialised with the expression at `init`.
    pub fn bound_to(&self, init: Span) -> Option<&Binding> {
        (self.bindings.iter().rev())
            .chain(&self.consts)
            .find(|b| b.init == Some(init))
    }

    /// The latest binding whose initialiser holds `site`.
    pub fn initialised_around(&self, site: Span) -> Option<&Binding> {
        self.bindings.iter().rev().find(|b| {
            b.init
                .is_some_and(|i| i.start <= site.start && site.end <= i.end)
        })
    }

    /// The innermost binding called `name`.
    pub fn named(&self, name: &str) -> Option<&Binding> {
        self.bindings.iter().rev().find(|b| b.name == name)
    }

    /// Whether `site` lies in the enclosing function.
    pub fn in_function(&self, site: Span) -> bool {
        self.function
            .is_some_and(|f| f.start <= site.start && site.end <= f.end)
    }
}

/// The top-level `const`s and `static`s of `ast`, in scope anywhere in it.
pub fn consts(ast: &syn::File) -> Vec<Binding> {
    ast.items.iter().filter_map(const_binding).collect()
}

fn const_binding(item: &syn::Item) -> Option<Binding> {
    let (ident, expr) = match item {
        syn::Item::Const(c) => (&c.ident, &c.expr),
        syn::Item::Static(s) => (&s.ident, &s.expr),
        _ => return None,
    };
    Some(Binding {
        name: ident.to_string(),
        init: Some(span_of(expr.span())),
        ty: None,
    })
}

struct Walker {
    span: Span,
    scope: Scope,
}

impl Walker {
    fn contains(&self, node: &impl Spanned) -> bool {
        let outer = span_of(node.span());
        outer.start <= self.span.start && self.span.end <= outer.end
    }

    /// Enters the function `sig { block }` when it holds the key. Its span
    /// runs from `fn` to the closing brace (a key is never in an attribute):
    /// two token spans, where the node's span would print it whole.
    fn enter_function<'a>(
        &mut self,
        sig: &syn::Signature,
        block: &syn::Block,
        receiver_ty: Option<String>,
        inputs: impl Iterator<Item = &'a syn::FnArg>,
    ) -> bool {
        let function = Span {
            start: span_of(sig.fn_token.span).start,
            end: span_of(block.brace_token.span.close()).end,
        };
        if !(function.start <= self.span.start && self.span.end <= function.end) {
            return false;
        }
        self.scope.function = Some(function);
        self.scope.bindings.clear();
        for input in inputs {
            match input {
                syn::FnArg::Receiver(_) => self.scope.bindings.push(Binding {
                    name: "self".to_string(),
                    init: None,
                    ty: receiver_ty.clone(),
                }),
                syn::FnArg::Typed(typed) => {
                    bind_pattern(&typed.pat, None, type_name(&typed.ty), &mut self.scope)
                }
            }
        }
        true
    }
}

/// The last path segment of a type, through references (`&AuthContext`).
fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Reference(r) => type_name(&r.elem),
        syn::Type::Paren(p) => type_name(&p.elem),
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// Adds the identifiers `pat` binds; a lone identifier gets `init` and `ty`.
fn bind_pattern(pat: &syn::Pat, init: Option<Span>, ty: Option<String>, scope: &mut Scope) {
    match pat {
        syn::Pat::Ident(p) => scope.bindings.push(Binding {
            name: p.ident.to_string(),
            init,
            ty,
        }),
        syn::Pat::Type(t) => bind_pattern(&t.pat, init, type_name(&t.ty), scope),
        other => {
            // Destructuring (`State(state)`, `(a, b)`): the names, without
            // initialisers or types.
            struct Idents<'s>(&'s mut Scope);
            impl<'ast> Visit<'ast> for Idents<'_> {
                fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
                    self.0.bindings.push(Binding {
                        name: p.ident.to_string(),
                        init: None,
                        ty: None,
                    });
                }
            }
            Idents(scope).visit_pat(other);
        }
    }
}

impl<'ast> Visit<'ast> for Walker {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if self.enter_function(&f.sig, &f.block, None, f.sig.inputs.iter()) {
            self.visit_block(&f.block);
        }
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let self_ty = type_name(&i.self_ty);
        for item in &i.items {
            if let syn::ImplItem::Fn(f) = item {
                if self.enter_function(&f.sig, &f.block, self_ty.clone(), f.sig.inputs.iter()) {
                    self.visit_block(&f.block);
                }
            }
        }
    }

    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        if self.contains(c) {
            for input in &c.inputs {
                bind_pattern(input, None, None, &mut self.scope);
            }
            syn::visit::visit_expr_closure(self, c);
        }
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        let Some(at) = block.stmts.iter().position(|s| self.contains(s)) else {
            return;
        };
        for stmt in &block.stmts[..at] {
            if let syn::Stmt::Local(local) = stmt {
                let init = local.init.as_ref().map(|i| span_of(i.expr.span()));
                bind_pattern(&local.pat, init, None, &mut self.scope);
            }
        }
        self.visit_stmt(&block.stmts[at]);
    }

    fn visit_expr(&mut self, expr: &'ast syn::Expr) {
        if self.contains(expr) {
            syn::visit::visit_expr(self, expr);
        }
    }
}

/// Named fields of every struct in `files`, by struct name: `ctx.tenant_id`
/// is in scope when `ctx: AuthContext` is and `AuthContext` has the field.
pub fn struct_fields<'a>(
    files: impl IntoIterator<Item = &'a syn::File>,
) -> std::collections::HashMap<String, Vec<String>> {
    struct Structs(std::collections::HashMap<String, Vec<String>>);
    impl<'ast> Visit<'ast> for Structs {
        fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
            let fields = s
                .fields
                .iter()
                .filter_map(|f| f.ident.as_ref().map(ToString::to_string))
                .collect();
            self.0.insert(s.ident.to_string(), fields);
        }
        // Bodies hold no struct a parameter's type could name from outside.
        fn visit_item_fn(&mut self, _: &'ast syn::ItemFn) {}
        fn visit_impl_item_fn(&mut self, _: &'ast syn::ImplItemFn) {}
    }
    let mut structs = Structs(std::collections::HashMap::new());
    for file in files {
        structs.visit_file(file);
    }
    structs.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope_at(text: &str, line: usize, column: usize) -> Scope {
        let ast = syn::parse_file(text).expect("parses");
        let ends: Vec<Position> = ast.items.iter().map(|i| span_of(i.span()).end).collect();
        let at = Position { line, column };
        Scope::at(&ast, &ends, &consts(&ast), Span { start: at, end: at })
    }

    #[test]
    fn parameters_and_earlier_lets_are_in_scope_later_ones_are_not() {
        let text = "const R: &str = \"x\";\nfn f(ctx: &Auth, State(s): State<A>) {\n    let route = \"pay\";\n    use_it(route);\n    let later = 1;\n}\n";
        let scope = scope_at(text, 4, 12);
        let names: Vec<(&str, Option<&str>)> = scope
            .bindings
            .iter()
            .map(|b| (b.name.as_str(), b.ty.as_deref()))
            .collect();
        assert_eq!(names, [("ctx", Some("Auth")), ("s", None), ("route", None)]);
        let route_init = scope.bindings[2].init.expect("init");
        assert_eq!(
            route_init.start,
            Position {
                line: 3,
                column: 17
            }
        );
        assert_eq!(scope.consts[0].name, "R");
        assert!(scope.in_function(Span {
            start: Position { line: 3, column: 1 },
            end: Position { line: 3, column: 2 },
        }));
    }

    #[test]
    fn struct_fields_are_found_by_type_name() {
        let ast =
            syn::parse_file("pub struct AuthContext { pub tenant_id: String, user_id: String }")
                .expect("parses");
        let fields = struct_fields([&ast]);
        assert_eq!(fields["AuthContext"], ["tenant_id", "user_id"]);
    }
}
