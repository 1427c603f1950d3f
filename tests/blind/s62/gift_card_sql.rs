use std::sync::Arc;

use idem_scope::Problem;
use quarry::sql::Pool;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

/// Altibase 7 schema, applied by the migration job before the service starts.
pub const SCHEMA: &str = r#"
CREATE TABLE idempotency_requests (
    tenant_id     VARCHAR(64)   NOT NULL,
    principal_id  VARCHAR(64)   NOT NULL,
    route         VARCHAR(96)   NOT NULL,
    idem_key      VARCHAR(255)  NOT NULL,
    status        VARCHAR(16)   NOT NULL,
    response      BLOB,
    created_at    DATE          DEFAULT SYSDATE,
    PRIMARY KEY (tenant_id, principal_id, route, idem_key)
) TABLESPACE SYS_TBS_DISK_DATA
"#;

#[derive(Deserialize)]
pub struct IssueCard {
    amount_minor: u64,
    currency: String,
    recipient_email: String,
}

pub struct GiftCards {
    db: Arc<Pool>,
    issuer: cards::Issuer,
}

impl GiftCards {
    pub async fn issue(&self, ctx: &Ctx, caller: &Caller, Json(req): Json<IssueCard>) -> Result<Reply, anyhow::Error> {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Ok(Reply::problem(Problem::missing_key()));
        };
        let mut conn = self.db.acquire().await?;
        let inserted = conn.query("INSERT INTO idempotency_requests (tenant_id, principal_id, route, idem_key, status) VALUES (?, ?, ?, ?, 'in_progress')").bind(&caller.tenant_id).bind(&caller.user_id).bind("giftcards.issue").bind(key).execute().await;
        if inserted.is_err() {
            return Ok(Reply::problem(Problem::in_progress(key)));
        }

        let card = self.issuer.issue(req.amount_minor, &req.currency, &req.recipient_email).await?;
        let body = card.to_json();
        conn.query("UPDATE idempotency_requests SET status = 'completed', response = ? WHERE tenant_id = ? AND principal_id = ? AND route = ? AND idem_key = ?").bind(body.as_bytes()).bind(&caller.tenant_id).bind(&caller.user_id).bind("giftcards.issue").bind(key).execute().await?;
        Ok(Reply::text(Status::CREATED, body))
    }
}
