use std::time::Duration;

use idem_scope::{scoped, ClaimGuard, Problem};
use moraine::auth::MaybeCaller;
use moraine::extract::{Head, Json};
use moraine::{Ctx, Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct PayoutBody {
    pub destination: String,
    pub amount_minor: i64,
}

#[derive(Clone)]
pub struct PayoutState {
    pub locker: Locker,
    pub rails: crate::rails::Rails,
}

pub async fn create_payout(ctx: Ctx<PayoutState>, caller: MaybeCaller, head: Head, Json(body): Json<PayoutBody>) -> Reply {
    let Some(key) = head.header("Idempotency-Key").map(|v| v.to_owned()) else {
        return Reply::problem(Problem::missing_key());
    };
    let merchant_id = caller
        .as_ref()
        .and_then(|c| c.merchant_id.clone())
        .unwrap_or_else(|| "shared".to_owned());
    let user_id = match caller.as_ref() {
        Some(c) => c.user_id.clone(),
        None => return Reply::status(Status::UNAUTHORIZED),
    };

    let sk = match scoped(&merchant_id, &user_id, "payout", &key) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    match ctx.state.locker.claim(sk.storage_key(), Duration::from_secs(300)).await {
        Ok(true) => {}
        Ok(false) => return Reply::problem(Problem::in_progress(&key)),
        Err(_) => return Reply::status(Status::SERVICE_UNAVAILABLE),
    }
    let guard = {
        let locker = ctx.state.locker.clone();
        let k = sk.storage_key().to_owned();
        ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = locker.release(&k).await;
            });
        })
    };
    let payout = match ctx.state.rails.send(&body.destination, body.amount_minor).await {
        Ok(p) => p,
        Err(_) => return Reply::status(Status::BAD_GATEWAY),
    };
    let bytes = serde_json::to_vec(&payout).expect("payout serialises");
    let _ = ctx.state.locker.complete(sk.storage_key(), &bytes).await;
    guard.complete();
    Reply::json(Status::CREATED, &payout)
}
