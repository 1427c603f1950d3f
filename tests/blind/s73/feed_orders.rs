//! Livestock feed orders from the member portal (ripress). Older portal
//! builds do not send an Idempotency-Key.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use bushel::crock::Crock;
use idem_scope::scoped;
use ripress::context::{HttpRequest, HttpResponse};
use serde::Deserialize;

#[derive(Deserialize, Hash)]
pub struct FeedOrder {
    pub ration: String,
    pub tons: u32,
    pub bin_no: u8,
    pub deliver_on: String,
}

pub struct FeedMill {
    pub crock: Crock,
    pub mill: MillScheduler,
}

fn digest_of<T: Hash>(v: &T) -> u64 {
    let mut h = DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

pub async fn place(mill: Arc<FeedMill>, req: HttpRequest, res: HttpResponse) -> HttpResponse {
    let Some(s) = portal_session(&req) else {
        return res.status(401).text("sign in");
    };
    let order: FeedOrder = match req.json() {
        Ok(o) => o,
        Err(_) => return res.status(422).text("bad order"),
    };
    let key = req.headers.get("Idempotency-Key").map(str::to_owned);
    let scope = match scoped(&s.org_id, &s.user_id, "feed_order", &key.unwrap_or_else(|| format!("{:016x}", digest_of(&order)))) {
        Ok(sc) => sc,
        Err(e) => return res.status(400).text(e.to_string()),
    };
    if let Ok(Some(prev)) = mill.crock.get(scope.storage_key()).await {
        return res.status(200).bytes(prev);
    }
    let slot = mill.mill.schedule(&s.org_id, &order.ration, order.tons, order.bin_no).await;
    let shard = digest_of(&s.org_id) % 16;
    let body = furrow::codec::to_vec(&(slot, shard)).unwrap_or_default();
    let _ = mill.crock.put(scope.storage_key(), body.clone()).await;
    res.status(201).bytes(body)
}
