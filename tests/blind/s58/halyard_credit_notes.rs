use cairn::table::{Entry, Table};
use halyard::{Ctx, Json, Reply};
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
pub struct CreditNoteInput {
    invoice_id: String,
    amount_minor: i64,
    memo: Option<String>,
}

#[derive(Serialize)]
struct CreditNote {
    invoice_id: String,
    amount_minor: i64,
    memo: String,
}

pub async fn issue_credit_note(ctx: Ctx, Json(input): Json<CreditNoteInput>) -> Reply {
    let replays = ctx.state::<Table>();
    let Some(caller) = ctx.caller() else {
        return Reply::status(401);
    };
    let Some(key) = ctx.header("X-Idempotency-Key").map(str::to_owned) else {
        return Reply::status(400);
    };

    match replays.entry(&caller.tenant_id, &key).await {
        Ok(Entry::Occupied(prev)) => Reply::bytes(200, prev.value().to_vec()),
        Ok(Entry::Vacant(slot)) => {
            let note = CreditNote {
                invoice_id: input.invoice_id,
                amount_minor: input.amount_minor,
                memo: input.memo.unwrap_or_default(),
            };
            let body = serde_json::to_vec(&note).unwrap_or_default();
            let etag = format!("\"{:032x}\"", fastmurmur3::hash(&body));
            if slot.insert(body.clone()).await.is_err() {
                return Reply::status(503);
            }
            Reply::bytes(201, body).header("ETag", &etag)
        }
        Err(_) => Reply::status(503),
    }
}
