//! CSV import endpoint (monoio runtime); replay table in an embedded store.
use crc32fast::Hasher;

pub struct Importer<K> {
    replay: K,
    chunks: K,
}

pub struct Caller {
    pub workspace_id: String,
    pub uid: String,
}

impl<K: crate::kv::Kv> Importer<K> {
    pub async fn import_csv(&self, caller: &Caller, req: http::Request<bytes::Bytes>) -> Result<u64, crate::Error> {
        let raw = req.body();
        let mut hasher = Hasher::new();
        hasher.update(raw);
        let sum = hasher.finalize();
        let op = "import.csv";

        let key = (caller.workspace_id.as_str(), caller.uid.as_str(), op, sum);
        if let Some(rows) = self.replay.get(&key).await? {
            return Ok(rows);
        }
        let rows = crate::csv::load(&caller.workspace_id, raw).await?;
        self.replay.put(&key, rows).await?;
        Ok(rows)
    }

    pub async fn store_chunk(&self, caller: &Caller, index: u32, chunk: &[u8]) -> Result<(), crate::Error> {
        let checksum = crc32fast::hash(chunk);
        let entry = crate::kv::Chunk { checksum, bytes: chunk.to_vec() };
        self.chunks.put(&(caller.workspace_id.as_str(), index), entry).await?;
        Ok(())
    }
}
