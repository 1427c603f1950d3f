use std::collections::HashMap;
use std::sync::Arc;

use fasthash::city;
use rsocket_rust::async_trait;
use rsocket_rust::prelude::*;
use rsocket_rust::Result;
use tokio::sync::RwLock;

use crate::sessions::{session_from_metadata, SessionTable};
use crate::transfers::{execute_transfer, TransferCmd};

const PARTITIONS: u64 = 32;

type ReplayKey = (String, String, &'static str, u64);

pub struct TransferResponder {
    sessions: Arc<SessionTable>,
    replays: Vec<RwLock<HashMap<ReplayKey, Vec<u8>>>>,
}

impl TransferResponder {
    pub fn new(sessions: Arc<SessionTable>) -> Self {
        let replays = (0..PARTITIONS).map(|_| RwLock::new(HashMap::new())).collect();
        Self { sessions, replays }
    }
}

#[async_trait]
impl RSocket for TransferResponder {
    async fn metadata_push(&self, _req: Payload) -> Result<()> {
        Ok(())
    }

    async fn fire_and_forget(&self, _req: Payload) -> Result<()> {
        Ok(())
    }

    async fn request_response(&self, req: Payload) -> Result<Option<Payload>> {
        let session = session_from_metadata(&self.sessions, req.metadata())?;
        let tenant_id = session.tenant_id.clone().ok_or_else(|| anyhow::anyhow!("session has no tenant"))?;
        let raw = req.data().cloned().unwrap_or_default();
        let part = (city::hash64(tenant_id.as_bytes()) % PARTITIONS) as usize;
        let key: ReplayKey = (tenant_id.clone(), session.user_id.clone(), "transfer", city::hash64(&raw));

        if let Some(prev) = self.replays[part].read().await.get(&key) {
            return Ok(Some(Payload::builder().set_data(prev.clone()).build()));
        }
        let cmd: TransferCmd = serde_json::from_slice(&raw)?;
        let receipt = execute_transfer(&tenant_id, &session.user_id, &cmd).await?;
        let out = serde_json::to_vec(&receipt)?;
        self.replays[part].write().await.insert(key, out.clone());
        Ok(Some(Payload::builder().set_data(out).build()))
    }

    fn request_stream(&self, _req: Payload) -> Flux<Result<Payload>> {
        Box::pin(futures::stream::empty())
    }

    fn request_channel(&self, _reqs: Flux<Result<Payload>>) -> Flux<Result<Payload>> {
        Box::pin(futures::stream::empty())
    }
}
