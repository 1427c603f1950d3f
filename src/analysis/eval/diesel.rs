//! diesel's (and sea-orm's `Column::X.eq(v)`) query DSL as a SQL chain: `table::column.eq(value)` binds
//! `value` to a column, `filter`/`and`/`or` gather such predicates into one
//! chain, and the method that runs the query (`first`, `load`, `execute`…)
//! or `diesel::update(..)`/`delete(..)` ends it, judged like a `sqlx` query
//! (see `sinks::finish_sql`). The chain keys an idempotency store when its
//! table is one (`idempotency_keys::key.eq(k)`) or when it filters on a
//! client key column (`transactions::idempotency_key.eq(k)`).

use std::ops::ControlFlow;

use syn::Expr;

use super::{Evaluator, MethodCall};
use crate::analysis::value::{sql_store, SqlChain, Value};

impl Evaluator<'_> {
    /// `column.eq(v)` starts a one-bind chain; `filter`/`and`/`or` merge
    /// the chains of their receiver and arguments.
    pub(super) fn diesel_step(
        &mut self,
        call: &MethodCall<'_>,
        recv: Value,
    ) -> ControlFlow<Value, Value> {
        match call.method.as_str() {
            "eq" | "eq_any" => match (self.column_path(&call.m.receiver), call.args.first()) {
                (Some((table, column)), Some(arg)) => {
                    let site = self.site(call.exprs[0]);
                    ControlFlow::Break(self.column_predicate(&table, &column, arg, site, call.expr))
                }
                _ => ControlFlow::Continue(recv),
            },
            "filter" | "and" | "or" | "or_filter" if call.args.iter().any(|a| a.sql.is_some()) => {
                let mut merged = recv;
                for arg in &call.args {
                    merge_chain(&mut merged, arg);
                }
                ControlFlow::Break(merged)
            }
            // `insert_into(t).values((t::a.eq(x), t::b.eq(y)))`, `update(..).set(..)`
            // of an idempotency table: the row's column binds, one chain with
            // the statement's, as the same SQL `INSERT` is (a business
            // table's row is judged by its lookups, not by its inserts).
            "values" | "set" if call.args.len() == 1 => {
                let parts =
                    (call.args[0].elems.as_deref()).unwrap_or(std::slice::from_ref(&call.args[0]));
                let idempotency_table = |p: &Value| {
                    p.sql
                        .as_deref()
                        .is_some_and(|c| c.idempotency_table && !c.by_use)
                };
                let into = statement_table(&call.m.receiver)
                    .is_some_and(|t| self.vocab.is_idempotency_table(&t));
                if !into && !parts.iter().any(idempotency_table) {
                    return ControlFlow::Continue(recv);
                }
                let mut merged = recv;
                for part in parts {
                    merge_chain(&mut merged, part);
                }
                ControlFlow::Break(merged)
            }
            _ => ControlFlow::Continue(recv),
        }
    }

    /// `diesel::update(chain)`, `diesel::delete(chain)`: the statement
    /// keeps the chain of its target (ended by the call that runs it).
    pub(super) fn diesel_statement_fn(&self, name: &str, args: &[Value]) -> Option<Value> {
        if !matches!(name, "update" | "delete") {
            return None;
        }
        let target = args.first().filter(|a| a.sql.is_some())?;
        let mut value = Value::empty();
        merge_chain(&mut value, target);
        Some(value)
    }

    /// sea-orm's primary-key lookups, `idempotency::Entity::find_by_id(k)`
    /// and `delete_by_id(k)`: the argument is the row's key, in the table
    /// of the entity's module. A table that is no idempotency table is a
    /// store of the client keys it is looked up by (by use).
    pub(super) fn orm_primary_key_fn(
        &mut self,
        segments: &[String],
        args: &[Value],
        exprs: &[&Expr],
    ) -> Option<Value> {
        let [.., module, entity, method] = segments else {
            return None;
        };
        if entity != "Entity" || !matches!(method.as_str(), "find_by_id" | "delete_by_id") {
            return None;
        }
        let (key, expr) = (args.first()?, exprs.first()?);
        let idempotency_table = self.vocab.is_idempotency_table(module);
        let store = sql_store(module, !idempotency_table);
        let site = self.site(*expr);
        self.key_position_in(key.clone(), site, true, idempotency_table, Some(store));
        Some(Value::empty())
    }

    /// A diesel column: a path of lower-case segments `table::column`
    /// (`schema::transactions::idempotency_key`, `dsl::key`) that is not a
    /// local binding. Returns the table (when written) and the column.
    fn column_path(&self, expr: &Expr) -> Option<(Option<String>, String)> {
        let Expr::Path(p) = expr else {
            return None;
        };
        let segments: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        // sea-orm: `booking::Column::IdempotencyKey`, `Column::WorkspaceId`.
        if let [.., column_enum, variant] = segments.as_slice() {
            if column_enum == "Column" && p.qself.is_none() {
                let table = segments
                    .iter()
                    .rev()
                    .nth(2)
                    .filter(|t| t.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
                    .cloned();
                return Some((table, crate::analysis::vocab::snake(variant)));
            }
        }
        let column = segments.last()?.clone();
        let snake = |s: &String| {
            s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        };
        if p.qself.is_some() || !segments.iter().all(snake) || column == "self" {
            return None;
        }
        if segments.len() == 1 {
            // A bare column after `use table::dsl::*` only when no local
            // has that name (`key.eq(&other)` compares two values) and the
            // name says it is the client key.
            let bare = self.lookup(&column).is_none() && self.vocab.is_client_key_name(&column);
            return bare.then_some((None, column));
        }
        let table = segments
            .iter()
            .rev()
            .skip(1)
            .find(|s| *s != "dsl" && *s != "columns")
            .cloned();
        Some((table, column))
    }

    /// The chain of one predicate `table::column.eq(arg)`.
    fn column_predicate(
        &self,
        table: &Option<String>,
        column: &str,
        arg: &Value,
        site: crate::analysis::value::Site,
        node: &Expr,
    ) -> Value {
        let idem_table = table
            .as_deref()
            .is_some_and(|t| self.vocab.is_idempotency_table(t));
        let key_column = self.vocab.is_client_key_name(column)
            || (idem_table && self.vocab.is_key_column(column));
        let mut columns = Vec::new();
        if let Some(component) = self.vocab.component_of_name(column) {
            if column != "path" && column != "method" {
                columns.push((component, self.origin(node)));
            }
        }
        Value {
            sql: Some(Box::new(SqlChain {
                idempotency_table: idem_table || key_column,
                by_use: !idem_table && key_column,
                table: table.clone(),
                columns,
                resource: None,
                binds: vec![(arg.clone(), site)],
                key_binds: Some(if key_column { vec![0] } else { Vec::new() }),
            })),
            ..Value::default()
        }
    }
}

/// Adds the chain of `other` to `into`'s: the binds follow, key binds keep
/// pointing at theirs, columns and tables add up.
fn merge_chain(into: &mut Value, other: &Value) {
    let Some(theirs) = other.sql.as_deref() else {
        return;
    };
    let Some(ours) = into.sql.as_deref_mut() else {
        into.sql = Some(Box::new(theirs.clone()));
        return;
    };
    let offset = ours.binds.len();
    ours.binds.extend(theirs.binds.iter().cloned());
    ours.key_binds = match (ours.key_binds.take(), &theirs.key_binds) {
        (Some(mut a), Some(b)) => {
            a.extend(b.iter().map(|i| i + offset));
            Some(a)
        }
        // A chain whose key binds are unknown stays unknown.
        _ => None,
    };
    for (component, origin) in &theirs.columns {
        if !ours.columns.iter().any(|(c, _)| c == component) {
            ours.columns.push((*component, origin.clone()));
        }
    }
    ours.idempotency_table |= theirs.idempotency_table;
    if ours.table.is_none() {
        ours.table.clone_from(&theirs.table);
    }
}

/// The table a diesel statement writes (`insert_into(idem::table)`,
/// `update(dsl::idempotency_records)`): the path's last segment, or the
/// one before `table`.
fn statement_table(expr: &Expr) -> Option<String> {
    let Expr::Call(c) = expr else { return None };
    let Expr::Path(func) = &*c.func else {
        return None;
    };
    let name = crate::analysis::syntax::last_ident(&func.path);
    if !matches!(
        name.as_str(),
        "insert_into" | "replace_into" | "insert_or_ignore_into" | "update"
    ) {
        return None;
    }
    let Some(Expr::Path(table)) = c.args.first() else {
        return None;
    };
    let segments = crate::analysis::syntax::path_segments(&table.path);
    let mut rev = segments.iter().rev();
    match rev.next()?.as_str() {
        "table" => rev.next().cloned(),
        last => Some(last.to_string()),
    }
}
