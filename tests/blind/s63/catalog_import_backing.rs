use std::collections::HashMap;
use std::sync::Mutex;

use crypto_hash::{hex_digest, Algorithm};
use idem_scope::{scoped, Fingerprint, Problem};
use serde::{Deserialize, Serialize};
use wherry::auth::Caller;
use wherry::{Ctx, Reply, Status};

#[derive(Clone, Serialize, Deserialize)]
pub struct StoredReply {
    pub client_key: String,
    pub fingerprint: Vec<u8>,
    pub body_hash: String,
    pub response: Vec<u8>,
}

/// Dev runs keep replies in memory; production uses the on-disk store.
pub enum Backing {
    Memory(Mutex<HashMap<String, StoredReply>>),
    Disk(speedb::DB),
}

impl Backing {
    fn load(&self, key: &str) -> Option<StoredReply> {
        match self {
            Backing::Memory(m) => m.lock().ok()?.get(key).cloned(),
            Backing::Disk(db) => db.get(key).ok().flatten().and_then(|raw| serde_json::from_slice(&raw).ok()),
        }
    }

    fn save(&self, key: &str, reply: &StoredReply) {
        match self {
            Backing::Memory(m) => {
                if let Ok(mut map) = m.lock() {
                    map.insert(key.to_owned(), reply.clone());
                }
            }
            Backing::Disk(db) => {
                let _ = db.put(key, serde_json::to_vec(reply).unwrap_or_default());
            }
        }
    }
}

pub struct CatalogImport {
    backing: Backing,
    catalog: catalog::Importer,
}

impl CatalogImport {
    pub fn import(&self, ctx: &Ctx, caller: &Caller) -> Result<Reply, Problem> {
        let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "import_catalog", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let fingerprint = Fingerprint::of("import_catalog", ctx.body());
        let body_hash = hex_digest(Algorithm::SHA512, ctx.body());

        if let Some(prev) = self.backing.load(sk.storage_key()) {
            if prev.fingerprint.as_slice() != fingerprint.as_bytes() {
                return Err(Problem::mismatch(key));
            }
            return Ok(Reply::bytes(Status::OK, prev.response).header("Idempotent-Replayed", "true"));
        }
        let summary = self.catalog.import(&caller.tenant_id, ctx.body()).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let reply = StoredReply { client_key: key.to_owned(), fingerprint: fingerprint.as_bytes().to_vec(), body_hash, response: summary.to_json() };
        self.backing.save(sk.storage_key(), &reply);
        Ok(Reply::bytes(Status::CREATED, reply.response))
    }
}
