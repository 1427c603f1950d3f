//! Lecture attendance check-ins over WebTransport. Phones in the lecture hall
//! open one session per lecture and send JSON datagrams; a datagram can be
//! re-sent by the app when the ack is lost, so check-ins are de-duplicated.

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;
use wtransport::endpoint::IncomingSession;
use wtransport::Connection;

use crate::attendance::{Roster, SessionTicket};

#[derive(Deserialize)]
struct CheckIn {
    seat: String,
    lecture_id: String,
    /// Same value the app would send as the Idempotency-Key header over HTTP.
    #[serde(rename = "Idempotency-Key")]
    retry_token: String,
    #[serde(default)]
    device_note: Option<String>,
}

#[derive(Clone, Serialize)]
struct Ack {
    seat: String,
    accepted: bool,
}

pub struct Hall {
    seen: Mutex<HashMap<String, Ack>>,
    per_seat: Mutex<HashMap<(String, String, String), u32>>,
    roster: Roster,
}

impl Hall {
    pub async fn serve(&self, incoming: IncomingSession) -> anyhow::Result<()> {
        let request = incoming.await?;
        let ticket = SessionTicket::verify(request.headers().get("authorization").map(String::as_str))?;
        let conn: Connection = request.accept().await?;

        loop {
            let datagram = conn.receive_datagram().await?;
            let frame: CheckIn = match serde_json::from_slice(&datagram) {
                Ok(f) => f,
                Err(_) => continue,
            };
            let note = frame.device_note.clone().unwrap_or_default();

            let ack = {
                let mut seen = self.seen.lock().await;
                match seen.entry(frame.retry_token.clone()) {
                    Entry::Occupied(prev) => prev.get().clone(),
                    Entry::Vacant(slot) => {
                        let accepted = self
                            .roster
                            .mark_present(&ticket.tenant_id, &ticket.user_id, &frame.lecture_id, &frame.seat, &note)
                            .await?;
                        slot.insert(Ack { seat: frame.seat.clone(), accepted }).clone()
                    }
                }
            };

            let mut counts = self.per_seat.lock().await;
            *counts
                .entry((ticket.tenant_id.clone(), frame.lecture_id.clone(), frame.seat.clone()))
                .or_insert(0) += 1;
            drop(counts);

            conn.send_datagram(serde_json::to_vec(&ack)?)?;
        }
    }
}
