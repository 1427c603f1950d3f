use std::sync::Arc;
use std::time::Duration;

use axum::extract::MatchedPath;
use axum::http::request::Parts;
use axum::routing::post;
use axum::Router;
use idem_scope::{
    scoped_server, ClaimGuard, Claimed, Fingerprint, IdempotencyLayer, PgStore, Problem, Scope, ScopedKey, Store,
};

use crate::auth::{AuthLayer, Caller};
use crate::handlers::{create_payout, create_refund};
use crate::webhooks::{Delivery, WebhookSender};

fn resolve_scope(parts: &Parts) -> Result<Scope, Problem> {
    let caller = parts
        .extensions
        .get::<Caller>()
        .ok_or_else(|| Problem::invalid_key("request is not authenticated"))?;
    let route = parts
        .extensions
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_owned())
        .ok_or_else(|| Problem::invalid_key("route is not idempotent"))?;
    Ok(Scope { tenant: caller.tenant_id.clone(), principal: caller.user_id.clone(), route })
}

pub fn router(store: PgStore, auth: AuthLayer) -> Router {
    let idem = IdempotencyLayer::new(store, resolve_scope)
        .ttl(Duration::from_secs(24 * 3600))
        .lease(Duration::from_secs(300))
        .max_body(512 * 1024);
    Router::new()
        .route("/v1/payouts", post(create_payout))
        .route("/v1/refunds", post(create_refund))
        .layer(idem)
        .layer(auth)
}

pub struct ServerKeys;

impl ServerKeys {
    pub fn redelivery(d: &Delivery) -> Result<ScopedKey, idem_scope::ScopeError> {
        scoped_server(&d.tenant_id, &d.principal_id, "webhook.redeliver", &d.delivery_id)
    }
}

pub async fn redeliver(store: Arc<PgStore>, sender: &WebhookSender, d: Delivery) -> anyhow::Result<()> {
    let key = ServerKeys::redelivery(&d)?;
    let fp = Fingerprint::of("webhook.redeliver", &d.payload);
    if let Claimed::Existing(..) = store.claim(&key, &fp, Duration::from_secs(60)).await? {
        return Ok(());
    }
    let guard = {
        let (store, key) = (Arc::clone(&store), key.clone());
        ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = store.release(&key).await;
            });
        })
    };
    let status = sender.post(&d.endpoint, &d.payload).await?;
    let stored = idem_scope::StoredResponse { status, headers: Vec::new(), body: Vec::new() };
    store.complete(&key, &stored, Duration::from_secs(7 * 24 * 3600)).await?;
    guard.complete();
    Ok(())
}
