//! Mountain-restaurant lunch pre-orders (pick up at the summit hut).

use cornice::drift::Drift;
use idem_scope::{scoped, Fingerprint};
use sha2::{Digest, Sha256};
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

const ROUTE: &str = "dining.preorder";

pub async fn preorder(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let body = turn.body().to_vec();
    let digest = Sha256::digest(&body);
    let hex_digest = format!("{:x}", digest);

    let fp = Fingerprint::of(ROUTE, &body);
    let sk = scoped(&skier.tenant_id, &skier.user_id, ROUTE, &hex_digest)?;

    if let Some(prev) = drift.get_record(sk.storage_key()).await? {
        if prev.fingerprint.as_bytes() == fp.as_bytes() {
            return Ok(Carve::replayed(prev.body));
        }
    }
    let order: crate::dining::Preorder = serde_json::from_slice(&body).map_err(Wipeout::bad_json)?;
    let ticket = crate::dining::place(&order).await?;
    drift.put_record(sk.storage_key(), fp, &ticket.to_json()).await?;
    Ok(Carve::created(ticket.to_json()))
}
