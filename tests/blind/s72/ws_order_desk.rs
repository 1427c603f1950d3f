//! Order desk over WebSocket. Each frame is a JSON command; traders resend a
//! frame after a reconnect with the same key.

use portcullis::ws::{Frame, Socket};
use portcullis::who::Member;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use tokio::sync::Mutex;

#[derive(serde::Deserialize)]
struct PlaceOrder {
    #[serde(rename = "Idempotency-Key")]
    key: String,
    symbol: String,
    qty: i64,
}

pub struct Desk {
    acks: Mutex<HashMap<(String, String), Vec<u8>>>,
    quotes: Mutex<HashMap<String, f64>>,
}

impl Desk {
    pub async fn serve(&self, member: Member, mut socket: Socket) {
        while let Some(Ok(Frame::Text(txt))) = socket.recv().await {
            let Ok(cmd) = serde_json::from_str::<PlaceOrder>(&txt) else { continue };
            let mut acks = self.acks.lock().await;
            let ack = match acks.entry((member.user_id.clone(), cmd.key.clone())) {
                Entry::Occupied(seen) => seen.get().clone(),
                Entry::Vacant(slot) => {
                    let ack = crate::orders::place(&member.org_id, &cmd.symbol, cmd.qty).await;
                    slot.insert(ack.clone());
                    ack
                }
            };
            drop(acks);
            self.quotes.lock().await.insert(cmd.symbol.clone(), 0.0);
            let _ = socket.send(Frame::Binary(ack)).await;
        }
    }
}
