use gimbal::auth::Caller;
use gimbal::{Ctx, Json, Reply};
use idem_scope::{scoped, Problem};
use pyxis::kv::Shelf;
use serde::Deserialize;

use crate::psp::{PaymentError, Psp};

#[derive(Deserialize)]
pub struct PaymentLinkRequest {
    pub amount_minor: i64,
    pub currency: String,
    pub on_behalf_of: Option<String>,
}

pub struct PaymentLinks {
    replays: Shelf,
    psp: Psp,
}

impl PaymentLinks {
    pub async fn create(&self, ctx: Ctx, Json(req): Json<PaymentLinkRequest>) -> Result<Reply, PaymentError> {
        let caller = ctx.caller().unwrap_or(Caller::Anonymous);
        let Some(k) = ctx.header("Idempotency-Key") else {
            return Ok(Reply::problem(Problem::missing_key()));
        };
        let key = scoped(caller.tenant_id(), caller.principal_id(), "payment_links.create", k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Reply::replay(prev));
        }
        let link = self.psp.create_link(caller.tenant_id(), req.amount_minor, &req.currency).await?;
        self.replays.put(key.storage_key(), &link.to_json()).await?;
        Ok(Reply::created(link.to_json()))
    }

    /// Support staff may act for a customer; everyone else acts as themselves.
    pub async fn refund(&self, ctx: Ctx, Json(req): Json<PaymentLinkRequest>) -> Result<Reply, PaymentError> {
        let Some(Caller::User { tenant_id, user_id, staff }) = ctx.caller() else {
            return Ok(Reply::status(401));
        };
        let principal_id = match req.on_behalf_of.clone() {
            Some(other) if staff => other,
            _ => user_id.clone(),
        };
        let Some(k) = ctx.header("Idempotency-Key") else {
            return Ok(Reply::problem(Problem::missing_key()));
        };
        let key = scoped(&tenant_id, &principal_id, "payment_links.refund", k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Reply::replay(prev));
        }
        let refund = self.psp.refund_link(&tenant_id, req.amount_minor, &req.currency).await?;
        self.replays.put(key.storage_key(), &refund.to_json()).await?;
        Ok(Reply::ok(refund.to_json()))
    }
}
