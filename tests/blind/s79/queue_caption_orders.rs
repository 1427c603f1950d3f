//! Caption orders arrive on the uplink queue from the scheduling system and
//! are placed with the captioning vendor.

use serde::Deserialize;
use spool::cart::Cart;
use spool::uplink::Uplink;

use crate::captions::CaptionVendor;

#[derive(Deserialize)]
pub struct CaptionOrder {
    pub tenant_id: String,
    pub user_id: String,
    pub program_id: String,
    pub idempotency_key: String,
    pub minutes: u32,
    pub languages: Vec<String>,
}

pub async fn run(uplink: Uplink, cart: Cart, vendor: CaptionVendor) {
    while let Some(packet) = uplink.next().await {
        let order: CaptionOrder = match serde_json::from_slice(packet.body()) {
            Ok(o) => o,
            Err(e) => {
                tracing::warn!(error = %e, "unreadable caption order");
                packet.dead_letter().await;
                continue;
            }
        };

        let fresh = cart.set_nx(&order.idempotency_key, packet.id().as_bytes()).await.unwrap_or(false);
        if !fresh {
            packet.ack().await;
            continue;
        }

        match vendor.place(&order.tenant_id, &order.program_id, order.minutes, &order.languages).await {
            Ok(po) => {
                tracing::info!(delivery = %packet.id(), po = %po.number, "caption order placed");
                packet.ack().await;
            }
            Err(e) => {
                tracing::error!(delivery = %packet.id(), error = %e, "vendor refused caption order");
                packet.nack().await;
            }
        }
    }
}
