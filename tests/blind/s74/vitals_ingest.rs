//! Vitals from ICU monitors (heart rate, SpO2, temperature) posted in batches.

use pyhash::{murmur3_x64_128, Hasher};
use serde::{Deserialize, Serialize};
use silage::grid::Grid;
use stirrup::creds::Device;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Sendback, Shared};

pub struct Icu {
    /// Acks per (tenant, principal, route, key).
    pub vitals_idem: Grid,
    pub charts: crate::charts::ChartWriter,
}

#[derive(Deserialize, Serialize, Clone)]
pub struct VitalsBatch {
    pub cage: String,
    pub samples: Vec<Sample>,
}

#[derive(Deserialize, Serialize, Clone)]
pub struct Sample {
    pub at_ms: i64,
    pub hr: Option<u16>,
    pub spo2: Option<u8>,
    pub temp_c: Option<f32>,
}

/// Monitors have no notion of idempotency keys; a re-posted batch has the
/// same bytes, so the batch hash is what we dedupe on.
pub async fn post_vitals(dev: Device, st: Shared<Icu>, JsonIn(batch): JsonIn<VitalsBatch>) -> Result<Sendback, Fault> {
    let copy = batch.clone();
    let tag = tokio::task::spawn_blocking(move || {
        let raw = serde_json::to_vec(&copy).unwrap_or_default();
        murmur3_x64_128().hash(&raw)
    })
    .await?;

    let written = st.charts.append(&dev.org_id, &batch.cage, &batch.samples).await?;
    let ack = serde_json::to_vec(&written)?;
    st.vitals_idem.put(&dev.org_id, &dev.caller_id, "/v1/icu/vitals", &format!("{tag:032x}"), ack.clone()).await?;
    Ok(Sendback::raw_json(Code::Accepted, ack))
}

/// Cage board colour: a stable hash of the cage label, no request data.
pub fn cage_colour(cage: &str) -> u8 {
    (murmur3_x64_128().hash(cage.as_bytes()) % 12) as u8
}
