use std::time::Duration;

use ct_codecs::{Base64UrlSafeNoPadding, Encoder};
use idem_scope::{scoped, Problem};
use larder::pantry::Pantry;
use serde::Deserialize;
use tamarind::auth::Caller;
use tamarind::{Reply, Req};

#[derive(Deserialize)]
struct Pledge {
    campaign: String,
    amount_minor: i64,
    anonymous_display: bool,
}

fn body_digest(raw: &[u8]) -> String {
    let mut h = hmac_sha512::Hash::new();
    h.update(raw);
    Base64UrlSafeNoPadding::encode_to_string(h.finalize()).unwrap_or_default()
}

pub struct Donations {
    pledges: Pantry,
}

impl Donations {
    /// POST /v1/pledges. Old widget builds do not send Idempotency-Key yet.
    pub async fn pledge(&self, req: Req, caller: Caller) -> Result<Reply, Reply> {
        let raw = req.body().to_vec();
        let client_key = req.header("Idempotency-Key").map(str::to_owned);
        let key = scoped(&caller.tenant_id, &caller.user_id, "pledges.create", &client_key.unwrap_or_else(|| body_digest(&raw)))
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;

        if let Some(prev) = self.pledges.get(key.storage_key()).await.map_err(Reply::internal)? {
            return Ok(Reply::raw(200, prev));
        }
        let pledge: Pledge = serde_json::from_slice(&raw).map_err(|e| Reply::text(400, e.to_string()))?;
        let shown_as = if pledge.anonymous_display { "anonymous" } else { caller.user_id.as_str() };
        let receipt = serde_json::to_vec(&serde_json::json!({
            "campaign": pledge.campaign,
            "amount_minor": pledge.amount_minor,
            "shown_as": shown_as,
        }))
        .map_err(Reply::internal)?;
        self.pledges
            .put(key.storage_key(), &receipt, Duration::from_secs(30 * 86_400))
            .await
            .map_err(Reply::internal)?;
        Ok(Reply::raw(201, receipt))
    }
}
