//! Charges from partner agencies billed on the water bill (sewer district,
//! solid waste), delivered through the in-house conveyor queue.

use aquifer::conveyor::{Conveyor, Parcel};
use aquifer::tank::Tank;
use idem_scope::scoped;
use serde::Deserialize;

const SYSTEM_ORG: &str = "system";

#[derive(Deserialize)]
pub struct PartnerCharge {
    pub service_no: String,
    pub amount_cents: i64,
    pub user_id: String,
    /// Client-supplied idempotency key for this charge (the partner's Idempotency-Key).
    pub idempotency_key: String,
}

pub async fn run_feed(conveyor: Conveyor, replays: Tank) -> Result<(), aquifer::ConveyorError> {
    while let Some(parcel) = conveyor.next().await? {
        if let Err(e) = handle_charge(&parcel, &replays).await {
            tracing::warn!(error = %e, parcel = %parcel.delivery_id(), "partner charge failed");
            parcel.nack().await?;
            continue;
        }
        parcel.ack().await?;
    }
    Ok(())
}

async fn handle_charge(parcel: &Parcel, replays: &Tank) -> Result<(), crate::Error> {
    let charge: PartnerCharge = serde_json::from_slice(parcel.body())?;
    let org_id = parcel.attr_str("org_id").ok().map(str::to_owned).unwrap_or_else(|| SYSTEM_ORG.into());
    let slot = scoped(&org_id, &charge.user_id, "partner-charge", &charge.idempotency_key)?;
    if replays.exists(slot.storage_key()).await? {
        return Ok(());
    }
    let posted = crate::billing::charges().post(&org_id, &charge.service_no, charge.amount_cents).await?;
    replays.put(slot.storage_key(), &serde_json::to_vec(&posted)?).await?;
    Ok(())
}
