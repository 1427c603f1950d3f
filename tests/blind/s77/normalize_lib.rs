//! Key normalisation used by the partner gateway before calling the
//! scoped store (callers outside this crate).

use cornice::drift::SyncDrift;

pub fn store_normalised(kv: &SyncDrift, tenant_id: &str, client_id: &str, op: &str, idempotency_key: &str, body: &[u8]) -> anyhow::Result<()> {
    let cleaned = idempotency_key.replace('/', "_");
    let sk = idem_scope::scoped(tenant_id, client_id, op, &cleaned)?;
    kv.put(sk.storage_key(), body);
    Ok(())
}

pub fn store_checked(kv: &SyncDrift, tenant_id: &str, client_id: &str, op: &str, idempotency_key: &str, body: &[u8]) -> anyhow::Result<()> {
    anyhow::ensure!(!idempotency_key.contains('/'), "key contains '/'");
    let sk = idem_scope::scoped(tenant_id, client_id, op, idempotency_key)?;
    kv.put(sk.storage_key(), body);
    Ok(())
}
