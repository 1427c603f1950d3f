//! Background jobs that settle resale payouts; jobs are queued in-process with
//! deadqueue, and the payout API (client keys) shares the replay store.

use cornice::tuple_kv::TupleKv;
use deadqueue::unlimited::Queue;
use telemark::pass::Partner;
use telemark::{Carve, Turn, Wipeout};

pub struct PayoutJob {
    pub job_id: String,
    pub account_id: String,
    pub client_id: String,
    pub amount_cents: i64,
}

pub async fn request_payout(turn: Turn, partner: Partner, kv: &TupleKv, q: &Queue<PayoutJob>) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let slot = (partner.account_id.as_str(), partner.client_id.as_str(), "resale.payout", key);
    if let Some(prev) = kv.get(&slot).await? {
        return Ok(Carve::replayed(prev));
    }
    let job_id = uuid::Uuid::new_v4().to_string();
    q.push(PayoutJob { job_id: job_id.clone(), account_id: partner.account_id.clone(), client_id: partner.client_id.clone(), amount_cents: 0 });
    kv.put(&slot, job_id.as_bytes()).await?;
    Ok(Carve::accepted(job_id))
}

pub async fn run_workers(kv: TupleKv, q: std::sync::Arc<Queue<PayoutJob>>) -> anyhow::Result<()> {
    loop {
        let job = q.pop().await;
        let slot = (job.account_id.as_str(), job.client_id.as_str(), "resale.payout", job.job_id.as_str());
        if kv.get(&slot).await?.is_some() {
            continue;
        }
        let paid = crate::resale::payout(&job.account_id, job.amount_cents).await?;
        kv.put(&slot, &paid.to_json()).await?;
        tracing::info!(job_id = %job.job_id, "payout settled");
    }
}
