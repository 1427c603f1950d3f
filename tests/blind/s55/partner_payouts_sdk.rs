use ferrum::kv::SharedKv;
use idem_scope::scoped;
use relay::http::{Client, HeaderMap, HeaderValue};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

#[derive(Serialize)]
pub struct PayoutRequest {
    pub beneficiary: String,
    pub amount_minor: i64,
    pub currency: String,
}

#[derive(Clone, Serialize, Deserialize)]
pub struct PayoutReceipt {
    pub id: String,
    pub status: String,
}

pub struct PartnerSdk {
    http: Client,
    base_url: String,
    sent: SharedKv,
    tenant_id: String,
    api_key_id: String,
}

impl PartnerSdk {
    pub async fn create_payout(&self, idempotency_key: &str, payout: &PayoutRequest) -> anyhow::Result<PayoutReceipt> {
        let mut k = idempotency_key.to_owned();
        k.retain(|c| c != '#');
        let sk = scoped(&self.tenant_id, &self.api_key_id, "partner.payouts.create", &k)?;
        if let Some(prev) = self.sent.get(sk.storage_key()).await? {
            return Ok(serde_json::from_slice(&prev)?);
        }

        let correlation = Uuid::new_v4().to_string().replace('-', "");
        let mut headers = HeaderMap::new();
        headers.insert("Idempotency-Key", HeaderValue::from_str(idempotency_key)?);
        headers.insert("X-Correlation-Id", HeaderValue::from_str(&correlation)?);

        let receipt: PayoutReceipt = self
            .http
            .post(format!("{}/v2/payouts", self.base_url))
            .headers(headers)
            .json(payout)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        self.sent.put(sk.storage_key(), &serde_json::to_vec(&receipt)?).await?;
        Ok(receipt)
    }
}
