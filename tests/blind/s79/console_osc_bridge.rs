//! Studio console bridge: the audio console fires jingles and sponsor
//! stingers over OSC; the producer app can fire the same cues over HTTP.
//! Fired cues are logged for the as-run report through one cart.

use crosspoint::badge::Producer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use rosc::{OscPacket, OscType};
use spool::cart::Cart;
use tokio::net::UdpSocket;

const ROUTE: &str = "/v1/cues/fire";

pub struct ConsoleBridge {
    pub cart: Cart,
    pub tenant_id: String,
    pub console_client_id: String,
}

impl ConsoleBridge {
    pub async fn http_fire(&self, inb: Inbound) -> Result<Outbound, Glitch> {
        let p = inb.badge::<Producer>().ok_or(Glitch::unauthorized())?.clone();
        let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?.to_owned();
        let cue_id = inb.param("cue")?.to_owned();
        let key = scoped(&p.org_id, &p.user_id, ROUTE, &k).map_err(Glitch::scope)?;
        if let Some(prior) = self.cart.get(key.storage_key()).await? {
            return Ok(Outbound::replay(prior));
        }
        let fired = crate::playout::fire_cue(&p.org_id, &cue_id).await?;
        self.cart.put(key.storage_key(), &serde_json::to_vec(&fired).unwrap_or_default()).await?;
        Ok(Outbound::json(Status::OK, &fired))
    }

    pub async fn listen(&self, socket: UdpSocket) -> std::io::Result<()> {
        let mut buf = [0u8; rosc::decoder::MTU];
        loop {
            let (n, _peer) = socket.recv_from(&mut buf).await?;
            let Ok((_, OscPacket::Message(msg))) = rosc::decoder::decode_udp(&buf[..n]) else { continue };
            if msg.addr != "/cue/fire" {
                continue;
            }
            let (Some(OscType::String(message_id)), Some(OscType::String(cue_id))) = (msg.args.first(), msg.args.get(1)) else { continue };
            let key = match scoped(&self.tenant_id, &self.console_client_id, ROUTE, message_id) {
                Ok(k) => k,
                Err(e) => {
                    tracing::warn!(error = %e, "unusable console message id");
                    continue;
                }
            };
            if matches!(self.cart.exists(key.storage_key()).await, Ok(true)) {
                continue;
            }
            if let Ok(fired) = crate::playout::fire_cue(&self.tenant_id, cue_id).await {
                let _ = self.cart.put(key.storage_key(), &serde_json::to_vec(&fired).unwrap_or_default()).await;
            }
        }
    }
}
