//! Invoice payments at checkout, through the card terminal PSP.

use std::time::Duration;

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::roll::Roll;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

const PSP_DEADLINE: Duration = Duration::from_secs(25);

pub struct Checkout {
    pub roll: Roll,
    pub psp: crate::psp_client::PspClient,
    pub invoices: crate::billing::Invoices,
}

#[derive(Deserialize)]
pub struct PayIn {
    pub invoice_id: String,
    pub terminal_id: String,
    pub amount_cents: i64,
}

pub async fn pay_invoice(
    inb: Inbound,
    staff: Staff,
    st: Shared<Checkout>,
    JsonIn(req): JsonIn<PayIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&staff.org_id, &staff.user_id, "/v1/invoices/pay", k)?;
    let invoice = st.invoices.open_invoice(&staff.org_id, &req.invoice_id).await?;

    st.roll.mark_in_progress(key.storage_key()).await?;

    let charged = tokio::select! {
        r = st.psp.charge(&req.terminal_id, req.amount_cents, k) => r,
        _ = tokio::time::sleep(PSP_DEADLINE) => {
            tracing::warn!(invoice = %invoice.id, "terminal did not answer in time");
            return Ok(Sendback::status(Code::GatewayTimeout));
        }
    };

    match charged {
        Ok(receipt) => {
            st.invoices.mark_paid(&staff.org_id, &invoice.id, &receipt.reference).await?;
            let body = serde_json::to_vec(&receipt)?;
            st.roll.mark_done(key.storage_key(), &body).await?;
            Ok(Sendback::raw_json(Code::Ok, body))
        }
        Err(e) => {
            st.roll.abandon(key.storage_key()).await?;
            Err(Fault::upstream(e))
        }
    }
}

/// Voids go through the same roll but release on every failure.
pub async fn void_payment(
    inb: Inbound,
    staff: Staff,
    st: Shared<Checkout>,
    JsonIn(req): JsonIn<PayIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&staff.org_id, &staff.user_id, "/v1/invoices/void", k)?;
    st.roll.mark_in_progress(key.storage_key()).await?;
    let voided = match tokio::time::timeout(PSP_DEADLINE, st.psp.void(&req.terminal_id, &req.invoice_id, k)).await {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            st.roll.abandon(key.storage_key()).await?;
            return Err(Fault::upstream(e));
        }
        Err(_) => {
            st.roll.abandon(key.storage_key()).await?;
            return Ok(Sendback::status(Code::GatewayTimeout));
        }
    };
    let body = match serde_json::to_vec(&voided) {
        Ok(b) => b,
        Err(e) => {
            st.roll.abandon(key.storage_key()).await?;
            return Err(Fault::internal(e));
        }
    };
    st.roll.mark_done(key.storage_key(), &body).await?;
    Ok(Sendback::raw_json(Code::Ok, body))
}
