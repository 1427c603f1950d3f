use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, ClaimGuard, Problem};
use larder::pantry::Pantry;
use tamarind::auth::Caller;
use tamarind::extract::FromRequest;
use tamarind::{Reply, Req};

/// Idempotency-Key as sent by the billing portal (some old builds append NULs).
pub struct PortalKey(pub String);

impl FromRequest for PortalKey {
    fn from_request(req: &Req) -> Result<Self, Reply> {
        let raw = req
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let cleaned = raw.replace('\0', "");
        if cleaned.is_empty() {
            return Err(Reply::problem(Problem::invalid_key("empty key")));
        }
        Ok(PortalKey(cleaned))
    }
}

pub async fn cancel_subscription(
    req: Req,
    caller: Caller,
    PortalKey(client_key): PortalKey,
    pantry: Arc<Pantry>,
) -> Result<Reply, Reply> {
    let sub_id = req.param("id").ok_or_else(|| Reply::status(404))?.to_owned();
    let key = scoped(&caller.tenant_id, &caller.user_id, "subscriptions.cancel", &client_key)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;

    if !pantry.claim(key.storage_key(), Duration::from_secs(60)).await.map_err(Reply::internal)? {
        return Err(Reply::problem(Problem::in_progress(&client_key)));
    }
    let release_to = pantry.clone();
    let release_key = key.storage_key().to_owned();
    let guard = ClaimGuard::new(move || {
        tokio::spawn(async move {
            let _ = release_to.release(&release_key).await;
        });
    });

    let effective = end_of_period(&sub_id).await.map_err(Reply::internal)?;
    let body = format!("{{\"subscription\":\"{sub_id}\",\"cancel_at\":\"{effective}\"}}");
    pantry.complete(key.storage_key(), body.as_bytes()).await.map_err(Reply::internal)?;
    guard.complete();
    Ok(Reply::raw(200, body.into_bytes()))
}

async fn end_of_period(sub_id: &str) -> anyhow::Result<String> {
    anyhow::ensure!(sub_id.starts_with("sub_"), "not a subscription id");
    Ok("2025-02-01T00:00:00Z".to_owned())
}
