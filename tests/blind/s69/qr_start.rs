//! Starting a session by scanning the QR code on a charger. The app turns
//! the QR fragment into the idempotency key (`#k=...`).

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub async fn qr_start(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(hdr) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let unquoted = hdr.trim_matches('"');
    let key = unquoted.trim_matches('#');
    let evse = cx.query("evse").unwrap_or_default().trim().to_owned();
    let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/qr/start", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let s = crate::sessions::start_evse(&who, &evse).await;
    let _ = bin.put(sk.storage_key(), s.as_bytes()).await;
    Reply::text(Code::CREATED, s)
}
