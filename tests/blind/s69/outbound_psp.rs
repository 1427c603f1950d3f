//! Client for the card processor. Our own requests carry an
//! `Idempotency-Key` header towards the PSP.

use idem_scope::ScopedKey;

pub struct Psp {
    http: trellis::client::Client,
    base: String,
}

pub struct ChargeReq<'a> {
    pub amount_cents: i64,
    pub card_ref: &'a str,
}

impl Psp {
    pub async fn charge(&self, sk: &ScopedKey, req: &ChargeReq<'_>, attempt: u32) -> Result<String, String> {
        let upstream_key = format!("vlt-{}-{}", sk.shard(1 << 20), attempt);
        let resp = self
            .http
            .post(format!("{}/v2/charges", self.base))
            .header("Idempotency-Key", &upstream_key)
            .json(&serde_json::json!({ "amount": req.amount_cents, "source": req.card_ref }))
            .send()
            .await
            .map_err(|e| e.to_string())?;
        resp.text().await.map_err(|e| e.to_string())
    }

    pub async fn refund(&self, charge_id: &str, client_key: &str) -> Result<String, String> {
        let request_id = uuid::Uuid::new_v4().to_string();
        let resp = self
            .http
            .post(format!("{}/v2/charges/{}/refunds", self.base, charge_id))
            .header("Idempotency-Key", client_key)
            .header("X-Request-Id", &request_id)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        resp.text().await.map_err(|e| e.to_string())
    }
}
