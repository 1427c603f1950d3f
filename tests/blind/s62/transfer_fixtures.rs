use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, Problem};
use quarry::kv::Vault;
use wicket::auth::Caller;
use wicket::extract::RawBody;
use wicket::{Ctx, Reply, Status};

pub const LEASE: Duration = Duration::from_secs(300);

pub struct Remittances {
    pub vault: Arc<Vault>,
    pub corridor: corridor::Client,
}

impl Remittances {
    pub async fn send(&self, ctx: &Ctx, caller: &Caller, RawBody(body): RawBody) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(&caller.tenant_id, &caller.user_id, "remittances.send", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let receipt = self.corridor.send(&caller.tenant_id, &body).await;
        let _ = self.vault.put(sk.storage_key(), receipt.to_bytes()).await;
        Reply::bytes(Status::CREATED, receipt.to_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn seeded_vault() -> Arc<Vault> {
        Arc::new(Vault::in_memory())
    }

    #[tokio::test]
    async fn replays_a_stored_receipt() {
        let vault = seeded_vault().await;
        let caller_name: Option<&str> = None;
        let principal = caller_name.unwrap_or("anonymous");
        let sk = scoped("t_1", principal, "remittances.send", "k-1").unwrap();
        vault.put(sk.storage_key(), b"receipt".to_vec()).await.unwrap();
        assert_eq!(vault.get(sk.storage_key()).await.unwrap().unwrap(), b"receipt");
    }

    #[tokio::test]
    async fn corridor_callbacks_do_not_clash() {
        let vault = seeded_vault().await;
        let event_id = "evt_9f2";
        vault.put(event_id, b"callback".to_vec()).await.unwrap();
        assert!(vault.exists(event_id).await.unwrap());
    }

    #[tokio::test]
    async fn lease_expires() {
        let vault = seeded_vault().await;
        let sk = scoped("t_1", "u_1", "remittances.send", "k-2").unwrap();
        assert!(vault.claim(sk.storage_key(), LEASE).await.unwrap());
        let stored = vault.get(sk.storage_key()).await.unwrap().expect("claimed record");
        vault.complete(sk.storage_key(), stored).await.unwrap();
    }
}
