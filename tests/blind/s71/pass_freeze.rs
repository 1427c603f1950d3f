//! Pass freezes: riders pause a monthly pass while they travel, and unfreeze
//! it when they are back.

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

use crate::issuer::IssuerClient;

/// Freezes and unfreezes share one replay namespace.
const FREEZE_ROUTE: &str = "default";

#[derive(Decode)]
pub struct FreezeRequest {
    pub pass_id: String,
    pub days: u16,
    pub plan: Option<String>,
}

pub struct Freezes {
    replays: Bay,
    issuer: IssuerClient,
}

impl Freezes {
    pub async fn freeze(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: FreezeRequest = hail.json()?;
        let plan = req.plan.as_deref().unwrap_or("default");

        let key = scoped(&rider.tenant_id, &rider.user_id, FREEZE_ROUTE, k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let frozen = self.issuer.freeze(&req.pass_id, req.days, plan).await?;
        let body = wharf::codec::to_vec(&frozen)?;
        self.replays.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }

    pub async fn extend(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: FreezeRequest = hail.json()?;

        let key = scoped(&rider.tenant_id, &rider.user_id, "passes.extend", k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let extended = self.issuer.extend_freeze(&req.pass_id, req.days).await?;
        let body = wharf::codec::to_vec(&extended)?;
        self.replays.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }
}
