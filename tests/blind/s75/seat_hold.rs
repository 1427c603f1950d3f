//! Seat holds: a patron keeps seats for ten minutes while paying.
use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, ClaimGuard, Fingerprint, Problem, Record};
use loft::batten::Batten;
use proscenium::draw::JsonPart;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;
use tokio::sync::Mutex;

const LEASE: Duration = Duration::from_secs(30);
const HOLD_TTL: Duration = Duration::from_secs(600);

#[derive(Deserialize)]
pub struct HoldRequest {
    pub performance_id: String,
    pub seats: Vec<String>,
    pub section: Option<String>,
}

pub struct HoldDeps {
    pub batten: Batten,
    pub cache: Batten,
    pub planner: Arc<Mutex<crate::seating::Planner>>,
}

pub async fn hold_seats(
    cue: Cue,
    patron: Patron,
    JsonPart(req): JsonPart<HoldRequest>,
    house: House<HoldDeps>,
) -> Result<Curtain, Flub> {
    let key = cue
        .header("idempotency-key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let sk = scoped(&patron.org_id, &patron.user_id, "hold_seats", key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("hold_seats", cue.body());
    let section = req.section.clone().unwrap_or_default();
    let seat_map_key = format!("seatmap:{}:{}:{}", patron.org_id, req.performance_id, section);
    let cached = house.cache.get(&seat_map_key).await?;

    if !house.batten.set_nx(sk.storage_key(), Record::in_progress(fp).to_bytes(), LEASE).await? {
        return Ok(Curtain::problem(Problem::in_progress(key)));
    }

    let mut planner = house.planner.lock().await;
    let free = planner.free_seats(&req.performance_id, cached.as_deref());
    if req.seats.iter().any(|s| !free.contains(s)) {
        return Ok(Curtain::new(409).text("one or more seats were taken"));
    }
    let hold = match planner.hold(&req.performance_id, &req.seats, HOLD_TTL) {
        Ok(h) => h,
        Err(e) => {
            house.batten.release(sk.storage_key()).await?;
            return Err(Flub::internal(e));
        }
    };
    drop(planner);
    let body = hold.to_json_bytes();
    house.batten.complete(sk.storage_key(), body.clone(), HOLD_TTL).await?;
    Ok(Curtain::bytes(201, body))
}

/// Extends an existing hold; the extension is claimed under its own key.
pub async fn extend_hold(cue: Cue, patron: Patron, house: House<HoldDeps>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let hold_id = cue.param("hold_id").ok_or_else(|| Flub::not_found("hold"))?;
    let sk = scoped(&patron.org_id, &patron.user_id, "extend_hold", key).map_err(Flub::bad_request)?;
    if !house.batten.claim(sk.storage_key(), LEASE).await? {
        return Ok(Curtain::problem(Problem::in_progress(key)));
    }
    let batten = house.batten.clone();
    let held_key = sk.storage_key().to_owned();
    let guard = ClaimGuard::new(move || {
        tokio::spawn(async move {
            let _ = batten.release(&held_key).await;
        });
    });
    let extended = house.planner.lock().await.extend(hold_id, HOLD_TTL)?;
    house.batten.complete(sk.storage_key(), extended.to_json_bytes(), HOLD_TTL).await?;
    guard.complete();
    Ok(Curtain::json(200, &extended))
}
