//! Booking of shared lab instruments (confocal microscopes, sequencers) by
//! research groups. Replies are cached in a typed pouch keyed by tuples.

use std::time::Duration;

use chrono::NaiveDate;
use lectern::card::Staff;
use lectern::{Ask, HeaderName, Hitch, Mark, Tell};
use satchel::pouch::TypedPouch;
use serde::{Deserialize, Serialize};

pub const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

#[derive(Deserialize)]
pub struct BookingIn {
    pub instrument_id: String,
    pub day: NaiveDate,
    pub slot: u8,
}

#[derive(Clone, Serialize, Deserialize)]
pub struct BookingReply {
    pub booking_id: String,
    pub status: u16,
}

pub struct LabCore {
    pub replies: TypedPouch<(String, String, String), BookingReply>,
    pub calendar: TypedPouch<(String, String, NaiveDate), Vec<u8>>,
    pub scheduler: crate::labs::Scheduler,
}

pub async fn book(ask: &Ask, core: &LabCore) -> Result<Tell, Hitch> {
    let card = ask.badge::<Staff>()?;
    let key = match ask.header(&IDEMPOTENCY_KEY).and_then(|v| v.to_str().ok()) {
        Some(k) => k.to_owned(),
        None => return Ok(Tell::status(Mark::BAD_REQUEST).text("Idempotency-Key header is required")),
    };
    let route = ask.slot().to_owned();

    let slot = (card.tenant_id.clone(), route, key);
    if let Some(prev) = core.replies.get(&slot).await? {
        return Ok(Tell::json(Mark::from_u16(prev.status), &prev));
    }

    let input: BookingIn = ask.json()?;
    let day_slot = (card.tenant_id.clone(), input.instrument_id.clone(), input.day);
    let mut grid = core.calendar.get(&day_slot).await?.unwrap_or_else(|| vec![0u8; 24]);
    if grid[input.slot as usize] != 0 {
        return Ok(Tell::status(Mark::CONFLICT).text("slot taken"));
    }
    grid[input.slot as usize] = 1;
    core.calendar.put(day_slot, grid).await?;

    let booking = core.scheduler.confirm(&card.tenant_id, &card.principal_id, &input.instrument_id).await?;
    let reply = BookingReply { booking_id: booking.id, status: 201 };
    core.replies.put_ttl(slot, reply.clone(), Duration::from_secs(7 * 86_400)).await?;
    Ok(Tell::json(Mark::CREATED, &reply))
}
