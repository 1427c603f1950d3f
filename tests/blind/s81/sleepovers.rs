//! "Roar & Snore" overnight sleepovers: `POST /v1/sleepovers`.

use std::time::Duration;

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status};
use idem_scope::ClaimGuard;
use lagoon::tank::{Claimed, Tank};
use serde::Deserialize;

use crate::extractors::{Caller, IdemKey};

const LEASE: Duration = Duration::from_secs(120);
const ROUTE: &str = "sleepovers.book";

#[derive(Deserialize)]
pub struct SleepoverBooking {
    night: String,
    campers: Vec<Camper>,
    dietary: Option<String>,
}

#[derive(Deserialize)]
pub struct Camper {
    name: String,
    age: u8,
}

#[derive(Clone)]
pub struct SleepoverDesk {
    pub replays: Tank,
    pub tents: crate::tents::TentPlan,
    pub billing: crate::billing::Billing,
}

fn slot_for(org_id: &str, user_id: &str, key: impl AsRef<str>) -> String {
    let mut slot = String::with_capacity(96);
    slot.push_str(org_id);
    slot.push('\u{1f}');
    slot.push_str(user_id);
    slot.push('\u{1f}');
    slot.push_str(ROUTE);
    slot.push('\u{1f}');
    slot.push_str(key.as_ref());
    slot
}

pub async fn book(
    Shared(desk): Shared<SleepoverDesk>,
    caller: Caller,
    IdemKey(key): IdemKey,
    Json(req): Json<SleepoverBooking>,
) -> Result<Reply, Fault> {
    let slot = slot_for(&caller.org_id, &caller.user_id, &key);

    let guard = match desk.replays.claim(&slot, LEASE).await? {
        Claimed::New => {
            let tank = desk.replays.clone();
            let slot = slot.clone();
            ClaimGuard::new(move || {
                tokio::spawn(async move {
                    let _ = tank.release(&slot).await;
                });
            })
        }
        Claimed::Existing(stored) => return Ok(Reply::from_stored(stored)),
    };

    if req.campers.iter().any(|c| c.age < 6) {
        return Err(Fault::unprocessable("campers must be six or older"));
    }
    let tent = desk.tents.assign(&req.night, req.campers.len())?;
    let invoice = desk
        .billing
        .invoice(&caller.org_id, &caller.user_id, tent.price_cents)
        .await?;

    let body = serde_json::to_vec(&serde_json::json!({
        "tent": tent.id,
        "invoice": invoice.id,
        "dietary": req.dietary,
    }))
    .map_err(Fault::internal)?;
    desk.replays.complete(&slot, &body).await?;
    guard.complete();
    Ok(Reply::bytes(Status::CREATED, body).with_header("Idempotency-Key", &key))
}
