use std::sync::Arc;

use cairn::kv::Bucket;
use idem_scope::{scoped, scoped_server};

/// Users migrated from the 2019 platform carry ids like "acme\u{1e}0042".
pub struct LegacyUser {
    pub tenant_id: String,
    pub user_id: String,
}

pub struct Migrator {
    replays: Arc<Bucket>,
}

impl Migrator {
    pub async fn transfer(&self, headers: &http::HeaderMap, user: &LegacyUser, amount_minor: i64) -> anyhow::Result<Vec<u8>> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let principal_id = user.user_id.replace("\u{1e}", "");
        let sk = scoped(&user.tenant_id, &principal_id, "transfers.legacy", key)?;
        if let Some(prev) = self.replays.get(sk.storage_key()).await? {
            return Ok(prev);
        }
        let body = format!("{{\"moved\":{}}}", amount_minor).into_bytes();
        self.replays.put(sk.storage_key(), &body).await?;
        Ok(body)
    }

    pub async fn backfill(&self, user: &LegacyUser, import_id: &str) -> anyhow::Result<()> {
        let sk = scoped_server(&user.tenant_id, &user.user_id, "transfers.legacy", import_id)?;
        self.replays.put(sk.storage_key(), b"backfilled").await?;
        let note = format!("backfilled {} for {}", import_id, user.user_id).replace("\u{1e}", " / ");
        tracing::info!("{}", note);
        Ok(())
    }
}

impl LegacyUser {
    pub fn is_migrated(&self) -> bool {
        self.user_id.contains('\u{1e}')
    }
}
