//! Read side of the replay store, linked into the admin and support binaries.

use cobble::tuple::TupleVault;
use cobble::vault::Vault;

pub struct ReplayRequest {
    pub tenant_id: String,
    pub idempotency_key: String,
    pub reason: String,
}

pub async fn find_response(vault: &Vault, idempotency_key: &str) -> Result<Option<Vec<u8>>, cobble::Error> {
    let hit = vault.get(idempotency_key).await?;
    if hit.is_none() {
        log::debug!("no stored response for {idempotency_key}");
    }
    Ok(hit)
}

pub async fn mark_replayed(store: &TupleVault, req: &ReplayRequest) -> Result<(), cobble::Error> {
    store.put(&(req.tenant_id.as_str(), req.idempotency_key.as_str()), req.reason.as_bytes()).await
}

pub async fn replay_count(vault: &Vault, tenant_id: &str) -> Result<u64, cobble::Error> {
    let n = vault.get(&format!("replays:{tenant_id}")).await?;
    Ok(n.map(|b| u64::from_be_bytes(b.try_into().unwrap_or_default())).unwrap_or(0))
}

pub fn describe(req: &ReplayRequest) -> String {
    let reason = if req.reason.is_empty() { "unspecified" } else { req.reason.as_str() };
    format!("replay requested for tenant {} ({reason})", req.tenant_id)
}

pub fn is_expired(created_secs: u64, now_secs: u64, ttl_secs: u64) -> bool {
    now_secs.saturating_sub(created_secs) > ttl_secs
}

#[cfg(test)]
mod tests {
    use super::is_expired;

    #[test]
    fn expiry_boundary() {
        assert!(!is_expired(100, 200, 100));
        assert!(is_expired(100, 201, 100));
    }
}
