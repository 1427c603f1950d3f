use cobble::records::Records;
use idem_scope::{scoped, Problem};
use thimble::auth::Caller;
use thimble::extract::Json;
use thimble::{Exchange, Reply, Status};

use crate::gl::{GeneralLedger, JournalEntry, PostOutcome};

pub async fn post_entry(
    ex: Exchange,
    caller: Caller,
    Json(entry): Json<JournalEntry>,
    records: &Records,
    gl: &GeneralLedger,
) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "journal.post", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;

    records.mark_in_progress(sk.storage_key()).await.map_err(|_| down())?;
    let outcome = gl.post(&caller.tenant_id, &entry).await;
    let reply = match outcome {
        PostOutcome::Posted(receipt) => Reply::json(Status::Created, &receipt),
        PostOutcome::PeriodClosed => {
            return Ok(Reply::problem_status(Status::UnprocessableEntity, "accounting period closed"));
        }
        PostOutcome::Unbalanced { debit, credit } => {
            records.abandon(sk.storage_key()).await.ok();
            return Ok(Reply::text(Status::UnprocessableEntity, format!("unbalanced: {debit} != {credit}")));
        }
    };
    records.mark_done(sk.storage_key(), &reply.snapshot()).await.map_err(|_| down())?;
    Ok(reply)
}

pub async fn reverse_entry(ex: Exchange, caller: Caller, records: &Records, gl: &GeneralLedger) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "journal.reverse", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    let pending = records.begin(sk.storage_key()).await.map_err(|_| down())?;
    let receipt = gl.reverse(&caller.tenant_id).await.map_err(|_| down())?;
    let reply = Reply::json(Status::Ok, &receipt);
    pending.complete(&reply.snapshot()).await.map_err(|_| down())?;
    Ok(reply)
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
