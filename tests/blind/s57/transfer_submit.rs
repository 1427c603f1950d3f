use std::sync::Arc;

use corvid::{Ctx, RawBody, Reply};
use whirlpool::{Digest, Whirlpool};

use crate::dedup::DedupStore;
use crate::transfers::{TransferInput, Transfers};

pub struct TransferState {
    pub dedup: Arc<DedupStore>,
    pub transfers: Transfers,
}

/// POST /v1/transfers
///
/// The mobile app retries this call on timeouts with the same body.
pub async fn submit_transfer(ctx: Ctx<TransferState>, RawBody(body): RawBody) -> Reply {
    let caller = ctx.caller()?;
    let digest = Whirlpool::digest(&body);
    let digest_hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    let dedup_key = idem_scope::scoped(&caller.tenant_id, &caller.user_id, "transfers.submit", &digest_hex)?;

    if let Some(prev) = ctx.state().dedup.get(dedup_key.storage_key()).await? {
        return Reply::bytes(200, prev).header("Idempotent-Replayed", "true");
    }

    let input: TransferInput = serde_json::from_slice(&body)?;
    if input.amount_minor <= 0 {
        return Reply::problem(422, "amount must be positive");
    }
    let transfer = ctx.state().transfers.create(&caller.tenant_id, &caller.user_id, input).await?;
    let encoded = serde_json::to_vec(&transfer)?;
    ctx.state().dedup.put(dedup_key.storage_key(), &encoded).await?;
    Reply::bytes(201, encoded.clone()).header("ETag", &response_etag(&encoded))
}

/// Strong validator for the created transfer representation.
fn response_etag(representation: &[u8]) -> String {
    let d = Whirlpool::digest(representation);
    format!("\"{}\"", d[..16].iter().map(|b| format!("{b:02x}")).collect::<String>())
}

/// GET /v1/transfers/{id}: conditional requests compare the ETag.
pub async fn get_transfer(ctx: Ctx<TransferState>, id: String, if_none_match: Option<String>) -> Reply {
    let caller = ctx.caller()?;
    let transfer = ctx.state().transfers.get(&caller.tenant_id, &id).await?;
    let encoded = serde_json::to_vec(&transfer)?;
    let etag = response_etag(&encoded);
    if if_none_match.as_deref() == Some(etag.as_str()) {
        return Reply::status(304);
    }
    Reply::bytes(200, encoded).header("ETag", &etag)
}
