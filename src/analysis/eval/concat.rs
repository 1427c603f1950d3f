//! String building, for IDEM001 (and every rule that needs to know where a
//! key was put together): `+`, `format!`, `write!`, `push_str`, `push`,
//! `join`. A concatenation that takes in a client key records where it did
//! (`Value::concat`), and the result is a constructed key when it carries
//! key material.

use std::ops::ControlFlow;

use syn::spanned::Spanned;
use syn::Expr;

use super::{Evaluator, MethodCall};
use crate::analysis::format_string::{self, FormatArg};
use crate::analysis::syntax::{last_ident, place_name, written_place};
use crate::analysis::value::{Construct, ConstructKind, Site, Value};

impl Evaluator<'_> {
    pub(super) fn eval_binary(&mut self, b: &syn::ExprBinary, expr: &Expr) -> Value {
        let left = self.eval(&b.left);
        let right = self.eval(&b.right);
        match b.op {
            syn::BinOp::Add(_) => self.concat_value(&[left, right], expr),
            syn::BinOp::AddAssign(_) => {
                // An append, as `push_str` is: where the buffer already
                // holds the client key, the append that brought it is the
                // concatenation (`slot += part` over `[org, user, op, key]`,
                // not the `slot += SEP` after it).
                let brought = left.client_key.is_some().then_some(left.concat).flatten();
                let mut joined = self.concat_value(&[left, right], expr);
                if brought.is_some() {
                    joined.concat = brought;
                }
                self.assign_to(&b.left, joined);
                Value::empty()
            }
            _ => Value::empty(),
        }
    }

    /// The value of an ad-hoc concatenation of `parts` at `node`.
    pub(super) fn concat_value(&self, parts: &[Value], node: &impl Spanned) -> Value {
        let site = self.site(node);
        self.concat_value_at(parts, site)
    }

    fn concat_value_at(&self, parts: &[Value], site: Site) -> Value {
        let mut value = Value::derived(parts.iter());
        value.scoped = false;
        value.concat = None;
        value.concat_params.clear();
        value.mark_concat(&parts.iter().collect::<Vec<_>>(), site);
        if value.is_key_material() {
            value.construct = Some(Construct {
                kind: ConstructKind::Concat,
                site,
            });
        }
        value
    }

    pub(super) fn eval_format(&mut self, args: &[Expr], site: Site) -> Value {
        let Some((fmt_expr, rest)) = args.split_first() else {
            return Value::empty();
        };
        let Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(fmt_lit),
            ..
        }) = fmt_expr
        else {
            let parts: Vec<Value> = args.iter().map(|a| self.eval(a)).collect();
            return self.concat_value_at(&parts, site);
        };
        let fmt = fmt_lit.value();
        let server_prefix = self.vocab.has_server_namespace_prefix(&fmt);
        let mut positional = Vec::new();
        let mut named: Vec<(String, Value)> = Vec::new();
        for arg in rest {
            match arg {
                Expr::Assign(a) => {
                    let name = match &*a.left {
                        Expr::Path(p) => last_ident(&p.path),
                        _ => String::new(),
                    };
                    let mut v = self.eval(&a.right);
                    self.enrich_by_name(&mut v, &name, &*a.left);
                    self.literal_route(&mut v, &a.right);
                    named.push((name, v));
                }
                other => {
                    let mut v = self.eval(other);
                    self.literal_route(&mut v, other);
                    positional.push(v)
                }
            }
        }
        let parsed = format_string::parse(&fmt);
        let mut parts = Vec::new();
        let mut next = 0usize;
        for arg in &parsed.args {
            match arg {
                FormatArg::Next => {
                    if let Some(v) = positional.get(next) {
                        parts.push(v.clone());
                    }
                    next += 1;
                }
                FormatArg::Index(i) => {
                    if let Some(v) = positional.get(*i) {
                        parts.push(v.clone());
                    }
                }
                FormatArg::Named(name) => {
                    if let Some((_, v)) = named.iter().find(|(n, _)| n == name) {
                        parts.push(v.clone());
                    } else {
                        // Inline capture: `{tenant}`.
                        let mut v = self.lookup(name).cloned().unwrap_or_default();
                        if self.lookup(name).is_none() {
                            self.enrich_by_name(&mut v, name, fmt_lit);
                        }
                        parts.push(v);
                    }
                }
            }
        }
        for piece in &parsed.literals {
            if self.vocab.literal_names_route(piece) {
                parts.push(Value {
                    route: Some(self.origin(fmt_lit)),
                    ..Value::default()
                });
                break;
            }
        }
        let mut value = self.concat_value_at(&parts, site);
        if parsed.literals.iter().all(|l| l.is_empty()) {
            // `format!("{:x}", digest)` encodes one value: a hash stays
            // the hash it was, it is not built into a key here; nor is
            // a server id (`format!("{id:?}")`). So do the halves of one
            // hash side by side (`format!("{hi:016x}{lo:016x}")`).
            // Also a digest of a parameter, a payload hash once a caller
            // passes one (`fn of(sub: &Claim)` formatting its two halves).
            let hash_of = |p: &Value| {
                (p.payload_hash.as_ref().map(|h| h.hash.site))
                    .or_else(|| p.digest.as_ref().map(|d| d.site))
            };
            let one_hash = parts.len() > 1
                && parts
                    .iter()
                    .all(|p| hash_of(p).is_some() && hash_of(p) == hash_of(&parts[0]));
            if let ([only], _) | ([only, ..], true) = (parts.as_slice(), one_hash) {
                value.hash_keyed = only.hash_keyed;
                value.server_concat = only.server_concat;
                // Nor is a parameter it encodes (`bytes.iter().map(|b|
                // format!("{b:02x}"))` in a `hex` helper): the key is
                // built where the caller puts the result.
                value.concat_params.clone_from(&only.concat_params);
            }
        }
        value.server_ns |= server_prefix;
        value.prefix = literal_prefix(&fmt, positional.first()).map(Box::new);
        value
    }

    /// `write!(dst, "..", ..)`: the destination variable grows by the
    /// formatted text.
    pub(super) fn eval_write(&mut self, args: &[Expr], site: Site) -> Value {
        let Some((dst, rest)) = args.split_first() else {
            return Value::empty();
        };
        let v = self.eval_format(rest, site);
        // `for b in digest { write!(s, "{b:02x}") }`: one value encoded
        // piece by piece into a buffer holding nothing else is that value
        // encoded (a `to_hex` helper), not a key built here.
        let encodes = matches!(rest, [Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(f), .. }), ..]
            if rest.len() <= 2 && is_one_placeholder(&f.value()));
        if let Some(var) = place_name(dst).or_else(|| self.written_self_field(dst)) {
            self.update(&var, |d| {
                let had_key = d.client_key.is_some();
                let only_this = encodes && holds_only_facts_of(d, &v);
                d.join_as_part(&v);
                if only_this {
                    return;
                }
                d.mark_concat(&[&v], site);
                if had_key && d.concat.is_none() {
                    d.concat = Some(site);
                }
                if d.is_key_material() {
                    d.construct = Some(Construct {
                        kind: ConstructKind::Concat,
                        site,
                    });
                }
            });
        }
        Value::empty()
    }

    /// `write!(self.buf, ..)` in a method: the field is read back in the
    /// same method (`self.buf` returned by a builder's consuming method),
    /// so it is a binding of the function's own, [`SELF_FIELD`] and its
    /// name, for the rest of the call.
    fn written_self_field(&mut self, dst: &Expr) -> Option<String> {
        let name = self_field_name(dst)?;
        if self.lookup(&name).is_none() {
            self.env.declare_outermost(name.clone(), Value::empty());
        }
        Some(name)
    }

    /// String building on a variable: `s.push_str(&key)`, `parts.push(key)`,
    /// `parts.join(":")`.
    pub(super) fn string_building(
        &mut self,
        call: &MethodCall<'_>,
        recv: Value,
    ) -> ControlFlow<Value, Value> {
        let (m, args) = (call.m, &call.args);
        match call.method.as_str() {
            // `self.parts.push(part)`: a part written into a record's field,
            // read where the field is (a builder's `build` joins it).
            "push" | "push_str" | "extend_from_slice" if args.len() == 1 => {
                if let Expr::Field(f) = &*m.receiver {
                    if let syn::Member::Named(field) = &f.member {
                        let elements = format!("{field}{}", super::record_fields::ELEMENTS);
                        self.note_place_write(&f.base, &elements, &args[0]);
                        return ControlFlow::Break(Value::empty());
                    }
                }
                self.buffer_building(call, recv)
            }
            _ => self.buffer_building(call, recv),
        }
    }

    fn buffer_building(&mut self, call: &MethodCall<'_>, recv: Value) -> ControlFlow<Value, Value> {
        let (m, args) = (call.m, &call.args);
        match call.method.as_str() {
            // `bytes::BufMut::put_slice`/`put` and `io::Write::write_all` append bytes.
            // One argument (`insert_str` also takes the index): a store's
            // `put(key, value)` is no buffer.
            "push_str" | "extend_from_slice" | "extend" | "insert_str" | "write_str" | "append"
            | "put_slice" | "put" | "write_all"
                if args.len() == 1 || (call.method == "insert_str" && args.len() == 2) =>
            {
                if let (Some(arg), Some(var)) = (args.last(), written_place(&m.receiver)) {
                    let site = self.site(call.expr);
                    self.update(&var, |v| {
                        let before = v.clone();
                        v.join_as_part(arg);
                        v.mark_concat(&[arg], site);
                        // A digest written into a buffer that held nothing
                        // (`fold(String::new(), |mut s, b| { s.push_str(
                        // &format!("{b:02x}")); s })`) is that digest
                        // re-encoded, not yet keyed with anything.
                        if super::payload_hash::carries_nothing(&before) && before.digest.is_none()
                        {
                            v.hash_keyed = before.hash_keyed;
                        }
                        if before.client_key.is_some() && v.concat.is_none() {
                            v.concat = Some(site);
                        }
                        if v.is_key_material() {
                            v.construct = Some(Construct {
                                kind: ConstructKind::Concat,
                                site,
                            });
                        }
                        v.scoped = false;
                    });
                    self.note_param_absorb(&var, arg);
                }
                ControlFlow::Break(Value::empty())
            }
            "push" => {
                if let (Some(arg), Some(var)) = (args.first(), written_place(&m.receiver)) {
                    let arg = arg.clone();
                    self.update(&var, |v| {
                        v.join_as_part(&arg);
                        if let Some(elems) = v.elems.as_mut() {
                            elems.push(arg.clone());
                        }
                    });
                }
                ControlFlow::Break(Value::empty())
            }
            // `[org, SEP, user, SEP, key].into_iter().collect::<String>()`:
            // the parts glued, as `concat()` glues them.
            "collect" if args.is_empty() && collects_text(call.m.turbofish.as_ref()) => {
                ControlFlow::Break(self.collected_text(recv, call.expr))
            }
            "join" | "concat" if args.len() <= 1 => {
                // The pieces of one value glued back (`bytes.iter().map(|b|
                // format!("{b:02x}")).collect::<Vec<_>>().join("")` in a
                // `to_hex` helper) are that value encoded, not a key built
                // here, as a format of one placeholder is.
                let glued = args
                    .first()
                    .is_none_or(|s| s.literal.as_deref() == Some(""));
                if glued && recv.elems.is_none() && encodes_one_value(&recv) {
                    return ControlFlow::Break(recv);
                }
                let prefix = joined_prefix(&recv, args.first());
                let mut parts = vec![recv];
                parts.extend(args.iter().cloned());
                let mut value = self.concat_value(&parts, call.expr);
                if value.prefix.is_none() {
                    value.prefix = prefix.map(Box::new);
                }
                ControlFlow::Break(value)
            }
            _ => ControlFlow::Continue(recv),
        }
    }
}

impl Evaluator<'_> {
    /// What collecting `parts` into a `String` at `node` gives: the
    /// concatenation of an array's several parts; else the one value's
    /// text (`key.chars().filter(..).collect()` is the key, stripped).
    pub(super) fn collected_text(&mut self, parts: Value, node: &Expr) -> Value {
        if parts.elems.as_ref().is_some_and(|e| e.len() > 1) {
            self.concat_value(&[parts], node)
        } else {
            parts
        }
    }
}

/// Whether a turbofish collects into text (`collect::<String>()`).
fn collects_text(turbofish: Option<&syn::AngleBracketedGenericArguments>) -> bool {
    let Some(args) = turbofish else {
        return false;
    };
    matches!(args.args.first(), Some(syn::GenericArgument::Type(ty))
        if crate::analysis::syntax::type_name_within(ty, &[]).as_deref() == Some("String"))
}

/// Whether `v` is one value's pieces at most: no client key, scope
/// component, server id or concatenation, and one parameter at most.
fn encodes_one_value(v: &Value) -> bool {
    v.client_key.is_none()
        && !v.has_component()
        && v.server_id.is_none()
        && v.concat.is_none()
        && v.params.count_ones() <= 1
}

/// The literal text a joined array starts with: its first element's, and
/// the separator after it (`["evt/", key].concat()`, `["req", k].join("/")`).
fn joined_prefix(parts: &Value, separator: Option<&Value>) -> Option<String> {
    let first = parts.elems.as_ref()?.first()?.literal.clone()?;
    let separator = match separator {
        Some(sep) => sep.literal.as_deref()?,
        None => "",
    };
    Some(first + separator)
}

/// The literal text a `format!` result starts with: the format string up to
/// its first placeholder, continued through a first `{}` whose argument is a
/// known literal (`format!("{}{}", PREFIX, id)` with a `const PREFIX`).
fn literal_prefix(fmt: &str, first: Option<&Value>) -> Option<String> {
    let mut prefix = String::new();
    let mut rest = fmt;
    let mut used_first = false;
    loop {
        let Some(open) = rest.find('{') else {
            prefix.push_str(rest);
            break;
        };
        prefix.push_str(&rest[..open]);
        let after = &rest[open..];
        if let Some(escaped) = after.strip_prefix("{{") {
            prefix.push('{');
            rest = escaped;
            continue;
        }
        // `{}` or `{0}` as the first placeholder, filled by a literal.
        let literal = first.and_then(|v| v.literal.as_deref());
        match (after.find('}'), literal) {
            (Some(close), Some(text)) if !used_first && matches!(&after[1..close], "" | "0") => {
                prefix.push_str(text);
                used_first = true;
                rest = &after[close + 1..];
            }
            _ => break,
        }
    }
    (!prefix.is_empty()).then_some(prefix)
}

impl Evaluator<'_> {
    /// A string literal given to a format as an argument names the route
    /// as one in the format string does (`r = "claims.status"`).
    pub(super) fn literal_route(&self, value: &mut Value, arg: &Expr) {
        if let Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) = arg
        {
            if value.route.is_none() && self.vocab.literal_names_route(&s.value()) {
                value.route = Some(self.origin(arg));
            }
        }
    }
}

/// Whether a format string is one placeholder and nothing else (`"{b:02x}"`).
fn is_one_placeholder(fmt: &str) -> bool {
    let parsed = format_string::parse(fmt);
    parsed.args.len() == 1 && parsed.literals.iter().all(String::is_empty)
}

/// Whether `buffer` carries nothing that `piece` does not: the parameters,
/// digest and payload hash an encoding of `piece` appended to it brought.
fn holds_only_facts_of(buffer: &Value, piece: &Value) -> bool {
    let mut rest = buffer.clone();
    rest.params &= !piece.params;
    rest.hashed_params &= !piece.hashed_params;
    if piece.digest.is_some() {
        rest.digest = None;
    }
    if piece.payload_hash.is_some() {
        rest.payload_hash = None;
    }
    rest.construct = None;
    rest.is_empty()
}

/// The prefix of the binding that stands for a field of `self` a method
/// writes (`self.buf`): no Rust name starts so.
pub(super) const SELF_FIELD: &str = "self.";

/// `self.buf` (or `&mut self.buf`) as the binding [`SELF_FIELD`]`buf`.
pub(super) fn self_field_name(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Field(f) => match (&*f.base, &f.member) {
            (Expr::Path(p), syn::Member::Named(field)) if p.path.is_ident("self") => {
                Some(format!("{SELF_FIELD}{field}"))
            }
            _ => None,
        },
        Expr::Reference(r) => self_field_name(&r.expr),
        Expr::Paren(p) => self_field_name(&p.expr),
        _ => None,
    }
}
