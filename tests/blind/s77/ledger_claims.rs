//! Wallet ledger postings keyed by scoped keys; claims use the ledger's
//! reserve/commit/abandon protocol.

use std::time::Duration;

use cornice::ledger::Ledger;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub async fn post_charge(turn: Turn, skier: Skier, ledger: &Ledger) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "wallet.charge", key)?;
    let charge: crate::wallet::Charge = turn.json()?;

    ledger.reserve(&sk, Duration::from_secs(60)).await?;
    let outcome = async {
        let posting = crate::wallet::post(&skier, &charge).await?;
        crate::wallet::notify(&skier, &posting).await?;
        Ok::<_, Wipeout>(posting)
    }
    .await;
    match outcome {
        Ok(posting) => {
            ledger.commit(&sk, &posting.to_json()).await?;
            Ok(Carve::ok(posting))
        }
        Err(e) => {
            ledger.abandon(&sk).await?;
            Err(e)
        }
    }
}

pub async fn post_refund(turn: Turn, skier: Skier, ledger: &Ledger) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "wallet.refund", key)?;
    let refund: crate::wallet::Refund = turn.json()?;
    let posting = crate::wallet::post_refund(&skier, &refund).await?;

    ledger.reserve(&sk, Duration::from_secs(60)).await?;
    ledger.commit(&sk, &posting.to_json()).await?;
    Ok(Carve::ok(posting))
}
