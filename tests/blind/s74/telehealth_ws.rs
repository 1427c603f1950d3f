//! Telehealth chat: owners message the on-call vet over a WebSocket.
//!
//! Each chat frame carries the client's idempotency key so that a frame
//! re-sent after a reconnect is acknowledged instead of posted twice.

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use ezsockets::{Error, Session, SessionExt, Utf8Bytes};
use serde::{Deserialize, Serialize};
use tracing::info;

use crate::consults::ConsultLog;

#[derive(Deserialize)]
struct ChatFrame {
    /// The client's idempotency key for this message: the same value the app
    /// would send as the `Idempotency-Key` header on `POST /v1/consults/messages`.
    idempotency_key: String,
    consult_id: String,
    text: String,
}

#[derive(Serialize)]
struct Ack<'a> {
    idempotency_key: &'a str,
    message_id: &'a str,
    duplicate: bool,
}

pub struct ConsultSession {
    pub id: u64,
    pub handle: Session<u64, ()>,
    pub org_id: String,
    pub client_id: String,
    pub log: ConsultLog,
    /// message id already posted, per idempotency key
    posted: HashMap<String, String>,
}

impl ConsultSession {
    pub fn new(id: u64, handle: Session<u64, ()>, org_id: String, client_id: String, log: ConsultLog) -> Self {
        ConsultSession { id, handle, org_id, client_id, log, posted: HashMap::new() }
    }

    fn ack(&self, key: &str, message_id: &str, duplicate: bool) -> Result<(), Error> {
        let frame = serde_json::to_string(&Ack { idempotency_key: key, message_id, duplicate })?;
        self.handle.text(frame)?;
        Ok(())
    }
}

impl SessionExt for ConsultSession {
    type ID = u64;
    type Call = ();

    fn id(&self) -> &u64 {
        &self.id
    }

    async fn on_text(&mut self, text: Utf8Bytes) -> Result<(), Error> {
        let frame: ChatFrame = serde_json::from_str(&text)?;
        info!(idempotency_key = %frame.idempotency_key, consult = %frame.consult_id, "chat frame");

        match self.posted.entry(frame.idempotency_key.clone()) {
            Entry::Occupied(prev) => {
                let message_id = prev.get().clone();
                self.ack(&frame.idempotency_key, &message_id, true)
            }
            Entry::Vacant(slot) => {
                let message_id = self
                    .log
                    .post(&self.org_id, &self.client_id, &frame.consult_id, &frame.text)
                    .await?;
                slot.insert(message_id.clone());
                self.ack(&frame.idempotency_key, &message_id, false)
            }
        }
    }

    async fn on_binary(&mut self, _bytes: ezsockets::Bytes) -> Result<(), Error> {
        Ok(())
    }

    async fn on_call(&mut self, _call: ()) -> Result<(), Error> {
        Ok(())
    }
}
