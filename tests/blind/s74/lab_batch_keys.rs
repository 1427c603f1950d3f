//! In-house lab: batch submission of samples from the treatment room.

use std::time::Duration;

use idem_scope::Problem;
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct LabBench {
    pub idem: Bunker,
    pub analyzer_cache: Bunker,
    pub queue: crate::analyzers::RunQueue,
}

#[derive(Deserialize)]
pub struct SampleBatch {
    pub analyzer: String,
    pub panel: String,
    pub samples: Vec<String>,
}

const BATCH_ROUTE: &str = "/v1/lab/batches";

/// Byte slot: every part followed by a unit separator.
fn batch_slot(org_id: &str, user_id: &str, key: &str) -> Vec<u8> {
    let mut slot = Vec::with_capacity(org_id.len() + user_id.len() + key.len() + 24);
    [org_id.as_bytes(), user_id.as_bytes(), BATCH_ROUTE.as_bytes(), key.as_bytes()]
        .iter()
        .for_each(|part| {
            slot.extend_from_slice(part);
            slot.push(0x1f);
        });
    slot
}

/// Analyzer/panel pairs are cached without any client input.
fn panel_slot(analyzer: &str, panel: &str) -> Vec<u8> {
    let mut slot = Vec::with_capacity(analyzer.len() + panel.len() + 1);
    slot.extend_from_slice(analyzer.as_bytes());
    slot.push(b'/');
    slot.extend_from_slice(panel.as_bytes());
    slot
}

pub async fn submit_batch(
    inb: Inbound,
    staff: Staff,
    st: Shared<LabBench>,
    JsonIn(batch): JsonIn<SampleBatch>,
) -> Result<Sendback, Fault> {
    let Some(key) = inb.header("Idempotency-Key") else {
        return Ok(Sendback::problem(Problem::missing_key()));
    };
    let slot = batch_slot(&staff.org_id, &staff.user_id, key);
    if let Some(prev) = st.idem.get(&slot).await? {
        return Ok(Sendback::replay(prev));
    }

    let layout = match st.analyzer_cache.get(&panel_slot(&batch.analyzer, &batch.panel)).await? {
        Some(l) => l,
        None => st.queue.describe_panel(&batch.analyzer, &batch.panel).await?,
    };
    let run = st.queue.enqueue(&staff.org_id, &batch.samples, &layout).await?;
    let body = serde_json::to_vec(&run)?;
    st.idem.put_for(&slot, body.clone(), Duration::from_secs(86_400)).await?;
    Ok(Sendback::raw_json(Code::Accepted, body))
}
