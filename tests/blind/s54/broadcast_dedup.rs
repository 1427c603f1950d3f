use std::sync::Arc;

use gatehouse::http::{Request, Response, StatusCode};
use gatehouse::Auth;
use ledgerkit::kv::Kv;

pub trait KeyPolicy: Send + Sync {
    fn storage_key(&self, tenant_id: &str, user_id: &str, route: &str, client_key: &str) -> String;
}

pub struct HashDelimited;

impl KeyPolicy for HashDelimited {
    fn storage_key(&self, tenant_id: &str, user_id: &str, route: &str, client_key: &str) -> String {
        let client_key = client_key.trim_end_matches('#');
        format!("{tenant_id}#{user_id}#{route}#{client_key}")
    }
}

pub struct Broadcasts<P: KeyPolicy> {
    policy: P,
    kv: Arc<Kv>,
    sender: Arc<notify::Sender>,
}

impl<P: KeyPolicy> Broadcasts<P> {
    pub async fn send(&self, auth: &Auth, req: Request) -> anyhow::Result<Response> {
        let client_key = match req.header_str("X-Idempotency-Key") {
            Some(k) => k.to_owned(),
            None => return Ok(Response::status(StatusCode::BAD_REQUEST)),
        };
        let k = self
            .policy
            .storage_key(&auth.tenant_id, &auth.user_id, "broadcasts.send", &client_key);
        if let Some(prev) = self.kv.get(&k).await? {
            return Ok(Response::bytes(StatusCode::OK, prev));
        }

        let audience: Vec<String> = req.json().await?;
        let batch_id = self.sender.fan_out(&auth.tenant_id, &audience).await?;
        let body = serde_json::to_vec(&serde_json::json!({ "batch_id": batch_id, "recipients": audience.len() }))?;
        self.kv.put(&k, body.clone()).await?;
        Ok(Response::bytes(StatusCode::ACCEPTED, body))
    }
}
