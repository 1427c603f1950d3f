//! Park-and-ride shuttle seats for the summer festival site. The shuttle
//! booking widget is embedded on partner sites and cannot send custom headers.
use std::fmt::Write as _;
use std::time::Duration;

use loft::batten::{Begun, Batten};
use proscenium::draw::JsonPart;
use proscenium::pass::Patron;
use proscenium::{Curtain, Flub, House};
use serde::{Deserialize, Serialize};

const LEASE: Duration = Duration::from_secs(20);
const KEEP: Duration = Duration::from_secs(12 * 3600);

#[derive(Deserialize, Serialize)]
pub struct ShuttleRequest {
    pub car_park: String,
    pub departure: String,
    pub seats: u8,
}

pub struct Shuttles {
    pub replays: Batten,
    pub fleet: crate::festival::Fleet,
}

pub async fn book_shuttle(patron: Patron, JsonPart(req): JsonPart<ShuttleRequest>, house: House<Shuttles>) -> Result<Curtain, Flub> {
    let encoded = serde_json::to_vec(&req).map_err(Flub::internal)?;
    let ride_hash = cityhash::city_hash_64(&encoded);
    let mut slot = String::with_capacity(80);
    write!(slot, "{}/{}/book_shuttle/{:016x}", patron.org_id, patron.user_id, ride_hash).map_err(Flub::internal)?;
    let fp = idem_scope::Fingerprint::of("book_shuttle", &encoded);
    match house.replays.begin(&slot, &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let ticket = house.fleet.book(&patron.org_id, &req.car_park, &req.departure, req.seats).await?;
            let body = serde_json::to_vec(&ticket).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(201, body))
        }
    }
}
