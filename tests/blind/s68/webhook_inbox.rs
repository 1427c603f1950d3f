use ed25519_dalek::{Signature, Verifier, VerifyingKey};
use idem_scope::{scoped, scoped_server, Problem};
use cobble::vault::Vault;
use thimble::auth::Caller;
use thimble::extract::RawBody;
use thimble::{Exchange, Reply, Status};

pub struct Inbox {
    pub vault: Vault,
    pub loomis_key: VerifyingKey,
    pub tallyho_key: VerifyingKey,
}

#[derive(serde::Deserialize)]
struct LoomisEvent {
    tenant_id: String,
    kind: String,
}

impl Inbox {
    /// Clients may re-submit a shipment manually with their own key.
    pub async fn resubmit(&self, ex: Exchange, caller: Caller) -> Result<Reply, Reply> {
        let raw = ex.header("Idempotency-Key").ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "shipment.resubmit", raw)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
        let fresh = self.vault.set_nx(sk.storage_key(), b"seen").await.map_err(|_| down())?;
        Ok(Reply::status(if fresh { Status::Accepted } else { Status::Ok }))
    }

    pub async fn loomis(&self, ex: Exchange, RawBody(body): RawBody) -> Result<Reply, Reply> {
        let sig = ex.header("X-Loomis-Signature").ok_or_else(|| Reply::status(Status::Unauthorized))?;
        let sig = Signature::from_slice(&hex::decode(sig).map_err(|_| bad())?).map_err(|_| bad())?;
        self.loomis_key.verify(&body, &sig).map_err(|_| Reply::status(Status::Unauthorized))?;
        let delivery_id = ex.header("X-Loomis-Delivery").ok_or_else(bad)?;
        let evt: LoomisEvent = serde_json::from_slice(&body).map_err(|_| bad())?;
        let sk = scoped(&evt.tenant_id, "loomis", "webhook.loomis", delivery_id).map_err(|_| bad())?;
        if !self.vault.set_nx(sk.storage_key(), evt.kind.as_bytes()).await.map_err(|_| down())? {
            return Ok(Reply::status(Status::Ok));
        }
        Ok(Reply::status(Status::Accepted))
    }

    pub async fn tallyho(&self, ex: Exchange, RawBody(body): RawBody) -> Result<Reply, Reply> {
        let delivery_id = ex.header("X-Tallyho-Delivery").ok_or_else(bad)?;
        let evt: LoomisEvent = serde_json::from_slice(&body).map_err(|_| bad())?;
        let sk = scoped_server(&evt.tenant_id, "tallyho", "webhook.tallyho", delivery_id).map_err(|_| bad())?;
        let fresh = self.vault.set_nx(sk.storage_key(), evt.kind.as_bytes()).await.map_err(|_| down())?;
        Ok(Reply::status(if fresh { Status::Accepted } else { Status::Ok }))
    }
}

fn bad() -> Reply {
    Reply::status(Status::BadRequest)
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
