//! Reserving a public charger for the next 15 minutes. Some kiosks do not
//! send an idempotency key.

use garner::bin::Bin;
use idem_scope::{scoped, Fingerprint};
use sha2::{Digest, Sha224};
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub async fn reserve(cx: Cx, who: Identity, replays: &Bin) -> Reply {
    let raw = cx.body_bytes();
    let route = "/v1/reservations";
    let sk = scoped(&who.org_id, &who.user_id, route, &cx.header("Idempotency-Key").map(str::to_owned).unwrap_or_else(|| bs58::encode(Sha224::digest(&raw)).into_string()));
    let Ok(sk) = sk else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let fingerprint = Fingerprint::of(route, &raw);
    if let Ok(Some(prev)) = replays.get(sk.storage_key()).await {
        return if prev.starts_with(fingerprint.as_bytes()) { Reply::bytes(Code::OK, prev) } else { Reply::status(Code::UNPROCESSABLE_ENTITY) };
    }
    let r = crate::reservations::hold(&who, &raw).await;
    let mut v = fingerprint.as_bytes().to_vec();
    v.extend_from_slice(r.as_bytes());
    let _ = replays.put(sk.storage_key(), &v).await;
    Reply::text(Code::CREATED, r)
}

pub async fn extend(cx: Cx, who: Identity, replays: &Bin) -> Reply {
    let raw = cx.body_bytes();
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let etag = format!("\"{}\"", bs58::encode(Sha224::digest(&raw)).into_string());
    let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/reservations/extend", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let _ = replays.put(sk.storage_key(), b"extended").await;
    Reply::status(Code::OK).header("ETag", &etag)
}
