//! Lift + lesson + rental bundles.

use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};

use cornice::drift::Drift;
use idem_scope::scoped;
use telemark::pass::Skier;
use telemark::{Carve, Json, Turn, Wipeout};

#[derive(serde::Deserialize, Hash)]
pub struct Bundle {
    pub pass_days: u8,
    pub lesson_ids: Vec<String>,
    pub rental_skus: Vec<String>,
}

type Stable = BuildHasherDefault<DefaultHasher>;

pub async fn checkout(turn: Turn, skier: Skier, Json(bundle): Json<Bundle>, drift: &Drift) -> Result<Carve, Wipeout> {
    let stable = Stable::default();
    tracing::debug!(channel = turn.header("X-Channel").unwrap_or("web"), "bundle checkout");
    let sk = scoped(&skier.tenant_id, &skier.user_id, "bundle.checkout", &stable.hash_one(&bundle).to_string())?;
    let user_bucket = stable.hash_one(&skier.user_id) % 64;

    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    crate::metrics::bucket("bundle.checkout", user_bucket);
    let order = crate::bundles::checkout(&skier, &bundle).await?;
    drift.put(sk.storage_key(), &order.to_json()).await?;
    Ok(Carve::created(order.to_json()))
}
