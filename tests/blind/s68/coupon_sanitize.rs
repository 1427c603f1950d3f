use cobble::vault::Vault;
use idem_scope::{scoped, Problem, ScopeError};
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

pub struct CouponDesk {
    pub vault: Vault,
}

impl CouponDesk {
    pub async fn redeem(&self, ex: Exchange, caller: Caller, code: String) -> Result<Reply, Reply> {
        let raw = ex
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        // Older POS terminals send keys like "till:42:000913".
        let key = raw.replace(':', "-");
        let sk = scoped(&caller.tenant_id, &caller.user_id, "coupon.redeem", &key).map_err(reject)?;

        if self.vault.exists(sk.storage_key()).await.map_err(|_| down())? {
            return Ok(Reply::status(Status::Ok));
        }
        self.vault.put(sk.storage_key(), code.as_bytes()).await.map_err(|_| down())?;
        Ok(Reply::status(Status::Created))
    }

    pub async fn void(&self, ex: Exchange, caller: Caller) -> Result<Reply, Reply> {
        let raw = ex
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        if raw.contains('\0') || raw.contains(':') {
            return Err(Reply::problem(Problem::invalid_key("key contains a reserved character")));
        }
        let sk = scoped(&caller.tenant_id, &caller.user_id, "coupon.void", raw).map_err(reject)?;
        match self.vault.remove(sk.storage_key()).await {
            Ok(()) => Ok(Reply::status(Status::NoContent)),
            Err(e) => Err(Reply::text(
                Status::BadGateway,
                format!("could not void coupon for key {raw}: {e}"),
            )),
        }
    }
}

fn reject(e: ScopeError) -> Reply {
    Reply::problem(Problem::invalid_key(&e.to_string()))
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
