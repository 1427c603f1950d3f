//! DynamoDB request builders as claims: `put_item()…item("pk", k)…
//! condition_expression("attribute_not_exists(pk)").send()` writes the item
//! only if it is absent (DynamoDB's `SET … NX`), a later `put_item` or
//! `update_item` of the response on the same key completes it, and
//! `delete_item().key("pk", k)` releases it.

use syn::Expr;

use super::ops::{lit_text, Op, OpKind};
use super::walker::Walker;
use crate::analysis::vocab::is_dynamo_key_attribute;

/// One builder chain, read from its executing `send()` down.
#[derive(Default)]
struct Chain<'e> {
    /// `put_item`, `update_item` or `delete_item`.
    operation: Option<String>,
    /// The value of the first key attribute (`item("pk", v)`, `key("pk", v)`).
    key: Option<&'e Expr>,
    /// Whether a condition writes only where the item is absent.
    if_absent: bool,
    /// The other attribute values written.
    values: Vec<&'e Expr>,
}

impl Walker<'_> {
    /// The claim, completion or release a DynamoDB builder chain ending in
    /// `send()` makes, if it is one.
    pub(super) fn classify_dynamo_chain(&self, m: &syn::ExprMethodCall) -> Option<Op> {
        if m.method != "send" {
            return None;
        }
        let chain = read_chain(&m.receiver);
        let key = chain.key?;
        let (kind, verb) = match chain.operation.as_deref()? {
            "put_item" if chain.if_absent => (OpKind::Claim, "put_item … attribute_not_exists"),
            "put_item" | "update_item" if chain.values.iter().any(|v| self.writes_response(v)) => {
                (OpKind::Complete, "put_item")
            }
            "delete_item" => (OpKind::Release, "delete_item"),
            _ => return None,
        };
        let (roots, key_text) = self.key_arg(std::iter::once(key))?;
        Some(Op::on_key(kind, verb.to_string(), roots, key_text, false))
    }
}

fn read_chain(mut cur: &Expr) -> Chain<'_> {
    let mut chain = Chain::default();
    for _ in 0..64 {
        match cur {
            Expr::MethodCall(call) => {
                let method = call.method.to_string();
                let args: Vec<&Expr> = call.args.iter().collect();
                match (method.as_str(), args.as_slice()) {
                    ("item" | "key", [name, value]) => match lit_text(name) {
                        Some(n) if is_dynamo_key_attribute(&n) => chain.key = Some(value),
                        _ => chain.values.push(value),
                    },
                    ("condition_expression", [condition]) => {
                        chain.if_absent |=
                            lit_text(condition).is_some_and(|c| c.contains("attribute_not_exists"));
                    }
                    ("put_item" | "update_item" | "delete_item", []) => {
                        chain.operation = Some(method);
                    }
                    _ => chain.values.extend(args),
                }
                cur = &call.receiver;
            }
            Expr::Paren(p) => cur = &p.expr,
            Expr::Await(a) => cur = &a.base,
            Expr::Try(t) => cur = &t.expr,
            _ => break,
        }
    }
    chain
}
