//! Connector reservations (inventory holds) and the nightly job lock.
//! Neither is an idempotency record.

use std::time::Duration;

use garner::hold::Holds;
use garner::lease::Leases;

pub async fn hold_connector(holds: &Holds, charger_id: &str, connector: u8, minutes: u64) -> Result<String, garner::Error> {
    let hold = holds.reserve(&format!("{charger_id}/{connector}"), Duration::from_secs(minutes * 60)).await?;
    let price = crate::pricing::hold_fee(charger_id).await?;
    holds.commit(&hold, price.to_string().as_bytes()).await?;
    Ok(hold.id)
}

pub async fn nightly_settlement(leases: &Leases) -> Result<(), garner::Error> {
    let lease = leases.acquire("settlement/nightly", Duration::from_secs(3600)).await?;
    let batch = crate::settlement::collect().await?;
    crate::settlement::post(&batch).await?;
    leases.complete(lease).await?;
    Ok(())
}

pub async fn recompute_tariffs(lock: &tokio::sync::Semaphore) -> Result<(), garner::Error> {
    let _permit = lock.acquire().await.map_err(|_| garner::Error::Closed)?;
    crate::tariffs::recompute().await?;
    Ok(())
}
