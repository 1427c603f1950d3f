use std::path::Path;

use idem_scope::ScopedKey;
use lmdb_rkv::{Database, DatabaseFlags, Environment, Transaction, WriteFlags};

pub struct LmdbReplays {
    env: Environment,
    db: Database,
}

#[derive(Debug)]
pub enum ReplayError {
    Lmdb(lmdb_rkv::Error),
    Exists,
}

impl From<lmdb_rkv::Error> for ReplayError {
    fn from(e: lmdb_rkv::Error) -> Self {
        ReplayError::Lmdb(e)
    }
}

impl LmdbReplays {
    pub fn open(dir: &Path) -> Result<Self, ReplayError> {
        let env = Environment::new().set_max_dbs(4).set_map_size(1 << 30).open(dir)?;
        let db = env.create_db(Some("replays"), DatabaseFlags::empty())?;
        Ok(Self { env, db })
    }

    /// Stores the response for a request so a retry can be answered from disk.
    pub fn remember(&self, idempotency_key: &str, response: &[u8]) -> Result<(), ReplayError> {
        let mut txn = self.env.begin_rw_txn()?;
        match txn.put(self.db, &idempotency_key, &response, WriteFlags::NO_OVERWRITE) {
            Err(lmdb_rkv::Error::KeyExist) => return Err(ReplayError::Exists),
            other => other?,
        }
        txn.commit()?;
        Ok(())
    }

    pub fn remember_scoped(&self, key: &ScopedKey, response: &[u8]) -> Result<(), ReplayError> {
        let mut txn = self.env.begin_rw_txn()?;
        txn.put(self.db, &key.storage_key(), &response, WriteFlags::NO_OVERWRITE)?;
        txn.commit()?;
        Ok(())
    }

    pub fn recall(&self, key: &ScopedKey) -> Result<Option<Vec<u8>>, ReplayError> {
        let txn = self.env.begin_ro_txn()?;
        match txn.get(self.db, &key.storage_key()) {
            Ok(v) => Ok(Some(v.to_vec())),
            Err(lmdb_rkv::Error::NotFound) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_keys_round_trip() {
        let dir = tempdir::TempDir::new("replays").unwrap();
        let repo = LmdbReplays::open(dir.path()).unwrap();
        let idempotency_key = "k-1";
        let mut txn = repo.env.begin_rw_txn().unwrap();
        txn.put(repo.db, &idempotency_key, b"{}", WriteFlags::empty()).unwrap();
        txn.commit().unwrap();
    }
}
