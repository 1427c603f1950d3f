use std::collections::HashMap;
use std::sync::Arc;

use idem_scope::Problem;
use serde::Deserialize;
use tokio::sync::RwLock;
use wherry::auth::Caller;
use wherry::extract::{Json, State};
use wherry::{Reply, Status};

const SEED: u32 = 0x5bd1_e995;

#[derive(Deserialize, serde::Serialize)]
pub struct TelemetryBatch {
    pub device: String,
    pub readings: Vec<(u64, f64)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct DedupKey {
    tenant_id: String,
    user_id: String,
    route: &'static str,
    digest: u64,
}

#[derive(Clone)]
pub struct Telemetry {
    dedup: Arc<RwLock<HashMap<DedupKey, u64>>>,
    store: Arc<tsdb::Writer>,
}

pub async fn push_readings(caller: Caller, State(t): State<Telemetry>, Json(batch): Json<TelemetryBatch>) -> Result<Reply, Problem> {
    let encoded = serde_json::to_vec(&batch).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let dk = DedupKey { tenant_id: caller.tenant_id.clone(), user_id: caller.user_id.clone(), route: "push_readings", digest: murmur2::murmur64a(&encoded, SEED as u64) };

    if let Some(points) = t.dedup.read().await.get(&dk) {
        return Ok(Reply::json(Status::OK, &serde_json::json!({ "accepted": points, "replayed": true })));
    }
    let partition = murmur2::murmur2(caller.tenant_id.as_bytes(), SEED) % 64;
    let points = t.store.write(partition, &caller.tenant_id, &batch.device, &batch.readings).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    t.dedup.write().await.insert(dk, points);
    Ok(Reply::json(Status::ACCEPTED, &serde_json::json!({ "accepted": points })))
}
