use heed::types::{Bytes, Str};
use heed::{Database, Env};
use idem_scope::{scoped, Fingerprint, ScopedKey};
use shuttle_runtime::Service;
use std::net::SocketAddr;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

pub struct Ledger {
    env: Env,
    records: Database<Str, Bytes>,
}

pub struct Post {
    pub tenant_id: String,
    pub principal_id: String,
    pub idempotency_key: String,
    pub payload: Vec<u8>,
}

impl Ledger {
    fn obtain(&self, key: &ScopedKey, fp: &Fingerprint) -> heed::Result<bool> {
        let mut w = self.env.write_txn()?;
        if self.records.get(&w, key.storage_key())?.is_some() {
            return Ok(false);
        }
        self.records.put(&mut w, key.storage_key(), fp.as_bytes())?;
        w.commit()?;
        Ok(true)
    }

    fn store_response(&self, key: &ScopedKey, body: &[u8]) -> heed::Result<()> {
        let mut w = self.env.write_txn()?;
        self.records.put(&mut w, key.storage_key(), body)?;
        w.commit()
    }

    fn abandon(&self, key: &ScopedKey) -> heed::Result<()> {
        let mut w = self.env.write_txn()?;
        self.records.delete(&mut w, key.storage_key())?;
        w.commit()
    }

    pub fn post(&self, p: &Post) -> heed::Result<Vec<u8>> {
        let key = scoped(&p.tenant_id, &p.principal_id, "ledger.post", &p.idempotency_key).expect("valid scope");
        let fp = Fingerprint::of("ledger.post", &p.payload);
        if !self.obtain(&key, &fp)? {
            return Ok(b"duplicate".to_vec());
        }
        let text = std::str::from_utf8(&p.payload).expect("utf-8 payload");
        let out = format!("{{\"posted\":{}}}", text.len()).into_bytes();
        self.store_response(&key, &out)?;
        Ok(out)
    }

    pub fn post_guarded(&self, p: &Post) -> heed::Result<Vec<u8>> {
        let key = scoped(&p.tenant_id, &p.principal_id, "ledger.post_guarded", &p.idempotency_key).expect("valid scope");
        let fp = Fingerprint::of("ledger.post_guarded", &p.payload);
        if !self.obtain(&key, &fp)? {
            return Ok(b"duplicate".to_vec());
        }
        let result = catch_unwind(AssertUnwindSafe(|| {
            let text = std::str::from_utf8(&p.payload).expect("utf-8 payload");
            format!("{{\"posted\":{}}}", text.len()).into_bytes()
        }));
        match result {
            Ok(out) => {
                self.store_response(&key, &out)?;
                Ok(out)
            }
            Err(panic) => {
                let _ = self.abandon(&key);
                resume_unwind(panic)
            }
        }
    }
}

#[shuttle_runtime::async_trait]
impl Service for Ledger {
    async fn bind(self, _addr: SocketAddr) -> Result<(), shuttle_runtime::Error> {
        Ok(())
    }
}
