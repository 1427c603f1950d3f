use std::time::Duration;

use cobble::lease::Leases;
use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use thimble::auth::Caller;
use thimble::extract::Json;
use thimble::{Exchange, Reply, Status};

use crate::billing::{Billing, InvoiceDraft};

pub async fn finalize_invoice(
    ex: Exchange,
    caller: Caller,
    Json(draft): Json<InvoiceDraft>,
    vault: &Vault,
    billing: &Billing,
) -> Result<Reply, BillingError> {
    let raw = ex.header("Idempotency-Key").ok_or(BillingError::MissingKey)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "invoice.finalize", raw)?;
    let storage = sk.storage_key();
    vault.claim(storage, Duration::from_secs(300)).await?;

    let totals = billing.compute_totals(&caller.tenant_id, &draft).await?;
    let invoice = billing.issue(&caller.tenant_id, totals).await?;

    let reply = Reply::json(Status::Created, &invoice);
    vault.complete(storage, &reply.snapshot()).await?;
    Ok(reply)
}

/// Nightly rollup: only one replica may run it at a time.
pub async fn rollup_invoices(leases: &Leases, billing: &Billing) -> Result<usize, BillingError> {
    let lease = leases.acquire("invoice-rollup", Duration::from_secs(900)).await?;
    let batch = billing.pending_rollups().await?;
    let mut n = 0;
    for inv in batch {
        billing.roll_up(&inv).await?;
        n += 1;
    }
    leases.complete(lease).await?;
    Ok(n)
}

#[derive(Debug)]
pub enum BillingError {
    MissingKey,
    Scope(idem_scope::ScopeError),
    Store(cobble::Error),
    Billing(crate::billing::Error),
}

impl From<idem_scope::ScopeError> for BillingError {
    fn from(e: idem_scope::ScopeError) -> Self {
        BillingError::Scope(e)
    }
}
impl From<cobble::Error> for BillingError {
    fn from(e: cobble::Error) -> Self {
        BillingError::Store(e)
    }
}
impl From<crate::billing::Error> for BillingError {
    fn from(e: crate::billing::Error) -> Self {
        BillingError::Billing(e)
    }
}

impl BillingError {
    pub fn into_reply(self) -> Reply {
        match self {
            BillingError::MissingKey => Reply::problem(Problem::missing_key()),
            BillingError::Scope(e) => Reply::problem(Problem::invalid_key(&e.to_string())),
            _ => Reply::status(Status::InternalServerError),
        }
    }
}
