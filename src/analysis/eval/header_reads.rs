//! Reads of a header's value: a call given the key header's name
//! (`headers.get("Idempotency-Key")`, `header_value(&req, NAME)`), which
//! gives the client's key, or the sender's id for a delivery header. The
//! evaluator's `Expr::Index` arm reads `headers[NAME]` the same way.

use std::ops::ControlFlow;

use syn::Expr;

use super::calls::HEADER_SETTERS;
use super::Evaluator;
use super::MethodCall;
use crate::analysis::value::{KeySource, Value};

impl Evaluator<'_> {
    /// `header_value(&req, "Idempotency-Key")` reads the key; building the
    /// header name itself (`HeaderName::from_static(..)`) does not.
    pub(super) fn header_read_call(
        &self,
        name: &str,
        args: &[Value],
        expr: &Expr,
    ) -> Option<Value> {
        let header_name_ctor = matches!(
            name,
            "from_static"
                | "from_bytes"
                | "from_str"
                | "from_name"
                | "new"
                | "from"
                | "try_from"
                | "from_lowercase"
        );
        if header_name_ctor || !args.iter().any(|a| a.key_header_name.is_some()) {
            return None;
        }
        let source = args.iter().find_map(|a| a.key_header_name);
        Some(self.header_value(source, expr))
    }

    /// A call whose argument names the idempotency-key header reads the key.
    fn header_getter(&self, args: &[Value], setter: bool, expr: &Expr) -> Option<Value> {
        if setter || args.len() != 1 {
            return None;
        }
        let source = args[0].key_header_name?;
        Some(self.header_value(Some(source), expr))
    }

    /// The value of a header read at `expr`: the client key, or, for a
    /// header the sender minted, a server-minted id.
    pub(super) fn header_value(&self, source: Option<KeySource>, expr: &Expr) -> Value {
        match source {
            Some(KeySource::SenderId) => Value {
                server_id: Some(Box::new(self.origin(expr))),
                ..Value::default()
            },
            source => Value {
                client_key: source.map(|s| (self.origin(expr), s)),
                ..Value::default()
            },
        }
    }

    /// `headers.get("Idempotency-Key")` reads the client key; setting that
    /// header (`insert(NAME, value)`) passes the receiver through.
    pub(super) fn header_read(
        &self,
        call: &MethodCall<'_>,
        recv: Value,
    ) -> ControlFlow<Value, Value> {
        let args = &call.args;
        if args.first().is_none_or(|a| a.key_header_name.is_none()) {
            return ControlFlow::Continue(recv);
        }
        let setter = HEADER_SETTERS.contains(&call.method.as_str()) && args.len() >= 2;
        ControlFlow::Break(self.header_getter(args, setter, call.expr).unwrap_or(recv))
    }
}
