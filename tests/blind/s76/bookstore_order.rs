//! Campus bookstore orders. Online orders carry an Idempotency-Key; the
//! point-of-sale terminals in the store do not, so the service drops a
//! repeated POS order if an identical one arrived in the last ten minutes.

use std::collections::hash_map::Entry;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use idem_scope::{scoped, Fingerprint};
use lectern::card::{Kiosk, Student};
use lectern::{Ask, Hitch, Mark, Tell};
use nohash_hasher::IntMap;
use satchel::pouch::Pouch;
use serde::{Deserialize, Serialize};

use crate::store::Registers;

const POS_DEDUP_WINDOW: Duration = Duration::from_secs(600);

#[derive(Serialize, Deserialize)]
pub struct OrderIn {
    pub lines: Vec<Line>,
    pub tender: String,
}

#[derive(Serialize, Deserialize)]
pub struct Line {
    pub sku: String,
    pub qty: u32,
}

pub struct Bookstore {
    pub pouch: Pouch,
    pub pos_dedup: Mutex<IntMap<u64, (Instant, Vec<u8>)>>,
    pub registers: Registers,
}

pub async fn online_order(ask: &Ask, shop: &Bookstore) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/bookstore/orders", key)?;
    let fp = Fingerprint::of("/v1/bookstore/orders", ask.content());
    if let Some(rec) = shop.pouch.get_record(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, rec.body).header("Idempotent-Replayed", "true"));
    }
    let input: OrderIn = ask.json()?;
    let sale = shop.registers.ring_online(&card.tenant_id, &card.user_id, &input.lines, &input.tender).await?;
    let body = serde_json::to_vec(&sale)?;
    shop.pouch.put_record(sk.storage_key(), &fp, &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

pub async fn pos_order(ask: &Ask, shop: &Bookstore) -> Result<Tell, Hitch> {
    let kiosk = ask.badge::<Kiosk>()?;
    let input: OrderIn = ask.json()?;
    let canonical = json_canon::to_string(&input)?;
    let mut hasher = DefaultHasher::new();
    kiosk.tenant_id.hash(&mut hasher);
    canonical.hash(&mut hasher);

    let now = Instant::now();
    let mut dedup = shop.pos_dedup.lock().expect("pos dedup poisoned");
    dedup.retain(|_, (at, _)| now.duration_since(*at) < POS_DEDUP_WINDOW);
    match dedup.entry(hasher.finish()) {
        Entry::Occupied(hit) => Ok(Tell::bytes(Mark::OK, hit.get().1.clone())),
        Entry::Vacant(slot) => {
            let sale = shop.registers.ring_pos_blocking(&kiosk.tenant_id, &kiosk.terminal_id, &input.lines)?;
            let body = serde_json::to_vec(&sale)?;
            slot.insert((now, body.clone()));
            let mut etag = DefaultHasher::new();
            body.hash(&mut etag);
            Ok(Tell::bytes(Mark::CREATED, body).header("ETag", &format!("\"{:016x}\"", etag.finish())))
        }
    }
}
