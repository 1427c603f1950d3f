use std::sync::Arc;

use cistern::records::Records;
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use wherry::auth::Caller;
use wherry::extract::{Json, State};
use wherry::{Ctx, Reply, Status};

#[derive(Deserialize, Clone, Copy)]
pub enum Rail {
    Domestic,
    Sepa,
    Swift,
}

#[derive(Deserialize)]
pub struct OutboundTransfer {
    pub rail: Rail,
    pub iban: String,
    pub amount_minor: i64,
}

#[derive(Clone)]
pub struct Transfers {
    pub records: Arc<Records>,
    pub rails: Arc<rails::Switch>,
}

pub async fn send_transfer(ctx: Ctx, caller: Caller, State(t): State<Transfers>, Json(req): Json<OutboundTransfer>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "send_transfer", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = t.records.response(sk.storage_key()).await {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }

    let iban: String = req.iban.chars().filter(|c| !c.is_whitespace()).collect();
    t.records.mark_in_progress(sk.storage_key()).await.map_err(|_| Problem::in_progress(key))?;
    let outcome = match req.rail {
        Rail::Domestic => t.rails.domestic(&iban, req.amount_minor).await,
        Rail::Sepa => t.rails.sepa(&iban, req.amount_minor).await,
        Rail::Swift => todo!("SWIFT is not wired to the switch yet"),
    };
    let receipt = match outcome {
        Ok(r) => r,
        Err(e) => {
            t.records.release(sk.storage_key()).await;
            return Err(Problem::invalid_key(&e.to_string()));
        }
    };
    t.records.mark_done(sk.storage_key(), receipt.to_json()).await;
    Ok(Reply::bytes(Status::CREATED, receipt.to_json()))
}

pub async fn recall_transfer(ctx: Ctx, caller: Caller, State(t): State<Transfers>, Json(req): Json<OutboundTransfer>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    if matches!(req.rail, Rail::Swift) {
        unreachable!("recall is rejected for SWIFT by the router");
    }
    let sk = scoped(&caller.tenant_id, &caller.user_id, "recall_transfer", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    t.records.mark_in_progress(sk.storage_key()).await.map_err(|_held| Problem::in_progress(key))?;
    let outcome = t.rails.recall(&req.iban, req.amount_minor).await;
    let receipt = match outcome {
        Ok(r) => r,
        Err(e) => {
            t.records.release(sk.storage_key()).await;
            return Err(Problem::invalid_key(&e.to_string()));
        }
    };
    t.records.mark_done(sk.storage_key(), receipt.to_json()).await;
    let body = serde_json::to_vec(&receipt).expect("receipts serialise");
    Ok(Reply::bytes(Status::OK, body))
}
