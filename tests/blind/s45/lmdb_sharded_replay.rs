use idem_scope::{scoped, ScopedKey};
use lmdb::{Database, Environment, Transaction, WriteFlags};
use sha2::{Digest, Sha256};

/// LMDB keys are limited to 511 bytes, so replay rows are keyed by a digest of the scoped key.
pub struct ReplayShards {
    env: Environment,
    shards: Vec<Database>,
}

fn short_key(key: &ScopedKey) -> [u8; 32] {
    Sha256::digest(key.storage_key().as_bytes()).into()
}

impl ReplayShards {
    pub fn get(&self, key: &ScopedKey) -> lmdb::Result<Option<Vec<u8>>> {
        let db = self.shards[key.shard(self.shards.len() as u32) as usize];
        let txn = self.env.begin_ro_txn()?;
        match txn.get(db, &short_key(key)) {
            Ok(v) => Ok(Some(v.to_vec())),
            Err(lmdb::Error::NotFound) => Ok(None),
            Err(e) => Err(e),
        }
    }

    pub fn put(&self, key: &ScopedKey, body: &[u8]) -> lmdb::Result<()> {
        let db = self.shards[key.shard(self.shards.len() as u32) as usize];
        let mut txn = self.env.begin_rw_txn()?;
        txn.put(db, &short_key(key), &body, WriteFlags::empty())?;
        txn.commit()
    }
}

pub fn serve_replay(shards: &ReplayShards, req: &tiny_http::Request, who: &Caller) -> Option<Vec<u8>> {
    let header = req.headers().iter().find(|h| h.field.equiv("Idempotency-Key"))?;
    let key = scoped(&who.tenant_id, &who.principal_id, "transfers.create", header.value.as_str()).ok()?;
    shards.get(&key).ok().flatten()
}
