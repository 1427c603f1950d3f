//! Transcript orders: producers order transcripts for a batch of episodes.

use std::time::Duration;

use crosspoint::badge::Producer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::{Deserialize, Serialize};
use spool::cart::Cart;

const ROUTE: &str = "/v1/transcripts/bulk";
const LEASE: Duration = Duration::from_secs(60);

#[derive(Deserialize)]
pub struct TranscriptLine {
    /// The client's idempotency key for this line; a retry resends it unchanged.
    pub line_key: String,
    pub program_id: String,
    pub format: String,
}

#[derive(Serialize)]
pub enum LineResult {
    Ordered(String),
    InProgress,
    UnknownProgram,
}

pub async fn bulk_order(inb: Inbound, cart: &Cart) -> Result<Outbound, Glitch> {
    let p = inb.badge::<Producer>().ok_or(Glitch::unauthorized())?.clone();
    let lines: Vec<TranscriptLine> = inb.json().await?;
    let mut results = Vec::with_capacity(lines.len());

    for line in &lines {
        let key = scoped(&p.org_id, &p.user_id, ROUTE, &line.line_key).map_err(Glitch::scope)?;
        match cart.try_claim(key.storage_key(), LEASE).await? {
            false => {
                results.push(LineResult::InProgress);
                continue;
            }
            true => {}
        }
        let show = match crate::catalogue::program(&p.org_id, &line.program_id).await {
            Ok(Some(show)) => show,
            Ok(None) => {
                results.push(LineResult::UnknownProgram);
                continue;
            }
            Err(e) => {
                cart.release(key.storage_key()).await?;
                return Err(e.into());
            }
        };
        let order = match crate::transcripts::order(&show, &line.format).await {
            Ok(o) => o,
            Err(e) => {
                cart.release(key.storage_key()).await?;
                return Err(e.into());
            }
        };
        cart.complete(key.storage_key(), order.id.as_bytes()).await?;
        results.push(LineResult::Ordered(order.id));
    }
    Ok(Outbound::json(Status::MULTI_STATUS, &results))
}
