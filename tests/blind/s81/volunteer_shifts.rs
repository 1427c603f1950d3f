//! Volunteer (docent, education cart, events) shift sign-ups, and the
//! nightly reminder job.

use std::time::Duration;

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status};
use idem_scope::scoped;
use lagoon::lease::Leases;
use lagoon::tank::{Claimed, Tank};
use serde::Deserialize;

use crate::extractors::{Caller, IdemKey};

const LEASE: Duration = Duration::from_secs(45);

#[derive(Deserialize)]
pub struct ShiftSignup {
    shifts: Vec<String>,
    note: Option<String>,
}

pub struct VolunteerDesk {
    pub replays: Tank,
    pub leases: Leases,
    pub roster: crate::volunteers::Roster,
    pub mailer: crate::mail::Mailer,
}

pub async fn sign_up(
    Shared(desk): Shared<VolunteerDesk>,
    caller: Caller,
    IdemKey(key): IdemKey,
    Json(req): Json<ShiftSignup>,
) -> Result<Reply, Fault> {
    let slot = scoped(&caller.org_id, &caller.user_id, "volunteers.sign_up", &key).map_err(Fault::bad_request)?;
    if let Claimed::Existing(stored) = desk.replays.claim(slot.storage_key(), LEASE).await? {
        return Ok(Reply::from_stored(stored));
    }

    let mut confirmed = Vec::with_capacity(req.shifts.len());
    req.shifts.iter().try_for_each(|shift_id| {
        let shift = desk.roster.open_shift(&caller.org_id, shift_id)?;
        confirmed.push(shift.assign(&caller.user_id));
        Ok::<_, Fault>(())
    })?;

    let body = crate::volunteers::Confirmation::new(confirmed, req.note).to_bytes();
    desk.replays.complete(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}

/// 18:00 every day: remind tomorrow's volunteers. One runner per cluster.
pub async fn remind_tomorrow(desk: &VolunteerDesk) -> Result<(), Fault> {
    let Some(lease) = desk.leases.try_acquire("volunteer-reminders", Duration::from_secs(300)).await? else {
        return Ok(());
    };
    let shifts = desk.roster.tomorrow().await?;
    for shift in &shifts {
        desk.mailer.remind(shift).await?;
    }
    desk.leases.release(lease).await?;
    Ok(())
}
