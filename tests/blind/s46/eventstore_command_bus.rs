use eventstore::{AppendToStreamOptions, Client, EventData, ExpectedRevision};
use std::collections::BTreeMap;
use tokio::sync::Mutex;
use uuid::Uuid;

pub struct CommandEnvelope {
    pub tenant_id: String,
    pub user_id: String,
    pub action: String,
    pub headers: BTreeMap<String, String>,
    pub payload: serde_json::Value,
}

pub struct Bus {
    client: Client,
    idem: Mutex<BTreeMap<String, Uuid>>,
}

impl Bus {
    pub async fn send(&self, env: CommandEnvelope) -> anyhow::Result<Uuid> {
        let k = env.headers.get("idempotency-key").ok_or_else(|| anyhow::anyhow!("400"))?;
        let key = idem_scope::scoped(&env.tenant_id, &env.user_id, &env.action, k)?;
        let mut idem = self.idem.lock().await;
        if let Some(id) = idem.get(key.storage_key()) {
            return Ok(*id);
        }
        let event_id = Uuid::new_v4();
        let event = EventData::json(&env.action, &env.payload)?.id(event_id);
        let stream = format!("tenant-{}-commands", env.tenant_id);
        let opts = AppendToStreamOptions::default().expected_revision(ExpectedRevision::Any);
        self.client.append_to_stream(stream, &opts, event).await?;
        idem.insert(key.storage_key().to_owned(), event_id);
        Ok(event_id)
    }
}
