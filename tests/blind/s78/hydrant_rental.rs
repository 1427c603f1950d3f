//! Construction hydrant-meter rentals for contractors (hauler badges).

use aquifer::stock::Stock;
use aquifer::tank::ByteTank;
use penstock::badge::Hauler;
use penstock::{Code, Fault, Intake, Outflow};

struct RentalSlot<'a> {
    tenant_id: &'a str,
    client_id: &'a str,
    op: &'a str,
    key: &'a str,
}

impl<'a> RentalSlot<'a> {
    fn frame(&self) -> impl AsRef<[u8]> + 'a {
        let mut buf = Vec::with_capacity(self.key.len() + 64);
        buf.extend_from_slice(self.tenant_id.as_bytes());
        buf.push(0x1e);
        buf.extend_from_slice(self.client_id.as_bytes());
        buf.push(0x1e);
        buf.extend_from_slice(self.op.as_bytes());
        buf.push(0x1e);
        buf.extend_from_slice(self.key.as_bytes());
        buf
    }
}

pub async fn rent_hydrant_meter(
    intake: Intake,
    hauler: Hauler,
    replays: &ByteTank,
    stock: &Stock,
) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let slot = RentalSlot { tenant_id: &hauler.tenant_id, client_id: &hauler.client_id, op: "hydrant-rental", key };
    let frame = slot.frame();
    if let Some(prev) = replays.get(frame.as_ref()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let size: u16 = intake.query("size").and_then(|s| s.parse().ok()).unwrap_or(3);
    let meter_serial = stock.pick_available(&hauler.tenant_id, size).await?;
    stock.reserve(&meter_serial).await?;
    let deposit = crate::processor::hold_deposit(&hauler.client_id, size).await?;
    let memo = format!("hydrant meter deposit {key}");
    crate::processor::annotate(&deposit, &memo).await?;
    stock.commit(&meter_serial).await?;
    let out = Outflow::json(Code::CREATED, &(meter_serial, deposit));
    replays.put(frame.as_ref(), &out).await?;
    Ok(out)
}
