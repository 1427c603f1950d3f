//! Corporate group passes: a coordinator submits a batch of named passes,
//! each line carrying its own key derived from the request key.

use std::time::Duration;

use cornice::belay::Belay;
use cornice::drift::Drift;
use telemark::pass::Partner;
use telemark::{Carve, Turn, Wipeout};

pub async fn submit_batch(turn: Turn, partner: Partner, drift: &Drift, belay: &Belay) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let batch: crate::groups::Batch = turn.json()?;
    let sk = idem_scope::scoped(&partner.account_id, &partner.client_id, "group-pass.batch", key)?;

    let mut issued = Vec::with_capacity(batch.lines.len());
    'lines: {
        drift.claim(sk.storage_key(), Duration::from_secs(600)).await?;
        for line in &batch.lines {
            if line.holder_name.is_empty() {
                break 'lines;
            }
            issued.push(crate::groups::issue(&partner, line).await);
        }
        drift.complete(sk.storage_key(), &serde_json::to_vec(&issued).unwrap_or_default()).await?;
    }
    Ok(Carve::created(issued))
}

pub async fn amend_batch(turn: Turn, partner: Partner, belay: &Belay) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let sk = idem_scope::scoped(&partner.account_id, &partner.client_id, "group-pass.amend", key)?;

    let anchor = belay.claim(&sk, Duration::from_secs(600)).await?;
    let amend: crate::groups::Amendment = turn.json()?;
    let result = crate::groups::amend(&partner, &amend).await?;
    anchor.complete(&result.to_json()).await?;
    Ok(Carve::ok(result))
}
