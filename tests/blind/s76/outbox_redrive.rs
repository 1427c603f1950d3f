//! Tuition refund requests and the outbox redrive. The handler answers the
//! student and writes an outbox row in the same transaction; the redrive task
//! republishes rows the broker never acknowledged.

use std::time::Duration;

use idem_scope::scoped;
use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use satchel::quill::Quill;
use serde::Deserialize;

use crate::broker::Publisher;

#[derive(Deserialize)]
pub struct RefundIn {
    pub term: String,
    pub reason: String,
}

pub struct Refunds {
    pub pouch: Pouch,
    pub quill: Quill,
    pub publisher: Publisher,
}

pub struct OutboxRow {
    pub event_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub topic: String,
    pub payload: Vec<u8>,
}

pub async fn request_refund(ask: &Ask, r: &Refunds) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/tuition/refunds", key)?;
    if let Some(done) = r.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: RefundIn = ask.json()?;
    let tx = r.quill.begin().await?;
    let refund_id: String = tx.sql("INSERT INTO refund_requests (tenant_id, user_id, term, reason) VALUES ($1, $2, $3, $4) RETURNING id").bind(&card.tenant_id).bind(&card.user_id).bind(&input.term).bind(&input.reason).one().await?;
    tx.sql("INSERT INTO outbox (tenant_id, user_id, topic, payload) VALUES ($1, $2, 'refund.requested', $3)").bind(&card.tenant_id).bind(&card.user_id).bind(refund_id.as_bytes()).exec().await?;
    tx.commit().await?;
    let body = serde_json::to_vec(&serde_json::json!({ "refund_id": refund_id }))?;
    r.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::ACCEPTED, body))
}

pub async fn redrive(r: &Refunds) -> anyhow::Result<()> {
    loop {
        let rows: Vec<OutboxRow> = r.quill.sql("SELECT event_id, tenant_id, user_id, topic, payload FROM outbox WHERE published_at IS NULL AND created_at < now() - interval '2 minutes' LIMIT 100").all().await?;
        for row in rows {
            let sk = scoped(&row.tenant_id, &row.user_id, &row.topic, &row.event_id)?;
            if r.pouch.exists(sk.storage_key()).await? {
                continue;
            }
            r.publisher.publish(&row.topic, &row.event_id, &row.payload).await?;
            r.pouch.put(sk.storage_key(), b"published").await?;
            r.quill.sql("UPDATE outbox SET published_at = now() WHERE event_id = $1").bind(&row.event_id).exec().await?;
        }
        tokio::time::sleep(Duration::from_secs(30)).await;
    }
}
