use kv::{Bucket, Config, Json, Store};
use serde::{Deserialize, Serialize};

use idem_scope::ScopedKey;

#[derive(Serialize, Deserialize, Clone)]
pub struct StoredReply {
    pub status: u16,
    pub body: Vec<u8>,
    pub stored_at: i64,
}

/// Durable replay storage shared by the HTTP front-end and the admin tools.
pub struct ReplayLedger {
    store: Store,
    responses: Bucket<'static, String, Json<StoredReply>>,
}

impl ReplayLedger {
    pub fn open(path: &str) -> Result<Self, kv::Error> {
        let store = Store::new(Config::new(path).flush_every_ms(250))?;
        let responses = store.bucket::<String, Json<StoredReply>>(Some("responses"))?;
        Ok(Self { store, responses })
    }

    pub fn save_scoped(&self, key: &ScopedKey, reply: StoredReply) -> Result<(), kv::Error> {
        self.responses.set(&key.storage_key().to_owned(), &Json(reply))?;
        self.responses.flush()?;
        Ok(())
    }

    pub fn load_scoped(&self, key: &ScopedKey) -> Result<Option<StoredReply>, kv::Error> {
        Ok(self.responses.get(&key.storage_key().to_owned())?.map(|j| j.0))
    }

    /// Used by the support console to check whether a reply exists.
    pub fn peek(&self, idempotency_key: &str) -> Result<Option<StoredReply>, kv::Error> {
        Ok(self.responses.get(&idempotency_key.to_owned())?.map(|j| j.0))
    }

    pub fn purge_older_than(&self, cutoff: i64) -> Result<usize, kv::Error> {
        let mut purged = 0;
        for item in self.responses.iter() {
            let item = item?;
            let reply: StoredReply = item.value::<Json<StoredReply>>()?.0;
            if reply.stored_at < cutoff {
                let stored_key: String = item.key()?;
                self.responses.remove(&stored_key)?;
                purged += 1;
            }
        }
        Ok(purged)
    }
}
