//! Ship stores deliveries: chandlers post a batch of deliveries (provisions,
//! spares, lube oil) to vessels at berth; each line is gated separately.

use std::time::Duration;

use ballast::hold::{Claimed, Hold};
use hawser::extract::{Json, Shared};
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
pub struct StoresBatch {
    pub call_ref: String,
    pub lines: Vec<StoresLine>,
}

#[derive(Deserialize)]
pub struct StoresLine {
    /// The chandler's idempotency key for this delivery line.
    pub idempotency_key: String,
    pub truck_plate: String,
    pub category: String,
    pub pallets: u16,
}

#[derive(Serialize, Default)]
pub struct BatchOutcome {
    pub accepted: Vec<String>,
    pub refused: Vec<String>,
}

pub struct StoresDesk {
    pub replies: Hold,
    pub quay_access: quay_access::Permits,
}

pub async fn deliver(desk: Shared<StoresDesk>, a: Agent, call: Call, Json(batch): Json<StoresBatch>) -> Result<Answer, Snag> {
    let route = call.route_template();
    let mut outcome = BatchOutcome::default();

    for line in &batch.lines {
        let key = scoped(&a.account_id, &a.user_id, route, &line.idempotency_key).map_err(Snag::bad_request)?;
        match desk.replies.claim(key.storage_key(), Duration::from_secs(300)).await? {
            Claimed::Existing(_) => continue,
            Claimed::New => {}
        }
        if line.pallets == 0 || line.category.is_empty() {
            outcome.refused.push(line.truck_plate.clone());
            continue;
        }
        let permit = desk.quay_access.issue(&batch.call_ref, &line.truck_plate, &line.category).await?;
        desk.replies.complete(key.storage_key(), permit.number.as_bytes()).await?;
        outcome.accepted.push(permit.number);
    }

    Ok(Answer::json(Status::OK, &outcome))
}
