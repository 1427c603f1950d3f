use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use async_tungstenite::tungstenite::Message;
use async_tungstenite::WebSocketStream;
use futures::{AsyncRead, AsyncWrite, SinkExt, StreamExt};
use serde::Deserialize;

use crate::session::SessionClaims;

#[derive(Deserialize)]
struct PlaceOrder {
    #[serde(rename = "Idempotency-Key")]
    retry_key: String,
    symbol: String,
    qty: u32,
}

pub struct OrderDesk {
    accepted: Mutex<HashMap<String, u64>>,
    next_id: AtomicU64,
}

impl OrderDesk {
    pub async fn serve<S>(&self, claims: SessionClaims, mut ws: WebSocketStream<S>)
    where
        S: AsyncRead + AsyncWrite + Unpin,
    {
        let action = "place_order";
        while let Some(Ok(frame)) = ws.next().await {
            let Message::Text(text) = frame else { continue };
            let order: PlaceOrder = match kestrel::json::from_str(&text) {
                Ok(o) => o,
                Err(e) => {
                    let _ = ws.send(Message::Text(format!("{{\"error\":\"{e}\"}}").into())).await;
                    continue;
                }
            };
            let mut slot = String::with_capacity(96);
            let _ = write!(slot, "{}|{}|{}|{}", claims.org_id, claims.sub, action, order.retry_key);
            let order_id = {
                let mut accepted = self.accepted.lock().expect("order map poisoned");
                *accepted
                    .entry(slot)
                    .or_insert_with(|| self.next_id.fetch_add(1, Ordering::SeqCst))
            };
            let ack = format!("{{\"order\":{order_id},\"key\":\"{}\",\"symbol\":\"{}\",\"qty\":{}}}", order.retry_key, order.symbol, order.qty);
            let _ = ws.send(Message::Text(ack.into())).await;
        }
    }
}
