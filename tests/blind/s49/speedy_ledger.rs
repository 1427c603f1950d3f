//! Ledger adjustments; the replay index is a speedy-encoded map flushed to disk.
use std::collections::BTreeMap;

use speedy::{Readable, Writable};

#[derive(Readable, Writable, Default)]
pub struct ReplayIndex {
    entries: BTreeMap<String, Vec<u8>>,
}

pub struct Adjustments {
    index: ReplayIndex,
    metrics: crate::metrics::Registry,
}

impl Adjustments {
    pub async fn adjust(&mut self, parts: &http::request::Parts, who: &crate::Who, body: &[u8]) -> Result<Vec<u8>, crate::Error> {
        let key = parts
            .headers
            .get("Idempotency-Key")
            .ok_or(crate::Error::MissingKey)?
            .to_str()
            .map_err(|_| crate::Error::InvalidKey)?;
        let op = "ledger.adjust";
        let safe_key = key.replace(':', "_");
        let index_key = format!("{}:{}:{}:{}", who.org_id, who.user_id, op, safe_key);

        if let Some(prev) = self.index.entries.get(&index_key) {
            return Ok(prev.clone());
        }
        let out = crate::ledger::adjust(&who.org_id, body).await?;
        self.index.entries.insert(index_key, out.clone());
        let label = format!("{}:{}", who.org_id, op).replace(':', "_");
        self.metrics.counter(&label).inc();
        Ok(out)
    }

    pub fn flush(&self, path: &std::path::Path) -> std::io::Result<()> {
        self.index.write_to_file(path).map_err(std::io::Error::other)
    }
}
