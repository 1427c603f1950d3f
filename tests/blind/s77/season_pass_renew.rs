//! Season-pass auto-renew confirmation (the skier confirms the renewal price).

use std::time::Duration;

use cornice::drift::Drift;
use idem_scope::{scoped, ClaimGuard};
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

const LEASE: Duration = Duration::from_secs(300);

pub async fn confirm_renewal(turn: Turn, skier: Skier, drift: Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let sk = scoped(&skier.tenant_id, &skier.user_id, "season-pass.renew", key)?;

    if !drift.claim(sk.storage_key(), LEASE).await? {
        return Ok(Carve::problem(idem_scope::Problem::in_progress(key)));
    }
    let renewal: crate::passes::Renewal = turn.json()?;
    let charged = crate::payments::charge_renewal(&skier, &renewal).await?;
    drift.complete(sk.storage_key(), &charged.to_json()).await?;
    Ok(Carve::ok(charged))
}

pub async fn decline_renewal(turn: Turn, skier: Skier, drift: Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let sk = scoped(&skier.tenant_id, &skier.user_id, "season-pass.decline", key)?;

    if !drift.claim(sk.storage_key(), LEASE).await? {
        return Ok(Carve::problem(idem_scope::Problem::in_progress(key)));
    }
    let release_drift = drift.clone();
    let release_key = sk.storage_key().to_owned();
    let guard = ClaimGuard::new(move || {
        tokio::spawn(async move {
            let _ = release_drift.release(&release_key).await;
        });
    });
    let reason: crate::passes::DeclineReason = turn.json()?;
    let out = crate::passes::decline(&skier, &reason).await?;
    drift.complete(sk.storage_key(), &out.to_json()).await?;
    guard.complete();
    Ok(Carve::ok(out))
}
