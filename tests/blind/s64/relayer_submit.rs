use std::time::Duration;

use alloy_primitives::{keccak256, B256};
use idem_scope::{scoped, Problem};
use moraine::auth::ApiKey;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::{Deserialize, Serialize};
use sextant::locker::Locker;

#[derive(Deserialize, Serialize)]
pub struct RelayRequest {
    pub chain_id: u64,
    pub to: String,
    pub data: String,
    pub gas_limit: u64,
}

pub struct Relayer {
    pub locker: Locker,
    pub key_cache: Locker,
    pub node: crate::node::RpcNode,
}

impl Relayer {
    pub async fn submit(&self, api_key: ApiKey, head: &Head, Json(req): Json<RelayRequest>) -> Reply {
        let Some(client_key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let key_digest: B256 = keccak256(api_key.secret().as_bytes());
        let project = match self.key_cache.get(key_digest.as_slice()).await {
            Ok(Some(p)) => String::from_utf8_lossy(&p).into_owned(),
            _ => return Reply::status(Status::UNAUTHORIZED),
        };

        let sk = match scoped(&project, api_key.id(), "relay_submit", client_key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        let tx_hash = keccak256(serde_json::to_vec(&req).unwrap_or_default());
        let seen = format!("{}|{}", sk.storage_key(), tx_hash);
        if let Ok(Some(prev)) = self.locker.get(&seen).await {
            return Reply::bytes(Status::OK, prev);
        }
        let sent = match self.node.send(req.chain_id, &req.to, &req.data, req.gas_limit).await {
            Ok(s) => s,
            Err(_) => return Reply::status(Status::BAD_GATEWAY),
        };
        let body = serde_json::to_vec(&sent).unwrap_or_default();
        let _ = self.locker.put(&seen, &body, Duration::from_secs(3600)).await;
        Reply::bytes(Status::ACCEPTED, body)
    }
}
