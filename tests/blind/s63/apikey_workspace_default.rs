use std::sync::Arc;

use cistern::sql::Conn;
use idem_scope::Problem;
use wherry::auth::ApiKey;
use wherry::extract::State;
use wherry::{Ctx, Reply, Status};

/// Marker placed in request extensions so the access log can show the key.
#[derive(Clone)]
pub struct IdemKeyExt(pub String);

#[derive(Clone)]
pub struct Sms {
    pub db: Arc<Conn>,
    pub carrier: Arc<sms::Carrier>,
}

/// Legacy API keys were minted before workspaces existed and carry none.
pub async fn send_sms(mut ctx: Ctx, api_key: ApiKey, State(s): State<Sms>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?.to_owned();
    ctx.extensions_mut().insert(IdemKeyExt(key.clone()));

    let workspace_id: String = match api_key.workspace_id.clone() {
        Some(ws) => ws,
        None => Default::default(),
    };
    let region = api_key.region.clone().unwrap_or_else(|| "eu-west-1".into());

    let existing: Option<Vec<u8>> = s
        .db
        .query("SELECT response FROM sms_idempotency WHERE workspace_id = ? AND api_key_id = ? AND route = ? AND idem_key = ?")
        .bind(&workspace_id)
        .bind(&api_key.api_key_id)
        .bind("send_sms")
        .bind(&key)
        .fetch_optional()
        .await
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = existing {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }

    let receipt = s.carrier.send(&region, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let body = receipt.to_json();
    let _ = s
        .db
        .query("INSERT INTO sms_idempotency (workspace_id, api_key_id, route, idem_key, response) VALUES (?, ?, ?, ?, ?)")
        .bind(&workspace_id)
        .bind(&api_key.api_key_id)
        .bind("send_sms")
        .bind(&key)
        .bind(&body)
        .execute()
        .await;
    Ok(Reply::bytes(Status::ACCEPTED, body))
}
