use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use rhai::{Engine, Scope, AST};
use skerry::stash::Stash;

use crate::catalog::{Catalog, QuoteLine};

/// Freight quotes priced by tenant-supplied rhai scripts.
pub struct FreightQuotes {
    stash: Arc<Stash>,
    catalog: Arc<Catalog>,
    engine: Engine,
}

impl FreightQuotes {
    pub fn new(stash: Arc<Stash>, catalog: Arc<Catalog>) -> Self {
        let mut engine = Engine::new();
        engine.set_max_operations(50_000);
        engine.register_fn("round_up", |v: i64, step: i64| ((v + step - 1) / step) * step);
        FreightQuotes { stash, catalog, engine }
    }

    pub async fn quote(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let Ok(slot) = scoped(&who.tenant_id, &who.user_id, "freight_quote", key) else {
            return Answer::problem(Problem::invalid_key("key rejected"));
        };
        let Ok(lines) = call.json::<Vec<QuoteLine>>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let script: AST = match self.catalog.pricing_script(&who.tenant_id).await {
            Some(src) => match self.engine.compile(&src) {
                Ok(ast) => ast,
                Err(e) => return Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
            },
            None => return Answer::status(Code::NOT_FOUND),
        };

        match self.stash.claim(slot.storage_key(), Duration::from_secs(30)).await {
            Ok(true) => {}
            Ok(false) => return Answer::problem(Problem::in_progress(key)),
            Err(_) => return Answer::status(Code::SERVICE_UNAVAILABLE),
        }

        let price_line = |line: &QuoteLine| -> i64 {
            let mut scope = Scope::new();
            scope.push("weight_g", line.weight_g as i64);
            scope.push("zone", line.zone.clone());
            self.engine.eval_ast_with_scope::<i64>(&mut scope, &script).unwrap()
        };
        let mut total: i64 = 0;
        for line in &lines {
            total += price_line(line);
        }

        let body = format!("{{\"total_minor\":{total},\"lines\":{}}}", lines.len()).into_bytes();
        let _ = self.stash.complete(slot.storage_key(), &body).await;
        Answer::bytes(Code::OK, body)
    }
}
