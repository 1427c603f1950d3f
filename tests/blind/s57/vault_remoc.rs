use std::sync::Arc;

use remoc::rtc;
use serde::{Deserialize, Serialize};
use tallow::Table;

use crate::vault::{Receipt, VaultBackend, VaultError};

#[derive(Serialize, Deserialize, Clone)]
pub struct WithdrawRequest {
    pub tenant_id: String,
    pub user_id: String,
    pub account: String,
    pub amount_minor: i64,
    /// Idempotency key chosen by the client; a retried withdrawal must reuse it.
    pub client_key: String,
}

#[rtc::remote]
pub trait Vault {
    async fn withdraw(&self, req: WithdrawRequest) -> Result<Receipt, VaultError>;
    async fn balance(&self, tenant_id: String, account: String) -> Result<i64, VaultError>;
}

#[derive(Serialize, Deserialize)]
enum Slot {
    InProgress,
    Done(Receipt),
}

pub struct VaultObj {
    replies: Arc<Table<String, Slot>>,
    backend: VaultBackend,
}

#[rtc::async_trait]
impl Vault for VaultObj {
    async fn withdraw(&self, req: WithdrawRequest) -> Result<Receipt, VaultError> {
        let sk = idem_scope::scoped(&req.tenant_id, &req.user_id, "vault.withdraw", &req.client_key)
            .map_err(|e| VaultError::BadRequest(e.to_string()))?;
        let slot_key = sk.storage_key().to_owned();

        match self.replies.get(&slot_key).await? {
            Some(Slot::Done(r)) => return Ok(r),
            Some(Slot::InProgress) => return Err(VaultError::InProgress),
            None => {}
        }
        if !self.replies.insert_if_absent(&slot_key, Slot::InProgress).await? {
            return Err(VaultError::InProgress);
        }

        let limit = self.backend.daily_limit(&req.tenant_id, &req.account).await.unwrap();
        if req.amount_minor > limit {
            self.replies.remove(&slot_key).await?;
            return Err(VaultError::LimitExceeded);
        }
        let receipt = self.backend.withdraw(&req.tenant_id, &req.account, req.amount_minor).await?;
        self.replies.put(&slot_key, Slot::Done(receipt.clone())).await?;
        Ok(receipt)
    }

    async fn balance(&self, tenant_id: String, account: String) -> Result<i64, VaultError> {
        let cached = self.backend.cached_balance(&tenant_id, &account).unwrap_or_default();
        if cached != 0 {
            return Ok(cached);
        }
        self.backend.balance(&tenant_id, &account).await
    }
}
