use std::fmt::Write as _;

use brindle::auth::Caller;
use brindle::{Ctx, Json, Reply, Status};
use idem_scope::{Fingerprint, Problem};
use nanoid::nanoid;
use serde::{Deserialize, Serialize};
use sluice::kv::Bucket;

#[derive(Deserialize)]
pub struct PayoutInput {
    pub amount_minor: i64,
    pub currency: String,
    pub destination: String,
}

#[derive(Serialize, Deserialize, Clone)]
pub struct PayoutRecord {
    pub payout_id: String,
    pub fingerprint: Vec<u8>,
    pub status: u16,
}

struct SlotWriter<'a> {
    tenant: &'a str,
    caller: &'a str,
    op: &'static str,
    client_key: &'a str,
}

impl<'a> SlotWriter<'a> {
    fn render(&self) -> String {
        let mut out = String::with_capacity(96);
        write!(out, "{}|{}|{}|{}", self.tenant, self.caller, self.op, self.client_key).expect("write to String");
        out
    }
}

pub async fn create_payout(ctx: Ctx, caller: Caller, Json(input): Json<PayoutInput>) -> Reply {
    let Some(client_key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let bucket: &Bucket = ctx.state();
    let slot = SlotWriter {
        tenant: &caller.tenant_id,
        caller: &caller.user_id,
        op: "payout",
        client_key,
    }
    .render();
    let fp = Fingerprint::of("payout", ctx.raw_body());

    if let Some(prev) = bucket.get::<PayoutRecord>(&slot).await? {
        if prev.fingerprint != fp.as_bytes() {
            return Reply::problem(Problem::mismatch(client_key));
        }
        return Reply::json(Status::OK, &prev).header("Idempotent-Replayed", "true");
    }

    let payout_id = format!("po_{}", nanoid!(18));
    crate::payouts::submit(&caller, &payout_id, &input).await?;
    let record = PayoutRecord { payout_id, fingerprint: fp.as_bytes().to_vec(), status: 201 };
    bucket.put(&slot, &record).await?;
    Reply::json(Status::CREATED, &record)
}
