//! Server-minted keys for redelivery workers. Everything the terminal
//! originates itself goes through `ServerKeys`, so a client can never
//! collide with a redelivery by sending a look-alike key.

use std::time::Duration;

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Broker;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::{scoped, scoped_server, ScopeError, ScopedKey};
use serde::Deserialize;
use tideway::{Consumer, Delivery};

pub struct ServerKeys<'a> {
    pub org_id: &'a str,
    pub worker: &'a str,
}

impl<'a> ServerKeys<'a> {
    pub fn for_delivery(&self, route: &str, d: &Delivery) -> Result<ScopedKey, ScopeError> {
        scoped_server(self.org_id, self.worker, route, d.id())
    }
}

#[derive(Deserialize)]
pub struct InspectionResult {
    pub container_no: String,
    pub outcome: String,
}

pub struct Inspections {
    pub replies: Hold,
    pub seen: Hold,
    pub org_id: String,
    pub holds: customs_bridge::HoldBook,
}

pub async fn broker_ack(i: Shared<Inspections>, b: Broker, call: Call, Json(r): Json<InspectionResult>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let key = scoped(&b.account_id, &b.user_id, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = i.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let acked = i.holds.acknowledge(&r.container_no, &r.outcome, &b.user_id).await?;
    let answer = Answer::json(Status::OK, &acked);
    i.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}

pub async fn inspection_worker(i: &Inspections, mut q: Consumer) -> anyhow::Result<()> {
    let keys = ServerKeys { org_id: &i.org_id, worker: "inspection-worker" };
    while let Some(d) = q.next().await {
        if !i.seen.set_nx(d.id(), b"1", Duration::from_secs(86_400)).await? {
            d.ack().await?;
            continue;
        }
        let result: InspectionResult = serde_json::from_slice(d.body())?;
        let key = keys.for_delivery("/v1/inspections/results", &d)?;
        if i.replies.exists(key.storage_key()).await? {
            d.ack().await?;
            continue;
        }
        let applied = i.holds.apply_inspection(&result.container_no, &result.outcome).await?;
        i.replies.put(key.storage_key(), &serde_json::to_vec(&applied)?).await?;
        d.ack().await?;
    }
    Ok(())
}
