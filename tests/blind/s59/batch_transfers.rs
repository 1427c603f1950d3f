use std::sync::Arc;

use brindle::auth::Caller;
use brindle::{Json, Reply, State, Status};
use crossbeam_skiplist::SkipSet;
use serde::{Deserialize, Serialize};

use crate::transfers::{enqueue_transfer, TransferLeg};

#[derive(Deserialize, Serialize, Clone, Debug)]
pub struct BatchItem {
    pub from_account: String,
    pub to_account: String,
    pub amount_minor: i64,
    pub memo: Option<String>,
}

#[derive(Deserialize)]
pub struct BatchRequest {
    pub items: Vec<BatchItem>,
}

#[derive(Serialize)]
struct BatchSummary {
    accepted: usize,
    skipped: usize,
}

pub struct BatchDedup {
    pub processed_items: SkipSet<String>,
}

fn item_hash(item: &BatchItem) -> (u64, u64) {
    let bytes = serde_json::to_vec(item).unwrap_or_default();
    mur3::murmurhash3_x64_128(&bytes, 0x5eed)
}

pub async fn submit_batch(State(dedup): State<Arc<BatchDedup>>, caller: Caller, Json(req): Json<BatchRequest>) -> Reply {
    if req.items.len() > 500 {
        return Reply::status(Status::PAYLOAD_TOO_LARGE);
    }
    let tenant_id = caller.tenant_id.as_str();
    let user_id = caller.user_id.as_str();
    let pending: Vec<(String, &BatchItem)> = req
        .items
        .iter()
        .map(|item| (item_hash(item), item))
        .map(|((h1, h2), item)| (format!("{tenant_id}:{user_id}:batch.item:{h1:016x}{h2:016x}"), item))
        .collect();

    let mut summary = BatchSummary { accepted: 0, skipped: 0 };
    for (slot, item) in pending {
        if dedup.processed_items.contains(&slot) {
            summary.skipped += 1;
            continue;
        }
        let memo = item.memo.as_deref().map(|m| m.replace('|', " "));
        let leg = TransferLeg { from: item.from_account.clone(), to: item.to_account.clone(), amount_minor: item.amount_minor, memo };
        if enqueue_transfer(&caller, leg).await.is_ok() {
            dedup.processed_items.insert(slot);
            summary.accepted += 1;
        }
    }
    Reply::json(Status::ACCEPTED, &summary)
}
