use std::sync::Arc;

use cobble::vault::Vault;
use idem_scope::{decide, Decision, Fingerprint, Problem, Record};
use thimble::auth::Caller;
use thimble::extract::RawBody;
use thimble::{Exchange, Reply, Status};

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";

pub struct ChargeState {
    pub vault: Arc<Vault>,
    pub ledger: Arc<crate::ledger::LedgerClient>,
}

pub async fn create_charge(
    ex: Exchange,
    caller: Caller,
    RawBody(body): RawBody,
    state: Arc<ChargeState>,
) -> Result<Reply, Reply> {
    let idem = match ex.header(IDEMPOTENCY_HEADER) {
        Some(v) if !v.is_empty() => v.to_owned(),
        _ => return Err(Reply::problem(Problem::missing_key())),
    };

    let key = format!("{}/{}/charge/{}", caller.tenant_id, caller.user_id, idem);
    let fingerprint = Fingerprint::of("charge", &body);

    let existing: Option<Record> = state.vault.get(&key).await.map_err(internal)?;
    match decide(existing.as_ref(), &fingerprint) {
        Decision::Replay => {
            log::info!("charge {} replayed for {}", idem, caller.user_id);
            let stored = state.vault.get_response(&key).await.map_err(internal)?;
            return Ok(Reply::from_stored(stored));
        }
        Decision::InProgress => return Err(Reply::problem(Problem::in_progress(&idem))),
        Decision::Mismatch => return Err(Reply::problem(Problem::mismatch(&idem))),
        Decision::Proceed => {}
    }

    state
        .vault
        .put(&key, Record::in_progress(fingerprint))
        .await
        .map_err(internal)?;

    let charge: crate::ledger::NewCharge = serde_json::from_slice(&body).map_err(|_| Reply::status(Status::BadRequest))?;
    let receipt = state.ledger.post(&caller.tenant_id, charge).await.map_err(internal)?;
    let reply = Reply::json(Status::Created, &receipt);
    state.vault.save_response(&key, &reply.snapshot()).await.map_err(internal)?;
    Ok(reply)
}

fn internal<E: std::fmt::Display>(e: E) -> Reply {
    log::error!("charge store failure: {e}");
    Reply::status(Status::InternalServerError)
}
