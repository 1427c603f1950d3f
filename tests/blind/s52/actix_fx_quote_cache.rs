use actix_web::{post, web, HttpResponse};
use deadpool_postgres::Pool;

use crate::auth::DeskUser;
use crate::fx::{QuoteEngine, QuoteRequest};

pub struct QuoteReplays {
    pool: Pool,
}

impl QuoteReplays {
    pub async fn migrate(&self) -> anyhow::Result<()> {
        let client = self.pool.get().await?;
        client
            .batch_execute(
                "CREATE TABLE IF NOT EXISTS quote_replays (
                    replay_key  TEXT NOT NULL,
                    quote       TEXT NOT NULL,
                    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
                    CONSTRAINT quote_replays_pk PRIMARY KEY (replay_key)
                );
                CREATE TABLE IF NOT EXISTS fx_quotes (
                    id          UUID PRIMARY KEY,
                    org_id      TEXT NOT NULL,
                    pair        TEXT NOT NULL,
                    rate        NUMERIC(18, 8) NOT NULL
                );",
            )
            .await?;
        Ok(())
    }

    pub async fn load(&self, replay_key: &str) -> anyhow::Result<Option<String>> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt("SELECT quote FROM quote_replays WHERE replay_key = $1", &[&replay_key])
            .await?;
        Ok(row.map(|r| r.get("quote")))
    }

    pub async fn save(&self, replay_key: &str, quote: &str) -> anyhow::Result<()> {
        let client = self.pool.get().await?;
        client
            .execute(
                "INSERT INTO quote_replays (replay_key, quote) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                &[&replay_key, &quote],
            )
            .await?;
        Ok(())
    }
}

#[post("/v1/fx/quotes")]
pub async fn lock_quote(
    user: DeskUser,
    body: web::Bytes,
    replays: web::Data<QuoteReplays>,
    engine: web::Data<QuoteEngine>,
) -> actix_web::Result<HttpResponse> {
    let replay_key = format!("{}/{}/{}/{:x}", user.org_id, user.user_id, "fx.quote", fxhash::hash64(&body[..]));
    if let Some(q) = replays.load(&replay_key).await.map_err(actix_web::error::ErrorServiceUnavailable)? {
        return Ok(HttpResponse::Ok().content_type("application/json").body(q));
    }
    let req: QuoteRequest = serde_json::from_slice(&body)?;
    let quote = engine
        .quote(&user.org_id, &req.sell, &req.buy, req.amount)
        .await
        .map_err(actix_web::error::ErrorBadGateway)?;
    let rendered = serde_json::to_string(&quote)?;
    replays.save(&replay_key, &rendered).await.map_err(actix_web::error::ErrorServiceUnavailable)?;
    Ok(HttpResponse::Created().content_type("application/json").body(rendered))
}
