//! Phone (IVR) payments posted by the IVR vendor as form-encoded callbacks.

use aquifer::tank::Tank;
use penstock::badge::Partner;
use penstock::extract::{Form, State};
use penstock::{Code, Fault, Outflow};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize)]
pub struct IvrPayment {
    pub service_no: String,
    pub amount_cents: i64,
    pub card_token: String,
    pub call_id: String,
}

pub struct IvrDesk {
    pub idem: Tank,
}

pub async fn ivr_callback(
    State(desk): State<IvrDesk>,
    vendor: Partner,
    Form(payment): Form<IvrPayment>,
) -> Result<Outflow, Fault> {
    let canon = serde_urlencoded::to_string(&payment)?;
    let sum = libcrux_sha3::sha256(canon.as_bytes());
    let slot = serde_json::to_vec(&(vendor.org_id.as_str(), vendor.api_key_id.as_str(), "ivr-payment", hex::encode(sum)))?;
    if let Some(prev) = desk.idem.get(&slot).await? {
        return Ok(Outflow::replayed(prev));
    }
    tracing::info!(call = %payment.call_id, "ivr payment");
    let posted = crate::billing::payments()
        .post_card(&vendor.org_id, &payment.service_no, payment.amount_cents, &payment.card_token)
        .await?;
    let out = Outflow::json(Code::OK, &posted);
    desk.idem.put(&slot, &out).await?;
    Ok(out)
}
