use std::sync::Arc;

use idem_scope::{scoped, scoped_server};
use kafka_protocol::records::{Record, RecordBatchDecoder};
use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;

use crate::ingest::{Ingestor, OffsetBook};

pub struct IngestService {
    kv: Arc<Kv>,
    offsets: Arc<OffsetBook>,
    ingestor: Arc<Ingestor>,
}

fn header<'a>(record: &'a Record, name: &str) -> Option<&'a str> {
    record
        .headers
        .get(name)
        .and_then(|v| v.as_ref())
        .and_then(|v| std::str::from_utf8(v).ok())
}

impl IngestService {
    /// Direct upload path for customers that do not use Kafka.
    pub async fn upload(&self, ex: &Exchange) -> Outcome {
        let (Some(who), Some(retry)) = (ex.identity(), ex.header("Idempotency-Key")) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, "ingest", retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if self.kv.exists(key.storage_key()).await.unwrap_or(false) {
            return Outcome::status(Status::OK);
        }
        self.ingestor.ingest(&who.tenant_id, ex.body()).await;
        let _ = self.kv.put(key.storage_key(), b"done".to_vec()).await;
        Outcome::status(Status::CREATED)
    }

    pub async fn on_fetch(&self, topic: &str, partition: i32, records: Vec<u8>) -> Result<(), String> {
        let batch = RecordBatchDecoder::decode(&mut records.as_slice()).map_err(|e| e.to_string())?;
        let mut last = None;
        for record in batch.iter() {
            let (Some(tenant_id), Some(client_id), Some(event_id)) =
                (header(record, "tenant-id"), header(record, "producer-id"), header(record, "event-id"))
            else {
                continue;
            };
            let v2 = header(record, "schema") == Some("v2");
            let server_key = scoped_server(tenant_id, client_id, "ingest", event_id);
            let legacy_key = scoped(tenant_id, client_id, "ingest", event_id);
            let Ok(key) = (if v2 { server_key } else { legacy_key }) else { continue };
            if self.kv.exists(key.storage_key()).await.unwrap_or(false) {
                continue;
            }
            if let Some(value) = record.value.as_ref() {
                self.ingestor.ingest(tenant_id, value).await;
            }
            let _ = self.kv.put(key.storage_key(), b"done".to_vec()).await;
            last = Some(record.offset);
        }
        if let Some(offset) = last {
            self.offsets.save(&format!("{topic}/{partition}"), offset).await.map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}
