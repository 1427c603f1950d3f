use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::fx::{FxDesk, QuoteRequest};

#[derive(Clone, Copy)]
enum Op {
    Quote,
    Accept,
}

pub struct QuoteDesk {
    stash: Arc<Stash>,
    fx: Arc<FxDesk>,
}

impl QuoteDesk {
    pub async fn handle(&self, call: Call, op: Op) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Some(raw) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let tenant_id = who.tenant_id.as_str();
        let user_id = who.user_id.as_str();
        let action = match op {
            Op::Quote => "quote",
            Op::Accept => "quote_accept",
        };

        let slot = match op {
            Op::Quote => tenant_id.to_owned() + "/" + user_id + "/" + action + "/" + raw,
            Op::Accept => match scoped(tenant_id, user_id, action, raw) {
                Ok(k) => k.storage_key().to_owned(),
                Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
            },
        };

        if let Ok(Some(saved)) = self.stash.get(&slot).await {
            return Answer::bytes(Code::OK, saved);
        }

        let req: QuoteRequest = match call.json() {
            Ok(r) => r,
            Err(_) => return Answer::status(Code::BAD_REQUEST),
        };
        let currency = req.settle_currency.as_deref().unwrap_or("EUR");
        let result = match op {
            Op::Quote => self.fx.quote(tenant_id, &req.pair, currency).await,
            Op::Accept => self.fx.accept(tenant_id, &req.pair, req.quote_id.as_deref()).await,
        };
        match result {
            Ok(body) => {
                let _ = self.stash.put(&slot, &body).await;
                Answer::bytes(Code::OK, body)
            }
            Err(e) => Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        }
    }
}
