use idem_scope::{scoped, Fingerprint, Problem};
use serde::Deserialize;

use crate::locks::AccountLocks;
use crate::replay_store::AsyncStore;

#[derive(Deserialize)]
pub struct CaptureRequest {
    pub payment_id: String,
    pub amount_minor: Option<i64>,
}

pub struct Captures {
    store: AsyncStore,
    locks: AccountLocks,
    acquirer: crate::acquirer::Client,
}

fn client_key(headers: &http::HeaderMap) -> Result<&str, Problem> {
    headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(Problem::missing_key)
}

impl Captures {
    pub async fn capture(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap, raw: &[u8]) -> Result<String, Problem> {
        let key = client_key(headers)?;
        let req: CaptureRequest = serde_json::from_slice(raw).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let sk = scoped(&caller.merchant_id, &caller.api_key_id, "payments.capture", key)
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let fp = Fingerprint::of("payments.capture", raw);

        let account_lock = self.locks.obtain(&req.payment_id).await.map_err(|_| Problem::in_progress(key))?;
        self.store.claim(&sk, &fp).await.map_err(|_| Problem::in_progress(key))?;

        let result = self.acquirer.capture(&caller.merchant_id, &req.payment_id, req.amount_minor).await;
        if let Err(e) = &result {
            let _ = self.store.release(&sk).await;
            self.locks.unlock(account_lock).await;
            return Err(Problem::invalid_key(&e.to_string()));
        }
        let body = serde_json::to_vec(&result.ok()).unwrap_or_default();
        self.store.complete(&sk, &body).await.map_err(|_| Problem::in_progress(key))?;
        self.locks.unlock(account_lock).await;

        let reply = String::from_utf8(body).map_err(|_| Problem::invalid_key("capture reply was not UTF-8"))?;
        Ok(reply)
    }
}
