use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use wherry::auth::Caller;
use wherry::extract::State;
use wherry::{Ctx, Reply, Status};

#[derive(Clone)]
pub struct Tickets {
    pub vat: Arc<Vat>,
    pub desk: Arc<helpdesk::Desk>,
}

pub async fn open_ticket(ctx: Ctx, caller: Caller, State(t): State<Tickets>) -> Result<Reply, Problem> {
    let raw = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    // Some embedded clients pad the header with NULs.
    let key: String = raw.chars().filter(|c| *c != '\0').collect();
    let sk = scoped(&caller.tenant_id, &caller.user_id, "open_ticket", &key).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Some(done) = t.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let subject: String = ctx.header("X-Ticket-Subject").unwrap_or_default().chars().filter(|c| !c.is_control()).collect();
    let ticket = t.desk.open(&caller.tenant_id, &caller.user_id, &subject, ctx.body()).await;
    let _ = t.vat.put(sk.storage_key(), ticket.to_json()).await;
    Ok(Reply::bytes(Status::CREATED, ticket.to_json()))
}

#[derive(Clone)]
pub struct Claims {
    pub vat: Arc<Vat>,
    pub warranty: Arc<warranty::Desk>,
}

/// Warranty claims from the phone app. Older app builds send the key in upper
/// case, newer ones in lower case; both are UUIDs, with or without dashes.
pub async fn file_warranty_claim(ctx: Ctx, caller: Caller, State(c): State<Claims>) -> Result<Reply, Problem> {
    let raw = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let key = raw.to_ascii_lowercase().replace('-', "");
    let sk = scoped(&caller.tenant_id, &caller.user_id, "file_warranty_claim", &key).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Some(done) = c.vat.get(sk.storage_key()).await.ok().flatten() {
        tracing::info!("{}", format!("replaying warranty claim for key {}", raw));
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let serial = ctx.query("serial").unwrap_or_default().replace(' ', "");
    let claim = c.warranty.file(&caller.tenant_id, &serial, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = c.vat.put(sk.storage_key(), claim.to_json()).await;
    Ok(Reply::bytes(Status::CREATED, claim.to_json()))
}
