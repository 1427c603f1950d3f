//! Field tablets upload batches of closed work orders when they regain coverage.

use aquifer::tank::{Claimed, Tank};
use idem_scope::{scoped, Fingerprint};
use penstock::badge::Crew;
use penstock::extract::{Json, State};
use penstock::{Code, Fault, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct ClosedOrder {
    pub order_no: String,
    pub asset_id: String,
    pub labour_minutes: u32,
    /// Idempotency key the tablet generated for this closure (the client's key).
    pub client_key: String,
}

#[derive(Deserialize)]
pub struct Batch {
    pub orders: Vec<ClosedOrder>,
}

pub struct CrewDesk {
    pub tank: Tank,
    pub eam: crate::eam::Client,
}

pub async fn upload_closures(State(desk): State<CrewDesk>, crew: Crew, Json(batch): Json<Batch>) -> Result<Outflow, Fault> {
    let mut closed = Vec::new();
    let mut frozen = Vec::new();
    for wo in &batch.orders {
        let ck = scoped(&crew.tenant_id, &crew.sub, "work-order-close", &wo.client_key)?;
        let fp = Fingerprint::of("work-order-close", wo.order_no.as_bytes());
        match desk.tank.claim(ck.storage_key(), &fp).await? {
            Claimed::New => {}
            Claimed::Existing(..) => continue,
        }
        if desk.eam.is_frozen(&wo.asset_id).await? {
            frozen.push(wo.order_no.clone());
            break;
        }
        let receipt = desk.eam.close(&wo.order_no, wo.labour_minutes).await?;
        desk.tank.complete(ck.storage_key(), &Outflow::json(Code::OK, &receipt)).await?;
        closed.push(receipt);
    }
    Ok(Outflow::json(Code::OK, &serde_json::json!({ "closed": closed, "frozen": frozen })))
}

pub async fn reopen_order(State(desk): State<CrewDesk>, crew: Crew, intake: penstock::Intake) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&crew.tenant_id, &crew.sub, "work-order-reopen", key)?;
    desk.tank.claim(ck.storage_key(), &Fingerprint::of("work-order-reopen", intake.body())).await?;
    let order_no = intake.param("order_no").unwrap_or_default();
    let reopened = match desk.eam.reopen(order_no).await {
        Ok(r) => r,
        Err(e) => {
            desk.tank.release(ck.storage_key()).await?;
            return Err(e.into());
        }
    };
    let out = Outflow::json(Code::OK, &reopened);
    desk.tank.complete(ck.storage_key(), &out).await?;
    Ok(out)
}
