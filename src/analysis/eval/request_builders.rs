//! Key positions in storage request builders, where the key is a setter's
//! argument rather than a call's: DynamoDB item and key attributes
//! (`.item("pk", v)`, `.key("idempotency_key", v)`) and an object store's
//! `.key(&k)` after `get_object()`/`put_object()`. Split from `sinks.rs`.

use syn::Expr;

use crate::analysis::syntax::strip_ref;
use crate::analysis::value::Value;
use crate::analysis::vocab::{is_dynamo_key_attribute, is_dynamo_primary_attribute};

/// The value of a DynamoDB key attribute, `.item("pk", v)` or
/// `.key("idempotency_key", v)`: a literal attribute name that is a key.
pub(super) fn dynamo_key_attribute(
    method: &str,
    args: &[Value],
    exprs: &[&Expr],
    receiver: &Expr,
) -> Option<Value> {
    if !matches!(method, "item" | "key") {
        return None;
    }
    let ([_, value], [Expr::Lit(lit), _]) = (args, exprs) else {
        return None;
    };
    let syn::Lit::Str(name) = &lit.lit else {
        return None;
    };
    let name = name.value();
    // `.key(..)` names the table's key; of an item's attributes, one named
    // like a key (`idem_key`) is the key only if no attribute before it in
    // the chain is the table's key itself (`.item("pk", ..)`).
    let key_attribute = is_dynamo_key_attribute(&name)
        && (method == "key"
            || is_dynamo_primary_attribute(&name)
            || !earlier_primary_item(receiver));
    let keyish = value.carries_key() || value.server_id.is_some() || value.payload_hash.is_some();
    (key_attribute && keyish).then(|| value.clone())
}

/// The store an object request's key goes to, whatever its client is called.
pub(super) const OBJECT_STORE: &str = "object-store";

/// The key an object store's request builder is given (`.key(&k)` after
/// `get_object()`, `put_object()`, `head_object()` or `delete_object()`,
/// AWS S3's and its look-alikes' shape), when it carries a client key or a
/// server id.
pub(super) fn object_request_key(method: &str, args: &[Value], receiver: &Expr) -> Option<Value> {
    let [value] = args else {
        return None;
    };
    // Not a payload digest alone: an object named by its content's hash is
    // content addressing (rules.md), not a replay key.
    if method != "key" || !(value.carries_key() || value.server_id.is_some()) {
        return None;
    }
    let mut expr = receiver;
    for _ in 0..64 {
        let Expr::MethodCall(m) = strip_ref(expr) else {
            return None;
        };
        let name = m.method.to_string();
        if m.args.is_empty()
            && matches!(
                name.as_str(),
                "get_object" | "put_object" | "head_object" | "delete_object"
            )
        {
            return Some(value.clone());
        }
        expr = &m.receiver;
    }
    None
}

/// Whether the builder chain `receiver` sets an item attribute that is a
/// table's key by its very name (`.item("pk", ..)`).
fn earlier_primary_item(receiver: &Expr) -> bool {
    let mut expr = receiver;
    for _ in 0..64 {
        let Expr::MethodCall(m) = strip_ref(expr) else {
            return false;
        };
        if m.method == "item" {
            if let Some(Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(name),
                ..
            })) = m.args.first()
            {
                if is_dynamo_primary_attribute(&name.value()) {
                    return true;
                }
            }
        }
        expr = &m.receiver;
    }
    false
}
