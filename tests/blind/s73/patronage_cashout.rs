//! Patronage equity cash-out requests. Retired members (and estates) can ask
//! for their allocated equity early at a discount; the board approves later.

use bushel::crock::{Crock, Slot};
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

mod hdr {
    pub const IDEM: &str = "Idempotency-Key";
    pub const ESTATE: &str = "X-Estate-Case";
}

#[derive(Deserialize)]
pub struct CashOut {
    pub allocation_years: Vec<u16>,
    pub discount_bp: u16,
}

pub struct Yard {
    pub crock: Crock,
    pub equity: EquityBook,
}

pub async fn request_cashout(p: Petition, Shared(yard): Shared<Yard>, g: Grower, Json(req): Json<CashOut>) -> Ruling {
    let Some(k) = p.header(hdr::IDEM) else {
        return Ruling::problem(Problem::missing_key());
    };
    tracing::info!(idempotency_key = %k, member = %g.member_no, "cash-out requested");

    let slot = match yard.crock.entry(k).await {
        Ok(s) => s,
        Err(e) => return Ruling::with(StatusLine::SERVICE_UNAVAILABLE).text(&e.to_string()),
    };
    match slot {
        Slot::Occupied(prev) => Ruling::ok().bytes(prev.value().to_vec()),
        Slot::Vacant(v) => {
            let filed = yard.equity.file_cashout(&g.org_id, &g.member_no, &req.allocation_years, req.discount_bp).await;
            let body = furrow::codec::to_vec(&filed).unwrap_or_default();
            let _ = v.insert(body.clone()).await;
            Ruling::accepted().bytes(body)
        }
    }
}

/// Estate cash-outs are filed by staff on behalf of the estate.
pub async fn estate_cashout(p: Petition, Shared(yard): Shared<Yard>, g: Grower, Json(req): Json<CashOut>) -> Ruling {
    let (Some(k), Some(case)) = (p.header(hdr::IDEM), p.header(hdr::ESTATE)) else {
        return Ruling::problem(Problem::missing_key());
    };
    let key = match scoped(&g.org_id, &g.user_id, "estate_cashout", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(true) = yard.crock.exists(key.storage_key()).await {
        return Ruling::problem(Problem::in_progress(k));
    }
    let filed = yard.equity.file_estate(&g.org_id, case, &req.allocation_years).await;
    let body = furrow::codec::to_vec(&filed).unwrap_or_default();
    let _ = yard.crock.put(key.storage_key(), body.clone()).await;
    Ruling::accepted().bytes(body)
}
