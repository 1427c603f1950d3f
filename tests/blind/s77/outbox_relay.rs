//! Transactional outbox relay: publishes pass-issued events to the partner
//! channel and dedups by event id in the same records store the API uses.

use cornice::records::Records;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

#[derive(serde::Serialize)]
pub struct SlotKey<'a> {
    pub ns: &'a str,
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub route: &'a str,
    pub key: &'a str,
}

pub async fn issue_pass(turn: Turn, skier: Skier, records: &Records) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let slot = SlotKey { ns: "u:", tenant_id: &skier.tenant_id, user_id: &skier.user_id, route: "pass.issue", key };
    if let Some(rec) = records.load(&slot).await? {
        return Ok(Carve::replayed(rec.body));
    }
    let pass = crate::passes::issue(&skier, turn.json()?).await?;
    records.save(&slot, &pass.to_json()).await?;
    Ok(Carve::created(pass.to_json()))
}

pub async fn relay_once(records: &Records, outbox: &crate::outbox::Outbox) -> anyhow::Result<usize> {
    let mut sent = 0;
    for ev in outbox.pending(100).await? {
        let slot = SlotKey { ns: "u:", tenant_id: &ev.tenant_id, user_id: &ev.user_id, route: "pass.issue", key: &ev.event_id };
        if records.load(&slot).await?.is_some() {
            outbox.mark_sent(&ev.event_id).await?;
            continue;
        }
        crate::partners::publish(&ev).await?;
        records.save(&slot, b"{}").await?;
        let ack = SlotKey { ns: "s:", tenant_id: &ev.tenant_id, user_id: &ev.user_id, route: "outbox.ack", key: &ev.event_id };
        records.save(&ack, b"acked").await?;
        sent += 1;
    }
    Ok(sent)
}
