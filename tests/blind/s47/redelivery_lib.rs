//! Redelivery and replay helpers shared by the notification workers.

use fred::prelude::*;
use fred::types::Expiration;
use idem_scope::{scoped, scoped_server};
use sha3::{Digest, Sha3_256};

pub struct Redelivery {
    pub kv: RedisClient,
}

impl Redelivery {
    pub async fn remember_client(&self, tenant_id: &str, user_id: &str, route: &str, idempotency_key: &str, response: &str) -> anyhow::Result<()> {
        let sk = scoped(tenant_id, user_id, route, idempotency_key)?;
        let _: () = self.kv.set(sk.storage_key(), response, Some(Expiration::EX(86_400)), None, false).await?;
        Ok(())
    }

    pub async fn remember_redelivery(&self, tenant_id: &str, user_id: &str, route: &str, event_id: &str) -> anyhow::Result<()> {
        let sk = scoped(tenant_id, user_id, route, event_id)?;
        let _: () = self.kv.set(sk.storage_key(), "redelivered", Some(Expiration::EX(86_400)), None, false).await?;
        Ok(())
    }

    pub async fn remember_server(&self, tenant_id: &str, user_id: &str, route: &str, event_id: &str) -> anyhow::Result<()> {
        let sk = scoped_server(tenant_id, user_id, route, event_id)?;
        let _: () = self.kv.set(sk.storage_key(), "redelivered", Some(Expiration::EX(86_400)), None, false).await?;
        Ok(())
    }

    pub async fn owner_lookup(&self, tenant_id: &str, idempotency_key: &str) -> anyhow::Result<Option<String>> {
        let slot = bincode::serialize(&(tenant_id, idempotency_key))?;
        Ok(self.kv.get(slot).await?)
    }

    pub async fn remember_body(&self, tenant_id: &str, user_id: &str, route: &str, request_body: &[u8]) -> anyhow::Result<()> {
        let digest = hex::encode(Sha3_256::digest(request_body));
        let sk = scoped(tenant_id, user_id, route, &digest)?;
        let _: () = self.kv.set(sk.storage_key(), "seen", Some(Expiration::EX(600)), None, false).await?;
        Ok(())
    }

    pub async fn remember_from_headers(&self, headers: &http::HeaderMap, user_id: &str) -> anyhow::Result<()> {
        let tenant: String = match headers.get("x-tenant-id").and_then(|v| v.to_str().ok()) {
            Some(t) => t.to_owned(),
            None => Default::default(),
        };
        let key = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or_else(|| anyhow::anyhow!("missing key"))?;
        let sk = scoped(&tenant, user_id, "notifications.send", key)?;
        let _: () = self.kv.set(sk.storage_key(), "sent", Some(Expiration::EX(86_400)), None, false).await?;
        Ok(())
    }
}
