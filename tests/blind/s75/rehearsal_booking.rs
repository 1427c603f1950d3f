//! Rehearsal-room bookings for resident and visiting companies.
//! Visiting directors sign in through the partner portal and may not have a
//! home organisation yet.
use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use loft::batten::{Begun, Batten};
use proscenium::draw::JsonPart;
use proscenium::pass::Staff;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const LEASE: Duration = Duration::from_secs(30);
const KEEP: Duration = Duration::from_secs(24 * 3600);
const DEFAULT_PAGE_SIZE: u32 = 25;

#[derive(Deserialize)]
pub struct RoomBooking {
    pub room: Option<String>,
    pub starts_at: String,
    pub hours: u8,
}

#[derive(Deserialize)]
pub struct ListQuery {
    pub page_size: Option<u32>,
}

pub struct Rooms {
    pub batten: Batten,
    pub diary: crate::rooms::Diary,
}

pub async fn book_room(cue: Cue, staff: Staff, JsonPart(req): JsonPart<RoomBooking>, rooms: House<Rooms>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let org = if staff.home_org.is_empty() { "global" } else { staff.home_org.as_str() };
    let room = req.room.clone().unwrap_or_else(|| "studio-a".to_owned());
    let sk = scoped(org, &staff.user_id, "book_room", key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("book_room", cue.body());
    match rooms.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let booking = rooms.diary.book(org, &room, &req.starts_at, req.hours).await?;
            let body = serde_json::to_vec(&booking).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(201, body))
        }
    }
}

pub async fn list_rooms(cue: Cue, staff: Staff, rooms: House<Rooms>) -> Result<Curtain, Flub> {
    let q: ListQuery = cue.query_as().map_err(Flub::bad_request)?;
    let page = q.page_size.unwrap_or(DEFAULT_PAGE_SIZE).min(100);
    let list = rooms.diary.list(&staff.home_org, page).await?;
    Ok(Curtain::json(200, &list))
}
