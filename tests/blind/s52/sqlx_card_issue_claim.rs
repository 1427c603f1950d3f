use idem_scope::{scoped, Fingerprint};
use sqlx::PgPool;

use crate::cards::{CardIssuer, IssueCard, IssuedCard};

#[derive(Debug, thiserror::Error)]
pub enum IssueError {
    #[error("request already in flight")]
    InFlight,
    #[error(transparent)]
    Scope(#[from] idem_scope::ScopeError),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Issuer(#[from] crate::cards::IssuerError),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

pub struct CardService {
    pool: PgPool,
    issuer: CardIssuer,
}

impl CardService {
    pub async fn issue(&self, tenant_id: &str, user_id: &str, idem: &str, raw: &[u8]) -> Result<IssuedCard, IssueError> {
        let key = scoped(tenant_id, user_id, "card.issue", idem)?;
        let cols = key.columns();
        let fp = Fingerprint::of("card.issue", raw);

        let claimed = sqlx::query("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status) VALUES ($1, $2, $3, $4, $5, $6, $7, 'in_progress') ON CONFLICT DO NOTHING")
            .bind(cols.scope_version)
            .bind(cols.tenant_id)
            .bind(cols.principal_id)
            .bind(cols.route)
            .bind(cols.ns)
            .bind(cols.idem_key)
            .bind(fp.as_bytes().as_slice())
            .execute(&self.pool)
            .await?;
        if claimed.rows_affected() == 0 {
            return Err(IssueError::InFlight);
        }

        let cmd: IssueCard = serde_json::from_slice(raw)?;
        let card = self.issuer.issue(tenant_id, &cmd).await?;

        sqlx::query("UPDATE idempotency_records SET status = 'completed', response = $7 WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6")
            .bind(cols.scope_version)
            .bind(cols.tenant_id)
            .bind(cols.principal_id)
            .bind(cols.route)
            .bind(cols.ns)
            .bind(cols.idem_key)
            .bind(serde_json::to_value(&card)?)
            .execute(&self.pool)
            .await?;
        Ok(card)
    }

    pub async fn freeze(&self, tenant_id: &str, card_id: &str, reason: &str) -> Result<(), IssueError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE cards SET frozen = true WHERE tenant_id = $1 AND id = $2")
            .bind(tenant_id)
            .bind(card_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO card_events (tenant_id, card_id, kind, note) VALUES ($1, $2, 'frozen', $3)")
            .bind(tenant_id)
            .bind(card_id)
            .bind(reason)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
}
