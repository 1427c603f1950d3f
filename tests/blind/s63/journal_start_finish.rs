use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use wherry::auth::Caller;
use wherry::extract::{Json, State};
use wherry::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct JournalEntry {
    pub debit: String,
    pub credit: String,
    pub amount_minor: i64,
    pub memo: String,
}

#[derive(Clone)]
pub struct Journal {
    pub vat: Arc<Vat>,
    pub gl: Arc<gl::GeneralLedger>,
}

pub async fn post_journal(ctx: Ctx, caller: Caller, State(j): State<Journal>, Json(entry): Json<JournalEntry>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.org_id, &caller.user_id, "post_journal", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = j.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }

    j.vat.start(sk.storage_key()).await.map_err(|_| Problem::in_progress(key))?;
    let period = j.gl.open_period(&caller.org_id).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    // The GL export uses '|' as its column delimiter.
    let memo = entry.memo.replace('|', "/");
    let posted = j.gl.post(&period, &entry.debit, &entry.credit, entry.amount_minor, &memo).await;
    let body = posted.to_json();
    j.vat.finish(sk.storage_key(), body.clone()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    Ok(Reply::bytes(Status::CREATED, body))
}

pub async fn reverse_journal(ctx: Ctx, caller: Caller, State(j): State<Journal>, Json(entry): Json<JournalEntry>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.org_id, &caller.user_id, "reverse_journal", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = j.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }

    let tap = j.vat.begin(sk.storage_key()).await.map_err(|_| Problem::in_progress(key))?;
    let period = j.gl.open_period(&caller.org_id).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let reversed = j.gl.reverse(&period, &entry.debit, &entry.credit, entry.amount_minor).await;
    let body = reversed.to_json();
    tap.complete(body.clone()).await;
    Ok(Reply::bytes(Status::OK, body))
}
