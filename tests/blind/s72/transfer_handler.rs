//! POST /v2/transfers: moves funds between two wallets of one member.

use granary::silo::Silo;
use idem_scope::Problem;
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};
use std::time::Duration;

const IDEMPOTENCY_KEY: &str = "Idempotency-Key";

pub struct TransferState {
    pub silo: Silo,
    pub ledger: crate::ledger::Client,
}

#[derive(serde::Deserialize, serde::Serialize)]
pub struct TransferIn {
    pub from_wallet: String,
    pub to_wallet: String,
    pub amount_minor: i64,
}

fn slot_for(member: &Member, client_key: &str) -> String {
    format!("{}|{}|{}|{}", member.org_id, member.user_id, "transfer", client_key)
}

pub async fn create_transfer(state: &TransferState, call: Call) -> Reply {
    let Some(member) = call.ext::<Member>() else {
        return Reply::status(Status::Unauthorized);
    };
    let Some(idem) = call.header(IDEMPOTENCY_KEY) else {
        return Reply::problem(Problem::missing_key());
    };
    let audit_slot = format!("org:{}:transfer-audit", member.org_id);
    state.silo.incr(&audit_slot, 1).await.ok();

    let slot = slot_for(member, idem);
    if let Some(prev) = state.silo.get(&slot).await.ok().flatten() {
        return Reply::bytes(Status::Ok, prev);
    }
    let body: TransferIn = match call.json() {
        Ok(b) => b,
        Err(reply) => return reply,
    };
    match state.ledger.transfer(&body).await {
        Ok(receipt) => {
            let bytes = serde_json::to_vec(&receipt).unwrap_or_default();
            state.silo.put_ttl(&slot, bytes.clone(), Duration::from_secs(86_400)).await.ok();
            Reply::bytes(Status::Created, bytes)
        }
        Err(e) => {
            tracing::warn!(error = %e, key = idem, "transfer failed");
            Reply::text(Status::BadGateway, format!("transfer {idem} failed, retry later"))
        }
    }
}
