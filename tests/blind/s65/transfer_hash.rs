use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use kestrel::extract::{Head, Json};
use kestrel::{Outcome, Status};
use serde::Deserialize;
use tessera::kv::Kv;

use crate::treasury::Treasury;

#[derive(Deserialize, Hash)]
pub struct InternalTransfer {
    pub from_wallet: String,
    pub to_wallet: String,
    pub amount_minor: i64,
    pub reference: Option<String>,
}

pub struct TransferShards {
    shards: Vec<Arc<Kv>>,
    treasury: Arc<Treasury>,
}

impl TransferShards {
    fn shard_for(&self, tenant_id: &str) -> &Kv {
        let mut h = DefaultHasher::new();
        tenant_id.hash(&mut h);
        let idx = (h.finish() % self.shards.len() as u64) as usize;
        &self.shards[idx]
    }

    pub async fn submit(&self, head: Head, Json(transfer): Json<InternalTransfer>) -> Outcome {
        let Some(who) = head.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let mut hasher = DefaultHasher::new();
        transfer.hash(&mut hasher);
        let body_sig = hasher.finish();
        let route = "internal_transfer";
        let slot = format!("{}:{}:{}:{:016x}", who.tenant_id, who.user_id, route, body_sig);
        let store = self.shard_for(&who.tenant_id);
        if let Ok(Some(prev)) = store.get(&slot).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let moved = match self.treasury.internal(&who.tenant_id, &transfer.from_wallet, &transfer.to_wallet, transfer.amount_minor).await {
            Ok(m) => m,
            Err(e) => return Outcome::text(Status::CONFLICT, e.to_string()),
        };
        let bytes = kestrel::json::to_vec(&moved).unwrap_or_default();
        let _ = store.put(&slot, bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
