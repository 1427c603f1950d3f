//! Bin storage bookings: a grower reserves space in an elevator bin ahead of
//! harvest. The mobile app retries on flaky rural connections and sends an
//! `Idempotency-Key` with every booking.

use bushel::crock::Crock;
use bushel::stock::BinPlanner;
use furrow::glean::{Glean, Json};
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::Problem;
use serde::{Deserialize, Serialize};

const ROUTE: &str = "bin_booking";

/// The raw value of the `Idempotency-Key` header, as the app sent it.
pub struct BookingKey(pub String);

impl Glean for BookingKey {
    type Rejection = Ruling;

    fn glean(p: &Petition) -> Result<Self, Ruling> {
        match p.header("Idempotency-Key") {
            Some(v) if !v.is_empty() && v.len() <= 255 => Ok(BookingKey(v.to_owned())),
            Some(_) => Err(Ruling::problem(Problem::invalid_key("longer than 255 bytes"))),
            None => Err(Ruling::problem(Problem::missing_key())),
        }
    }
}

#[derive(Deserialize)]
pub struct BookingReq {
    pub bin_id: String,
    pub bushels: u32,
    pub commodity: String,
}

#[derive(Serialize)]
pub struct BookingResp {
    pub booking_id: String,
    pub bin_id: String,
    pub bushels: u32,
}

pub struct Yard {
    pub crock: Crock,
    pub bins: BinPlanner,
}

fn slot_text(g: &Grower, key: &BookingKey) -> String {
    let mut slot = String::with_capacity(96);
    slot += &g.org_id;
    slot += "\u{1f}";
    slot += &g.user_id;
    slot += "\u{1f}";
    slot += ROUTE;
    slot += "\u{1f}";
    slot += &key.0;
    slot
}

pub async fn book_bin(
    Shared(yard): Shared<Yard>,
    g: Grower,
    key: BookingKey,
    Json(req): Json<BookingReq>,
) -> Ruling {
    let slot = slot_text(&g, &key);
    if let Ok(Some(prev)) = yard.crock.get(&slot).await {
        return Ruling::ok().header("Idempotent-Replayed", "true").bytes(prev);
    }

    let hold_ref = format!("{}/{}/{}", g.org_id, req.bin_id, req.commodity);
    let hold = match yard.bins.reserve(&hold_ref, req.bushels).await {
        Ok(h) => h,
        Err(e) => return Ruling::with(StatusLine::CONFLICT).text(&e.to_string()),
    };
    let booking_id = yard.bins.commit(hold).await.map_err(|e| e.to_string());
    let booking_id = match booking_id {
        Ok(id) => id,
        Err(msg) => return Ruling::with(StatusLine::BAD_GATEWAY).text(&msg),
    };

    tracing::info!(note = %format!("booking {} for key {}", booking_id, key.0), "bin booked");
    let resp = BookingResp { booking_id, bin_id: req.bin_id, bushels: req.bushels };
    let body = furrow::codec::to_vec(&resp).unwrap_or_default();
    let _ = yard.crock.put(&slot, body.clone()).await;
    Ruling::created().header("Idempotency-Key", &key.0).bytes(body)
}
