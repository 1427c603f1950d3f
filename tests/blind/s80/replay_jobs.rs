//! Gate transaction replays. Gate transactions are posted by the OCR
//! portal with a client key; transactions that failed downstream are
//! replayed every five minutes by this job under a cluster-wide lease.

use std::time::Duration;

use ballast::hold::Hold;
use ballast::lease::Leases;
use hawser::extract::{Json, Shared};
use hawser::pass::Staff;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize, Clone)]
pub struct GateTransaction {
    pub lane: u8,
    pub truck_plate: String,
    pub containers: Vec<String>,
    pub direction: String,
}

pub struct ReplayJob {
    pub id: u64,
    pub org_id: String,
    pub route: String,
    pub tx: GateTransaction,
}

pub struct Gate {
    pub replies: Hold,
    pub leases: Leases,
    pub tos: tos_bridge::Client,
    pub failed: tos_bridge::FailedQueue,
}

pub async fn post_transaction(g: Shared<Gate>, staff: Staff, call: Call, Json(tx): Json<GateTransaction>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let key = scoped(&staff.org_id, &staff.sub, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = g.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let applied = match g.tos.apply(&tx).await {
        Ok(a) => a,
        Err(e) => {
            g.failed.push(&staff.org_id, call.route_template(), &tx).await?;
            return Err(Snag::bad_gateway(e.to_string()));
        }
    };
    let answer = Answer::json(Status::OK, &applied);
    g.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}

pub async fn replay_failed(g: &Gate) -> anyhow::Result<()> {
    let lease = g.leases.acquire("gate-replay", Duration::from_secs(240)).await?;
    let jobs: Vec<ReplayJob> = g.failed.take(50).await?;
    for job in jobs {
        let key = scoped(&job.org_id, "gate-replayer", &job.route, &format!("replay:{}", job.id))?;
        if g.replies.exists(key.storage_key()).await? {
            continue;
        }
        let applied = g.tos.apply(&job.tx).await?;
        g.replies.put(key.storage_key(), &serde_json::to_vec(&applied)?).await?;
    }
    g.leases.release(lease).await?;
    Ok(())
}
