use std::sync::Arc;

use faststr::FastStr;
use ledgerkit::kv::Kv;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha512};
use volo_thrift::ServerError;

/// Mirrors `struct SettleBatchRequest` in settlement.thrift.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SettleBatchRequest {
    pub merchant_id: FastStr,
    pub caller_id: FastStr,
    pub batch: Vec<SettlementLine>,
    pub cutoff: i64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SettlementLine {
    pub payment_id: FastStr,
    pub amount_minor: i64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SettleBatchResponse {
    pub settlement_id: FastStr,
    pub lines: u32,
}

pub struct SettlementService {
    dedup: Arc<Kv>,
    bank: Arc<bankfile::Writer>,
}

impl settlement_gen::Settlement for SettlementService {
    async fn settle_batch(&self, req: SettleBatchRequest) -> Result<SettleBatchResponse, ServerError> {
        let wire = postcard::to_allocvec(&req).map_err(anyhow::Error::from)?;
        let batch_digest = hex::encode(Sha512::digest(&wire));
        let merchant_id = req.merchant_id.as_str();
        let caller_id = req.caller_id.as_str();
        let operation = "SettleBatch";

        let dedup_key = [merchant_id, caller_id, operation, batch_digest.as_str()].concat();
        if let Some(bytes) = self.dedup.get(&dedup_key).await? {
            return Ok(postcard::from_bytes(&bytes).map_err(anyhow::Error::from)?);
        }

        let settlement_id = self.bank.write_batch(merchant_id, &req.batch, req.cutoff).await?;
        let resp = SettleBatchResponse { settlement_id: settlement_id.into(), lines: req.batch.len() as u32 };
        let bytes = postcard::to_allocvec(&resp).map_err(anyhow::Error::from)?;
        self.dedup.put(&dedup_key, bytes).await?;
        Ok(resp)
    }
}
