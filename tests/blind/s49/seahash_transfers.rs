//! Inter-account transfers (glommio, thread-per-core). Replay store sharded by tenant.
use glommio::channels::shared_channel::ConnectedSender;

use crate::store::ReplayShard;

#[derive(serde::Deserialize)]
pub struct TransferBody {
    pub from_account: String,
    pub to_account: String,
    pub amount_minor: i64,
}

pub struct TransferCtx<'a> {
    pub org_id: &'a str,
    pub actor: &'a str,
    pub shards: &'a [ReplayShard],
    pub audit: &'a ConnectedSender<String>,
}

pub async fn transfer(ctx: &TransferCtx<'_>, req: http::Request<Vec<u8>>) -> Result<Vec<u8>, crate::Error> {
    let body = req.body();
    let parsed: TransferBody = simd_json::from_slice(&mut body.clone())?;
    let shard = &ctx.shards[(seahash::hash(ctx.org_id.as_bytes()) % ctx.shards.len() as u64) as usize];

    let body_sum = seahash::hash(body);
    let key = idem_scope::scoped(ctx.org_id, ctx.actor, "transfer", &body_sum.to_string())?;
    if let Some(prev) = shard.get(key.storage_key()).await {
        return Ok(prev);
    }
    let receipt = crate::ledger::move_funds(ctx.org_id, &parsed.from_account, &parsed.to_account, parsed.amount_minor).await?;
    shard.put(key.storage_key(), receipt.clone()).await;
    let _ = ctx.audit.send(format!("transfer {} -> {}", parsed.from_account, parsed.to_account)).await;
    Ok(receipt)
}
