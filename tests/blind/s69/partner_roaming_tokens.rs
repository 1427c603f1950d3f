//! Roaming partners push driver tokens (RFID UIDs) so their customers can
//! charge on our network.

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::{MaybePartner, Partner};
use trellis::{Code, Cx, Reply};

pub async fn push_token(cx: Cx, partner: MaybePartner, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let org_id = partner.0.as_ref().map_or("*", |p: &Partner| p.org_id.as_str());
    let client_id = partner.0.as_ref().map(|p| p.client_id.as_str()).unwrap_or("public");
    let Ok(sk) = scoped(org_id, client_id, "/ocpi/2.2.1/tokens", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if bin.exists(sk.storage_key()).await.unwrap_or(false) {
        return Reply::status(Code::OK);
    }
    crate::tokens::upsert(org_id, cx.body_bytes()).await;
    let _ = bin.put(sk.storage_key(), b"1").await;
    let tier = partner.0.as_ref().map_or("public", |p| p.tier.as_str());
    crate::metrics::tokens_pushed(tier);
    Reply::status(Code::CREATED)
}
