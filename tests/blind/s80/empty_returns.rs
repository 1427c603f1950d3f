//! Empty container return appointments: hauliers return empties to the
//! terminal or to an off-dock depot chosen by the line.

use ballast::wire::{cmd, Conn};
use hawser::extract::{Json, Shared};
use hawser::pass::Haulier;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct EmptyReturn {
    pub container_no: String,
    pub line_code: String,
    pub size_type: String,
    pub eta: jiff::Timestamp,
}

pub struct Empties {
    pub replies: Conn,
    pub depot_locks: Conn,
    pub depots: depot_net::Directory,
}

pub async fn book_return(e: Shared<Empties>, h: Haulier, call: Call, Json(req): Json<EmptyReturn>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let key = scoped(&h.account_id, &h.client_id, call.route_template(), k).map_err(Snag::bad_request)?;
    let mut replies = e.replies.clone();

    let fresh: bool = cmd("SET").arg(key.storage_key()).arg("in_progress").arg("NX").arg("PX").arg(60_000).query_async(&mut replies).await?;
    if !fresh {
        let prev: Option<Vec<u8>> = cmd("GET").arg(key.storage_key()).query_async(&mut replies).await?;
        return Ok(prev.map(Answer::replay).unwrap_or_else(|| Answer::status(Status::CONFLICT)));
    }

    let depot = e.depots.for_line(&req.line_code, &req.size_type).await?;
    let mut locks = e.depot_locks.clone();
    let lock_name = format!("depot-capacity:{}", depot.code);
    let locked: bool = cmd("SET").arg(&lock_name).arg(&h.client_id).arg("NX").arg("EX").arg(30).query_async(&mut locks).await?;
    if !locked {
        return Err(Snag::service_unavailable("depot busy"));
    }
    let slot = depot.take_slot(&req.container_no, req.eta).await?;
    let _: () = cmd("DEL").arg(&lock_name).query_async(&mut locks).await?;

    let answer = Answer::json(Status::CREATED, &slot);
    let _: () = cmd("SET").arg(key.storage_key()).arg(answer.to_bytes()).arg("PX").arg(86_400_000).query_async(&mut replies).await?;
    Ok(answer)
}
