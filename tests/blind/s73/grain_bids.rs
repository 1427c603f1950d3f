//! Offers against the co-op's posted cash bids ("target orders"). The quad
//! store keys every record on (org, user, route, key) itself.

use bushel::quad::QuadCrock;
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::Problem;
use serde::Deserialize;

const PENDING: &[u8] = b"pending";

#[derive(Deserialize)]
pub struct Offer {
    pub location: String,
    pub delivery_month: String,
    pub bushels: u32,
    pub target_cents: u32,
}

pub struct BidBoard {
    pub quad: QuadCrock,
    pub board: CashBids,
}

pub async fn place_offer(p: Petition, Shared(b): Shared<BidBoard>, g: Grower, Json(o): Json<Offer>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    match b.quad.insert_if_absent(&g.org_id, &g.user_id, "target_offer", k, PENDING).await {
        Ok(true) => {}
        Ok(false) => return Ruling::problem(Problem::in_progress(k)),
        Err(e) => return Ruling::with(StatusLine::SERVICE_UNAVAILABLE).text(&e.to_string()),
    }

    let bid = b.board.current(&o.location, &o.delivery_month).await;
    if o.target_cents < bid.floor_cents {
        return Ruling::with(StatusLine::UNPROCESSABLE).text("target below the floor for that month");
    }

    let placed = b.board.place(&g.org_id, &o.location, &o.delivery_month, o.bushels, o.target_cents).await;
    let body = furrow::codec::to_vec(&placed).unwrap_or_default();
    let _ = b.quad.put(&g.org_id, &g.user_id, "target_offer", k, body.clone()).await;
    Ruling::created().bytes(body)
}

pub async fn cancel_offer(p: Petition, Shared(b): Shared<BidBoard>, g: Grower) -> Ruling {
    let (Some(k), Some(offer_id)) = (p.header("Idempotency-Key"), p.query("offer")) else {
        return Ruling::with(StatusLine::BAD_REQUEST);
    };
    match b.quad.insert_if_absent(&g.org_id, &g.user_id, "target_cancel", k, PENDING).await {
        Ok(true) => {}
        Ok(false) => return Ruling::problem(Problem::in_progress(k)),
        Err(e) => return Ruling::with(StatusLine::SERVICE_UNAVAILABLE).text(&e.to_string()),
    }
    if let Err(e) = b.board.cancel(&g.org_id, offer_id).await {
        let _ = b.quad.remove(&g.org_id, &g.user_id, "target_cancel", k).await;
        return Ruling::with(StatusLine::CONFLICT).text(&e.to_string());
    }
    let _ = b.quad.put(&g.org_id, &g.user_id, "target_cancel", k, b"cancelled".to_vec()).await;
    Ruling::ok()
}
