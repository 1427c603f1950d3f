//! Merchandise pre-orders (programmes, posters, cast recordings) with
//! pick-up at the interval bar.
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use ecow::EcoString;
use loft::batten::Batten;
use proscenium::draw::{Draw, JsonPart};
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const ROUTE: &str = "merch_order";
const KEEP: Duration = Duration::from_secs(12 * 3600);

/// The client's `Idempotency-Key`, required on every merch route.
pub struct ClientKey(pub EcoString);

impl Draw for ClientKey {
    async fn draw(cue: &mut Cue) -> Result<Self, Flub> {
        match cue.header("Idempotency-Key") {
            Some(v) if !v.is_empty() && v.len() <= 255 => Ok(ClientKey(EcoString::from(v))),
            Some(_) => Err(Flub::bad_request("Idempotency-Key must be 1..=255 bytes")),
            None => Err(Flub::bad_request("Idempotency-Key is required")),
        }
    }
}

#[derive(Deserialize)]
pub struct MerchOrder {
    pub sku: String,
    pub quantity: u32,
    pub performance_id: String,
}

type PickupKey = (String, String, &'static str, String);

pub struct Bar {
    pub batten: Batten,
    pub pickups: Mutex<HashMap<PickupKey, u64>>,
    pub till: crate::bar::Till,
}

pub async fn order_merch(
    ck: ClientKey,
    patron: Patron,
    JsonPart(order): JsonPart<MerchOrder>,
    bar: House<Bar>,
) -> Result<Curtain, Flub> {
    let mut slot = String::with_capacity(96);
    for part in [patron.org_id.as_str(), patron.user_id.as_str(), ROUTE, ck.0.as_str()] {
        slot += part;
        slot.push('\u{1f}');
    }
    if let Some(previous) = bar.batten.get(&slot).await? {
        let mut note = String::from("merch order replayed for key ");
        note += ck.0.as_str();
        tracing::debug!("{note}");
        return Ok(Curtain::replay(Some(previous)));
    }
    let receipt = bar.till.preorder(&patron.org_id, &order.sku, order.quantity, &order.performance_id).await?;
    let body = serde_json::to_vec(&receipt).map_err(Flub::internal)?;
    bar.batten.put(&slot, body.clone(), KEEP).await?;
    Ok(Curtain::bytes(201, body))
}

/// Reserves a pick-up slot at the bar; the slot number is handed back on retries.
pub async fn reserve_pickup(ck: ClientKey, patron: Patron, bar: House<Bar>) -> Result<Curtain, Flub> {
    let mut pickups = bar.pickups.lock().unwrap();
    let next = pickups.len() as u64 + 1;
    let slot_no = *pickups
        .entry((patron.org_id.clone(), patron.user_id.clone(), "reserve_pickup", ck.0.to_string()))
        .or_insert(next);
    drop(pickups);
    Ok(Curtain::json(200, &serde_json::json!({ "pickup_slot": slot_no })))
}
