//! Cron jobs take a lease so only one replica runs them.

use granary::lease::Leases;
use granary::silo::Silo;
use std::time::Duration;

pub async fn compact_replies(leases: &Leases, silo: &Silo) -> anyhow::Result<()> {
    let lease = leases.acquire("compact-replies", Duration::from_secs(300)).await?;
    let removed = silo.sweep_expired().await?;
    anyhow::ensure!(removed < 1_000_000, "suspicious sweep size");
    leases.complete(lease).await?;
    Ok(())
}

pub async fn rotate_keys(leases: &Leases) -> anyhow::Result<()> {
    let lease = leases.acquire("rotate-signing-keys", Duration::from_secs(60)).await?;
    let next = crate::keys::generate()?;
    crate::keys::publish(&next).await?;
    leases.complete(lease).await?;
    Ok(())
}
