use cobble::records::Records;
use idem_scope::{scoped, Problem};
use thimble::auth::Caller;
use thimble::extract::Json;
use thimble::{Exchange, Reply, Status};

#[derive(serde::Deserialize, serde::Serialize)]
pub struct Filing {
    pub period: String,
    pub jurisdiction: String,
    pub amount_minor: i64,
}

pub async fn submit_filing(ex: Exchange, caller: Caller, Json(f): Json<Filing>, records: &Records) -> Result<Reply, Reply> {
    let mut key = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?
        .to_owned();
    key.retain(|c| c != ':' && c != '|');
    let sk = scoped(&caller.tenant_id, &caller.user_id, "tax.file", &key)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    let pending = records.begin(sk.storage_key()).await.map_err(|_| down())?;
    let receipt = crate::tax::file(&caller.tenant_id, &f).await.map_err(|_| down())?;
    let reply = Reply::json(Status::Created, &receipt);
    pending.complete(&reply.snapshot()).await.map_err(|_| down())?;
    Ok(reply)
}

pub async fn amend_filing(ex: Exchange, caller: Caller, Json(f): Json<Filing>, records: &Records) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let mut period = f.period.clone();
    period.retain(|c| c.is_ascii_digit() || c == '-');
    let sk = scoped(&caller.tenant_id, &caller.user_id, "tax.amend", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    records.mark_in_progress(sk.storage_key()).await.map_err(|_| down())?;
    match crate::tax::amend(&caller.tenant_id, &period, &f).await {
        Ok(receipt) => {
            let reply = Reply::json(Status::Ok, &receipt);
            records.mark_done(sk.storage_key(), &reply.snapshot()).await.ok();
            Ok(reply)
        }
        Err(e) => {
            records.abandon(sk.storage_key()).await.ok();
            Err(Reply::text(Status::BadGateway, e.to_string()))
        }
    }
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
