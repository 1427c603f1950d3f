//! Licence-plate recognition at barrier-controlled car parks: the camera
//! vendor calls us when a known plate arrives.

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::Partner;
use trellis::{Code, Cx, Reply};

fn normalise_plate(raw: &str) -> String {
    raw.replace(['-', ' '], "").to_ascii_uppercase()
}

pub async fn arrival(cx: Cx, partner: Partner, bin: &Bin) -> Reply {
    let Some(raw_key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let key = raw_key.replacen('/', "-", 8);
    let plate = normalise_plate(&cx.query("plate").unwrap_or_default());
    let Ok(sk) = scoped(&partner.org_id, &partner.client_id, "/v1/parking/arrivals", &key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if bin.exists(sk.storage_key()).await.unwrap_or(false) {
        return Reply::status(Code::OK);
    }
    crate::parking::open_barrier(&partner.org_id, &plate).await;
    let _ = bin.put(sk.storage_key(), plate.as_bytes()).await;
    Reply::status(Code::ACCEPTED)
}
