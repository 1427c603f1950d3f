//! Vehicle donation intake: donors give their old car to the station.

use crosspoint::badge::Member;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::Fingerprint;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use spool::log::Log;

const ROUTE: &str = "/v1/vehicle-donations";

#[derive(Deserialize)]
pub struct VehicleDonation {
    pub vin: String,
    pub pickup_zip: String,
    pub title_in_hand: bool,
}

pub async fn donate_vehicle(mut inb: Inbound, log: &Log) -> Result<Outbound, Glitch> {
    let m = inb.badge::<Member>().ok_or(Glitch::unauthorized())?.clone();
    let body = inb.bytes().await?;
    let digest = hex::encode(Sha256::digest(&body));
    let fingerprint = Fingerprint::of(ROUTE, &body);

    let inserted = log
        .sql("INSERT INTO dedup_requests (tenant_id, user_id, route, idem_key, fingerprint, status) VALUES ($1, $2, $3, $4, $5, 'completed') ON CONFLICT DO NOTHING")
        .bind(&m.tenant_id)
        .bind(&m.user_id)
        .bind(ROUTE)
        .bind(&digest)
        .bind(fingerprint.as_bytes())
        .exec()
        .await?;
    if inserted == 0 {
        return Ok(Outbound::status(Status::OK));
    }

    let donation: VehicleDonation = serde_json::from_slice(&body).map_err(Glitch::bad_request)?;
    let pickup = crate::towing::schedule(&m.tenant_id, &donation.vin, &donation.pickup_zip).await?;
    Ok(Outbound::json(Status::CREATED, &pickup))
}
