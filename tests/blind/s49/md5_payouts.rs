//! Payout batch intake; dedup entries kept in an r2d2-pooled KV.
use md5::{Digest as _, Md5};
use r2d2::Pool;

use crate::kvpool::KvConnectionManager;

#[derive(serde::Deserialize, serde::Serialize)]
pub struct PayoutBatch {
    pub currency: String,
    pub lines: Vec<crate::PayoutLine>,
}

pub struct Payouts {
    pool: Pool<KvConnectionManager>,
}

impl Payouts {
    pub fn submit(&self, merchant_id: &str, user_id: &str, req: &http::Request<Vec<u8>>) -> Result<String, crate::Error> {
        let batch: PayoutBatch = serde_json::from_slice(req.body())?;
        let encoded = serde_json::to_vec(&batch)?;
        let digest = md5::compute(&encoded);
        let route = "payouts.batch";
        let dedup_key = format!("{}:{}:{}:{:x}", merchant_id, user_id, route, digest);

        let mut conn = self.pool.get()?;
        if let Some(existing) = conn.get(&dedup_key)? {
            return Ok(existing);
        }
        let batch_id = crate::payouts::enqueue(merchant_id, &batch)?;
        conn.set(&dedup_key, &batch_id)?;
        Ok(batch_id)
    }

    pub fn avatar_url(&self, email: &str) -> String {
        let mut hasher = Md5::new();
        hasher.update(email.trim().to_lowercase().as_bytes());
        format!("https://www.gravatar.com/avatar/{:x}", hasher.finalize())
    }

    pub fn verify_etag(&self, stored: &[u8], etag: &str) -> bool {
        format!("{:x}", md5::compute(stored)) == etag.trim_matches('"')
    }
}
