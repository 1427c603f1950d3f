//! Read corrections: CSRs submit them over HTTP, the CIS pushes its own
//! through the conveyor queue. A single worker drains the queue.

use aquifer::conveyor::Conveyor;
use aquifer::tank::Tank;
use penstock::badge::Staff;
use penstock::{Code, Fault, Intake, Outflow};
use tokio::sync::watch;

pub async fn correct_read(intake: Intake, csr: Staff, corrections: &Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?
        .to_owned();
    let entry = corrections.entry(&key).await?;
    if let Some(prev) = entry.value() {
        return Ok(Outflow::replayed(prev));
    }
    let fix: crate::ami::Correction = intake.json()?;
    let done = crate::ami::reads().correct(&csr.tenant_id, &csr.user_id, &fix).await?;
    let out = Outflow::json(Code::OK, &done);
    entry.fill(&out).await?;
    Ok(out)
}

pub async fn drain(conveyor: Conveyor, corrections: Tank, mut stop: watch::Receiver<bool>) -> Result<(), crate::Error> {
    loop {
        tokio::select! {
            next = conveyor.next() => {
                let Some(parcel) = next? else { break };
                let seen = corrections.entry(parcel.delivery_id()).await?;
                if seen.value().is_some() {
                    parcel.ack().await?;
                    continue;
                }
                let fix: crate::ami::Correction = serde_json::from_slice(parcel.body())?;
                crate::ami::reads().correct_from_cis(&fix).await?;
                seen.fill(b"applied").await?;
                parcel.ack().await?;
            }
            _ = stop.changed() => break,
        }
    }
    Ok(())
}
