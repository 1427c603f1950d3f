//! Calls into other crates that pass the client's key on by flow
//! (`workspace_flow::KeyCall`): the callee's parameter is a source there.

use syn::Expr;

use super::Evaluator;
use crate::analysis::value::{KeySource, Value};
use crate::analysis::vocab::TRANSPARENT_METHODS;
use crate::analysis::workspace_flow::{KeyCall, KeyCallSite};

/// Conversions and std traits' methods: a crate's own impl of them
/// (`impl From<String> for Label`) is no service function given the key.
const NOT_SERVICE_CALLS: &[&str] = &[
    "new",
    "from",
    "try_from",
    "into",
    "try_into",
    "clone",
    "to_string",
    "to_owned",
    "as_str",
    "as_ref",
    "borrow",
    "parse",
    "fmt",
    "drop",
    "hash",
    "eq",
    "ne",
    "cmp",
    "partial_cmp",
    "deref",
    "push",
    "push_str",
    "extend",
    "contains",
    "starts_with",
    "ends_with",
    "join",
];

impl Evaluator<'_> {
    /// Records a call this unit does not resolve whose argument is the
    /// client's key itself, known by flow: where another crate of the
    /// workspace defines the callee, its parameter is a source.
    pub(super) fn note_key_call(
        &mut self,
        callee: &str,
        receiver: Option<String>,
        args: &[Value],
        at: &Expr,
    ) {
        let method = matches!(at, Expr::MethodCall(_));
        if callee.starts_with(char::is_uppercase)
            || NOT_SERVICE_CALLS.contains(&callee)
            || TRANSPARENT_METHODS.contains(&callee)
            || self.vocab.is_store_method(callee)
        {
            return;
        }
        for (arg, value) in args.iter().enumerate() {
            if value.client_key.is_none() {
                continue;
            }
            // A key read in this function, or named as the key where it
            // came in: what a record's field carries elsewhere
            // (`field_keys`) is not known to be this argument.
            let here = (value.client_key.as_ref()).is_some_and(|(origin, _)| {
                let line = origin.site.span.start.line;
                (origin.site.file == self.file && (self.lines.0..=self.lines.1).contains(&line))
                    || self.vocab.is_client_key_name(last_word(&origin.text))
            });
            if here && is_raw_client_key(value) {
                let site = self.site(at);
                if std::env::var_os("IDEM_LINT_DEBUG").is_some() {
                    eprintln!(
                        "[idem-lint debug] key call {callee} arg {arg} at {:?}: key from {:?}",
                        site, value.client_key
                    );
                }
                let call = KeyCall {
                    callee: callee.to_string(),
                    method,
                    args: args.len(),
                    arg,
                    receiver: receiver.clone(),
                };
                self.key_calls.push(KeyCallSite { call, site });
            }
        }
    }
}

/// The client's key as the request gave it, by flow: nothing joined to it,
/// hashed from it or scoping it, which the callee would not see.
fn is_raw_client_key(value: &Value) -> bool {
    matches!(value.client_key, Some((_, KeySource::IdempotencyKey)))
        && !value.scoped
        && !value.client_ns
        && !value.hash_alone
        && value.tenant.is_none()
        && value.principal.is_none()
        && value.route.is_none()
        && value.resource.is_none()
        && value.concat.is_none()
        && value.construct.is_none()
        && value.elems.is_none()
        && value.fields.is_none()
        && value.payload_hash.is_none()
        && value.digest.is_none()
        && value.server_id.is_none()
        && value.prefix.is_none()
        && value.literal.is_none()
}

/// The last identifier of an expression's text (`req.body.idempotency_key`).
fn last_word(text: &str) -> &str {
    text.rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .find(|w| !w.is_empty())
        .unwrap_or(text)
}
