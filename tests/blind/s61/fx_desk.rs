use std::sync::Arc;
use std::time::Duration;

use ct_codecs::{Encoder, Hex};
use idem_scope::{scoped, Problem};
use larder::pantry::Pantry;
use leapfrog::LeapMap;
use serde::{Deserialize, Serialize};
use tamarind::auth::Caller;
use tamarind::{Reply, Req};

const SEED: u64 = 0x5eed_f00d;

#[derive(Clone, Copy, Serialize)]
pub struct Quote {
    rate_micros: u64,
    valid_secs: u32,
}

#[derive(Deserialize)]
struct ConvertBody {
    from: String,
    to: String,
    amount_minor: i64,
}

pub struct FxDesk {
    quotes: LeapMap<u64, Quote>,
    conversions: Arc<Pantry>,
}

impl FxDesk {
    /// POST /v1/fx/quotes: a quote is cached per caller and client key.
    pub fn quote(&self, req: &Req, caller: &Caller) -> Result<Reply, Reply> {
        let k = req.header("Idempotency-Key").ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let key = scoped(&caller.tenant_id, &caller.user_id, "fx.quote", k)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
        if let Some(hit) = self.quotes.get(&museair::hash(key.storage_key().as_bytes(), SEED)) {
            return Ok(Reply::json(200, &hit.value().unwrap()));
        }
        let q = Quote { rate_micros: 1_083_400, valid_secs: 30 };
        self.quotes.insert(museair::hash(key.storage_key().as_bytes(), SEED), q);
        Ok(Reply::json(201, &q))
    }

    /// POST /v1/fx/conversions: the treasury UI resubmits the same form on timeout.
    pub async fn convert(&self, req: &Req, caller: &Caller) -> Result<Reply, Reply> {
        let body: ConvertBody = req.json()?;
        let digest = hmac_sha512::sha384::Hash::hash(req.body());
        let hex = Hex::encode_to_string(digest).map_err(|_| Reply::status(500))?;
        let slot = scoped(&caller.tenant_id, &caller.user_id, "fx.convert", &hex).map_err(|_| Reply::status(500))?;
        if let Some(prev) = self.conversions.get(slot.storage_key()).await.map_err(Reply::internal)? {
            return Ok(Reply::raw(200, prev));
        }
        let out = serde_json::to_vec(&serde_json::json!({
            "from": body.from,
            "to": body.to,
            "amount_minor": body.amount_minor,
            "state": "booked",
        }))
        .map_err(Reply::internal)?;
        self.conversions.put(slot.storage_key(), &out, Duration::from_secs(3600)).await.map_err(Reply::internal)?;
        Ok(Reply::raw(201, out))
    }
}
