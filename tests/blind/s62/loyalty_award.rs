use std::sync::Arc;

use idem_scope::{scoped, Problem};
use quarry::ledger::Ledger;
use serde::Deserialize;
use tokio::sync::Semaphore;
use wicket::auth::Caller;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct AwardRequest {
    member_id: String,
    basket_minor: u64,
    store_code: String,
}

pub enum Outcome {
    Award(u32),
    Deny(&'static str),
    Corrupt,
}

pub struct Loyalty {
    ledger: Arc<Ledger>,
    limiter: Arc<Semaphore>,
    rules: rules::Engine,
}

impl Loyalty {
    pub async fn award(&self, ctx: &Ctx, caller: &Caller, Json(req): Json<AwardRequest>) -> Result<Reply, quarry::Error> {
        let _permit = match self.limiter.try_acquire() {
            Ok(p) => p,
            Err(_) => return Ok(Reply::status(Status::TOO_MANY_REQUESTS)),
        };
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Ok(Reply::problem(Problem::missing_key()));
        };
        let sk = match scoped(&caller.org_id, &caller.user_id, "loyalty.award", key) {
            Ok(sk) => sk,
            Err(e) => return Ok(Reply::problem(Problem::invalid_key(&e.to_string()))),
        };
        if !self.ledger.try_acquire(sk.storage_key()).await? {
            return Ok(Reply::problem(Problem::in_progress(key)));
        }

        let store_code = req.store_code.trim_matches('#');
        let points = match self.rules.evaluate(&req.member_id, req.basket_minor, store_code) {
            Outcome::Award(n) => n,
            Outcome::Deny(reason) => return Ok(Reply::text(Status::UNPROCESSABLE_ENTITY, reason.into())),
            Outcome::Corrupt => panic!("rule engine returned a corrupt outcome for {}", req.member_id),
        };
        let balance = self.rules.credit(&req.member_id, points);
        self.ledger.commit(sk.storage_key(), balance.to_be_bytes().to_vec()).await?;
        Ok(Reply::text(Status::OK, balance.to_string()))
    }
}
