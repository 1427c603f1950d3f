use std::sync::OnceLock;

use celery::prelude::*;
use ferrum::kv::SharedKv;
use idem_scope::scoped;
use uuid::Uuid;

static KV: OnceLock<SharedKv> = OnceLock::new();

fn kv() -> &'static SharedKv {
    KV.get_or_init(|| SharedKv::connect(&std::env::var("FERRUM_URL").expect("FERRUM_URL")))
}

#[celery::task(max_retries = 5, time_limit = 30)]
pub async fn settle_invoice(
    tenant_id: String,
    user_id: String,
    invoice_id: String,
    idempotency_key: String,
) -> TaskResult<()> {
    let store = kv();
    tracing::info!(%tenant_id, %user_id, %invoice_id, "settling");
    let dedup = (tenant_id.as_str(), idempotency_key.as_str());
    if store.exists(&dedup).await.with_unexpected_err(|| "kv exists")? {
        return Ok(());
    }
    billing::settle(&tenant_id, &invoice_id).await.with_expected_err(|| "settle")?;
    store.put(&dedup, b"settled").await.with_unexpected_err(|| "kv put")?;
    Ok(())
}

#[celery::task(max_retries = 3)]
pub async fn capture_payment(
    tenant_id: String,
    user_id: String,
    payment_id: String,
    idempotency_key: String,
) -> TaskResult<String> {
    let sk = scoped(&tenant_id, &user_id, "payments.capture", &idempotency_key)
        .map_err(|e| TaskError::UnexpectedError(e.to_string()))?;
    let store = kv();
    store.claim(&sk).await.with_unexpected_err(|| "claim")?;
    let capture = psp::client()
        .capture(&tenant_id, &payment_id)
        .await
        .with_expected_err(|| "psp capture")?;
    store.complete(&sk, capture.id.as_bytes()).await.with_unexpected_err(|| "complete")?;
    Ok(capture.id)
}

#[celery::task]
pub async fn open_invoice(tenant_id: String, user_id: String, idempotency_key: String) -> TaskResult<String> {
    let store = kv();
    let sk = scoped(&tenant_id, &user_id, "invoices.open", &idempotency_key)
        .map_err(|e| TaskError::UnexpectedError(e.to_string()))?;
    if let Some(existing) = store.get(sk.storage_key()).await.with_unexpected_err(|| "kv get")? {
        return Ok(String::from_utf8_lossy(&existing).into_owned());
    }
    let invoice_id = Uuid::new_v4().to_string();
    billing::open(&tenant_id, &invoice_id).await.with_expected_err(|| "open")?;
    store.put(sk.storage_key(), invoice_id.as_bytes()).await.with_unexpected_err(|| "kv put")?;
    Ok(invoice_id)
}

#[celery::task]
pub async fn purge_settled() -> TaskResult<u64> {
    let batch: u64 = std::env::var("PURGE_BATCH").ok().and_then(|v| v.parse().ok()).unwrap_or_default();
    kv().purge_older_than(chrono::Duration::days(7), batch.max(100)).await.with_unexpected_err(|| "purge")
}
