//! Settling scale tickets: when a load crosses the scale the grower picks
//! how the bushels are split between landlord and tenant, then settles.

use std::time::Duration;

use bushel::crock::{Claimed, Crock};
use furrow::glean::RawBytes;
use furrow::warrant::Grower;
use furrow::{Fault, Petition, Ruling, Shared};
use idem_scope::{decide, scoped, ClaimGuard, Decision, Fingerprint, Problem};
use serde::Deserialize;

const LEASE: Duration = Duration::from_secs(120);

#[derive(Deserialize)]
struct SettleReq {
    ticket_no: String,
    landlord_pct: u8,
}

pub struct Yard {
    pub crock: Crock,
    pub settlements: SettlementDesk,
}

fn replay(decision: Decision, stored: Option<Vec<u8>>, key: &str) -> Ruling {
    match decision {
        Decision::Replay => Ruling::ok().header("Idempotent-Replayed", "true").bytes(stored.unwrap_or_default()),
        Decision::InProgress => Ruling::problem(Problem::in_progress(key)),
        Decision::Mismatch => Ruling::problem(Problem::mismatch(key)),
        Decision::Proceed => Ruling::problem(Problem::in_progress(key)),
    }
}

pub async fn settle_ticket(p: Petition, Shared(y): Shared<Yard>, g: Grower, raw: RawBytes) -> Result<Ruling, Fault> {
    let k = p.header("Idempotency-Key").ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&g.org_id, &g.user_id, "ticket_settle", k)?;
    let fp = Fingerprint::of("ticket_settle", &raw.0);

    match y.crock.claim(key.storage_key(), &fp, LEASE).await? {
        Claimed::New => {}
        Claimed::Existing(rec, stored) => return Ok(replay(decide(Some(&rec), &fp), stored, k)),
    }

    let settlement = {
        let req: SettleReq = furrow::codec::from_slice(&raw.0)?;
        y.settlements.settle(&g.org_id, &req.ticket_no, req.landlord_pct).await
    };
    let body = furrow::codec::to_vec(&settlement).unwrap_or_default();
    y.crock.complete(key.storage_key(), &body).await?;
    Ok(Ruling::ok().bytes(body))
}

/// Voiding a ticket: same shape, but the claim is held by a guard.
pub async fn void_ticket(p: Petition, Shared(y): Shared<Yard>, g: Grower, raw: RawBytes) -> Result<Ruling, Fault> {
    let k = p.header("Idempotency-Key").ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&g.org_id, &g.user_id, "ticket_void", k)?;
    let fp = Fingerprint::of("ticket_void", &raw.0);

    match y.crock.claim(key.storage_key(), &fp, LEASE).await? {
        Claimed::New => {}
        Claimed::Existing(rec, stored) => return Ok(replay(decide(Some(&rec), &fp), stored, k)),
    }
    let crock = y.crock.clone();
    let held = key.storage_key().to_owned();
    let guard = ClaimGuard::new(move || {
        tokio::spawn(async move {
            let _ = crock.release(&held).await;
        });
    });

    let req: SettleReq = furrow::codec::from_slice(&raw.0)?;
    let voided = y.settlements.void(&g.org_id, &req.ticket_no).await?;
    let body = furrow::codec::to_vec(&voided)?;
    y.crock.complete(key.storage_key(), &body).await?;
    guard.complete();
    Ok(Ruling::ok().bytes(body))
}
