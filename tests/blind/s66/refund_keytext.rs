use std::fmt::Write as _;
use std::sync::Arc;

use idem_scope::Problem;
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;
use slog::{info, warn, Logger};

use crate::refunds::{RefundOrder, Refunds};

/// Lookup text for stored refund responses, one per caller and route.
struct KeyText {
    tenant: String,
    user_id: String,
    route: &'static str,
}

impl KeyText {
    fn for_caller(tenant: &str, user_id: &str) -> Self {
        KeyText { tenant: tenant.to_owned(), user_id: user_id.to_owned(), route: "refund" }
    }

    fn render_slot(&self, key: &str) -> String {
        let mut buf = String::with_capacity(self.tenant.len() + self.user_id.len() + key.len() + 16);
        let _ = write!(buf, "{}\u{1f}{}\u{1f}{}\u{1f}{}", self.tenant, self.user_id, self.route, key);
        buf
    }
}

pub struct RefundEndpoint {
    stash: Arc<Stash>,
    refunds: Arc<Refunds>,
    log: Logger,
}

impl RefundEndpoint {
    pub fn new(stash: Arc<Stash>, refunds: Arc<Refunds>, log: Logger) -> Self {
        RefundEndpoint { stash, refunds, log }
    }

    pub async fn post(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let raw = match call.header("Idempotency-Key") {
            Some(v) => v.trim(),
            None => return Answer::problem(Problem::missing_key()),
        };
        if raw.len() > 200 {
            let reason = format!("key '{}' is longer than 200 bytes", raw);
            return Answer::problem(Problem::invalid_key(&reason));
        }

        let text = KeyText::for_caller(&who.tenant_id, &who.user_id);
        let slot = text.render_slot(raw);
        match self.stash.get(&slot).await {
            Ok(Some(saved)) => {
                info!(self.log, "refund replayed"; "tenant" => &who.tenant_id);
                return Answer::bytes(Code::OK, saved);
            }
            Ok(None) => {}
            Err(e) => {
                warn!(self.log, "stash unavailable"; "error" => %e);
                return Answer::status(Code::SERVICE_UNAVAILABLE);
            }
        }

        let order: RefundOrder = match call.json() {
            Ok(o) => o,
            Err(_) => return Answer::status(Code::BAD_REQUEST),
        };
        let receipt = match self.refunds.issue(&who.tenant_id, order).await {
            Ok(r) => r,
            Err(_) => return Answer::status(Code::BAD_GATEWAY),
        };
        let body = receipt.to_bytes();
        if let Err(e) = self.stash.put(&slot, &body).await {
            warn!(self.log, "refund response not kept"; "error" => %e);
        }
        Answer::bytes(Code::CREATED, body)
    }
}
