//! Heli-ski seat reservations; the booking store is keyed by raw bytes.

use bytes::BytesMut;
use cornice::bytes_kv::ByteKv;
use telemark::extract::{FromRequestParts, Parts};
use telemark::pass::Partner;
use telemark::{Carve, Turn, Wipeout};

pub struct Requested(pub String);

impl<S: Sync> FromRequestParts<S> for Requested {
    type Rejection = Wipeout;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let raw = parts
            .headers
            .get("idempotency-key")
            .ok_or_else(|| Wipeout::bad_request("Idempotency-Key missing"))?;
        let text = raw.to_str().map_err(|_| Wipeout::bad_request("not ascii"))?;
        Ok(Requested(text.to_owned()))
    }
}

pub async fn reserve_seat(
    turn: Turn,
    partner: Partner,
    Requested(req_key): Requested,
    kv: &ByteKv,
) -> Result<Carve, Wipeout> {
    let mut buf = Vec::with_capacity(128);
    buf.extend_from_slice(partner.account_id.as_bytes());
    buf.push(0u8);
    buf.extend_from_slice(partner.client_id.as_bytes());
    buf.push(0u8);
    buf.extend_from_slice(b"heli.reserve");
    buf.push(0u8);
    buf.extend_from_slice(req_key.as_bytes());

    if let Some(done) = kv.get(&buf).await? {
        return Ok(Carve::replayed(done));
    }

    let seat: crate::heli::SeatRequest = turn.json()?;
    let manifest = crate::heli::hold(&seat).await?;

    let mut out = BytesMut::with_capacity(256);
    out.extend_from_slice(b"{\"manifest\":");
    out.extend_from_slice(manifest.id.as_bytes());
    out.extend_from_slice(b"}");

    kv.put(&buf, &out).await?;
    Ok(Carve::created(out.freeze()))
}
