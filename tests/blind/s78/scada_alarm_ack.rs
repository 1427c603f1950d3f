//! Alarm acknowledgements: operators ack from the mobile app; RTUs report
//! return-to-normal events over DNP3, which the station gateway acks itself.

use aquifer::tank::ByteTank;
use penstock::badge::Crew;
use penstock::{Code, Fault, Intake, Outflow};

pub struct StationEvent {
    pub event_id: String,
    pub tenant_id: String,
    pub actor: String,
    pub point_index: u16,
}

pub async fn ack_from_app(intake: Intake, op: Crew, acks: &ByteTank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let slot = serde_json::to_vec(&(&op.tenant_id, &op.sub, "alarm-ack", key))?;
    if let Some(prev) = acks.get(&slot).await? {
        return Ok(Outflow::replayed(prev));
    }
    let alarm_id = intake.param("alarm_id").unwrap_or_default();
    let acked = crate::scada::alarms().acknowledge(&op.tenant_id, alarm_id, &op.sub, None).await?;
    let out = Outflow::json(Code::OK, &acked);
    acks.put(&slot, &out).await?;
    Ok(out)
}

pub async fn on_return_to_normal(evt: StationEvent, acks: &ByteTank) -> Result<(), crate::Error> {
    let slot = serde_json::to_vec(&(&evt.tenant_id, &evt.actor, "alarm-ack", &evt.event_id))?;
    if acks.exists(&slot).await? {
        return Ok(());
    }
    crate::scada::alarms().auto_acknowledge(&evt.tenant_id, evt.point_index).await?;
    acks.put(&slot, b"auto").await?;
    tracing::info!(event = %evt.event_id, "auto-acknowledged");
    Ok(())
}
