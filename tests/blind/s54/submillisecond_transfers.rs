use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use submillisecond::extract::Json;
use submillisecond::http::HeaderMap;
use submillisecond::{router, Application};

use gatehouse::blocking::resolve_bearer;
use ledgerkit::blocking::ReplayDb;

#[derive(Debug, Serialize, Deserialize)]
pub struct InterbankTransfer {
    pub from_iban: String,
    pub to_iban: String,
    pub amount_minor: i64,
    pub reference: String,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct TransferAck {
    pub transfer_id: String,
    pub status: String,
}

fn replay_db() -> ReplayDb {
    ReplayDb::open_shared("transfers-replay").expect("replay db")
}

fn create_transfer(headers: HeaderMap, Json(input): Json<InterbankTransfer>) -> Result<Json<TransferAck>, (u16, String)> {
    let who = resolve_bearer(&headers).ok_or((401, "unauthenticated".to_owned()))?;
    let db = replay_db();

    let mut hasher = Sha256::new();
    hasher.update(input.from_iban.as_bytes());
    hasher.update(input.to_iban.as_bytes());
    hasher.update(input.amount_minor.to_be_bytes());
    hasher.update(input.reference.as_bytes());
    let route = "transfers.create";
    let request_key = format!("{}/{}/{}/{:x}", who.tenant_id, who.user_id, route, hasher.finalize());

    if let Some(ack) = db.get::<TransferAck>(&request_key).map_err(|e| (500, e.to_string()))? {
        return Ok(Json(ack));
    }
    let ack = corebank::submit(&who, &input).map_err(|e| (502, e.to_string()))?;
    let ack = TransferAck { transfer_id: ack.id, status: ack.status };
    db.put(&request_key, &ack).map_err(|e| (500, e.to_string()))?;
    Ok(Json(ack))
}

pub fn main() -> std::io::Result<()> {
    Application::new(router! {
        POST "/v1/transfers" => create_transfer
    })
    .serve("0.0.0.0:3000")
}
