use fang::async_trait;
use fang::asynk::async_queue::AsyncQueueable;
use fang::serde::{Deserialize, Serialize};
use fang::typetag;
use fang::{AsyncRunnable, FangError};
use idem_scope::scoped;

use crate::deps::{idem_store, psp};

#[derive(Serialize, Deserialize, Debug)]
#[serde(crate = "fang::serde")]
pub struct ExecuteRefund {
    pub tenant_id: String,
    pub user_id: String,
    /// Copied from the API request's `Idempotency-Key` header.
    pub idempotency_key: String,
    pub payment_id: String,
    pub amount_minor: i64,
}

fn fang_err(e: impl std::fmt::Display) -> FangError {
    FangError { description: e.to_string() }
}

#[typetag::serde]
#[async_trait]
impl AsyncRunnable for ExecuteRefund {
    async fn run(&self, _queue: &mut dyn AsyncQueueable) -> Result<(), FangError> {
        let store = idem_store();
        let sk = scoped(&self.tenant_id, &self.user_id, "refunds.execute", &self.idempotency_key).map_err(fang_err)?;

        let claim = store.acquire(&sk, std::time::Duration::from_secs(300)).await.map_err(fang_err)?;
        if !claim.is_new() {
            return Ok(());
        }

        let refund = psp()
            .refund(&self.payment_id, self.amount_minor)
            .await
            .expect("psp refund call");
        let body = serde_json::to_vec(&refund).map_err(fang_err)?;
        store.save_response(&sk, 200, &body).await.map_err(fang_err)?;
        Ok(())
    }

    fn uniq(&self) -> bool {
        true
    }

    fn max_retries(&self) -> i32 {
        5
    }
}
