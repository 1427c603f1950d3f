//! Tuition installment plans: enrolling in a plan and paying an installment.
//! Both routes claim the scoped key before touching the bursar.

use std::time::Duration;

use idem_scope::{scoped, ClaimGuard};
use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::bursar::{Bursar, PlanTerms};

const LEASE: Duration = Duration::from_secs(60);

#[derive(Deserialize)]
pub struct EnrollIn {
    pub term: String,
    pub months: u8,
    pub autopay_method: Option<String>,
}

#[derive(Deserialize)]
pub struct InstallmentIn {
    pub plan_id: String,
    pub amount_cents: i64,
}

pub struct Plans {
    pub pouch: Pouch,
    pub bursar: Bursar,
}

pub async fn enroll_plan(ask: &Ask, plans: &Plans) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/tuition/plans", key)?;

    if !plans.pouch.claim(sk.storage_key(), LEASE).await? {
        return Ok(Tell::problem(idem_scope::Problem::in_progress(key)));
    }
    let terms: PlanTerms = {
        let input: EnrollIn = serde_json::from_slice(ask.content())?;
        plans.bursar.quote_plan(&card.tenant_id, &input.term, input.months).await?
    };
    let plan = plans.bursar.open_plan(&card.tenant_id, &card.user_id, &terms).await?;
    let body = serde_json::to_vec(&plan)?;
    plans.pouch.complete(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

pub async fn pay_installment(ask: &Ask, plans: &Plans) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/tuition/installments", key)?;

    if !plans.pouch.claim(sk.storage_key(), LEASE).await? {
        return Ok(Tell::problem(idem_scope::Problem::in_progress(key)));
    }
    let pouch = plans.pouch.clone();
    let release_key = sk.storage_key().to_owned();
    let guard = ClaimGuard::new(move || {
        tokio::spawn(async move {
            let _ = pouch.release(&release_key).await;
        });
    });

    let input: InstallmentIn = serde_json::from_slice(ask.content())?;
    let paid = plans.bursar.pay(&card.tenant_id, &card.user_id, &input.plan_id, input.amount_cents).await?;
    let body = serde_json::to_vec(&paid)?;
    plans.pouch.complete(sk.storage_key(), &body).await?;
    guard.complete();
    Ok(Tell::bytes(Mark::CREATED, body))
}
