use idem_scope::{scoped, ClaimGuard, Fingerprint};
use std::sync::Arc;

pub struct RefundRequest {
    pub tenant_id: String,
    pub principal_id: String,
    pub idempotency_header: Option<Vec<u8>>,
    pub raw: Vec<u8>,
}

pub struct Ledger;
impl Ledger {
    pub async fn refund(&self, _raw: &[u8]) -> Result<Vec<u8>, String> {
        Ok(vec![])
    }
}

pub trait ClaimStore: Send + Sync + 'static {
    fn try_claim(&self, key: &str, fp: &Fingerprint) -> Result<bool, String>;
    fn complete(&self, key: &str, resp: &[u8]) -> Result<(), String>;
    fn release(&self, key: &str);
}

pub async fn refund(store: Arc<dyn ClaimStore>, ledger: &Ledger, req: RefundRequest) -> Result<Vec<u8>, String> {
    let raw_key = req.idempotency_header.as_deref().ok_or("missing Idempotency-Key")?;
    let parsed = idem_scope::IdempotencyKey::parse_lenient(raw_key).map_err(|e| e.to_string())?;
    let key = scoped(&req.tenant_id, &req.principal_id, "/v1/refunds", parsed.as_str()).map_err(|e| e.to_string())?;
    let fingerprint = Fingerprint::of("/v1/refunds", &req.raw);
    if !store.try_claim(key.storage_key(), &fingerprint)? {
        return Err("in progress".into());
    }
    let releaser = store.clone();
    let owned = key.storage_key().to_owned();
    let guard = ClaimGuard::new(move || releaser.release(&owned));
    let body = ledger.refund(&req.raw).await?;
    store.complete(key.storage_key(), &body)?;
    guard.complete();
    Ok(body)
}
