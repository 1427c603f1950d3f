//! Dynamic ad insertion: the stream packager calls back when a sponsor spot
//! was stitched into a listener's stream, and the ad server pushes its own
//! delivery reports.

use crosspoint::badge::Underwriter;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::{scoped, scoped_server};
use serde::Deserialize;
use spool::cart::Cart;
use spool::rundown::Rundown;
use spool::traffic::Traffic;

#[derive(Deserialize)]
pub enum CallbackKind {
    Impression,
    Skipped,
    Error,
}

#[derive(Deserialize)]
pub struct InsertionCallback {
    pub spot_id: String,
    pub kind: CallbackKind,
}

pub async fn on_callback(inb: Inbound, rundown: &Rundown, traffic: &Traffic) -> Result<Outbound, Glitch> {
    let uw = inb.badge::<Underwriter>().ok_or(Glitch::unauthorized())?.clone();
    let client = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?.to_owned();
    let key = scoped(&uw.account_id, &uw.api_key_id, "/v1/ad-callbacks", &client).map_err(Glitch::scope)?;
    let cb: InsertionCallback = inb.json().await?;

    rundown.mark_in_progress(key.storage_key()).await?;
    match cb.kind {
        CallbackKind::Impression => {
            if let Err(e) = traffic.count_impression(&cb.spot_id).await {
                rundown.abandon(key.storage_key()).await?;
                return Err(e.into());
            }
        }
        CallbackKind::Skipped => return Ok(Outbound::status(Status::ACCEPTED)),
        CallbackKind::Error => {
            rundown.abandon(key.storage_key()).await?;
            return Err(Glitch::bad_gateway());
        }
    }
    rundown.mark_done(key.storage_key(), b"counted").await?;
    Ok(Outbound::status(Status::OK))
}

pub async fn on_adserver_report(inb: Inbound, cart: &Cart) -> Result<Outbound, Glitch> {
    let uw = inb.badge::<Underwriter>().ok_or(Glitch::unauthorized())?.clone();
    let delivery_id = inb.header("X-Adserver-Delivery").ok_or(Glitch::bad_request("delivery id"))?.to_owned();
    let key = scoped_server(&uw.account_id, "adserver", "/v1/ad-reports", &delivery_id).map_err(Glitch::scope)?;
    if cart.exists(key.storage_key()).await? {
        return Ok(Outbound::status(Status::OK));
    }
    let report: serde_json::Value = inb.json().await?;
    crate::ads::ingest_report(&uw.account_id, &report).await?;
    cart.put(key.storage_key(), b"ingested").await?;
    Ok(Outbound::status(Status::OK))
}
