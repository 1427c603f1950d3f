use std::time::Duration;

use eyre::{eyre, Result};
use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Ctx, Reply, Status};
use serde::{Deserialize, Serialize};
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct UpgradeBody {
    pub plan: String,
    pub seats: u32,
}

#[derive(Serialize)]
pub struct UpgradeOutcome {
    pub subscription_id: String,
    pub plan: String,
}

pub struct SubsState {
    pub locker: Locker,
    pub billing: crate::billing::Billing,
}

const LEASE: Duration = Duration::from_secs(120);

pub async fn upgrade(ctx: Ctx<SubsState>, caller: Caller, head: Head, Json(body): Json<UpgradeBody>) -> Reply {
    match run_upgrade(&ctx.state, &caller, &head, body).await {
        Ok(out) => Reply::json(Status::OK, &out),
        Err(e) => Reply::problem(Problem::invalid_key(&e.to_string())),
    }
}

async fn run_upgrade(state: &SubsState, caller: &Caller, head: &Head, body: UpgradeBody) -> Result<UpgradeOutcome> {
    let key = head
        .header("Idempotency-Key")
        .ok_or_else(|| eyre!("missing Idempotency-Key"))?
        .to_owned();
    let sk = scoped(caller.tenant_id(), caller.user_id(), "subscription_upgrade", &key)?;
    if !state.locker.claim(sk.storage_key(), LEASE).await? {
        return Err(eyre!("request {key} is still in progress"));
    }
    let sub = state.billing.change_plan(caller.tenant_id(), &body.plan, body.seats).await?;
    let out = UpgradeOutcome { subscription_id: sub.id, plan: body.plan };
    state.locker.complete(sk.storage_key(), &serde_json::to_vec(&out)?).await?;
    Ok(out)
}
