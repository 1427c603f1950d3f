//! Online rental reservations picked up at the village shop.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use cornice::tuple_kv::TupleKv;
use telemark::pass::Skier;
use telemark::{Carve, Json, Turn, Wipeout};

#[derive(serde::Deserialize, Hash)]
pub struct ReserveRequest {
    pub shop_id: String,
    pub items: Vec<String>,
    pub pickup_day: String,
}

pub async fn reserve(
    turn: Turn,
    skier: Skier,
    Json(req): Json<ReserveRequest>,
    kv: &TupleKv,
    sessions: &TupleKv,
) -> Result<Carve, Wipeout> {
    let mut h = DefaultHasher::new();
    req.hash(&mut h);
    let req_hash = h.finish();

    let slot = (skier.tenant_id.as_str(), skier.user_id.as_str(), "rental.reserve", req_hash);
    if let Some(prev) = kv.get(&slot).await? {
        return Ok(Carve::replayed(prev));
    }

    let bearer = turn.header("Authorization").ok_or_else(Wipeout::unauthorized)?;
    let mut th = DefaultHasher::new();
    bearer.hash(&mut th);
    let token_hash = th.finish();
    let session = sessions.get(&("session", token_hash)).await?;

    let booking = crate::rental::reserve(&req, session).await?;
    kv.put(&slot, &booking.to_json()).await?;
    Ok(Carve::created(booking.to_json()))
}
