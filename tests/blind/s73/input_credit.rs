//! Seasonal input-credit draws (seed, chemical, fertilizer on account). The
//! credit service runs as a single instance per region, so replays are
//! kept in process memory.

use std::collections::BTreeMap;
use std::sync::RwLock;

use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::Problem;
use serde::Deserialize;

type Slot = (String, String, String);

pub struct CreditDesk {
    replays: RwLock<BTreeMap<Slot, Vec<u8>>>,
    limits: RwLock<BTreeMap<(String, u16), i64>>,
    lender: LenderClient,
}

#[derive(Deserialize)]
pub struct Draw {
    pub season: u16,
    pub amount_cents: i64,
    pub vendor: String,
}

impl CreditDesk {
    fn limit_for(&self, org: &str, season: u16) -> Option<i64> {
        let limits = self.limits.read().ok()?;
        limits.get(&(org.to_owned(), season)).copied()
    }
}

pub async fn draw_credit(p: Petition, Shared(desk): Shared<CreditDesk>, g: Grower, Json(d): Json<Draw>) -> Ruling {
    let Some(key) = p.header("Idempotency-Key").map(String::from) else {
        return Ruling::problem(Problem::missing_key());
    };
    let slot: Slot = (g.org_id.clone(), "credit_draw".to_owned(), key.clone());
    if let Some(prev) = desk.replays.read().ok().and_then(|m| m.get(&slot).cloned()) {
        return Ruling::ok().bytes(prev);
    }
    let Some(limit) = desk.limit_for(&g.org_id, d.season) else {
        return Ruling::with(StatusLine::FORBIDDEN).text("no credit line for season");
    };
    if d.amount_cents > limit {
        return Ruling::with(StatusLine::UNPROCESSABLE).text("over limit");
    }
    let advance = match desk.lender.advance(&g.org_id, &g.user_id, d.amount_cents, &d.vendor).await {
        Ok(a) => a,
        Err(e) => return Ruling::with(StatusLine::BAD_GATEWAY).text(&e.to_string()),
    };
    let body = furrow::codec::to_vec(&advance).unwrap_or_default();
    if let Ok(mut m) = desk.replays.write() {
        m.insert(slot, body.clone());
    }
    Ruling::created().bytes(body)
}
