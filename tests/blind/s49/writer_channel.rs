//! Write-behind replay cache: handlers hand finished responses to a writer task.
use std::borrow::Cow;
use std::sync::Arc;

use tokio::sync::mpsc;

pub struct ReplayWrite {
    pub idempotency_key: Arc<str>,
    pub response: Vec<u8>,
}

pub fn spawn_writer(store: crate::kv::Kv) -> mpsc::Sender<ReplayWrite> {
    let (tx, mut rx) = mpsc::channel::<ReplayWrite>(1024);
    tokio::spawn(async move {
        while let Some(w) = rx.recv().await {
            if let Err(e) = store.put(&w.idempotency_key, w.response).await {
                tracing::warn!(error = %e, "replay write failed");
            }
        }
    });
    tx
}

pub async fn handle_order(
    parts: &http::request::Parts,
    who: &crate::Who,
    body: &[u8],
    tx: &mpsc::Sender<ReplayWrite>,
) -> Result<Vec<u8>, crate::Error> {
    let key: Arc<str> = parts
        .headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or(crate::Error::MissingKey)?
        .into();
    let trace: Cow<'_, str> = match parts.headers.get("x-request-id").and_then(|v| v.to_str().ok()) {
        Some(id) => Cow::Borrowed(id),
        None => Cow::Owned(uuid::Uuid::new_v4().to_string()),
    };
    tracing::info!(%trace, tenant = %who.tenant_id, "order received");

    let out = crate::orders::create(&who.tenant_id, &who.user_id, body).await?;
    let _ = tx
        .send(ReplayWrite { idempotency_key: key.clone(), response: out.clone() })
        .await;
    Ok(out)
}
