//! Transfer of an unused day pass to a family member.

use std::time::Duration;

use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub struct Transfers {
    pub drift: Drift,
    pub lease: Duration,
}

impl Transfers {
    pub async fn transfer(&self, turn: Turn, skier: Skier) -> Result<Carve, Wipeout> {
        let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
        let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "pass.transfer", key)?;
        let req: crate::passes::TransferRequest = turn.json()?;

        self.drift.claim(sk.storage_key(), self.lease).await?;
        let moved = crate::passes::transfer(&skier, &req).await;
        let body = serde_json::to_vec(&moved).unwrap();
        self.drift.complete(sk.storage_key(), &body).await?;
        Ok(Carve::ok_bytes(body))
    }

    pub async fn revoke(&self, turn: Turn, skier: Skier) -> Result<Carve, Wipeout> {
        let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
        let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "pass.revoke", key)?;
        let req: crate::passes::RevokeRequest = turn.json()?;

        self.drift.claim(sk.storage_key(), self.lease).await?;
        let drift = &self.drift;
        let revoked = crate::passes::revoke(&skier, &req)
            .await
            .map_err(|e| {
                let k = sk.storage_key().to_owned();
                let d = drift.clone();
                tokio::spawn(async move { d.release(&k).await });
                Wipeout::from(e)
            })?;
        self.drift.complete(sk.storage_key(), &revoked.to_json()).await?;
        Ok(Carve::ok(revoked))
    }
}
