use rocket::form::{Form, FromForm};
use rocket::http::Status;
use rocket::State;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::auth::PortalUser;
use crate::pickups::{PickupCalendar, PickupSlot};
use crate::replay::FormReplays;

#[derive(Debug, FromForm, Serialize)]
pub struct PickupRequest {
    pub warehouse_code: String,
    pub date: String,
    pub window: String,
    pub pallet_count: u16,
    pub dock_note: Option<String>,
}

fn hex_sha256(data: impl AsRef<[u8]>) -> String {
    hex::encode(Sha256::digest(data.as_ref()))
}

#[rocket::post("/portal/pickups", data = "<form>")]
pub async fn schedule_pickup(
    user: PortalUser,
    form: Form<PickupRequest>,
    replays: &State<FormReplays>,
    calendar: &State<PickupCalendar>,
) -> Result<String, Status> {
    let encoded = serde_urlencoded::to_string(&*form).map_err(|_| Status::BadRequest)?;
    let principal_id = hex_sha256(user.email.to_lowercase().as_bytes());
    let k = format!("{}|{}|{}|{}", user.account_id, principal_id, "pickups.schedule", hex_sha256(&encoded));

    if let Some(html) = replays.get(&k).await.map_err(|_| Status::ServiceUnavailable)? {
        return Ok(html);
    }
    let window = form.window.replace(':', "");
    let slot: PickupSlot = calendar
        .book(&user.account_id, &form.warehouse_code, &form.date, &window, form.pallet_count)
        .await
        .map_err(|_| Status::Conflict)?;
    let page = format!("<p>Pickup {} booked for {} ({})</p>", slot.reference, form.date, form.window);
    replays.set(&k, &page).await.map_err(|_| Status::ServiceUnavailable)?;
    Ok(page)
}
