//! Card payments at the front desk and the Square webhooks that follow them.

use constant_time_eq::constant_time_eq;
use idem_scope::{scoped, scoped_server, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Payments {
    /// Replay records for desk payments and for webhook deliveries.
    pub idem: Bunker,
    pub square: crate::square::SquareApi,
    pub ledger: crate::billing::Ledger,
    pub signing_key: Vec<u8>,
}

#[derive(Deserialize)]
pub struct DeskPayment {
    pub invoice_id: String,
    pub amount_cents: i64,
    pub source_id: String,
}

#[derive(Deserialize)]
pub struct SquareEvent {
    pub merchant_id: String,
    pub event_id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub data: serde_json::Value,
}

pub async fn take_payment(
    inb: Inbound,
    staff: Staff,
    st: Shared<Payments>,
    JsonIn(req): JsonIn<DeskPayment>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&staff.org_id, &staff.user_id, "/v1/payments", k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let payment = st.square.create_payment(&req.source_id, req.amount_cents, k).await?;
    let body = serde_json::to_vec(&payment)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}

pub async fn square_hook(inb: Inbound, st: Shared<Payments>) -> Result<Sendback, Fault> {
    let sig = inb.header("x-square-hmacsha256-signature").unwrap_or_default();
    let expected = crate::square::sign(&st.signing_key, inb.url(), inb.body());
    if !constant_time_eq(sig.as_bytes(), expected.as_bytes()) {
        return Ok(Sendback::status(Code::Unauthorized));
    }
    let evt: SquareEvent = serde_json::from_slice(inb.body())?;

    let key = match evt.kind.as_str() {
        "payment.updated" => scoped(&evt.merchant_id, "square", "/hooks/square/payment.updated", &evt.event_id)?,
        "refund.updated" => scoped_server(&evt.merchant_id, "square", "/hooks/square/refund.updated", &evt.event_id)?,
        _ => return Ok(Sendback::status(Code::NoContent)),
    };
    if st.idem.get(key.storage_key()).await?.is_some() {
        return Ok(Sendback::status(Code::Ok));
    }
    st.ledger.apply_square_event(&evt.merchant_id, &evt.kind, &evt.data).await?;
    st.idem.put(key.storage_key(), b"applied".to_vec()).await?;
    Ok(Sendback::status(Code::Ok))
}
