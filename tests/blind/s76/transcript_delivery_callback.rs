//! Delivery callbacks from the electronic-transcript exchange. The exchange
//! posts one callback per delivery attempt and retries callbacks it could not
//! hand over; students can also ask for a resend from the portal.

use idem_scope::scoped;
use lectern::card::Student;
use lectern::courier::Courier;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::registrar::{ExchangeSecret, TranscriptLog};

const DELIVERY_HEADER: &str = "x-exchange-delivery";

#[derive(Deserialize)]
pub struct Callback {
    pub tenant_id: String,
    pub order_id: String,
    pub user_id: String,
    pub outcome: String,
}

pub struct Delivery {
    pub pouch: Pouch,
    pub log: TranscriptLog,
    pub secret: ExchangeSecret,
    pub notify: Courier,
}

pub async fn exchange_callback(ask: &Ask, d: &Delivery) -> Result<Tell, Hitch> {
    d.secret.verify(ask.head("x-exchange-signature"), ask.content())?;
    let delivery_id = ask.head(DELIVERY_HEADER).ok_or(Hitch::bad_request("delivery id"))?;
    let cb: Callback = serde_json::from_slice(ask.content())?;

    let sk = scoped(&cb.tenant_id, &cb.user_id, "/hooks/transcripts/delivery", delivery_id)?;
    if d.pouch.exists(sk.storage_key()).await? {
        return Ok(Tell::status(Mark::OK));
    }
    d.log.record(&cb.tenant_id, &cb.order_id, &cb.outcome).await?;
    d.notify
        .post("/internal/notifications/transcript")
        .header("Idempotency-Key", delivery_id)
        .json(&serde_json::json!({ "order": cb.order_id, "outcome": cb.outcome }))
        .send()
        .await?;
    d.pouch.put(sk.storage_key(), cb.outcome.as_bytes()).await?;
    Ok(Tell::status(Mark::OK))
}

pub async fn request_resend(ask: &Ask, d: &Delivery) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let order = ask.param("order").ok_or(Hitch::bad_request("order"))?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/transcripts/resend", key)?;
    if let Some(done) = d.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let resend = d.log.resend(&card.tenant_id, &card.user_id, order).await?;
    let body = serde_json::to_vec(&resend)?;
    d.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::ACCEPTED, body))
}
