//! Tap ingestion. Validators publish taps over ZeroMQ through the depot
//! proxy; riders can also record a missed tap from the app.

use chrono::{DateTime, Utc};
use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use tmq::{subscribe, Context};
use tokio_stream::StreamExt;
use wharf::badge::Rider;
use wharf::{Answer, Code, Fault, Hail};

use crate::fares::FareEngine;

#[derive(Deserialize)]
struct TapFrame {
    tap_id: String,
    tenant_id: String,
    user_id: String,
    device_id: String,
    stop_id: String,
    at: DateTime<Utc>,
}

#[derive(Deserialize)]
struct Heartbeat {
    device_id: String,
    seq: u64,
}

#[derive(Deserialize)]
pub struct Correction {
    pub stop_id: String,
    pub at: DateTime<Utc>,
}

pub struct TapInbox {
    bay: Bay,
    heartbeats: Bay,
    fares: FareEngine,
}

impl TapInbox {
    /// `POST /v1/taps` from the rider app (a missed tap-off).
    pub async fn record(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let fix: Correction = serde_json::from_slice(hail.body())?;
        let key = scoped(&rider.tenant_id, &rider.user_id, "taps.record", k)?;
        if self.bay.exists(key.storage_key()).await? {
            return Ok(Answer::status(Code::Ok));
        }
        self.fares.record_tap(&rider.tenant_id, &rider.user_id, "app", &fix.stop_id, fix.at).await?;
        self.bay.put(key.storage_key(), b"recorded".to_vec()).await?;
        Ok(Answer::status(Code::Created))
    }

    pub async fn pump(&self, ctx: &Context, endpoint: &str) -> anyhow::Result<()> {
        let mut sub = subscribe(ctx).connect(endpoint)?.subscribe(b"tap.")?;
        while let Some(msg) = sub.next().await {
            let msg = msg?;
            let mut frames = msg.iter();
            let topic = frames.next().and_then(|f| f.as_str()).unwrap_or_default().to_owned();
            let payload = frames.next().map(|f| f.to_vec()).unwrap_or_default();

            if topic == "tap.heartbeat" {
                let hb: Heartbeat = serde_json::from_slice(&payload)?;
                self.heartbeats.put(&hb.device_id, hb.seq.to_le_bytes().to_vec()).await?;
                continue;
            }

            let tap: TapFrame = serde_json::from_slice(&payload)?;
            let key = scoped(&tap.tenant_id, &tap.user_id, "taps.record", &tap.tap_id)?;
            if self.bay.exists(key.storage_key()).await? {
                continue;
            }
            self.fares.record_tap(&tap.tenant_id, &tap.user_id, &tap.device_id, &tap.stop_id, tap.at).await?;
            self.bay.put(key.storage_key(), b"recorded".to_vec()).await?;
        }
        Ok(())
    }
}
