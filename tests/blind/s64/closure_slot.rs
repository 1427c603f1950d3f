use std::time::Duration;

use bitcoin_hashes::{sha256, Hash};
use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct Topup {
    pub wallet: String,
    pub amount_minor: i64,
}

pub struct Wallets {
    pub locker: Locker,
    pub receipts: Locker,
    pub ledger: crate::ledger::LedgerApi,
}

impl Wallets {
    pub async fn topup(&self, caller: Caller, head: Head, Json(t): Json<Topup>) -> Reply {
        let tenant_id = caller.tenant_id().to_owned();
        let user_id = caller.user_id().to_owned();
        let op = "wallet_topup";
        let slot_for = |k: &str| format!("{}#{}#{}#{}", tenant_id, user_id, op, k);

        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let slot = slot_for(key);
        if let Ok(Some(prev)) = self.locker.get(&slot).await {
            return Reply::bytes(Status::OK, prev);
        }
        let receipt = match self.ledger.credit(&tenant_id, &t.wallet, t.amount_minor).await {
            Ok(r) => r,
            Err(_) => return Reply::status(Status::BAD_GATEWAY),
        };
        let receipt_hash = sha256::Hash::hash(&receipt).to_string();
        let _ = self.receipts.put(&format!("receipt/{}", t.wallet), receipt_hash.as_bytes(), Duration::from_secs(86_400)).await;
        let _ = self.locker.put(&slot, &receipt, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::CREATED, receipt)
    }

    pub async fn withdraw(&self, caller: Caller, head: Head, Json(t): Json<Topup>) -> Reply {
        let scope = |k: &str| scoped(caller.tenant_id(), caller.user_id(), "wallet_withdraw", k);
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Ok(sk) = scope(key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.locker.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let out = self.ledger.debit(caller.tenant_id(), &t.wallet, t.amount_minor).await.unwrap_or_default();
        let _ = self.locker.put(sk.storage_key(), &out, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::OK, out)
    }
}
