use deadpool_redis::{redis::AsyncCommands, Pool};
use salvo::prelude::*;
use serde::Deserialize;

use crate::auth::TeamMember;
use crate::consignments::{ConsignmentDraft, Consignments};

#[derive(Debug, Deserialize)]
struct SplitRequest {
    consignment_id: String,
    parts: Vec<u32>,
}

struct Replay<'a> {
    pool: &'a Pool,
}

impl<'a> Replay<'a> {
    async fn cached(&self, slot: &str) -> anyhow::Result<Option<String>> {
        let mut conn = self.pool.get().await?;
        Ok(conn.get(slot).await?)
    }

    async fn keep(&self, slot: &str, body: &str) -> anyhow::Result<()> {
        let mut conn = self.pool.get().await?;
        conn.set_ex::<_, _, ()>(slot, body, 24 * 3600).await?;
        Ok(())
    }
}

#[handler]
pub async fn split_consignment(req: &mut Request, depot: &mut Depot, res: &mut Response) -> anyhow::Result<()> {
    let member = depot.get::<TeamMember>("member").map_err(|_| anyhow::anyhow!("no member"))?.clone();
    let pool = depot.get::<Pool>("redis").map_err(|_| anyhow::anyhow!("no pool"))?.clone();
    let consignments = depot.get::<Consignments>("consignments").map_err(|_| anyhow::anyhow!("no svc"))?.clone();

    let key: Option<String> = req.header("Idempotency-Key");
    let Some(key) = key else {
        res.status_code(StatusCode::BAD_REQUEST);
        return Ok(());
    };
    let replay = Replay { pool: &pool };
    let slot = serde_json::to_string(&(member.team_id.as_str(), member.user_id.as_str(), key.as_str()))?;
    if let Some(prev) = replay.cached(&slot).await? {
        res.render(Text::Json(prev));
        return Ok(());
    }

    let body: SplitRequest = req.parse_json().await?;
    let draft = ConsignmentDraft::split(&body.consignment_id, &body.parts);
    let created = consignments.apply(&member.team_id, draft).await?;
    let json = serde_json::to_string(&created)?;
    replay.keep(&slot, &json).await?;
    res.render(Text::Json(json));
    Ok(())
}
