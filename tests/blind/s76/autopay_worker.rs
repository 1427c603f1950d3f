//! Autopay for installment plans. A scheduler enqueues one job per due
//! installment; the worker charges the saved method. Students can also press
//! "pay now" in the portal, which takes the same code path.

use std::time::Duration;

use idem_scope::{scoped, ScopedKey};
use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::conveyor::{Conveyor, Tote};
use satchel::lease::Leases;
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::bursar::{Bursar, Installment};

#[derive(Deserialize)]
pub struct AutopayJob {
    pub tenant_id: String,
    pub user_id: String,
    pub installment: Installment,
}

pub struct Autopay {
    pub pouch: Pouch,
    pub leases: Leases,
    pub bursar: Bursar,
}

async fn charge_once(ap: &Autopay, sk: &ScopedKey, tenant_id: &str, user_id: &str, inst: &Installment) -> anyhow::Result<Vec<u8>> {
    if let Some(done) = ap.pouch.get(sk.storage_key()).await? {
        return Ok(done);
    }
    let charged = ap.bursar.charge_installment(tenant_id, user_id, inst).await?;
    let body = charged.to_bytes();
    ap.pouch.put(sk.storage_key(), &body).await?;
    Ok(body)
}

pub async fn pay_now(ask: &Ask, ap: &Autopay) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let inst: Installment = ask.json()?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/tuition/pay-now", key)?;
    let body = charge_once(ap, &sk, &card.tenant_id, &card.user_id, &inst).await?;
    Ok(Tell::bytes(Mark::OK, body))
}

pub async fn work(conveyor: &Conveyor, ap: &Autopay) -> anyhow::Result<()> {
    while let Some(tote) = conveyor.next("autopay").await? {
        handle(&tote, ap).await?;
    }
    Ok(())
}

async fn handle(tote: &Tote, ap: &Autopay) -> anyhow::Result<()> {
    let job: AutopayJob = serde_json::from_slice(tote.body())?;
    let lease = ap.leases.acquire(&format!("autopay-job/{}", tote.id()), Duration::from_secs(120)).await?;
    let sk = scoped(&job.tenant_id, &job.user_id, "jobs.autopay", &tote.id().to_string())?;
    match charge_once(ap, &sk, &job.tenant_id, &job.user_id, &job.installment).await {
        Ok(_) => tote.ack().await?,
        Err(e) => {
            tracing::warn!(job = %tote.id(), attempt = tote.attempt(), error = %e, "autopay failed");
            tote.nack(Duration::from_secs(600)).await?;
        }
    }
    lease.release().await?;
    Ok(())
}
