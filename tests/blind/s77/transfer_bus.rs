//! Airport transfer bus seat booking.

use cornice::drift::Drift;
use sha2::{Digest, Sha256};
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub async fn book_transfer(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let key_of = |b: &[u8]| format!("{:x}", Sha256::digest(b));
    let etag_of = |b: &[u8]| format!("\"{:x}\"", Sha256::digest(b));
    let raw = turn.body().to_vec();

    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "transfer.book", &key_of(&raw))?;
    if drift.exists(sk.storage_key()).await? {
        return Ok(Carve::conflict("transfer already booked"));
    }
    let req: crate::transfer::SeatRequest = serde_json::from_slice(&raw).map_err(Wipeout::bad_json)?;
    let seat = crate::transfer::book(&req).await?;
    let body = seat.to_json();
    drift.put(sk.storage_key(), body.as_bytes()).await?;
    Ok(Carve::created(body.clone()).header("ETag", etag_of(body.as_bytes())))
}
