//! Small syntax helpers shared by every pass over syn trees: positions,
//! source text, paths, and peeling `&`/parentheses off expressions.

use quote::ToTokens;
use std::cell::RefCell;
use std::rc::Rc;

use proc_macro2::Span as PmSpan;
use rustc_hash::FxHashMap as HashMap;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::Expr;

use crate::diagnostic::{Position, Span};

/// Converts a proc-macro2 span to 1-based lines and 1-based char columns.
pub fn span_of(span: PmSpan) -> Span {
    let start = span.start();
    let end = span.end();
    Span {
        start: Position {
            line: start.line.max(1),
            column: start.column + 1,
        },
        end: Position {
            line: end.line.max(1),
            column: end.column + 1,
        },
    }
}

/// The source text of a node on one line (whitespace runs folded).
pub fn source_line(node: &impl Spanned) -> String {
    let text = node.span().source_text().unwrap_or_default();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// [`source_line`] shortened for labels and help texts.
pub fn short_text(node: &impl Spanned) -> String {
    let text = source_line(node);
    if text.chars().count() > 80 {
        let cut: String = text.chars().take(77).collect();
        format!("{cut}...")
    } else {
        text
    }
}

/// The segments of a path (`["a", "b", "c"]` for `a::b::<T>::c`), without generics.
pub fn path_segments(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// `a::b::c` for a path, without generics.
pub fn path_string(path: &syn::Path) -> String {
    path_segments(path).join("::")
}

/// The last segment of a path (`c` in `a::b::c`).
pub fn last_ident(path: &syn::Path) -> String {
    path.segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

/// The expression under any `&` and parentheses.
pub fn strip_ref(expr: &Expr) -> &Expr {
    match expr {
        Expr::Reference(r) => strip_ref(&r.expr),
        Expr::Paren(p) => strip_ref(&p.expr),
        other => other,
    }
}

/// The array literal of two or more parts under any `&` (`&["idem", org,
/// key]`): a whole written in place, which calls glue into text.
pub fn array_of_parts(expr: &Expr) -> Option<&syn::ExprArray> {
    match strip_ref(expr) {
        Expr::Array(a) if a.elems.len() > 1 => Some(a),
        _ => None,
    }
}

/// The local variable a `&mut place` argument lends out (`&mut out`): a
/// buffer the call may write into.
pub fn lent_mut_place(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Reference(r) if r.mutability.is_some() => place_name(&r.expr),
        _ => None,
    }
}

/// The name a pattern binds, through a type ascription (`k`, `k: KeyFn`).
pub fn pat_ident(pat: &syn::Pat) -> Option<String> {
    match pat {
        syn::Pat::Ident(pi) => Some(pi.ident.to_string()),
        syn::Pat::Type(pt) => pat_ident(&pt.pat),
        _ => None,
    }
}

/// The local variable an expression names (`s`, `&mut s`, `(*s)`).
pub fn place_name(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Path(p) if p.path.segments.len() == 1 => Some(last_ident(&p.path)),
        Expr::Reference(r) => place_name(&r.expr),
        Expr::Paren(p) => place_name(&p.expr),
        Expr::Unary(u) => place_name(&u.expr),
        _ => None,
    }
}

/// The local variable a mutating method writes through (`s.push_str(..)`,
/// `slot.to_mut().push_str(..)`, `buf.lock().await.extend(..)`): a call
/// without arguments on the receiver hands out the place itself or a
/// borrow into it, so writing there writes the local.
pub fn written_place(expr: &Expr) -> Option<String> {
    match expr {
        // An error adapter hands on the borrow it adapts
        // (`url.path_segments_mut().map_err(..)?.extend(..)`).
        Expr::MethodCall(m) if m.args.is_empty() || is_error_adapter(&m.method.to_string()) => {
            written_place(&m.receiver)
        }
        Expr::Await(a) => written_place(&a.base),
        Expr::Try(t) => written_place(&t.expr),
        Expr::Paren(p) => written_place(&p.expr),
        _ => place_name(expr),
    }
}

/// The method call a statement's value comes from, by address, when the
/// statement throws the value away (`w.set_nx(&id, ttl).await?;`): the
/// call it is asked of ([`asked_call`]). Zero when it is no method call.
pub fn discarded_call(expr: &Expr) -> usize {
    asked_call(expr).map_or(0, |m| std::ptr::from_ref(m) as usize)
}

/// An access chain from the outside in: `expr`, then what each method
/// call, field access, reference, dereference or parenthesis is of
/// (`req.origin.as_reader()` → itself, `req.origin`, `req`).
pub fn access_levels(expr: &Expr) -> Vec<&Expr> {
    let mut levels = vec![expr];
    let mut level = expr;
    loop {
        level = match level {
            Expr::MethodCall(m) => &m.receiver,
            Expr::Field(f) => &f.base,
            Expr::Reference(r) => &r.expr,
            Expr::Paren(p) => &p.expr,
            Expr::Unary(u) => &u.expr,
            _ => return levels,
        };
        levels.push(level);
    }
}

/// Whether a condition binds a pattern (`let Some(x) = ..`, also in a
/// `&&` chain): its bindings live in the branch it guards.
pub fn binds_pattern(cond: &Expr) -> bool {
    match strip_parens(cond) {
        Expr::Let(_) => true,
        Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) => {
            binds_pattern(&b.left) || binds_pattern(&b.right)
        }
        _ => false,
    }
}

/// The expression inside any parentheses and invisible groups.
pub fn strip_parens(expr: &Expr) -> &Expr {
    match expr {
        Expr::Paren(p) => strip_parens(&p.expr),
        Expr::Group(g) => strip_parens(&g.expr),
        other => other,
    }
}

/// The comma-separated expressions of a function-like macro, if they parse.
///
/// Within a [`MacroArgsMemo`] each macro's body is parsed once: the
/// evaluator meets the same `format!` in every fixpoint pass, the claim
/// walk meets it again, and parsing it was a twentieth of a service's time.
pub fn macro_args(mac: &syn::Macro) -> Option<Rc<Vec<Expr>>> {
    let parse = || {
        if is_select(mac) {
            return mac
                .parse_body_with(select_as_match)
                .ok()
                .map(|m| Rc::new(vec![m]));
        }
        mac.parse_body_with(Punctuated::<Expr, syn::Token![,]>::parse_terminated)
            .ok()
            .map(|p| p.into_iter().collect::<Vec<_>>())
            .or_else(|| braced_blocks(&mac.tokens))
            .map(Rc::new)
    };
    let at = macro_key(mac);
    MACRO_ARGS.with(|memo| {
        if let Some(known) = memo.borrow().as_ref().and_then(|m| m.args.get(&at)) {
            return known.clone();
        }
        let args = parse();
        if let Some(m) = memo.borrow_mut().as_mut() {
            m.args.insert(at, args.clone());
        }
        args
    })
}

/// The braced groups of a macro body in a syntax of its own (bastion's
/// `msg! { m, v: T =!> { .. }; }`, a template's `{ expr }`) that parse as
/// blocks, in order: the Rust inside such a macro is walked too.
fn braced_blocks(tokens: &proc_macro2::TokenStream) -> Option<Vec<Expr>> {
    let blocks: Vec<Expr> = (tokens.clone().into_iter())
        .filter_map(|tree| match tree {
            proc_macro2::TokenTree::Group(g) if g.delimiter() == proc_macro2::Delimiter::Brace => {
                syn::parse2::<syn::Block>(g.to_token_stream()).ok()
            }
            _ => None,
        })
        .map(|block| {
            Expr::Block(syn::ExprBlock {
                attrs: Vec::new(),
                label: None,
                block,
            })
        })
        .collect();
    (!blocks.is_empty()).then_some(blocks)
}

/// What a call of one of the unit's own macros expands to, made by
/// `expand` once within a [`MacroArgsMemo`]. The memo keeps the expansion
/// alive, so the macros inside it are named apart from every other.
pub fn macro_expansion(
    mac: &syn::Macro,
    expand: impl FnOnce() -> Option<Expr>,
) -> Option<Rc<Expr>> {
    let at = macro_key(mac);
    MACRO_ARGS.with(|memo| {
        if let Some(known) = memo.borrow().as_ref().and_then(|m| m.expansions.get(&at)) {
            return known.clone();
        }
        let expanded = expand().map(Rc::new);
        if let Some(m) = memo.borrow_mut().as_mut() {
            m.expansions.insert(at, expanded.clone());
        }
        expanded
    })
}

/// Names a macro call while a memo lives: its address, and where its text
/// starts. The trees the memo's macros are in outlive it (see
/// `MacroArgsMemo::start`), except closures the evaluator clones into a
/// binding: a later clone may reuse a dropped one's addresses, and its
/// place in the text tells the two apart (a clone of the same closure has
/// the same macros).
fn macro_key(mac: &syn::Macro) -> MacroKey {
    let start = mac.bang_token.span.start();
    (mac as *const syn::Macro as usize, start.line, start.column)
}

/// `tokio::select!` and `futures::select!` (and their `_biased` forms).
fn is_select(mac: &syn::Macro) -> bool {
    (mac.path.segments.last()).is_some_and(|s| s.ident == "select" || s.ident == "select_biased")
}

/// A `select!` body as the `match` it behaves like: every branch's future
/// is polled (the scrutinee, a tuple of them), then one handler runs (an
/// arm each, whose pattern takes its own future's place in the tuple and
/// leaves the others `_`, with its guard; `else => ..` is a wildcard arm).
/// Walks and the evaluator then see the handlers as alternatives, a `?` or
/// `return` in one as an exit, and `frame = socket.next() => ..` binds
/// `frame` to that one future's output, not to every branch's.
fn select_as_match(input: syn::parse::ParseStream<'_>) -> syn::Result<Expr> {
    use syn::Token;
    if input.peek(syn::Ident) && input.peek2(Token![;]) {
        let word: syn::Ident = input.parse()?;
        if word != "biased" {
            return Err(syn::Error::new(word.span(), "not a select! body"));
        }
        input.parse::<Token![;]>()?;
    }
    let mut futures = Punctuated::<Expr, Token![,]>::new();
    let mut arms = Vec::new();
    while !input.is_empty() {
        let pat = if input.peek(Token![else]) {
            let else_token: Token![else] = input.parse()?;
            (None, wildcard(else_token.span))
        } else {
            let pat = syn::Pat::parse_single(input)?;
            input.parse::<Token![=]>()?;
            futures.push(Expr::parse_without_eager_brace(input)?);
            (Some(futures.len() - 1), pat)
        };
        let guard = if input.peek(Token![,]) && input.peek2(Token![if]) {
            input.parse::<Token![,]>()?;
            let if_token: Token![if] = input.parse()?;
            Some((if_token, Box::new(input.parse::<Expr>()?)))
        } else {
            None
        };
        let fat_arrow_token: Token![=>] = input.parse()?;
        let body: Expr = input.parse()?;
        let comma = if input.peek(Token![,]) {
            Some(input.parse::<Token![,]>()?)
        } else {
            None
        };
        arms.push((pat, guard, fat_arrow_token, body, comma));
    }
    let branches = futures.len();
    let arms = (arms.into_iter())
        .map(
            |((at, pat), guard, fat_arrow_token, body, comma)| syn::Arm {
                attrs: Vec::new(),
                pat: match at {
                    Some(at) => syn::Pat::Tuple(syn::PatTuple {
                        attrs: Vec::new(),
                        paren_token: Default::default(),
                        elems: (0..branches)
                            .map(|i| {
                                if i == at {
                                    pat.clone()
                                } else {
                                    wildcard(fat_arrow_token.spans[0])
                                }
                            })
                            .collect(),
                    }),
                    None => pat,
                },
                guard,
                fat_arrow_token,
                body: Box::new(body),
                comma,
            },
        )
        .collect();
    Ok(Expr::Match(syn::ExprMatch {
        attrs: Vec::new(),
        match_token: Default::default(),
        expr: Box::new(Expr::Tuple(syn::ExprTuple {
            attrs: Vec::new(),
            paren_token: Default::default(),
            elems: futures,
        })),
        brace_token: Default::default(),
        arms,
    }))
}

/// Whether `expr` is a value the expression makes itself: a chain of
/// method calls rooted in a path call (`csv::ReaderBuilder::new()
/// .has_headers(true)`), not a local, a parameter or a field.
pub fn made_by_chain(expr: &Expr) -> bool {
    match strip_parens(expr) {
        Expr::Call(c) => matches!(&*c.func, Expr::Path(_)),
        Expr::MethodCall(m) => made_by_chain(&m.receiver),
        Expr::Try(t) => made_by_chain(&t.expr),
        _ => false,
    }
}

/// The `_` pattern, at `span`.
fn wildcard(span: proc_macro2::Span) -> syn::Pat {
    syn::Pat::Wild(syn::PatWild {
        attrs: Vec::new(),
        underscore_token: syn::Token![_](span),
    })
}

/// A macro call's name in a [`MacroMemo`] ([`macro_key`]).
type MacroKey = (usize, usize, usize);

/// What a [`MacroArgsMemo`] remembers, by [`macro_key`].
#[derive(Default)]
struct MacroMemo {
    args: HashMap<MacroKey, Option<Rc<Vec<Expr>>>>,
    expansions: HashMap<MacroKey, Option<Rc<Expr>>>,
}

thread_local! {
    static MACRO_ARGS: RefCell<Option<MacroMemo>> = const { RefCell::new(None) };
}

/// While alive, [`macro_args`] remembers what each macro's body parsed to.
pub struct MacroArgsMemo {
    owner: bool,
}

impl MacroArgsMemo {
    /// Starts remembering, for as long as the syntax trees being read stay
    /// borrowed: call it where the trees are borrowed for the whole
    /// memo's life (one unit's analysis), since a dropped tree's addresses
    /// can be reused. Nested memos share the outer one.
    pub fn start() -> MacroArgsMemo {
        MACRO_ARGS.with(|memo| {
            let mut memo = memo.borrow_mut();
            let owner = memo.is_none();
            if owner {
                *memo = Some(MacroMemo::default());
            }
            MacroArgsMemo { owner }
        })
    }
}

impl Drop for MacroArgsMemo {
    fn drop(&mut self) {
        if self.owner {
            MACRO_ARGS.with(|memo| *memo.borrow_mut() = None);
        }
    }
}

/// One entry of an object-literal macro body (`doc! { "_id": key, .. }`).
pub enum ObjectValue {
    /// A value that parses as an expression.
    Expr(Box<Expr>),
    /// A nested object (`"$set": { .. }`).
    Object(Vec<(String, ObjectValue)>),
}

/// The `"name": value` entries of an object-literal macro body (mongodb's
/// `doc! { .. }` and `bson!({ .. })`), nested objects included; entries
/// whose value does not parse are left out.
pub fn object_entries(tokens: proc_macro2::TokenStream) -> Vec<(String, ObjectValue)> {
    use proc_macro2::{Delimiter, TokenTree};
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    // `bson!({ .. })`: one brace group holds the object.
    if let [TokenTree::Group(g)] = tokens.as_slice() {
        if g.delimiter() == Delimiter::Brace {
            return object_entries(g.stream());
        }
    }
    let mut entries = Vec::new();
    for entry in tokens.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')) {
        let [name, TokenTree::Punct(colon), value @ ..] = entry else {
            continue;
        };
        if colon.as_char() != ':' || colon.spacing() != proc_macro2::Spacing::Alone {
            continue;
        }
        let name = match name {
            TokenTree::Literal(l) => syn::parse_str::<syn::LitStr>(&l.to_string())
                .map(|s| s.value())
                .unwrap_or_default(),
            TokenTree::Ident(i) => i.to_string(),
            _ => continue,
        };
        let value = match value {
            [TokenTree::Group(g)] if g.delimiter() == Delimiter::Brace => {
                ObjectValue::Object(object_entries(g.stream()))
            }
            _ => match syn::parse2::<Expr>(value.iter().cloned().collect()) {
                Ok(expr) => ObjectValue::Expr(Box::new(expr)),
                Err(_) => continue,
            },
        };
        entries.push((name, value));
    }
    entries
}

/// A constant or static item.
pub struct ConstDef<'a> {
    /// File the item is in.
    pub file: u32,
    /// The initialiser.
    pub expr: &'a syn::Expr,
}

/// The name a type names behind references, parentheses and the generic
/// `wrappers` (`&Option<IdemKey>` → `IdemKey` with `Option`, `Arc<Bus>` →
/// `Bus` with `Arc`): the last path segment of the innermost type.
pub fn type_name_within(ty: &syn::Type, wrappers: &[&str]) -> Option<String> {
    let path = type_path_within(ty, wrappers)?;
    path.segments.last().map(|s| s.ident.to_string())
}

/// The one type argument of a path segment (`T` of `Vec<T>`,
/// `web::Data<T>`), if it has exactly one.
pub fn only_type_argument(segment: &syn::PathSegment) -> Option<&syn::Type> {
    let syn::PathArguments::AngleBracketed(args) = &segment.arguments else {
        return None;
    };
    let mut types = args.args.iter().filter_map(|a| match a {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    });
    match (types.next(), types.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// [`type_name_within`]'s type as its path (`http::HeaderMap` of
/// `&Arc<http::HeaderMap>`), for asking where it comes from.
pub fn type_path_within<'t>(ty: &'t syn::Type, wrappers: &[&str]) -> Option<&'t syn::Path> {
    match ty {
        syn::Type::Reference(r) => type_path_within(&r.elem, wrappers),
        syn::Type::Paren(p) => type_path_within(&p.elem, wrappers),
        syn::Type::Path(p) => {
            let last = p.path.segments.last()?;
            if !wrappers.iter().any(|w| last.ident == w) {
                return Some(&p.path);
            }
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                return None;
            };
            args.args.iter().find_map(|arg| match arg {
                syn::GenericArgument::Type(inner) => type_path_within(inner, wrappers),
                _ => None,
            })
        }
        _ => None,
    }
}

/// Wrappers that keep what the inner type is (`Option<bool>` is a flag,
/// `Cow<str>` text).
pub const TRANSPARENT_WRAPPERS: &[&str] = &["Option", "Box", "Arc", "Rc", "Cow"];

/// Whether a declared type is text or bytes, what a client key is:
/// `&str`, `String`, `Bytes`, `&[u8]`, `Vec<u8>`, and one of those in a
/// [`TRANSPARENT_WRAPPERS`] (`Option<String>`, `Cow<str>`).
pub fn is_text_type(ty: &syn::Type) -> bool {
    let is_u8 = |t: &syn::Type| matches!(t, syn::Type::Path(p) if p.path.is_ident("u8"));
    match ty {
        syn::Type::Reference(r) => is_text_type(&r.elem),
        syn::Type::Paren(p) => is_text_type(&p.elem),
        syn::Type::Slice(s) => is_u8(&s.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return false;
            };
            match last.ident.to_string().as_str() {
                "str" | "String" | "Bytes" => true,
                "Vec" => only_type_argument(last).is_some_and(is_u8),
                w if TRANSPARENT_WRAPPERS.contains(&w) => {
                    only_type_argument(last).is_some_and(is_text_type)
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// Whether a signature gives back no value a key could be in: nothing,
/// `()`, `bool`, or a `Result`/`Option` of one (`-> Result<(), Error>`).
pub fn returns_no_value(sig: &syn::Signature) -> bool {
    fn empty(ty: &syn::Type) -> bool {
        match ty {
            syn::Type::Tuple(t) => t.elems.is_empty(),
            syn::Type::Paren(p) => empty(&p.elem),
            syn::Type::Path(p) if p.qself.is_none() => {
                let Some(last) = p.path.segments.last() else {
                    return false;
                };
                match last.ident.to_string().as_str() {
                    "bool" => true,
                    "Result" | "Option" => match &last.arguments {
                        syn::PathArguments::AngleBracketed(a) => {
                            matches!(a.args.first(), Some(syn::GenericArgument::Type(t)) if empty(t))
                        }
                        _ => false,
                    },
                    _ => false,
                }
            }
            _ => false,
        }
    }
    match &sig.output {
        syn::ReturnType::Default => true,
        syn::ReturnType::Type(_, ty) => empty(ty),
    }
}

/// The method call a value is asked of, through `.await`, `?`,
/// parentheses and error adapters (`req.json().await.map_err(..)?` → `req.json()`).
pub fn asked_call(expr: &Expr) -> Option<&syn::ExprMethodCall> {
    let mut call = expr;
    loop {
        match call {
            Expr::Try(syn::ExprTry { expr, .. })
            | Expr::Await(syn::ExprAwait { base: expr, .. })
            | Expr::Paren(syn::ExprParen { expr, .. }) => call = expr,
            Expr::MethodCall(m) if is_error_adapter(&m.method.to_string()) => call = &m.receiver,
            Expr::MethodCall(m) => return Some(m),
            _ => return None,
        }
    }
}

/// Whether a method only adapts a `Result`/`Option`'s error or unwraps
/// it (`.map_err(..)`, `.context(..)`, `.ok()`, `.unwrap()`): the value it
/// hands on is its receiver's success value.
pub fn is_error_adapter(method: &str) -> bool {
    matches!(
        method,
        "map_err"
            | "ok"
            | "ok_or"
            | "ok_or_else"
            | "context"
            | "with_context"
            | "wrap_err"
            | "wrap_err_with"
            | "change_context"
            | "inspect_err"
            | "unwrap"
            | "expect"
    )
}
