//! Transfers API backed by rustis (async Redis client).
use http::{HeaderMap, HeaderName};
use rustis::client::Client;
use rustis::commands::{GenericCommands, SetCondition, SetExpiration, StringCommands};

static IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");
static REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

pub struct Transfers {
    redis: Client,
    locks: Client,
}

pub struct Identity {
    pub tenant_id: String,
    pub caller_id: String,
}

impl Transfers {
    pub async fn create(
        &self,
        headers: &HeaderMap,
        who: &Identity,
        body: bytes::Bytes,
    ) -> Result<Vec<u8>, crate::ApiError> {
        let request_id = headers
            .get(&REQUEST_ID)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("-");
        let key = headers
            .get(&IDEMPOTENCY_KEY)
            .ok_or(crate::ApiError::MissingKey)?
            .to_str()
            .map_err(|_| crate::ApiError::InvalidKey)?
            .to_owned();
        tracing::debug!(%request_id, "transfer create");

        let operation = "transfer";
        let redis_key = [who.tenant_id.as_str(), who.caller_id.as_str(), operation, key.as_str()].join("\x1e");
        let cached: Option<Vec<u8>> = self.redis.get(&redis_key).await?;
        if let Some(prev) = cached {
            return Ok(prev);
        }
        let result = crate::ledger::transfer(&who.tenant_id, &body).await?;
        self.redis
            .set_with_options(&redis_key, result.clone(), SetCondition::None, SetExpiration::Ex(86_400), false)
            .await?;
        Ok(result)
    }

    pub async fn nightly_sweep(&self) -> Result<(), crate::ApiError> {
        let lock_name = ["locks", "transfers", "sweep"].join(":");
        let got: bool = self
            .locks
            .set_with_options(&lock_name, "1", SetCondition::NX, SetExpiration::Ex(600), false)
            .await?;
        if !got {
            return Ok(());
        }
        crate::ledger::sweep().await?;
        self.locks.set(&lock_name, "done").await?;
        Ok(())
    }
}
