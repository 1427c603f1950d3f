use std::sync::Arc;

use crypto::digest::Digest;
use crypto::sha2::Sha256;
use http_types::{Request, Response, StatusCode};

use crate::cards::{CardLedger, Redemption};
use crate::identity::{caller_of, Caller};
use crate::replay::ReplayBucket;

pub struct RedeemService {
    replays: Arc<ReplayBucket>,
    ledger: Arc<CardLedger>,
}

fn payload_digest(body: &[u8]) -> String {
    let mut hasher = Sha256::new();
    hasher.input(body);
    hasher.result_str()
}

fn api_token_digest(token: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.input_str(token);
    hasher.result_str()
}

impl RedeemService {
    pub async fn redeem(&self, mut req: Request) -> http_types::Result<Response> {
        let Some(token) = req.header("x-api-token").map(|v| v.last().as_str().to_owned()) else {
            return Ok(Response::new(StatusCode::Unauthorized));
        };
        let caller: Caller = match caller_of(&api_token_digest(&token)).await {
            Some(c) => c,
            None => return Ok(Response::new(StatusCode::Unauthorized)),
        };
        let header_key = req.header("Idempotency-Key").map(|v| v.last().as_str().to_owned());
        let body = req.body_bytes().await?;

        let key = match header_key {
            Some(k) => idem_scope::scoped(&caller.tenant_id, &caller.user_id, "cards.redeem", &k)?,
            None => idem_scope::scoped(&caller.tenant_id, &caller.user_id, "cards.redeem", &payload_digest(&body))?,
        };

        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            let mut res = Response::new(StatusCode::Ok);
            res.set_body(prev);
            return Ok(res);
        }

        let redemption: Redemption = serde_json::from_slice(&body)?;
        let receipt = self.ledger.redeem(&caller.tenant_id, &redemption.card, redemption.amount).await?;
        let encoded = serde_json::to_vec(&receipt)?;
        self.replays.put(key.storage_key(), &encoded).await?;

        let mut res = Response::new(StatusCode::Created);
        res.set_body(encoded);
        Ok(res)
    }
}
