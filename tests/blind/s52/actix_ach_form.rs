use actix_web::{post, web, HttpRequest, HttpResponse};
use deadpool_postgres::Pool;
use serde::Deserialize;

use crate::auth::BearerClaims;
use crate::ach::Originator;

const OPERATION: &str = "ach.submit";

#[derive(Deserialize)]
pub struct AchForm {
    routing_number: String,
    account_number: String,
    amount_cents: i64,
}

pub struct AchReplayStore {
    pool: Pool,
}

const BOOTSTRAP: &str = r#"
CREATE TABLE IF NOT EXISTS ach_idempotency (
    idem_key    TEXT PRIMARY KEY,
    response    TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
"#;

impl AchReplayStore {
    pub async fn bootstrap(&self) -> anyhow::Result<()> {
        self.pool.get().await?.batch_execute(BOOTSTRAP).await?;
        Ok(())
    }

    pub async fn get(&self, slot: &str) -> anyhow::Result<Option<String>> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt("SELECT response FROM ach_idempotency WHERE idem_key = $1", &[&slot])
            .await?;
        Ok(row.map(|r| r.get(0)))
    }

    pub async fn put(&self, slot: &str, response: &str) -> anyhow::Result<()> {
        let client = self.pool.get().await?;
        client
            .execute("INSERT INTO ach_idempotency (idem_key, response) VALUES ($1, $2)", &[&slot, &response])
            .await?;
        Ok(())
    }
}

fn dedup_slot(tenant_id: &str, user_id: &str, operation: &str, key: &str) -> String {
    format!("{tenant_id}:{user_id}:{operation}:{key}")
}

#[post("/v1/ach/transfers")]
pub async fn submit(
    req: HttpRequest,
    claims: BearerClaims,
    form: web::Form<AchForm>,
    store: web::Data<AchReplayStore>,
    originator: web::Data<Originator>,
) -> actix_web::Result<HttpResponse> {
    let key = req
        .headers()
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| actix_web::error::ErrorBadRequest("Idempotency-Key required"))?;
    let slot = dedup_slot(&claims.tenant_id, &claims.user_id, OPERATION, key);
    if let Some(prev) = store.get(&slot).await.map_err(actix_web::error::ErrorServiceUnavailable)? {
        return Ok(HttpResponse::Ok().insert_header(("Idempotent-Replayed", "true")).body(prev));
    }
    let form = form.into_inner();
    let entry = originator
        .originate(&claims.tenant_id, &form.routing_number, &form.account_number, form.amount_cents)
        .await
        .map_err(actix_web::error::ErrorUnprocessableEntity)?;
    let body = serde_json::to_string(&entry)?;
    store.put(&slot, &body).await.map_err(actix_web::error::ErrorServiceUnavailable)?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/v1/ach/transfers/{}", entry.id)))
        .content_type("application/json")
        .body(body))
}
