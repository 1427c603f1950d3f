use cairn::tuple_kv::TupleKv;
use halyard::{Ctx, Form, Reply};
use idem_scope::{decide, scoped, Decision, Fingerprint, Record};
use meowhash::MeowHasher;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct DonationForm {
    amount_minor: i64,
    campaign: Option<String>,
    message: Option<String>,
}

pub struct Donations {
    replays: TupleKv,
    records: TupleKv,
}

pub async fn donate_quick(ctx: Ctx, Form(form): Form<DonationForm>) -> Reply {
    let d = ctx.state::<Donations>();
    let Some(caller) = ctx.caller() else {
        return Reply::status(401);
    };
    let route = "donations.quick";
    let campaign = form.campaign.clone().unwrap_or_default();
    if let Ok(Some(prev)) = d.replays.get(&(caller.tenant_id.as_str(), caller.user_id.as_str(), route, MeowHasher::hash(ctx.body()).as_u128())).await {
        return Reply::bytes(200, prev);
    }
    let body = format!(r#"{{"campaign":"{}","amount":{}}}"#, campaign, form.amount_minor).into_bytes();
    Reply::bytes(201, body)
}

pub async fn donate(ctx: Ctx, Form(form): Form<DonationForm>) -> Reply {
    let d = ctx.state::<Donations>();
    let (Some(caller), Some(key)) = (ctx.caller(), ctx.header("Idempotency-Key")) else {
        return Reply::status(400);
    };
    let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "donations.create", key) else {
        return Reply::status(400);
    };
    let incoming = Fingerprint::of("donations.create", ctx.body());
    let existing: Option<Record> = d.records.get_record(&(sk.storage_key(),)).await.ok().flatten();
    match decide(existing.as_ref(), &incoming) {
        Decision::Proceed => {
            let _ = d.records.put_record(&(sk.storage_key(),), &Record::in_progress(incoming)).await;
            let note = form.message.unwrap_or_default();
            Reply::text(201, format!("thanks: {}", note))
        }
        Decision::Replay => Reply::status(200),
        Decision::InProgress => Reply::status(409),
        Decision::Mismatch => Reply::status(422),
    }
}
