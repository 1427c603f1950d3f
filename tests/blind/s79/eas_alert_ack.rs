//! Emergency alerts: the duty engineer acknowledges an EAS alert and picks
//! what the station does with it.

use crosspoint::badge::Engineer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;

const ACK_HEADER: &str = "Idempotency-Key";

#[derive(Deserialize)]
pub enum Disposition {
    Relay,
    Hold,
    Suppress,
}

#[derive(Deserialize)]
pub struct AlertAck {
    pub alert_id: String,
    pub disposition: Disposition,
    pub note: Option<String>,
}

pub async fn ack_alert(inb: Inbound, cart: &Cart) -> Result<Outbound, Glitch> {
    let eng = inb.badge::<Engineer>().ok_or(Glitch::unauthorized())?.clone();
    let k = inb.header(ACK_HEADER).ok_or(Glitch::missing_key())?.to_owned();
    let ack: AlertAck = inb.json().await?;
    let key = scoped(&eng.org_id, &eng.sub, "/v1/eas/ack", &k).map_err(Glitch::scope)?;

    cart.claim(key.storage_key()).await?;
    let outcome = match ack.disposition {
        Disposition::Relay => crate::eas::relay_now(&eng.org_id, &ack.alert_id).await,
        Disposition::Hold => crate::eas::hold_for_review(&eng.org_id, &ack.alert_id, ack.note.as_deref()).await,
        Disposition::Suppress => todo!("suppression needs the chief engineer's sign-off flow"),
    };
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) => {
            cart.release(key.storage_key()).await?;
            return Err(e.into());
        }
    };
    cart.complete(key.storage_key(), &serde_json::to_vec(&outcome).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::OK, &outcome))
}
