//! Release issuing. Agents request a release through the API; when both
//! the customs and the line release arrive, the outbox relay issues the
//! release automatically through the same code path.

use ballast::hold::Hold;
use ballast::sql::{query, Pool};
use hawser::extract::{Json, Shared};
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::{Deserialize, Serialize};
use tideway::Publisher;
use ulid::Ulid;

#[derive(Deserialize, Serialize, Clone)]
pub struct ReleaseOrder {
    pub container_no: String,
    pub release_to: String,
}

pub struct Releases {
    pub replies: Hold,
    pub pool: Pool,
    pub bus: Publisher,
    pub pins: pin_core::Issuer,
}

async fn issue_release_inner(r: &Releases, account_id: &str, user_id: &str, route: &str, key: &str, order: &ReleaseOrder) -> Result<Answer, Snag> {
    let slot = scoped(account_id, user_id, route, key).map_err(Snag::bad_request)?;
    if let Some(prev) = r.replies.get(slot.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let pin = r.pins.issue(&order.container_no, &order.release_to).await?;
    let answer = Answer::json(Status::CREATED, &pin);
    r.replies.put(slot.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}

pub async fn request_release(r: Shared<Releases>, a: Agent, call: Call, Json(o): Json<ReleaseOrder>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    issue_release_inner(&r, &a.account_id, &a.user_id, call.route_template(), k, &o).await
}

pub async fn relay_once(r: &Releases) -> anyhow::Result<usize> {
    let rows = query("SELECT event_id, account_id, payload FROM release_outbox WHERE sent_at IS NULL ORDER BY id LIMIT 100")
        .fetch_all(&r.pool)
        .await?;
    let mut sent = 0;
    for row in rows {
        let event_id: String = row.get("event_id");
        let account_id: String = row.get("account_id");
        let order: ReleaseOrder = serde_json::from_slice(row.get::<&[u8]>("payload"))?;

        issue_release_inner(r, &account_id, "outbox-relay", "/v1/releases", &Ulid::new().to_string(), &order).await?;
        r.bus.publish("releases.issued", &event_id, &serde_json::to_vec(&order)?).await?;
        query("UPDATE release_outbox SET sent_at = now() WHERE event_id = $1").bind(&event_id).execute(&r.pool).await?;
        sent += 1;
    }
    Ok(sent)
}
