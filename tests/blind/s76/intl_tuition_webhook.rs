//! International tuition payments. Students pay from the portal (with an
//! Idempotency-Key); the payment provider later confirms by webhook, and the
//! provider redelivers a webhook until it sees a 2xx.

use idem_scope::{scoped, scoped_server};
use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::bursar::{Bursar, ProviderSignature};

#[derive(Deserialize)]
pub struct PayIn {
    pub amount_cents: i64,
    pub currency: String,
}

#[derive(Deserialize)]
pub struct ProviderEvent {
    pub event_id: String,
    pub event_type: String,
    pub tenant_id: String,
    pub payer_ref: String,
    pub payment_id: String,
}

pub struct IntlPayments {
    pub replies: Pouch,
    pub bursar: Bursar,
    pub signature: ProviderSignature,
}

pub async fn portal_pay(ask: &Ask, p: &IntlPayments) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/tuition/intl-payments", key)?;
    if let Some(done) = p.replies.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: PayIn = ask.json()?;
    let intent = p.bursar.open_intl_intent(&card.tenant_id, &card.user_id, input.amount_cents, &input.currency).await?;
    let body = serde_json::to_vec(&intent)?;
    p.replies.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

pub async fn provider_webhook(ask: &Ask, p: &IntlPayments) -> Result<Tell, Hitch> {
    p.signature.verify(ask.head("x-provider-signature"), ask.content())?;
    let event: ProviderEvent = serde_json::from_slice(ask.content())?;

    match event.event_type.as_str() {
        "payment.guaranteed" => {
            let sk = scoped(&event.tenant_id, "intl-provider", "/hooks/intl/guaranteed", &event.event_id)?;
            if p.replies.get(sk.storage_key()).await?.is_some() {
                return Ok(Tell::status(Mark::OK));
            }
            p.bursar.post_intl_payment(&event.tenant_id, &event.payer_ref, &event.payment_id).await?;
            p.replies.put(sk.storage_key(), b"posted").await?;
        }
        "payment.cancelled" => {
            let sk = scoped_server(&event.tenant_id, "intl-provider", "/hooks/intl/cancelled", &event.event_id)?;
            if p.replies.get(sk.storage_key()).await?.is_some() {
                return Ok(Tell::status(Mark::OK));
            }
            p.bursar.void_intl_payment(&event.tenant_id, &event.payment_id).await?;
            p.replies.put(sk.storage_key(), b"voided").await?;
        }
        other => tracing::warn!(event_id = %event.event_id, kind = other, "ignored provider event"),
    }
    Ok(Tell::status(Mark::OK))
}
