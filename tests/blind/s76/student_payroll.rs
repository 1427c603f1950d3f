//! Student-employment payroll: supervisors approve timesheets and the payroll
//! submission runs in the background so the approval screen returns at once.

use std::sync::Arc;
use std::time::Duration;

use idem_scope::scoped;
use lectern::card::Staff;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;

use crate::payroll::{PayrollGateway, Timekeeping};

const LEASE: Duration = Duration::from_secs(300);

pub struct Payroll {
    pub pouch: Pouch,
    pub timekeeping: Timekeeping,
    pub gateway: PayrollGateway,
}

pub async fn approve_timesheet(ask: &Ask, st: Arc<Payroll>) -> Result<Tell, Hitch> {
    let card = ask.badge::<Staff>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?.to_owned();
    let sheet_id = ask.param("sheet").ok_or(Hitch::bad_request("sheet"))?.to_owned();
    let sk = scoped(&card.tenant_id, &card.principal_id, "/v1/payroll/timesheets/approve", &key)?;

    let worker = Arc::clone(&st);
    tokio::spawn(async move {
        let slot = sk.storage_key().to_owned();
        if !worker.pouch.claim(&slot, LEASE).await? {
            return Ok(());
        }
        let sheet = worker.timekeeping.load(&sheet_id).await?;
        let run = worker.gateway.submit(&sheet).await?;
        worker.pouch.complete(&slot, &run.to_bytes()).await?;
        Ok::<(), anyhow::Error>(())
    });
    Ok(Tell::status(Mark::ACCEPTED))
}

pub async fn adjust_timesheet(ask: &Ask, st: Arc<Payroll>) -> Result<Tell, Hitch> {
    let card = ask.badge::<Staff>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let sheet_id = ask.param("sheet").ok_or(Hitch::bad_request("sheet"))?;
    let sk = scoped(&card.tenant_id, &card.principal_id, "/v1/payroll/timesheets/adjust", key)?;
    let slot = sk.storage_key().to_owned();

    if !st.pouch.claim(&slot, LEASE).await? {
        return Ok(Tell::problem(idem_scope::Problem::in_progress(key)));
    }
    let release_on_error = |e: anyhow::Error| {
        let pouch = st.pouch.clone();
        let slot = slot.clone();
        tokio::spawn(async move {
            let _ = pouch.release(&slot).await;
        });
        Hitch::upstream(e)
    };
    let sheet = st.timekeeping.load(sheet_id).await.map_err(&release_on_error)?;
    let run = st.gateway.resubmit(&sheet).await.map_err(&release_on_error)?;
    let body = run.to_bytes();
    st.pouch.complete(&slot, &body).await?;
    Ok(Tell::bytes(Mark::OK, body))
}
