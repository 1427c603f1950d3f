use cobble::vault::Vault;
use idem_scope::{scoped, Problem, ScopeError};
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

pub struct DockBook {
    pub vault: Vault,
}

impl DockBook {
    pub async fn book_slot(&self, ex: Exchange, caller: Caller, dock: u16, slot: String) -> Result<Reply, Reply> {
        let raw = ex
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?
            .to_string();
        let carrier_key: String = raw.chars().filter(|c| *c != '\u{1e}' && *c != '\0').collect();
        let sk = scoped(&caller.tenant_id, &caller.user_id, "dock.book", &carrier_key).map_err(reject)?;
        if !self.vault.set_nx(sk.storage_key(), slot.as_bytes()).await.map_err(|_| down())? {
            return Ok(Reply::status(Status::Conflict));
        }
        log::info!("dock {dock} slot {slot} booked");
        Ok(Reply::status(Status::Created))
    }

    pub async fn move_slot(&self, ex: Exchange, caller: Caller, slot: String) -> Result<Reply, Reply> {
        let raw = ex
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let key = raw.to_ascii_lowercase();
        match scoped(&caller.tenant_id, &caller.user_id, "dock.move", &key) {
            Ok(sk) => {
                self.vault.put(sk.storage_key(), slot.as_bytes()).await.map_err(|_| down())?;
                Ok(Reply::status(Status::Ok))
            }
            Err(ScopeError::ContainsSeparator(c)) => Err(Reply::problem(Problem::invalid_key(&format!("{c:?} contains a separator")))),
            Err(e) => Err(reject(e)),
        }
    }
}

fn reject(e: ScopeError) -> Reply {
    Reply::problem(Problem::invalid_key(&e.to_string()))
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
