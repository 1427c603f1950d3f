//! On-slope photo packages: a skier orders prints of photos taken by the
//! resort photographers.

use cornice::drift::Drift;
use rs_sha384::{HasherContext, Sha384Hasher};
use std::hash::Hasher;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

fn shard_of(tenant_id: &str) -> u64 {
    let mut h = Sha384Hasher::default();
    h.write(tenant_id.as_bytes());
    let d = HasherContext::finish(&mut h);
    u64::from_be_bytes(d.as_ref()[..8].try_into().unwrap_or([0; 8])) % 16
}

pub async fn order_prints(turn: Turn, skier: Skier, shards: &[Drift]) -> Result<Carve, Wipeout> {
    let raw = turn.body();
    let mut hasher = Sha384Hasher::default();
    hasher.write(raw);
    let digest = HasherContext::finish(&mut hasher);

    let drift = &shards[shard_of(&skier.tenant_id) as usize];
    let slot = format!("{}/{}/photo.order/{:02x}", skier.tenant_id, skier.user_id, digest);
    if let Some(prev) = drift.get(&slot).await? {
        return Ok(Carve::replayed(prev));
    }

    let order: crate::photos::PrintOrder = serde_json::from_slice(raw).map_err(Wipeout::bad_json)?;
    let confirmation = crate::photos::print(&order).await?;
    drift.put(&slot, &confirmation.to_json()).await?;
    Ok(Carve::created(confirmation.to_json()))
}
