use std::sync::Arc;

use hashlink::LruCache;
use parking_lot::Mutex;
use serde::Deserialize;
use socketioxide::extract::{AckSender, Data, SocketRef, State};

use crate::chat::{MessageStore, OutgoingMessage};
use crate::identity::SocketIdentity;

#[derive(Clone)]
pub struct HeaderKey(pub String);

impl HeaderKey {
    fn from_parts(parts: &http::request::Parts) -> Option<Self> {
        let raw = parts.headers.get("idempotency-key")?.to_str().ok()?;
        Some(HeaderKey(raw.to_owned()))
    }
}

pub struct ChatState {
    pub messages: MessageStore,
    pub sent: Mutex<LruCache<(String, String), OutgoingMessage>>,
}

#[derive(Deserialize)]
pub struct SendMessage {
    pub room: String,
    pub text: String,
}

pub fn on_connect(socket: SocketRef) {
    if let Some(k) = HeaderKey::from_parts(socket.req_parts()) {
        socket.extensions.insert(k);
    }
    socket.on("message:send", on_send);
    socket.on_disconnect(|s: SocketRef| {
        if let Some(k) = s.extensions.get::<HeaderKey>() {
            log::debug!("socket {} closed, last key {}", s.id, k.0);
        }
    });
}

async fn on_send(
    socket: SocketRef,
    Data(msg): Data<SendMessage>,
    ack: AckSender,
    State(state): State<Arc<ChatState>>,
) {
    let Some(ident) = socket.extensions.get::<SocketIdentity>() else {
        return;
    };
    let Some(key) = HeaderKey::from_parts(socket.req_parts()) else {
        ack.send(&serde_json::json!({ "error": "Idempotency-Key required" })).ok();
        return;
    };

    let slot = (ident.workspace_id.clone(), key.0.clone());
    if let Some(prev) = state.sent.lock().get(&slot).cloned() {
        ack.send(&prev).ok();
        return;
    }

    let room = msg.room.trim_start_matches('#');
    let stored = match state
        .messages
        .append(&ident.workspace_id, &ident.user_id, room, &msg.text)
        .await
    {
        Ok(m) => m,
        Err(e) => {
            ack.send(&serde_json::json!({ "error": e.to_string() })).ok();
            return;
        }
    };

    state.sent.lock().insert(slot, stored.clone());
    socket.within(msg.room.clone()).emit("message:new", &stored).ok();
    ack.send(&stored).ok();
}
