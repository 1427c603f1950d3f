use gimbal::{Ctx, Json, RawBody, Reply};
use idem_scope::{scoped, Problem};
use pyxis::kv::Shelf;
use serde::Deserialize;

use crate::psp::{verify_signature, PspError, Refunds};

#[derive(Deserialize)]
struct ProviderEvent {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    data: RefundData,
}

#[derive(Deserialize)]
struct RefundData {
    merchant_id: String,
    user_id: String,
    charge: String,
    amount: i64,
}

#[derive(Deserialize)]
pub struct RefundRequest {
    pub charge: String,
    pub amount: i64,
}

pub struct RefundApi {
    replays: Shelf,
    refunds: Refunds,
    signing_secret: Vec<u8>,
}

impl RefundApi {
    pub async fn create(&self, ctx: Ctx, Json(req): Json<RefundRequest>) -> Result<Reply, PspError> {
        let auth = ctx.auth();
        let Some(k) = ctx.header("Idempotency-Key") else {
            return Ok(Reply::problem(Problem::missing_key()));
        };
        let key = scoped(&auth.merchant_id, &auth.user_id, "refunds.create", k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Reply::replay(prev));
        }
        let refund = self.refunds.create(&auth.merchant_id, &req.charge, req.amount).await?;
        self.replays.put(key.storage_key(), &refund.to_json()).await?;
        Ok(Reply::created(refund.to_json()))
    }

    pub async fn provider_webhook(&self, ctx: Ctx, RawBody(raw): RawBody) -> Result<Reply, PspError> {
        let signature = ctx.header("Provider-Signature").ok_or(PspError::Unsigned)?;
        verify_signature(&self.signing_secret, &raw, signature)?;
        let event: ProviderEvent = serde_json::from_slice(&raw)?;
        if event.kind != "refund.requested" {
            return Ok(Reply::status(204));
        }

        let d = &event.data;
        let key = scoped(&d.merchant_id, &d.user_id, "refunds.create", &event.id)?;
        if self.replays.get(key.storage_key()).await?.is_some() {
            return Ok(Reply::status(200));
        }
        let refund = self.refunds.create(&d.merchant_id, &d.charge, d.amount).await?;
        self.replays.put(key.storage_key(), &refund.to_json()).await?;
        Ok(Reply::status(200))
    }
}
