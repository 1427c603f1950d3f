//! sqlx's `QueryBuilder`, for all rules: a statement written in pieces on
//! a local (`qb.push("INSERT INTO idempotency_keys (key) VALUES (")`,
//! `qb.push_bind(key)`) and run once built (`qb.build().execute(..)`). The
//! pieces are collected per local; `build` turns them into the same query
//! chain `sqlx::query(SQL).bind(..)` makes (see `sinks`), so the key binds
//! of the statement are read the same way.

use std::ops::ControlFlow;

use syn::Expr;

use super::{Evaluator, MethodCall};
use crate::analysis::syntax::{place_name, strip_ref};
use crate::analysis::value::{Site, Value};

/// The statement a `QueryBuilder` local holds so far.
#[derive(Debug, Clone, Default)]
pub(super) struct SqlBuilder {
    /// The SQL text pushed so far, binds written as `$1`, `$2`, ..
    text: String,
    /// The bound values, in order.
    binds: Vec<(Value, Site)>,
}

/// The initial text of `QueryBuilder::new("..")` (`QueryBuilder::<Postgres>::new`).
pub(super) fn query_builder_new(expr: &Expr) -> Option<String> {
    let Expr::Call(call) = strip_ref(expr) else {
        return None;
    };
    let Expr::Path(func) = &*call.func else {
        return None;
    };
    // Asked of every `let` initialised by a call: compare in place.
    let mut segments = func.path.segments.iter().rev();
    let (Some(new), Some(ty)) = (segments.next(), segments.next()) else {
        return None;
    };
    if new.ident != "new" || ty.ident != "QueryBuilder" {
        return None;
    }
    match call.args.first().map(strip_ref) {
        Some(Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        })) => Some(s.value()),
        _ => Some(String::new()),
    }
}

impl Evaluator<'_> {
    /// `let qb = QueryBuilder::new(..)` starts a builder on `name`; any
    /// other binding of `name` ends the one it held.
    pub(super) fn bind_sql_builder(&mut self, name: &str, init: &Expr) {
        if self.sql_builders.is_empty() && !matches!(strip_ref(init), Expr::Call(_)) {
            return;
        }
        match query_builder_new(init) {
            Some(text) => {
                let builder = SqlBuilder {
                    text,
                    binds: Vec::new(),
                };
                self.sql_builders.insert(name.to_string(), builder);
            }
            None => {
                self.sql_builders.remove(name);
            }
        }
    }

    /// `qb.push(..)`, `qb.push_bind(..)` and `qb.build()` of a builder local.
    pub(super) fn sql_builder_step(
        &mut self,
        call: &MethodCall<'_>,
        recv: Value,
    ) -> ControlFlow<Value, Value> {
        // Asked of every method call: most functions build no query.
        if self.sql_builders.is_empty() {
            return ControlFlow::Continue(recv);
        }
        let Some(name) = place_name(&call.m.receiver) else {
            return ControlFlow::Continue(recv);
        };
        if !self.sql_builders.contains_key(&name) {
            return ControlFlow::Continue(recv);
        }
        let site = call.exprs.first().map(|e| self.site(*e));
        let Some(builder) = self.sql_builders.get_mut(&name) else {
            return ControlFlow::Continue(recv);
        };
        match (call.method.as_str(), call.args.first(), site) {
            ("push", Some(arg), _) => {
                // Text not known here (a pushed variable) adds nothing.
                if let Some(text) = &arg.literal {
                    builder.text.push_str(text);
                }
                ControlFlow::Break(Value::empty())
            }
            ("push_bind", Some(arg), Some(site)) => {
                builder.binds.push((arg.clone(), site));
                let param = format!("${}", builder.binds.len());
                builder.text.push_str(&param);
                ControlFlow::Break(Value::empty())
            }
            ("build" | "build_query_as" | "build_query_scalar", None, _) => {
                let builder = builder.clone();
                let mut chain = self.sql_root(&builder.text, call.expr);
                if let Some(sql) = chain.sql.as_mut() {
                    sql.binds = builder.binds;
                }
                ControlFlow::Break(chain)
            }
            _ => ControlFlow::Continue(recv),
        }
    }
}
