use hiqlite::{params, Client, Param};
use serde::Deserialize;

use crate::provider::{PayoutError, PayoutProvider};

pub const MIGRATION_0003: &str = r#"
CREATE TABLE IF NOT EXISTS idempotency_keys (
    tenant_id   TEXT    NOT NULL,
    user_id     TEXT    NOT NULL,
    route       TEXT    NOT NULL,
    idem_key    TEXT    NOT NULL,
    status      TEXT    NOT NULL,
    response    BLOB,
    created_at  INTEGER NOT NULL DEFAULT (unixepoch()),
    PRIMARY KEY (tenant_id, user_id, route, idem_key)
) STRICT;
"#;

#[derive(Deserialize)]
pub struct PayoutBody {
    pub iban: String,
    pub amount_minor: i64,
}

pub struct Payouts {
    db: Client,
    provider: PayoutProvider,
}

impl Payouts {
    pub async fn create(
        &self,
        headers: &http::HeaderMap,
        tenant_id: &str,
        user_id: &str,
        body: PayoutBody,
    ) -> anyhow::Result<String> {
        let idem_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;

        let rows = self.db.execute("INSERT INTO idempotency_keys (tenant_id, user_id, route, idem_key, status) VALUES ($1, $2, 'payouts.create', $3, 'in_progress') ON CONFLICT DO NOTHING", params!(tenant_id, user_id, idem_key.clone())).await?;
        if rows == 0 {
            anyhow::bail!("payout {idem_key} is already being processed");
        }

        let mut reference = None;
        for attempt in 0..3u32 {
            match self.provider.payout(&body.iban, body.amount_minor).await {
                Ok(r) => {
                    reference = Some(r);
                    break;
                }
                Err(PayoutError::Throttled) => {
                    tokio::time::sleep(std::time::Duration::from_millis(200 << attempt)).await;
                    continue;
                }
                Err(other) => return Err(other.into()),
            }
        }
        let reference = reference.unwrap_or_else(|| "pending-manual-review".to_string());

        self.db
            .execute(
                "UPDATE idempotency_keys SET status = 'completed', response = $1 WHERE tenant_id = $2 AND user_id = $3 AND route = 'payouts.create' AND idem_key = $4",
                params!(reference.clone(), tenant_id, user_id, idem_key),
            )
            .await?;
        Ok(reference)
    }
}
