//! Ticketing feed consumer. Events from the ticketing core (issued, voided,
//! reissued) and patron "resend my tickets" requests both end in a resend of
//! the e-ticket, so both are deduplicated in one map.
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;
use tokio::sync::mpsc::Receiver;

type Slot = (String, String, &'static str, String);

pub trait DedupSlot {
    fn dedup_slot(&self) -> Slot;
}

#[derive(Deserialize)]
pub enum FeedKind {
    Issued,
    Voided,
    Reissued,
}

#[derive(Deserialize)]
pub struct FeedEvent {
    pub event_id: String,
    pub org_id: String,
    pub actor: String,
    pub kind: FeedKind,
    pub order_id: String,
}

impl DedupSlot for FeedEvent {
    fn dedup_slot(&self) -> Slot {
        (self.org_id.clone(), self.actor.clone(), "ticket_feed", self.event_id.clone())
    }
}

pub struct Resender {
    seen: Mutex<HashMap<Slot, Instant>>,
    pub mailer: crate::mail::Tickets,
}

impl Resender {
    fn first_time(&self, slot: Slot) -> bool {
        let mut seen = self.seen.lock().unwrap();
        if seen.contains_key(&slot) {
            return false;
        }
        seen.insert(slot, Instant::now());
        true
    }
}

pub async fn resend_tickets(cue: Cue, patron: Patron, house: House<Resender>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::bad_request("Idempotency-Key is required"))?;
    let order = cue.param("order").ok_or_else(|| Flub::not_found("order"))?;
    if house.first_time((patron.org_id.clone(), patron.user_id.clone(), "resend_tickets", key.to_owned())) {
        house.mailer.resend(&patron.org_id, order).await?;
    }
    Ok(Curtain::new(202))
}

pub async fn consume(mut feed: Receiver<FeedEvent>, house: &Resender) {
    while let Some(event) = feed.recv().await {
        if matches!(event.kind, FeedKind::Voided) {
            continue;
        }
        if !house.first_time(event.dedup_slot()) {
            tracing::debug!(event = %event.event_id, "duplicate feed event");
            continue;
        }
        if let Err(e) = house.mailer.resend(&event.org_id, &event.order_id).await {
            tracing::warn!(event = %event.event_id, error = %e, "resend failed");
        }
    }
}
