use std::time::Duration;

use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use sqids::Sqids;
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

pub struct GiftCards {
    pub vault: Vault,
    pub sqids: Sqids,
}

impl GiftCards {
    pub async fn issue(&self, ex: Exchange, caller: Caller, amount_minor: u64) -> Result<Reply, Reply> {
        let raw = ex
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "giftcard.issue", raw)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;

        self.vault.try_claim(sk.storage_key(), Duration::from_secs(30)).await.map_err(|_| busy())?;
        let serial = self.vault.incr("giftcard:serial").await.unwrap();
        let code = self.sqids.encode(&[serial, amount_minor]).unwrap_or_default();
        let reply = Reply::json(Status::Created, &serde_json::json!({ "code": code }));
        self.vault.complete(sk.storage_key(), &reply.snapshot()).await.map_err(|_| busy())?;
        Ok(reply)
    }

    pub async fn reissue(&self, ex: Exchange, caller: Caller, old: String) -> Result<Reply, Reply> {
        let raw = ex
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "giftcard.reissue", raw)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
        self.vault.try_claim(sk.storage_key(), Duration::from_secs(30)).await.map_err(|_| busy())?;
        let ids = self.sqids.decode(&old);
        if ids.is_empty() {
            self.vault.release(sk.storage_key()).await.ok();
            return Err(Reply::status(Status::NotFound));
        }
        let code = self.sqids.encode(&ids).unwrap_or_default();
        let reply = Reply::json(Status::Ok, &serde_json::json!({ "code": code }));
        self.vault.complete(sk.storage_key(), &reply.snapshot()).await.map_err(|_| busy())?;
        Ok(reply)
    }
}

fn busy() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
