use std::time::Duration;

use gatehouse::Principal;
use idem_scope::{scoped, ClaimGuard, Fingerprint, IdempotencyKey, Problem};
use ledgerkit::idem::{Claimed, IdemStore, StoredResponse};
use ledgerkit::payouts::{PayoutRail, PayoutRequest};

const LEASE: Duration = Duration::from_secs(300);
const TTL: Duration = Duration::from_secs(24 * 3600);

pub struct PayoutService<S: IdemStore> {
    store: S,
    rail: PayoutRail,
}

impl<S: IdemStore + Clone + Send + 'static> PayoutService<S> {
    pub async fn create_payout(
        &self,
        who: &Principal,
        key: &IdempotencyKey,
        raw_body: &[u8],
    ) -> Result<StoredResponse, Problem> {
        let sk = scoped(&who.tenant_id, &who.principal_id, "payouts.create", key.as_str())
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let fp = Fingerprint::of("payouts.create", raw_body);

        match self.store.claim(&sk, &fp, LEASE).await? {
            Claimed::New => {}
            Claimed::Existing(_, Some(resp)) => return Ok(resp),
            Claimed::Existing(_, None) => return Err(Problem::in_progress(key.as_str())),
        }

        let req: PayoutRequest = serde_json::from_slice(raw_body)
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let receipt = self.rail.send(&who.tenant_id, &req).await?;
        let resp = StoredResponse::json(201, &receipt);
        self.store.complete(&sk, &resp, TTL).await?;
        Ok(resp)
    }

    pub async fn cancel_payout(
        &self,
        who: &Principal,
        key: &IdempotencyKey,
        payout_id: &str,
    ) -> Result<StoredResponse, Problem> {
        let sk = scoped(&who.tenant_id, &who.principal_id, "payouts.cancel", key.as_str())
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let fp = Fingerprint::of("payouts.cancel", payout_id.as_bytes());
        if let Claimed::Existing(_, prior) = self.store.claim(&sk, &fp, LEASE).await? {
            return prior.ok_or_else(|| Problem::in_progress(key.as_str()));
        }
        let guard = {
            let store = self.store.clone();
            let sk = sk.clone();
            ClaimGuard::new(move || {
                tokio::spawn(async move {
                    let _ = store.release(&sk).await;
                });
            })
        };
        let receipt = self.rail.cancel(&who.tenant_id, payout_id).await?;
        let resp = StoredResponse::json(200, &receipt);
        self.store.complete(&sk, &resp, TTL).await?;
        guard.complete();
        Ok(resp)
    }
}
