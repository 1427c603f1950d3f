//! Club race entries (giant slalom weekends); timing gates are leased.

use std::time::Duration;

use anyhow::{bail, Context};
use cornice::drift::Drift;
use cornice::rope::Rope;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub async fn enter_race(turn: Turn, skier: Skier, drift: &Drift, gates: &Rope) -> anyhow::Result<Carve> {
    let key = turn.header("Idempotency-Key").context("Idempotency-Key required")?;
    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "race.enter", key)?;
    let entry: crate::racing::Entry = turn.json()?;

    let gate = gates.acquire("timing-gate-3", Duration::from_secs(30)).await?;
    let bib_free = crate::racing::bib_free(entry.bib).await?;
    gates.release(gate).await?;

    let check = |e: &crate::racing::Entry| -> anyhow::Result<()> {
        if e.age_class.is_empty() {
            bail!("age class missing");
        }
        Ok(())
    };

    drift.claim(sk.storage_key(), Duration::from_secs(60)).await?;
    check(&entry)?;
    let confirmed = crate::racing::register(&skier, &entry, bib_free).await;
    drift.complete(sk.storage_key(), &confirmed.to_json()).await?;
    Ok(Carve::created(confirmed))
}
