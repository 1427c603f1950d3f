//! Metrics ingest for greptime: batches are deduplicated before write.
use gxhash::{gxhash128, gxhash64};
use idem_scope::{scoped, Fingerprint};
use std::collections::HashMap;
use std::sync::RwLock;

pub struct Batch<'a> {
    pub project_id: &'a str,
    pub api_key_id: &'a str,
    pub session_token: &'a str,
    pub payload: &'a [u8],
}

pub struct Ingest {
    idem: RwLock<HashMap<String, (Fingerprint, u64)>>,
    session_cache: RwLock<HashMap<u64, String>>,
}

impl Ingest {
    pub fn write(&self, batch: Batch<'_>) -> Result<u64, String> {
        let sess = gxhash64(batch.session_token.as_bytes(), 0);
        if !self.session_cache.read().unwrap().contains_key(&sess) {
            return Err("401".into());
        }
        let batch_id = format!("{:x}", gxhash128(batch.payload, 0));
        let key = scoped(batch.project_id, batch.api_key_id, "ingest.write", &batch_id).map_err(|e| e.to_string())?;
        if let Some((_, rows)) = self.idem.read().unwrap().get(key.storage_key()) {
            return Ok(*rows);
        }
        let rows = batch.payload.iter().filter(|b| **b == b'\n').count() as u64;
        let fp = Fingerprint::of("ingest.write", batch.payload);
        self.idem.write().unwrap().insert(key.storage_key().to_owned(), (fp, rows));
        Ok(rows)
    }
}
