use cobble::vault::Vault;
use idem_scope::scoped;

/// Production helper: stores a response under the caller's scoped key.
pub async fn store_response(vault: &Vault, tenant: &str, user: &str, route: &str, raw: &str, body: &[u8]) -> anyhow::Result<()> {
    let sk = scoped(tenant, user, route, raw)?;
    vault.put(sk.storage_key(), body).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use thimble::testing::{fake_exchange, MemVault};

    #[test]
    fn legacy_layout_is_still_readable() {
        let vault = MemVault::new();
        let ex = fake_exchange().with_header("Idempotency-Key", "k-1");
        let raw = ex.header("Idempotency-Key").unwrap();
        let legacy = format!("{}:{}", "acme", raw);
        vault.put_blocking(&legacy, b"old");
        assert!(vault.get_blocking(&legacy).is_some());
    }

    #[test]
    fn raw_keys_do_not_collide_with_scoped() {
        let vault = MemVault::new();
        let ex = fake_exchange().with_header("Idempotency-Key", "k-2");
        let raw = ex.header("Idempotency-Key").unwrap();
        vault.put_blocking(raw, b"raw");
        let sk = scoped("acme", "u1", "charge", raw).unwrap();
        assert!(vault.get_blocking(sk.storage_key()).is_none());
    }

    #[test]
    fn anonymous_fixture() {
        let vault = MemVault::new();
        let ex = fake_exchange().with_header("Idempotency-Key", "k-3");
        let tenant: Option<&str> = None;
        let t = tenant.unwrap_or_default();
        let raw = ex.header("Idempotency-Key").unwrap();
        if let Ok(sk) = scoped(t, "u1", "charge", raw) {
            vault.put_blocking(sk.storage_key(), b"x");
        }
    }

    #[allow(dead_code)]
    fn unused(_v: &Vault) {}
}
