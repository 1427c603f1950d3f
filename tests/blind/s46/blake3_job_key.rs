use std::collections::BTreeMap;
use tokio::sync::Mutex;

#[derive(serde::Deserialize, serde::Serialize)]
pub struct ExportJob {
    pub project_id: String,
    pub format: String,
    pub filters: Vec<String>,
}

pub struct ExportQueue {
    idempotency_records: Mutex<BTreeMap<String, String>>,
}

pub struct Principal {
    pub project_id: String,
    pub sub: String,
}

impl ExportQueue {
    pub async fn enqueue(&self, who: &Principal, job: ExportJob) -> anyhow::Result<String> {
        let encoded = serde_json::to_vec(&job)?;
        let key = idem_scope::scoped(&who.project_id, &who.sub, "export", blake3::hash(&encoded).to_hex().as_str())?;
        let mut recs = self.idempotency_records.lock().await;
        recs.entry(key.storage_key().to_owned()).or_insert_with(|| "queued".into());
        Ok(key.storage_key().to_owned())
    }

    pub async fn enqueue_shard(&self, who: &Principal, headers: &[(String, String)]) -> anyhow::Result<u64> {
        let k = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("idempotency-key")).map(|(_, v)| v.clone()).ok_or_else(|| anyhow::anyhow!("400"))?;
        let key = idem_scope::scoped(&who.project_id, &who.sub, "export", &k)?;
        let shard_hint = blake3::hash(key.storage_key().as_bytes());
        let mut recs = self.idempotency_records.lock().await;
        recs.insert(key.storage_key().to_owned(), shard_hint.to_hex().to_string());
        Ok(u64::from(shard_hint.as_bytes()[0]))
    }
}
