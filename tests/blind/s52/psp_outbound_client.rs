use std::collections::HashMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";

#[derive(Serialize)]
struct UpstreamPayout<'a> {
    amount: i64,
    currency: &'a str,
    destination: &'a str,
}

#[derive(Deserialize)]
pub struct UpstreamReceipt {
    pub id: String,
    pub status: String,
}

pub struct PspClient {
    base_url: String,
    api_key: String,
    attempts: Mutex<HashMap<String, String>>,
}

impl PspClient {
    pub fn new(base_url: impl Into<String>, api_key: impl Into<String>) -> Self {
        Self { base_url: base_url.into(), api_key: api_key.into(), attempts: Mutex::new(HashMap::new()) }
    }

    fn upstream_key(&self, tenant_id: &str, payout_id: &str, attempt_group: u32) -> String {
        let value = format!("{}-{}-{}", tenant_id, payout_id, attempt_group);
        self.attempts.lock().expect("attempts poisoned").insert(payout_id.to_owned(), value.clone());
        value
    }

    pub async fn create_payout(&self, tenant_id: &str, payout_id: &str, amount: i64, currency: &str, destination: &str) -> surf::Result<UpstreamReceipt> {
        let idem_value = self.upstream_key(tenant_id, payout_id, 0);
        surf::post(format!("{}/v1/payouts", self.base_url))
            .header("Authorization", format!("Bearer {}", self.api_key))
            .header(IDEMPOTENCY_HEADER, idem_value.as_str())
            .body_json(&UpstreamPayout { amount, currency, destination })?
            .recv_json()
            .await
    }

    pub async fn forward_refund(&self, client_idempotency_key: &str, payment_ref: &str, amount: i64) -> surf::Result<UpstreamReceipt> {
        let mut req = surf::post(format!("{}/v1/refunds", self.base_url))
            .header("Authorization", format!("Bearer {}", self.api_key))
            .build();
        req.insert_header(IDEMPOTENCY_HEADER, client_idempotency_key);
        req.set_body(surf::Body::from_json(&serde_json::json!({ "payment": payment_ref, "amount": amount }))?);
        surf::client().recv_json(req).await
    }

    pub async fn void_authorization(&self, auth_ref: &str) -> surf::Result<UpstreamReceipt> {
        let request_key = Uuid::new_v4().to_string();
        tracing::info!(%auth_ref, %request_key, "voiding authorization upstream");
        surf::post(format!("{}/v1/authorizations/{}/void", self.base_url, auth_ref))
            .header("Authorization", format!("Bearer {}", self.api_key))
            .header(IDEMPOTENCY_HEADER, request_key)
            .recv_json()
            .await
    }
}
