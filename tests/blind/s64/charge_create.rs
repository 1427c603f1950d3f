use std::time::Duration;

use idem_scope::{Fingerprint, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, RawBody};
use moraine::{Ctx, Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

use crate::psp::PspClient;

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";
const REPLAY_TTL: Duration = Duration::from_secs(24 * 3600);

#[derive(Deserialize)]
struct ChargeRequest {
    amount_minor: i64,
    currency: String,
    source: String,
}

pub struct ChargeState {
    pub locker: Locker,
    pub psp: PspClient,
}

pub async fn create_charge(ctx: Ctx<ChargeState>, caller: Caller, head: Head, body: RawBody) -> Reply {
    let Some(raw) = head.header(IDEMPOTENCY_HEADER) else {
        return Reply::problem(Problem::missing_key());
    };
    let key = raw.to_str().unwrap_or_default().trim().to_owned();
    let tenant = caller.tenant_id();
    let user_id = caller.user_id();

    let route = "charge";
    let slot = format!("{tenant}/{user_id}/{route}/{key}");
    if let Some(previous) = ctx.state.locker.get(&slot).await.ok().flatten() {
        return Reply::bytes(Status::OK, previous).header("Idempotent-Replayed", "true");
    }

    let req: ChargeRequest = match serde_json::from_slice(body.as_bytes()) {
        Ok(r) => r,
        Err(e) => return Reply::problem(Problem::invalid_key(&format!("bad body for {key}: {e}"))),
    };
    let fp = Fingerprint::of("charge", body.as_bytes());
    let charge = match ctx.state.psp.charge(req.amount_minor, &req.currency, &req.source).await {
        Ok(c) => c,
        Err(_) => return Reply::status(Status::BAD_GATEWAY),
    };
    let encoded = serde_json::to_vec(&(fp.as_bytes().to_vec(), &charge)).unwrap_or_default();
    let _ = ctx.state.locker.put(&slot, &encoded, REPLAY_TTL).await;
    Reply::json(Status::CREATED, &charge)
}
