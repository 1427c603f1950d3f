use std::time::Duration;

use mosquitto_rs::{Client, Event, QoS};
use serde::Deserialize;

use crate::meters::MeterBook;
use crate::replay::ReplayKv;

#[derive(Deserialize)]
struct Reading {
    tenant_id: String,
    client_id: String,
    message_id: String,
    kwh: f64,
    taken_at: i64,
}

pub struct MeterWorker {
    client: Client,
    kv: ReplayKv,
    book: MeterBook,
}

impl MeterWorker {
    pub async fn run(mut self) -> eyre::Result<()> {
        self.client.subscribe("meters/+/readings", QoS::AtLeastOnce).await?;
        let events = self.client.subscriber().expect("subscriber already taken");
        while let Ok(event) = events.recv().await {
            let Event::Message(msg) = event else { continue };
            let reading: Reading = match serde_json::from_slice(&msg.payload) {
                Ok(r) => r,
                Err(e) => {
                    log::warn!("bad reading on {}: {e}", msg.topic);
                    continue;
                }
            };
            let route = "meters.ingest";
            let key = idem_scope::scoped_server(&reading.tenant_id, &reading.client_id, route, &reading.message_id)?;
            if !self.kv.reserve(key.storage_key(), Duration::from_secs(60)).await? {
                continue;
            }
            if reading.kwh.is_nan() || reading.kwh < 0.0 {
                log::warn!("discarding reading {} from {}", reading.message_id, reading.client_id);
                continue;
            }
            let total = self.book.add(&reading.tenant_id, &reading.client_id, reading.kwh, reading.taken_at).await?;
            self.kv.finish(key.storage_key(), &total.to_le_bytes()).await?;
        }
        Ok(())
    }
}
