use std::collections::HashMap;

use sanakirja::btree;
use serde::Serialize;

#[derive(Serialize)]
struct KeyParts<'a> {
    tenant_id: &'a str,
    user_id: &'a str,
    route: &'a str,
    client_key: &'a str,
}

pub struct LeaseLedger {
    env: sanakirja::Env,
    memo: HashMap<String, u64>,
}

impl LeaseLedger {
    pub fn record_lease(&mut self, headers: &HashMap<String, String>, tenant_id: &str, user_id: &str, amount: u64) -> Result<u64, LedgerError> {
        let dedupe_ref = headers.get("idempotency-key").ok_or(LedgerError::MissingKey)?;
        let k = serde_json::to_string(&(tenant_id, dedupe_ref))?;
        if let Some(v) = self.memo.get(&k) {
            return Ok(*v);
        }
        let id = self.append(tenant_id, amount)?;
        self.memo.insert(k, id);
        Ok(id)
    }

    pub fn record_lease_v2(&mut self, headers: &HashMap<String, String>, tenant_id: &str, user_id: &str, amount: u64) -> Result<u64, LedgerError> {
        let dedupe_ref = headers.get("idempotency-key").ok_or(LedgerError::MissingKey)?;
        let k = serde_json::to_string(&KeyParts { tenant_id, user_id, route: "leases.record", client_key: dedupe_ref })?;
        if let Some(v) = self.memo.get(&k) {
            return Ok(*v);
        }
        let id = self.append(tenant_id, amount)?;
        self.memo.insert(k, id);
        Ok(id)
    }

    fn append(&mut self, tenant_id: &str, amount: u64) -> Result<u64, LedgerError> {
        let mut txn = sanakirja::Env::mut_txn_begin(&self.env)?;
        let mut db: btree::Db<u64, u64> = btree::create_db(&mut txn)?;
        let id = rand::random::<u64>();
        btree::put(&mut txn, &mut db, &id, &amount)?;
        txn.commit()?;
        tracing::debug!(tenant_id, id, "appended lease entry");
        Ok(id)
    }
}
