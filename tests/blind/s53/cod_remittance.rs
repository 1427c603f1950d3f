use idem_scope::ScopedKey;
use sqlx::{PgPool, Row};

use crate::remittance::{RemitInstruction, RemitOutcome, RemittanceBank};

pub const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS idempotency_records (
    scope_version TEXT NOT NULL,
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    ns            TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    fingerprint   BYTEA NOT NULL,
    status        TEXT NOT NULL,
    response      JSONB,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
"#;

pub struct CodRemitter {
    pool: PgPool,
    bank: RemittanceBank,
}

impl CodRemitter {
    pub async fn remit(&self, key: &ScopedKey, fingerprint: &[u8], instr: RemitInstruction) -> Result<RemitOutcome, sqlx::Error> {
        let c = key.columns();
        let inserted = sqlx::query("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'in_progress', now() + interval '1 day') ON CONFLICT DO NOTHING")
            .bind(c.scope_version)
            .bind(c.tenant_id)
            .bind(c.principal_id)
            .bind(c.route)
            .bind(c.ns)
            .bind(c.idem_key)
            .bind(fingerprint)
            .execute(&self.pool)
            .await?;
        if inserted.rows_affected() == 0 {
            let row = sqlx::query("SELECT status, response FROM idempotency_records WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6")
                .bind(c.scope_version).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.ns).bind(c.idem_key)
                .fetch_one(&self.pool)
                .await?;
            let response: Option<serde_json::Value> = row.try_get("response")?;
            return Ok(response.map(RemitOutcome::Replayed).unwrap_or(RemitOutcome::Pending));
        }

        let confirmation = self.bank.transfer(&instr.account_id, instr.amount_minor, &instr.reference).await.unwrap();
        let outcome = RemitOutcome::Sent(confirmation);

        sqlx::query("UPDATE idempotency_records SET status = 'completed', response = $7 WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6")
            .bind(c.scope_version).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.ns).bind(c.idem_key)
            .bind(sqlx::types::Json(&outcome))
            .execute(&self.pool)
            .await?;
        Ok(outcome)
    }
}
