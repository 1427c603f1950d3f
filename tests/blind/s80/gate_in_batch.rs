//! Batch gate-in for rail-mounted gates: the OCR portal posts every container
//! seen in one truck pass. Each item carries its own key so a partial retry
//! only replays the items that were not applied.

use std::time::Duration;

use ballast::hold::Hold;
use futures::future::join_all;
use hawser::extract::{Json, Shared};
use hawser::pass::Staff;
use hawser::{Answer, Snag, Status};
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
pub struct GateInBatch {
    pub lane: u8,
    pub truck_plate: String,
    pub items: Vec<GateInItem>,
}

#[derive(Deserialize)]
pub struct GateInItem {
    /// The client's idempotency key for this item; a retried batch must reuse it.
    #[serde(rename = "idempotencyKey")]
    pub idempotency_key: String,
    pub container_no: String,
    pub visit_no: String,
    pub damage_codes: Vec<String>,
}

#[derive(Serialize)]
pub struct BatchResult {
    pub applied: usize,
    pub skipped: usize,
}

pub struct GateIn {
    pub seen: Hold,
    pub yard_counts: Hold,
    pub yard: yard_api::Client,
}

pub async fn gate_in(g: Shared<GateIn>, staff: Staff, Json(batch): Json<GateInBatch>) -> Result<Answer, Snag> {
    let ttl = Duration::from_secs(6 * 3600);
    let firsts = join_all(batch.items.iter().map(|it| g.seen.set_nx(&it.idempotency_key, b"seen", ttl))).await;

    let mut applied = 0;
    for (it, first) in batch.items.iter().zip(firsts) {
        if !first? {
            continue;
        }
        g.yard.gate_in(&it.container_no, &it.visit_no, batch.lane, &it.damage_codes, &staff.sub).await?;
        let unit_key = format!("{}:{}", it.container_no, it.visit_no);
        g.yard_counts.put(&unit_key, batch.truck_plate.as_bytes()).await?;
        applied += 1;
    }

    let result = BatchResult { applied, skipped: batch.items.len() - applied };
    Ok(Answer::json(Status::OK, &result))
}
