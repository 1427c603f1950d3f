//! Row-level helpers for the replay table mirror.

use idem_scope::ScopedKey;
use skerry::pairs::{PairStash, PairError};

/// Table the mirror is exported from (owned by the replay service).
pub const MIRROR_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS replay_mirror (
    tenant_id   text      NOT NULL,
    idem_key    text      NOT NULL,
    status      smallint  NOT NULL,
    body        bytea,
    mirrored_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, idem_key)
)"#;

/// One mirrored replay row as read from the export feed.
pub struct ReplayRow {
    pub tenant_id: String,
    pub idem_key: String,
    pub status: u16,
    pub body: Vec<u8>,
}

pub struct ReplayMirror {
    pairs: PairStash,
}

impl ReplayMirror {
    pub fn new(pairs: PairStash) -> Self {
        ReplayMirror { pairs }
    }

    pub async fn load_row(&self, row: &ReplayRow) -> Result<Option<Vec<u8>>, PairError> {
        self.pairs.get(&row.tenant_id, &row.idem_key).await
    }

    pub async fn load_scoped(&self, tenant_id: &str, key: &ScopedKey) -> Result<Option<Vec<u8>>, PairError> {
        self.pairs.get(tenant_id, key.storage_key()).await
    }

    pub async fn store_scoped(&self, tenant_id: &str, key: &ScopedKey, status: u16, body: &[u8]) -> Result<(), PairError> {
        let mut framed = Vec::with_capacity(body.len() + 2);
        framed.extend_from_slice(&status.to_be_bytes());
        framed.extend_from_slice(body);
        self.pairs.put(tenant_id, key.storage_key(), &framed).await
    }

    pub async fn drop_tenant(&self, tenant_id: &str) -> Result<u64, PairError> {
        self.pairs.remove_all(tenant_id).await
    }
}
