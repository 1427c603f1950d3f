//! Volunteer sign-ups for phone banks, events and the record fair.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use crosspoint::badge::Volunteer;
use crosspoint::extract::Json;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use serde::Deserialize;
use spool::patchbay::PatchBay;

fn hash_of<T: Hash>(value: &T) -> u64 {
    let mut h = DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

#[derive(Deserialize, Hash)]
pub struct Signup {
    pub event_id: String,
    pub role: String,
    pub shifts: Vec<String>,
}

pub async fn sign_up(inb: Inbound, replay_bay: &PatchBay) -> Result<Outbound, Glitch> {
    let v = inb.badge::<Volunteer>().ok_or(Glitch::unauthorized())?.clone();
    let Json(signup): Json<Signup> = inb.extract().await?;

    let owner = (v.tenant_id.as_str(), v.user_id.as_str(), "/v1/volunteers/signup");
    let entry = replay_bay.entry(&owner, &hash_of(&signup)).await?;
    if let Some(prior) = entry.value() {
        return Ok(Outbound::replay(prior.clone()));
    }
    let assigned = crate::volunteers::assign(&v.tenant_id, &v.user_id, &signup.event_id, &signup.role, &signup.shifts).await?;
    entry.fill(&serde_json::to_vec(&assigned).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &assigned))
}
