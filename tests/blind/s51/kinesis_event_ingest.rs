//! Event ingest: client events are forwarded to Kinesis. The producer SDKs
//! retry with the same Idempotency-Key; we dedup locally before PutRecord.
use aws_sdk_kinesis::primitives::Blob;
use aws_sdk_kinesis::Client as Kinesis;
use http::HeaderMap;

pub struct Producer {
    pub tenant_id: String,
    pub client_id: String,
}

pub struct Ingest {
    kinesis: Kinesis,
    stream: String,
    seen: foyer::Cache<String, String>,
}

impl Ingest {
    pub async fn put_event(&self, p: &Producer, headers: &HeaderMap, body: Vec<u8>) -> anyhow::Result<String> {
        if p.tenant_id.contains('\0') || p.client_id.contains('\0') {
            anyhow::bail!("400 identity contains a NUL byte");
        }
        let raw = headers
            .get("Idempotency-Key")
            .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?
            .to_str()?;
        tracing::debug!(key = %raw.replace('\0', "\\0"), "ingest");
        let cleaned = raw.replace('\0', "");
        let key = idem_scope::scoped(&p.tenant_id, &p.client_id, "events.put", &cleaned)?;
        if let Some(seq) = self.seen.get(key.storage_key()) {
            return Ok(seq.value().clone());
        }
        let out = self
            .kinesis
            .put_record()
            .stream_name(&self.stream)
            .partition_key(format!("{}:{}", p.tenant_id, p.client_id))
            .data(Blob::new(body))
            .send()
            .await?;
        let seq = out.sequence_number().to_owned();
        self.seen.insert(key.storage_key().to_owned(), seq.clone());
        Ok(seq)
    }
}
