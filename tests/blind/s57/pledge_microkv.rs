use std::sync::Arc;

use corvid::{Ctx, Json, Reply};
use microkv::MicroKV;
use serde::{Deserialize, Serialize};

use crate::pledges::{Pledge, PledgeBook};

#[derive(Serialize)]
struct ReplayId<'a> {
    org_id: &'a str,
    actor: &'a str,
    route: &'a str,
    key: &'a str,
}

#[derive(Deserialize)]
pub struct PledgeInput {
    pub campaign_id: String,
    pub amount_minor: i64,
    pub note: Option<String>,
}

pub struct PledgeState {
    pub kv: Arc<MicroKV>,
    pub book: PledgeBook,
}

pub async fn create_pledge(ctx: Ctx<Arc<PledgeState>>, Json(input): Json<PledgeInput>) -> Reply {
    let caller = ctx.caller()?;
    let mut actor = caller.actor_handle.clone();
    actor.retain(|c| c != '#');
    let Some(client_key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(400, "Idempotency-Key header is required");
    };

    let id = ReplayId { org_id: &caller.org_id, actor: &actor, route: "pledges.create", key: &client_key };
    let slot = match ron::to_string(&id) {
        Ok(s) => s,
        Err(e) => return Reply::problem(500, &e.to_string()),
    };
    if let Ok(prev) = ctx.state().kv.get_unwrap::<Pledge>(&slot) {
        return Reply::json(200, &prev).header("Idempotent-Replayed", "true");
    }

    let mut notes: Vec<String> = input.note.iter().map(|n| n.trim().to_owned()).collect();
    notes.retain(|n| !n.is_empty());
    let pledge = ctx.state().book.pledge(&caller.org_id, &input.campaign_id, input.amount_minor, notes).await?;
    ctx.state().kv.put(&slot, &pledge)?;
    Reply::json(201, &pledge)
}
