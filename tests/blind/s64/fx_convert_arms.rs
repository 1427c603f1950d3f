use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Buy,
    Sell,
}

#[derive(Deserialize)]
pub struct Convert {
    pub direction: Direction,
    pub pair: String,
    pub amount_minor: i64,
}

pub struct Fx {
    pub locker: Locker,
    pub desk: crate::desk::Desk,
}

impl Fx {
    pub async fn convert(&self, caller: Caller, head: Head, Json(c): Json<Convert>) -> Reply {
        let Some(key) = head.header("X-Idempotency-Key").map(String::from) else {
            return Reply::problem(Problem::missing_key());
        };
        let tenant_id = caller.tenant_id().to_owned();
        let user_id = caller.user_id().to_owned();
        let slot = match c.direction {
            Direction::Buy => {
                let operation = "fx_buy";
                tenant_id.clone() + "|" + &user_id + "|" + operation + "|" + &key
            }
            Direction::Sell => match scoped(&tenant_id, &user_id, "fx_sell", &key) {
                Ok(sk) => sk.storage_key().to_owned(),
                Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
            },
        };
        let rate_slot = tenant_id + "|rates|" + &c.pair;
        let rate = match self.locker.get(&rate_slot).await {
            Ok(Some(r)) => r,
            _ => match self.desk.rate(&c.pair).await {
                Ok(r) => r,
                Err(_) => return Reply::status(Status::BAD_GATEWAY),
            },
        };
        if let Ok(Some(prev)) = self.locker.get(&slot).await {
            return Reply::bytes(Status::OK, prev);
        }
        let deal = match self.desk.execute(&c.pair, c.amount_minor, &rate).await {
            Ok(d) => d,
            Err(_) => return Reply::status(Status::BAD_GATEWAY),
        };
        let _ = self.locker.put(&slot, &deal, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::CREATED, deal)
    }
}
