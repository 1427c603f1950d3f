//! Binary websocket frames for the trading gateway (tungstenite, blocking).
use std::collections::HashMap;
use std::net::TcpStream;
use tungstenite::{accept_hdr, handshake::server::{Request, Response}, Message};

const SEED: u64 = 0x5eed;

pub struct Gateway {
    dedup: HashMap<String, Vec<u8>>,
}

pub struct Identity {
    pub account_id: String,
    pub subject: String,
}

impl Gateway {
    pub fn serve(&mut self, stream: TcpStream, who: Identity) -> anyhow::Result<()> {
        let mut request_id = String::new();
        let mut ws = accept_hdr(stream, |req: &Request, resp: Response| {
            if let Some(v) = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()) {
                request_id = v.to_owned();
            }
            Ok(resp)
        })?;
        log::info!("ws open request_id={request_id}");
        loop {
            let msg = ws.read()?;
            let Message::Binary(payload) = msg else { continue };
            let h = wyhash::wyhash(&payload, SEED);
            let key = idem_scope::scoped(&who.account_id, &who.subject, "orders.submit", &h.to_string())?;
            if let Some(ack) = self.dedup.get(key.storage_key()) {
                ws.send(Message::Binary(ack.clone().into()))?;
                continue;
            }
            let ack = submit(&payload);
            self.dedup.insert(key.storage_key().to_owned(), ack.clone());
            ws.send(Message::Binary(ack.into()))?;
        }
    }
}

fn submit(frame: &[u8]) -> Vec<u8> {
    frame.iter().rev().copied().collect()
}
