//! Generic claim/complete runner used by the batch tools (library; callers live elsewhere).
use coffer::drawer::SyncDrawer;
use idem_scope::{ClaimGuard, ScopedKey};

pub fn run_once(store: &SyncDrawer, idempotency_key: &str, work: impl FnOnce() -> anyhow::Result<Vec<u8>>) -> anyhow::Result<Vec<u8>> {
    store.claim(idempotency_key)?;
    let out = work()?;
    store.complete(idempotency_key, &out)?;
    Ok(out)
}

pub fn run_guarded(store: &SyncDrawer, key: &ScopedKey, work: impl FnOnce() -> anyhow::Result<Vec<u8>>) -> anyhow::Result<Vec<u8>> {
    store.claim(key.storage_key())?;
    let guard = ClaimGuard::new(|| {
        let _ = store.release(key.storage_key());
    });
    let out = work()?;
    store.complete(key.storage_key(), &out)?;
    guard.complete();
    Ok(out)
}

pub fn run_mapped(store: &SyncDrawer, key: &ScopedKey, work: impl FnOnce() -> anyhow::Result<Vec<u8>>) -> anyhow::Result<Vec<u8>> {
    store.claim(key.storage_key())?;
    let out = work().map_err(|e| {
        let _ = store.release(key.storage_key());
        e
    })?;
    store.complete(key.storage_key(), &out)?;
    Ok(out)
}
