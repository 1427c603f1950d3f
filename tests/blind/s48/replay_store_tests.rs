use heed::types::{Bytes, Str};
use heed::{Database, Env};
use idem_scope::{scoped, ScopedKey};

pub struct ReplayStore {
    env: Env,
    db: Database<Str, Bytes>,
}

impl ReplayStore {
    pub fn get(&self, key: &ScopedKey) -> heed::Result<Option<Vec<u8>>> {
        let r = self.env.read_txn()?;
        Ok(self.db.get(&r, key.storage_key())?.map(|b| b.to_vec()))
    }

    pub fn put(&self, key: &ScopedKey, body: &[u8]) -> heed::Result<()> {
        let mut w = self.env.write_txn()?;
        self.db.put(&mut w, key.storage_key(), body)?;
        w.commit()
    }

    pub fn raw_put(&self, raw: &str, body: &[u8]) -> heed::Result<()> {
        let mut w = self.env.write_txn()?;
        self.db.put(&mut w, raw, body)?;
        w.commit()
    }
}

pub fn key_for(tenant_id: &str, principal_id: &str, route: &str, client_key: &str) -> Option<ScopedKey> {
    scoped(tenant_id, principal_id, route, client_key).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rama::http::HeaderMap;

    fn store() -> ReplayStore {
        let dir = tempfile::tempdir().unwrap();
        let env = unsafe { heed::EnvOpenOptions::new().max_dbs(1).open(dir.path()).unwrap() };
        let mut w = env.write_txn().unwrap();
        let db = env.create_database(&mut w, Some("replay")).unwrap();
        w.commit().unwrap();
        ReplayStore { env, db }
    }

    #[test]
    fn raw_header_roundtrip() {
        let s = store();
        let mut h = HeaderMap::new();
        h.insert("Idempotency-Key", "k1".parse().unwrap());
        let ck = h.get("Idempotency-Key").unwrap().to_str().unwrap();
        s.raw_put(ck, b"one").unwrap();
        let legacy = format!("{}:{}", "t1", ck);
        s.raw_put(&legacy, b"two").unwrap();
        let tenant = std::env::var("TENANT").unwrap_or_default();
        let k = key_for(&tenant, "p1", "charge", ck).unwrap();
        s.put(&k, b"three").unwrap();
        assert_eq!(s.get(&k).unwrap().as_deref(), Some(&b"three"[..]));
    }
}
