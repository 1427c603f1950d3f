//! Settlement payout jobs. Payouts are queued by the settlement engine and
//! by members ("pay me now" on a deferred settlement); the worker records
//! each finished payout so the member app can show it.

use std::time::Duration;

use bushel::crock::Crock;
use bushel::queue::{Feed, Parcel};
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
struct PayoutJob {
    org_id: String,
    user_id: String,
    settlement_id: String,
    amount_cents: i64,
}

#[derive(Deserialize)]
pub struct PayNow {
    pub settlement_id: String,
}

pub struct Payouts {
    pub crock: Crock,
    pub inbox: Crock,
    pub feed: Feed,
    pub bank: BankRail,
}

impl Payouts {
    pub async fn work(&self) -> anyhow::Result<()> {
        while let Some(parcel) = self.feed.next(Duration::from_secs(10)).await? {
            self.run(&parcel).await?;
            parcel.ack().await?;
        }
        Ok(())
    }

    async fn run(&self, parcel: &Parcel) -> anyhow::Result<()> {
        if self.inbox.exists(parcel.id()).await? {
            return Ok(());
        }
        let job: PayoutJob = furrow::codec::from_slice(parcel.payload())?;
        let paid = self.bank.pay(&job.settlement_id, job.amount_cents).await?;
        let job_id = parcel.id();
        let done = scoped(&job.org_id, &job.user_id, "settlement_payout", job_id)?;
        self.crock.put(done.storage_key(), furrow::codec::to_vec(&paid)?).await?;
        self.inbox.put(parcel.id(), Vec::new()).await?;
        Ok(())
    }
}

pub async fn pay_now(p: Petition, Shared(po): Shared<Payouts>, g: Grower, Json(req): Json<PayNow>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let key = match scoped(&g.org_id, &g.user_id, "settlement_payout", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = po.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let queued = po.feed.push(&serde_json::json!({
        "org_id": g.org_id, "user_id": g.user_id, "settlement_id": req.settlement_id
    })).await;
    let body = furrow::codec::to_vec(&queued).unwrap_or_default();
    let _ = po.crock.put(key.storage_key(), body.clone()).await;
    Ruling::accepted().bytes(body)
}
