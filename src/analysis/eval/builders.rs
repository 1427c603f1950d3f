//! What a crate method called on a value hands on from that value, which
//! its summary cannot say (`self` is no parameter of it): a consuming
//! method of the crate's own builders (`fn principal(mut self, v) -> Self`,
//! `fn build(self) -> Slot`) hands on what the builder was built from and
//! what it is given (rules.md, "Evidence and confidence": builder chains
//! are a step), and a builder's own `.key(k)` setter is its method, not an
//! accessor; a method asked of a scope component (`principal.id()`)
//! answers with that component and where it was defaulted.

use quote::ToTokens;
use syn::visit::Visit;

use super::sinks::field_of_self;
use super::{Evaluator, MethodCall};
use crate::analysis::index::{FnDef, TextBuilders};
use crate::analysis::syntax::span_of;
use crate::analysis::value::Value;
use crate::analysis::value::{Construct, ConstructKind, Site};
use crate::analysis::vocab::{Component, SETTER_ACCESSORS};
use crate::diagnostic::Span;
use syn::spanned::Spanned;
use syn::Expr;

impl Evaluator<'_> {
    /// A setter named like an accessor (`.key(k)`) on a chain of one of
    /// the crate's own types that defines it (`SlotBuilder::default()
    /// ..key(k)`): the crate's method, which writes the field its `build`
    /// reads, not the transparent accessor of another crate's type.
    pub(super) fn own_setter(&self, call: &MethodCall<'_>) -> bool {
        SETTER_ACCESSORS.contains(&call.method.as_str())
            && !call.args.is_empty()
            && self
                .chain_type(&call.m.receiver)
                .is_some_and(|ty| !self.index.methods_of(&call.method, &ty).is_empty())
    }

    /// The crate type a method chain's value has, where the chain starts
    /// from it: `Type::f(..)` or `Type { .. }`, then only methods of that
    /// type that give it back (`-> Self`), through `?`. The pre-filter
    /// links the same chains by tokens (`prefilter::scan`, `chain_root`);
    /// a turbofish or generic arguments end both.
    pub(super) fn chain_type(&self, expr: &Expr) -> Option<String> {
        let named = |segment: &syn::PathSegment| {
            let ty = segment.ident.to_string();
            let local = segment.arguments.is_none()
                && ty.starts_with(|c: char| c.is_ascii_uppercase())
                && self.index.types.contains_key(&ty);
            local.then_some(ty)
        };
        match expr {
            Expr::Call(c) => {
                let Expr::Path(p) = &*c.func else {
                    return None;
                };
                let segments = &p.path.segments;
                let function = segments.last()?;
                if !function.arguments.is_none() {
                    return None;
                }
                named(segments.iter().nth_back(1)?)
            }
            Expr::Struct(s) => named(s.path.segments.last()?),
            Expr::MethodCall(m) if m.turbofish.is_none() => {
                let ty = self.chain_type(&m.receiver)?;
                let method = m.method.to_string();
                // An error adapter of a setter's `Result<Self, E>` keeps it
                // (`.principal(u).map_err(..)?.route(..)`, `.org(o).ok()?`).
                let adapts = crate::analysis::syntax::is_error_adapter(&method);
                (adapts || self.index.returns_own_type(&method, &ty)).then_some(ty)
            }
            Expr::Try(t) => self.chain_type(&t.expr),
            _ => None,
        }
    }

    /// `value`, the result of the crate-local methods `ids` called on a
    /// receiver holding `recv`, with what a consuming method hands on.
    pub(super) fn consumed_receiver(
        &mut self,
        call: &MethodCall<'_>,
        ids: &[usize],
        on_self: bool,
        recv: Value,
        mut value: Value,
    ) -> Value {
        // Only a builder's: a record's own consuming method (a recovery
        // context's `with_post_cas_context(mut self, ..)`) does not build
        // a key from what it is given, and handing the record's whole
        // provenance on spread a session's defaults into stored records.
        // A builder by its name, or by what its methods do: one of them
        // appends what it is given to a field of `self` (`write!(self.buf,
        // "{}", attempt)` of a `RefundSlot`).
        let consumes = |id: &usize| {
            let def = &self.index.fns[*id];
            let builder = (def.self_ty.as_deref())
                .is_some_and(|t| t.ends_with("Builder") || self.text_builders().types.contains(t));
            builder && consumes_self(def)
        };
        if on_self || ids.is_empty() {
            return value;
        }
        if !ids.iter().all(consumes) {
            // `principal.id()`, `tenant.as_str()`: a crate method asked of
            // a scope component, given nothing else, answers with that
            // component (its summary cannot say so: `self` is no parameter).
            if call.args.is_empty() && !value.has_component() && value.client_key.is_none() {
                // One of the answers, not the literal a sentinel arm gives.
                if recv.has_component() && recv.literal.is_none() {
                    value.literal = None;
                }
                for component in Component::ALL {
                    if let Some(origin) = recv.component(component) {
                        value.add_component(component, origin.clone());
                    }
                }
                // Where the receiver was defaulted (`None => Principal::Guest`),
                // the method's sentinel arm (`Guest => "guest"`) only renders
                // that default.
                if !recv.fallbacks.is_empty() {
                    value.fallbacks.clone_from(&recv.fallbacks);
                    value.attach_fallbacks();
                }
            }
            return value;
        }
        // The defaults a constructor starts the value with
        // (`SlotBuilder::new()` with empty fields) are what its setters
        // overwrite; what the setters are given stays.
        let mut recv = recv;
        if matches!(&*call.m.receiver, Expr::Call(_)) {
            recv.fallbacks.clear();
        }
        // A builder's `scoped(..)` given a server id is changed where the
        // chain that gives it is built (see `server_keys::substitute_server_facts`).
        let scoped_inside = value.scoped && value.construct.is_some() && value.server_id.is_none();
        if scoped_inside && recv.server_id.is_some() && value.server_concat.is_none() {
            value.server_concat = Some(self.site(call.expr));
        }
        self.payload_hash_built_in(call, &recv, &value);
        value.join_as_part(&recv);
        // The client key appended to the builder's text is concatenated
        // where the method appends it (rules.md, IDEM001's span).
        for &id in ids {
            let appended = self.text_builders().appends.get(&id).into_iter().flatten();
            for &(p, span) in appended {
                if call.args.get(p).is_some_and(|a| a.client_key.is_some()) {
                    let site = Site {
                        file: self.index.fns[id].file,
                        span,
                    };
                    value.construct = Some(Construct {
                        kind: ConstructKind::Concat,
                        site,
                    });
                    value.concat = Some(site);
                }
            }
        }
        // A setter named for a component (`.tenant(hdr(..).unwrap_or(""))`)
        // says what its argument is, as a parameter's name would: a default
        // given it is that component's.
        let component = self.vocab.component_of_name(&call.method);
        let key_setter = KEY_SETTERS.contains(&call.method.as_str())
            || self.vocab.is_client_key_name(&call.method);
        for arg in &call.args {
            let mut arg = arg.clone();
            if let Some(component) = component {
                arg.attach_fallbacks_to(&[component]);
            }
            // The request's hash given as the builder's key: keyed here,
            // if the builder builds a scoped key of it.
            if key_setter && arg.payload_hash.is_some() && arg.client_key.is_none() {
                arg.hash_keyed.get_or_insert(self.site(call.expr));
            }
            value.join_as_part(&arg);
        }
        value
    }

    /// A builder whose key setter was given the request payload's hash
    /// (`.key(hex::encode(Sha256::digest(&raw)))`), consumed by a method
    /// that builds a scoped key (`.build()` calling `scoped(..)`): the
    /// hash is that key's key, as `scoped(.., &digest)` makes it
    /// (`payload_hash::hash_as_key_argument`).
    fn payload_hash_built_in(&mut self, call: &MethodCall<'_>, recv: &Value, built: &Value) {
        let keyed = recv.payload_hash.is_some() && recv.hash_keyed.is_some();
        if !(keyed && built.scoped && built.construct.is_some())
            || recv.client_key.is_some()
            || recv.client_ns
            || recv.server_ns
        {
            return;
        }
        let site = self.site(call.expr);
        self.payload_hash_keyed(recv, site);
    }
}

/// Setters of a builder's key slot, besides the client key's own names.
const KEY_SETTERS: &[&str] = &["key", "idem_key", "request_key"];

impl Evaluator<'_> {
    pub(super) fn text_builders(&self) -> &TextBuilders {
        (self.index.text_builders).get_or_init(|| {
            let mut found = TextBuilders::default();
            for (id, def) in self.index.fns.iter().enumerate() {
                let appends = if consumes_self(def) {
                    appended_params(def)
                } else {
                    Vec::new()
                };
                if let (false, Some(ty)) = (appends.is_empty(), &def.self_ty) {
                    found.types.insert(ty.clone());
                    found.appends.insert(id, appends);
                }
                if let (Some(ty), Some((fields, span))) = (&def.self_ty, rendered_fields(def)) {
                    let site = Site {
                        file: def.file,
                        span,
                    };
                    found.renders.insert(ty.clone(), (fields, site));
                }
            }
            found
        })
    }
}

/// Whether a method takes its receiver by value (`mut self`).
fn consumes_self(def: &FnDef<'_>) -> bool {
    def.sig.receiver().is_some_and(|r| r.reference.is_none())
}

/// The parameters a method appends to a field of `self`, and where:
/// `write!(self.buf, "{}", p)`, `self.buf.push_str(p)`, `self.buf += p`.
fn appended_params(def: &FnDef<'_>) -> Vec<(usize, Span)> {
    struct Appends<'p> {
        params: &'p [Option<String>],
        found: Vec<(usize, Span)>,
    }
    impl Appends<'_> {
        fn note(&mut self, tokens: proc_macro2::TokenStream, at: proc_macro2::Span) {
            for (p, name) in self.params.iter().enumerate() {
                if name.as_deref().is_some_and(|n| mentions(&tokens, n)) {
                    self.found.push((p, span_of(at)));
                }
            }
        }
    }
    // A format string's inline capture (`write!(self.buf, "/{k}")`) names it too.
    fn mentions(tokens: &proc_macro2::TokenStream, name: &str) -> bool {
        tokens.clone().into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => i == name,
            proc_macro2::TokenTree::Group(g) => mentions(&g.stream(), name),
            proc_macro2::TokenTree::Literal(l) => match syn::parse_str::<syn::LitStr>(&l.to_string()) {
                Ok(lit) => (crate::analysis::format_string::parse(&lit.value()).args.iter())
                    .any(|a| matches!(a, crate::analysis::format_string::FormatArg::Named(n) if n == name)),
                Err(_) => false,
            },
            _ => false,
        })
    }
    impl<'ast> Visit<'ast> for Appends<'_> {
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            let name = m.path.segments.last().map(|s| s.ident.to_string());
            if matches!(name.as_deref(), Some("write" | "writeln")) {
                let mut tokens = m.tokens.clone().into_iter();
                let target = tokens.next();
                let on_self =
                    matches!(&target, Some(proc_macro2::TokenTree::Ident(i)) if i == "self");
                if on_self {
                    self.note(tokens.collect(), m.span());
                }
            }
        }
        fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
            let appends = crate::analysis::vocab::BUFFER_APPEND_METHODS
                .contains(&m.method.to_string().as_str());
            if appends && field_of_self(&m.receiver).is_some() {
                self.note(m.args.to_token_stream(), m.span());
            }
            syn::visit::visit_expr_method_call(self, m);
        }
        fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
            if matches!(b.op, syn::BinOp::AddAssign(_)) && field_of_self(&b.left).is_some() {
                self.note(b.right.to_token_stream(), b.span());
            }
            syn::visit::visit_expr_binary(self, b);
        }
    }
    // Argument positions: the receiver is no argument.
    let params: Vec<Option<String>> = (def.sig.inputs.iter())
        .filter_map(|input| match input {
            syn::FnArg::Typed(t) => Some(crate::analysis::syntax::pat_ident(&t.pat)),
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    if params.is_empty() {
        return Vec::new();
    }
    let mut visitor = Appends {
        params: &params,
        found: Vec::new(),
    };
    visitor.visit_block(def.block);
    visitor.found
}

/// A `Display` impl's `fmt` that writes fields of `self` as one text
/// (`write!(f, "{}|{}", self.tenant, self.key)`): the fields it writes and
/// where. One field alone is a newtype's rendering, not a concatenation.
fn rendered_fields(def: &FnDef<'_>) -> Option<(Vec<String>, Span)> {
    if def.name != "fmt" || def.trait_of.as_deref() != Some("Display") {
        return None;
    }
    #[derive(Default)]
    struct Writes {
        fields: Vec<String>,
        at: Option<Span>,
    }
    fn self_fields(tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
        let tokens: Vec<_> = tokens.into_iter().collect();
        for (i, t) in tokens.iter().enumerate() {
            match (t, tokens.get(i + 1), tokens.get(i + 2)) {
                (
                    proc_macro2::TokenTree::Ident(s),
                    Some(proc_macro2::TokenTree::Punct(dot)),
                    Some(proc_macro2::TokenTree::Ident(field)),
                ) if s == "self" && dot.as_char() == '.' => {
                    let field = field.to_string();
                    if !out.contains(&field) {
                        out.push(field);
                    }
                }
                (proc_macro2::TokenTree::Group(g), ..) => self_fields(g.stream(), out),
                _ => {}
            }
        }
    }
    impl<'ast> Visit<'ast> for Writes {
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            let name = m.path.segments.last().map(|s| s.ident.to_string());
            if matches!(name.as_deref(), Some("write" | "writeln")) {
                let before = self.fields.len();
                self_fields(m.tokens.clone(), &mut self.fields);
                if self.fields.len() > before && self.at.is_none() {
                    self.at = Some(span_of(m.span()));
                }
            }
        }
    }
    let mut writes = Writes::default();
    writes.visit_block(def.block);
    (writes.fields.len() >= 2).then_some(())?;
    Some((writes.fields, writes.at?))
}

/// A record rendered as text by its `Display` impl (`.to_string()`):
/// concatenated where that impl writes it.
pub(super) fn render(value: &mut Value) {
    if let Some(site) = value.rendered.take() {
        value.fields = None;
        value.construct = Some(Construct {
            kind: ConstructKind::Concat,
            site,
        });
        value.concat = Some(site);
    }
}
