use anyhow::{ensure, Context};
use cobble::vault::Vault;
use idem_scope::scoped;
use thimble::auth::Caller;
use thimble::Exchange;

pub struct VoucherBatch {
    pub count: u32,
    pub value_minor: u64,
}

pub async fn mint_batch(ex: &Exchange, caller: &Caller, batch: VoucherBatch, vault: &Vault, vouchers: &crate::vouchers::Minter) -> anyhow::Result<Vec<String>> {
    let raw = ex.header("Idempotency-Key").context("Idempotency-Key required")?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "voucher.mint", raw)?;
    vault.obtain(sk.storage_key()).await?;
    ensure!(batch.count <= 500, "batch too large: {}", batch.count);
    ensure!(batch.value_minor > 0, "zero-value vouchers are not allowed");

    let codes = vouchers.mint(&caller.tenant_id, batch.count, batch.value_minor).await;
    vault.finish(sk.storage_key(), &serde_json::to_vec(&codes)?).await?;
    Ok(codes)
}

pub async fn preview_batch(ex: &Exchange, caller: &Caller, batch: VoucherBatch, vault: &Vault) -> anyhow::Result<u64> {
    let raw = ex.header("Idempotency-Key").context("Idempotency-Key required")?;
    ensure!(batch.count <= 500, "batch too large");
    let sk = scoped(&caller.tenant_id, &caller.user_id, "voucher.preview", raw)?;
    vault.obtain(sk.storage_key()).await?;
    let total = u64::from(batch.count).saturating_mul(batch.value_minor);
    vault.finish(sk.storage_key(), &total.to_be_bytes()).await?;
    Ok(total)
}

pub fn validate(batch: &VoucherBatch) -> Result<(), String> {
    if batch.count == 0 {
        return Err("empty batch".into());
    }
    if batch.value_minor > 100_000 {
        return Err(format!("voucher value {} above limit", batch.value_minor));
    }
    Ok(())
}
