//! Journal of completed inter-account transfers, shared by the HTTP front end
//! and the nightly batch importer.

use idem_scope::Fingerprint;
use serde::{Deserialize, Serialize};
use sluice::kv::{KvError, SyncBucket};

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Receipt {
    pub transfer_id: String,
    pub debit_account: String,
    pub credit_account: String,
    pub amount_minor: i64,
}

pub enum Recall {
    Fresh,
    Replay(Receipt),
    Conflict,
}

pub struct TransferJournal {
    kv: SyncBucket,
    ttl_secs: u64,
}

fn slot(tenant_id: &str, user_id: &str, idempotency_key: &str) -> String {
    format!("{}:{}:{}:{}", tenant_id, user_id, "transfer", idempotency_key)
}

impl TransferJournal {
    pub fn new(kv: SyncBucket, ttl_secs: u64) -> Self {
        Self { kv, ttl_secs }
    }

    pub fn recall(
        &self,
        tenant_id: &str,
        user_id: &str,
        idempotency_key: &str,
        fingerprint: &Fingerprint,
    ) -> Result<Recall, KvError> {
        let stored: Option<(Vec<u8>, Receipt)> = self.kv.get(&slot(tenant_id, user_id, idempotency_key))?;
        Ok(match stored {
            None => Recall::Fresh,
            Some((fp, receipt)) if fp == fingerprint.as_bytes() => Recall::Replay(receipt),
            Some(_) => Recall::Conflict,
        })
    }

    pub fn remember(
        &self,
        tenant_id: &str,
        user_id: &str,
        idempotency_key: &str,
        fingerprint: &Fingerprint,
        receipt: &Receipt,
    ) -> Result<(), KvError> {
        let value = (fingerprint.as_bytes().to_vec(), receipt.clone());
        self.kv
            .put_with_ttl(&slot(tenant_id, user_id, idempotency_key), &value, self.ttl_secs)
    }

    pub fn forget(&self, tenant_id: &str, user_id: &str, idempotency_key: &str) -> Result<(), KvError> {
        self.kv.remove(&slot(tenant_id, user_id, idempotency_key))
    }
}
