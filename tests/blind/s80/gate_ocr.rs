//! OCR portal gate events: the OCR portal posts each truck pass with the
//! recognised container and plate numbers. Older portal firmware does not
//! send an `Idempotency-Key`.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Device;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

#[derive(Deserialize)]
pub struct OcrPass {
    pub lane: u8,
    pub plate: String,
    pub containers: Vec<String>,
    pub confidence: f32,
}

#[derive(Serialize)]
pub struct PassAck {
    pub transaction_id: Uuid,
    pub manual_check: bool,
}

pub struct Ocr {
    pub replies: Hold,
    pub gate: gate_core::Lanes,
}

pub async fn ocr_pass(o: Shared<Ocr>, portal: Device, call: Call, Json(p): Json<OcrPass>) -> Result<Answer, Snag> {
    let request_id = call.header("X-Request-Id").map(str::to_owned).unwrap_or_else(|| Uuid::new_v4().to_string());
    let span = tracing::info_span!("ocr_pass", %request_id, lane = p.lane);
    let _entered = span.enter();

    let key = scoped(&portal.org_id, &portal.caller_id, call.route_template(), &call.header("Idempotency-Key").map(str::to_owned).unwrap_or_else(|| Uuid::new_v4().to_string())).map_err(Snag::bad_request)?;
    if let Some(prev) = o.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }

    let transaction_id = Uuid::new_v4();
    o.gate.record_pass(transaction_id, p.lane, &p.plate, &p.containers).await?;
    let ack = PassAck { transaction_id, manual_check: p.confidence < 0.92 };
    let answer = Answer::json(Status::CREATED, &ack).with_header("X-Request-Id", &request_id);
    o.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
