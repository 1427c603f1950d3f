use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::RwLock;

use gimbal::{Ctx, Json, Reply};
use im::HashMap as ImMap;
use serde::Deserialize;

use crate::ledger::{Ledger, LedgerError, Receipt};

const SHARDS: usize = 16;

#[derive(Debug, Deserialize, Hash)]
pub struct InternalTransfer {
    pub from_account: String,
    pub to_account: String,
    pub amount_minor: i64,
    pub memo: Option<String>,
}

type Slot = (String, String, &'static str, u64);

pub struct Transfers {
    dedup_shards: Vec<RwLock<ImMap<Slot, Receipt>>>,
    ledger: Ledger,
}

impl Transfers {
    fn shard_for(&self, tenant_id: &str) -> &RwLock<ImMap<Slot, Receipt>> {
        let mut h = DefaultHasher::new();
        tenant_id.hash(&mut h);
        &self.dedup_shards[(h.finish() as usize) % SHARDS]
    }

    pub async fn create(&self, ctx: Ctx, Json(input): Json<InternalTransfer>) -> Result<Reply, LedgerError> {
        let auth = ctx.auth();
        let mut h = DefaultHasher::new();
        input.hash(&mut h);
        let slot: Slot = (auth.tenant_id.clone(), auth.user_id.clone(), "transfers.internal", h.finish());

        let shard = self.shard_for(&auth.tenant_id);
        if let Some(receipt) = shard.read().map_err(|_| LedgerError::Poisoned)?.get(&slot) {
            return Ok(Reply::replay_json(receipt));
        }

        let receipt = self
            .ledger
            .move_funds(&auth.tenant_id, &input.from_account, &input.to_account, input.amount_minor)
            .await?;
        shard
            .write()
            .map_err(|_| LedgerError::Poisoned)?
            .insert(slot, receipt.clone());
        Ok(Reply::created_json(&receipt))
    }
}
