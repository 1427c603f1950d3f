use anyhow::{ensure, Context};
use idem_scope::scoped;
use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::State;

use crate::auth::MerchantUser;
use crate::guards::IdempotencyHeader;
use crate::payments::{RefundGateway, RefundReceipt, RefundRequest};
use crate::replay::RefundReplays;

async fn refund_inner(
    user: &MerchantUser,
    client_key: &str,
    req: RefundRequest,
    replays: &RefundReplays,
    gateway: &RefundGateway,
) -> anyhow::Result<RefundReceipt> {
    let key = scoped(&user.merchant_id, &user.user_id, "/v1/refunds", client_key).context("scoping idempotency key")?;
    let reservation = replays.reserve(&key).await.context("reserving refund key")?;
    if let Some(done) = reservation.previous() {
        return Ok(done);
    }
    ensure!(req.amount_minor > 0, "refund amount must be positive");
    let receipt = gateway.refund(&user.merchant_id, &req.charge_id, req.amount_minor).await?;
    replays.save_response(&key, &receipt).await.context("storing refund response")?;
    Ok(receipt)
}

#[rocket::post("/v1/refunds", data = "<req>")]
pub async fn refund(
    user: MerchantUser,
    idem: IdempotencyHeader,
    req: Json<RefundRequest>,
    replays: &State<RefundReplays>,
    gateway: &State<RefundGateway>,
) -> Result<Json<RefundReceipt>, Status> {
    refund_inner(&user, idem.as_str(), req.into_inner(), replays, gateway)
        .await
        .map(Json)
        .map_err(|e| {
            tracing::warn!(error = %e, "refund failed");
            Status::UnprocessableEntity
        })
}
