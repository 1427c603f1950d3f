use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use coap_lite::{CoapOption, MessageClass, Packet, RequestType, ResponseType};
use idem_scope::scoped;
use serde::Deserialize;
use tokio::net::UdpSocket;

use crate::metering::{MeterStore, Reading};

#[derive(Deserialize)]
struct ReadingBody {
    #[serde(rename = "Idempotency-Key")]
    key: String,
    client_id: String,
    kwh_milli: u64,
    taken_at: i64,
}

pub struct Gateway {
    socket: UdpSocket,
    accepted: HashMap<String, Instant>,
    store: MeterStore,
}

fn query_params(packet: &Packet) -> HashMap<String, String> {
    packet
        .get_option(CoapOption::UriQuery)
        .map(|values| {
            values
                .iter()
                .filter_map(|v| std::str::from_utf8(v).ok())
                .filter_map(|q| q.split_once('='))
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

impl Gateway {
    async fn on_packet(&mut self, packet: Packet, peer: SocketAddr) -> std::io::Result<()> {
        if packet.header.code != MessageClass::Request(RequestType::Post) {
            return Ok(());
        }
        let query = query_params(&packet);
        let account_id = match query.get("acct") {
            Some(a) => a.as_str(),
            None => "*",
        };
        let Ok(body) = serde_json::from_slice::<ReadingBody>(&packet.payload) else {
            return self.reply(&packet, peer, ResponseType::BadRequest).await;
        };
        let Ok(key) = scoped(account_id, &body.client_id, "meter.reading", &body.key) else {
            return self.reply(&packet, peer, ResponseType::BadRequest).await;
        };

        let now = Instant::now();
        self.accepted.retain(|_, at| now.duration_since(*at) < Duration::from_secs(900));
        if self.accepted.contains_key(key.storage_key()) {
            return self.reply(&packet, peer, ResponseType::Valid).await;
        }
        let reading = Reading { kwh_milli: body.kwh_milli, taken_at: body.taken_at };
        self.store.append(account_id, &body.client_id, reading).await;
        self.accepted.insert(key.storage_key().to_owned(), now);
        self.reply(&packet, peer, ResponseType::Created).await
    }

    async fn reply(&self, req: &Packet, peer: SocketAddr, code: ResponseType) -> std::io::Result<()> {
        let mut rsp = Packet::new();
        rsp.header.message_id = req.header.message_id;
        rsp.set_token(req.get_token().to_vec());
        rsp.header.code = MessageClass::Response(code);
        let bytes = rsp.to_bytes().map_err(|e| std::io::Error::other(format!("{e:?}")))?;
        self.socket.send_to(&bytes, peer).await.map(|_| ())
    }

    pub async fn run(mut self) -> std::io::Result<()> {
        let mut buf = [0u8; 1152];
        loop {
            let (n, peer) = self.socket.recv_from(&mut buf).await?;
            if let Ok(packet) = Packet::from_bytes(&buf[..n]) {
                self.on_packet(packet, peer).await?;
            }
        }
    }
}
