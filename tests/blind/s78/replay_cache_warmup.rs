//! Statement PDFs: the portal's download endpoint and the re-render worker
//! share one response cache. Client paths are prefixed "u:", worker entries never are.

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};

pub struct StatementEvent {
    pub event_id: String,
    pub tenant_id: String,
    pub statement_no: String,
}

pub async fn statement_pdf(intake: Intake, who: Customer, cache: &Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&who.tenant_id, &who.user_id, "statement-pdf", key)?;
    let slot = format!("u:{}", ck.storage_key());
    if let Some(pdf) = cache.get(&slot).await? {
        return Ok(Outflow::bytes(Code::OK, pdf).with_header("Content-Type", "application/pdf"));
    }
    let statement_no = intake.param("statement_no").unwrap_or_default();
    let pdf = crate::billing::statements().render(&who.tenant_id, statement_no).await?;
    cache.put(&slot, &pdf).await?;
    Ok(Outflow::bytes(Code::OK, pdf).with_header("Content-Type", "application/pdf"))
}

pub async fn rerender_worker(evt: StatementEvent, cache: &Tank) -> Result<(), crate::Error> {
    let slot = format!("replay:{}", evt.event_id);
    if cache.exists(&slot).await? {
        return Ok(());
    }
    let pdf = crate::billing::statements().render(&evt.tenant_id, &evt.statement_no).await?;
    cache.put(&slot, &pdf).await?;
    Ok(())
}

pub async fn bill_ready_hook(evt: StatementEvent, cache: &Tank) -> Result<(), crate::Error> {
    cache.put(&format!("s:{}:{}", evt.tenant_id, evt.event_id), b"ready").await?;
    Ok(())
}
