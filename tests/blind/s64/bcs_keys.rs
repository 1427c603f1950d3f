use std::time::Duration;

use idem_scope::Problem;
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct Stake {
    pub validator: String,
    pub amount: u64,
}

pub struct Staking {
    pub locker: Locker,
    pub chain: crate::chain::ChainClient,
}

impl Staking {
    pub async fn stake(&self, caller: Caller, head: Head, Json(s): Json<Stake>) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let slot = bcs::to_bytes(&(caller.tenant_id(), caller.user_id(), key)).unwrap_or_default();
        if let Ok(Some(prev)) = self.locker.get(&slot).await {
            return Reply::bytes(Status::OK, prev);
        }
        let tx = match self.chain.delegate(&s.validator, s.amount).await {
            Ok(tx) => tx,
            Err(_) => return Reply::status(Status::BAD_GATEWAY),
        };
        let _ = self.locker.put(&slot, &tx, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::CREATED, tx)
    }

    pub async fn unstake(&self, caller: Caller, head: Head, Json(s): Json<Stake>) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let operation = "unstake";
        let slot = bcs::to_bytes(&(caller.tenant_id(), caller.user_id(), operation, key)).unwrap_or_default();
        if let Ok(Some(prev)) = self.locker.get(&slot).await {
            return Reply::bytes(Status::OK, prev);
        }
        let tx = match self.chain.undelegate(&s.validator, s.amount).await {
            Ok(tx) => tx,
            Err(_) => return Reply::status(Status::BAD_GATEWAY),
        };
        let _ = self.locker.put(&slot, &tx, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::OK, tx)
    }
}
