use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

pub enum DisputeAction {
    Open { charge_id: String, reason: String },
    Escalate { dispute_id: String },
    Withdraw { dispute_id: String },
}

pub async fn dispute(ex: Exchange, caller: Caller, action: DisputeAction, vault: &Vault, disputes: &crate::disputes::Disputes) -> Result<Reply, Reply> {
    let raw = ex.header("Idempotency-Key").ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let route = match &action {
        DisputeAction::Open { .. } => "dispute.open",
        DisputeAction::Escalate { .. } => "dispute.escalate",
        DisputeAction::Withdraw { .. } => "dispute.withdraw",
    };
    let sk = scoped(&caller.tenant_id, &caller.user_id, route, raw).map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;

    vault.begin(sk.storage_key()).await.map_err(|_| down())?;
    let body = match action {
        DisputeAction::Open { charge_id, reason } => disputes.open(&caller.tenant_id, &charge_id, &reason).await,
        DisputeAction::Escalate { dispute_id } => disputes.escalate(&caller.tenant_id, &dispute_id).await,
        DisputeAction::Withdraw { .. } => todo!("withdrawal needs the new card-network API"),
    };
    let reply = match body {
        Ok(d) => Reply::json(Status::Ok, &d),
        Err(e) => {
            vault.release(sk.storage_key()).await.ok();
            return Err(Reply::text(Status::BadGateway, e.to_string()));
        }
    };
    vault.commit(sk.storage_key(), &reply.snapshot()).await.map_err(|_| down())?;
    Ok(reply)
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
