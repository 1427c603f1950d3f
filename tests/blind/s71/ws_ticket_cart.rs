//! Ticket cart over WebSocket for the station companion app. Every frame is
//! a JSON command; checkout frames carry the client's key under the same
//! name as the HTTP header.

use hopper::bay::{Bay, Entry};
use ratchet_rs::{Message, NoExt, WebSocket};
use serde::Deserialize;
use tokio::net::TcpStream;

use crate::cart::{CartSession, Checkout};

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
enum Frame {
    Add { sku: String, qty: u32 },
    Remove { sku: String },
    Checkout {
        #[serde(rename = "Idempotency-Key")]
        idempotency: String,
        payment_token: String,
    },
}

pub async fn serve(
    mut ws: WebSocket<TcpStream, NoExt>,
    mut session: CartSession,
    orders: Bay,
    carts: Bay,
    checkout: Checkout,
) -> anyhow::Result<()> {
    let mut buf = Vec::with_capacity(4096);
    loop {
        match ws.read(&mut buf).await? {
            Message::Text => {}
            Message::Close(_) => break,
            _ => {
                buf.clear();
                continue;
            }
        }
        let frame: Frame = serde_json::from_slice(&buf)?;
        buf.clear();

        match frame {
            Frame::Add { sku, qty } => session.add(&sku, qty),
            Frame::Remove { sku } => session.remove(&sku),
            Frame::Checkout { idempotency, payment_token } => {
                let reply = match orders.entry(&idempotency).await? {
                    Entry::Occupied(prev) => prev.into_value(),
                    Entry::Vacant(slot) => {
                        let order = checkout.pay(&session, &payment_token).await?;
                        let body = serde_json::to_vec(&order)?;
                        slot.insert(body.clone()).await?;
                        body
                    }
                };
                ws.write_text(String::from_utf8_lossy(&reply)).await?;
                continue;
            }
        }
        carts.put(&format!("cart:{}", session.id()), session.to_bytes()).await?;
    }
    Ok(())
}
