//! Official transcript orders. The reply cache for this route lives in the
//! registrar's embedded store, which is blocking, so every access runs on the
//! blocking pool.

use std::fmt::Write as _;
use std::sync::Arc;

use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::SyncPouch;
use serde::{Deserialize, Serialize};

use crate::registrar::TranscriptQueue;

const KEY_HEADER: &str = "Idempotency-Key";

#[derive(Deserialize)]
pub struct OrderIn {
    pub recipient_email: String,
    pub copies: u8,
    pub electronic: bool,
}

#[derive(Serialize)]
pub struct OrderOut {
    pub order_id: String,
    pub status: &'static str,
}

pub struct Transcripts {
    pub replies: Arc<SyncPouch>,
    pub queue: TranscriptQueue,
}

pub async fn order(ask: &Ask, st: &Transcripts) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let client_key = ask.head(KEY_HEADER).map(str::to_owned).ok_or(Hitch::bad_request("key"))?;
    let route = ask.slot().to_owned();
    let input: OrderIn = ask.json()?;

    let replies = Arc::clone(&st.replies);
    let (tenant_id, user_id) = (card.tenant_id.clone(), card.user_id.clone());
    let cached = tokio::task::spawn_blocking(move || -> anyhow::Result<(String, Option<Vec<u8>>)> {
        let mut slot = String::with_capacity(128);
        write!(slot, "{tenant_id}/{user_id}/{route}/{client_key}")?;
        let hit = replies.get(&slot)?;
        Ok((slot, hit))
    })
    .await??;

    let (slot, hit) = cached;
    if let Some(body) = hit {
        return Ok(Tell::bytes(Mark::OK, body));
    }

    let order_id = st.queue.enqueue(&card.tenant_id, &card.user_id, &input.recipient_email, input.copies).await?;
    let mut page = String::new();
    write!(page, "<p>Order {order_id} queued for {}</p>", input.recipient_email)?;

    let out = serde_json::to_vec(&OrderOut { order_id, status: "queued" })?;
    let replies = Arc::clone(&st.replies);
    let stored = out.clone();
    tokio::task::spawn_blocking(move || replies.put(&slot, &stored)).await??;
    if !input.electronic {
        return Ok(Tell::html(Mark::ACCEPTED, page));
    }
    Ok(Tell::bytes(Mark::ACCEPTED, out))
}
