use std::sync::Arc;

use compact_jwt::{JwsEs256Verifier, JwsVerifier, OidcToken};
use kestrel::{Exchange, Outcome, Status};
use tessera::pair::PairKv;

use crate::wallet::{TopUp, WalletBook};

pub struct TopUpHandler {
    verifier: JwsEs256Verifier,
    responses: Arc<PairKv>,
    wallets: Arc<WalletBook>,
}

impl TopUpHandler {
    pub async fn top_up(&self, ex: &Exchange) -> Outcome {
        let Some(bearer) = ex.header("authorization").and_then(|h| h.strip_prefix("Bearer ")) else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let token: OidcToken = match bearer.parse::<compact_jwt::OidcUnverified>().ok().and_then(|t| self.verifier.verify(&t).ok()) {
            Some(t) => t,
            None => return Outcome::status(Status::UNAUTHORIZED),
        };
        let Some(tenant_id) = token.extensions.get("tid").and_then(|v| v.as_str()).map(str::to_owned) else {
            return Outcome::status(Status::FORBIDDEN);
        };
        let on_behalf = token.extensions.get("act").and_then(|v| v.as_str()).map(str::to_owned);
        let actor = on_behalf.unwrap_or_else(|| token.sub.clone());
        let Some(retry) = ex.header("Idempotency-Key").map(str::to_owned) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let slot = self.responses.entry(&tenant_id, &retry);
        if let Ok(Some(previous)) = slot.get().await {
            return Outcome::bytes(Status::OK, previous);
        }
        let top_up: TopUp = match ex.json() {
            Ok(t) => t,
            Err(_) => return Outcome::status(Status::BAD_REQUEST),
        };
        let receipt = self.wallets.credit(&tenant_id, &actor, &top_up).await;
        let bytes = kestrel::json::to_vec(&receipt).unwrap_or_default();
        let _ = slot.put(bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
