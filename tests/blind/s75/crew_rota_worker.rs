//! Shift swaps between crew members. The app posts a swap request; the swap
//! itself runs in the background because the rota service is slow.
use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, Problem};
use loft::batten::Batten;
use proscenium::draw::JsonPart;
use proscenium::pass::Staff;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;
use tokio::sync::Mutex;

const LEASE: Duration = Duration::from_secs(300);
const KEEP: Duration = Duration::from_secs(3 * 86_400);

#[derive(Deserialize)]
pub struct SwapRequest {
    pub from_shift: String,
    pub to_shift: String,
}

pub struct CrewOffice {
    pub batten: Batten,
    pub rota: Arc<crate::crew::Rota>,
    pub refresh_lock: Mutex<()>,
}

pub async fn request_swap(cue: Cue, staff: Staff, JsonPart(req): JsonPart<SwapRequest>, house: House<CrewOffice>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let sk = scoped(&staff.org_id, &staff.user_id, "swap_shift", key).map_err(Flub::bad_request)?;
    if let Some(done) = house.batten.get(sk.storage_key()).await? {
        return Ok(Curtain::replay(Some(done)));
    }
    let batten = house.batten.clone();
    let rota = house.rota.clone();
    tokio::spawn(async move {
        if !batten.claim(sk.storage_key(), LEASE).await.unwrap_or(false) {
            return;
        }
        let (Ok(from), Ok(to)) = (rota.shift(&req.from_shift).await, rota.shift(&req.to_shift).await) else {
            let _ = batten.release(sk.storage_key()).await;
            return;
        };
        if from.id == to.id {
            panic!("swap of shift {} with itself", from.id);
        }
        match rota.swap(&from, &to).await {
            Ok(done) => {
                let _ = batten.complete(sk.storage_key(), done.to_bytes(), KEEP).await;
            }
            Err(e) => {
                tracing::warn!(error = %e, "swap failed");
                let _ = batten.release(sk.storage_key()).await;
            }
        }
    });
    Ok(Curtain::new(202))
}

/// Reloads the rota cache; a second caller while a reload runs gets 429.
pub async fn refresh_rota(staff: Staff, house: House<CrewOffice>) -> Result<Curtain, Flub> {
    let Ok(_running) = house.refresh_lock.try_lock() else {
        return Ok(Curtain::new(429));
    };
    house.rota.reload(&staff.org_id).await?;
    Ok(Curtain::new(204))
}
