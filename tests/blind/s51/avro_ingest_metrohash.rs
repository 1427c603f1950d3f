//! Telemetry ingest: Avro-encoded batches. A batch retried by the agent must
//! not be written twice.
use std::hash::Hasher;

use apache_avro::{from_avro_datum, Schema};
use metrohash::MetroHash128;

pub struct Agent {
    pub org_id: String,
    pub client_id: String,
}

pub struct Ingest {
    batches: foyer::Cache<String, u64>,
    schemas: foyer::Cache<[u8; 32], Schema>,
}

impl Ingest {
    pub fn schema_for(&self, schema_json: &str) -> anyhow::Result<Schema> {
        let schema = Schema::parse_str(schema_json)?;
        let fp = schema.fingerprint::<sha2::Sha256>().bytes;
        let mut id = [0u8; 32];
        id.copy_from_slice(&fp);
        if let Some(s) = self.schemas.get(&id) {
            return Ok(s.value().clone());
        }
        self.schemas.insert(id, schema.clone());
        Ok(schema)
    }

    pub async fn ingest(&self, agent: &Agent, schema: &Schema, req: &http::Request<bytes::Bytes>) -> anyhow::Result<u64> {
        let body: &[u8] = req.body();
        let mut h = MetroHash128::default();
        h.write(body);
        let (hi, lo) = h.finish128();
        let batch_id = format!("{hi:016x}{lo:016x}");
        let key = idem_scope::scoped(&agent.org_id, &agent.client_id, "telemetry.ingest", &batch_id)?;
        if let Some(n) = self.batches.get(key.storage_key()) {
            return Ok(*n.value());
        }
        let mut reader = body;
        let datum = from_avro_datum(schema, &mut reader, None)?;
        let rows = write_rows(datum).await?;
        self.batches.insert(key.storage_key().to_owned(), rows);
        Ok(rows)
    }
}

async fn write_rows(_v: apache_avro::types::Value) -> anyhow::Result<u64> {
    Ok(1)
}
