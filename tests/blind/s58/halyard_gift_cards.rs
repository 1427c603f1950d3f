use std::time::Duration;

use cairn::kv::Bucket;
use halyard::{Ctx, Json, Reply};
use idem_scope::{scoped, Problem};
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
pub struct IssueInput {
    value_minor: i64,
    recipient_email: String,
}

#[derive(Serialize)]
struct GiftCard {
    code: String,
    value_minor: i64,
    recipient: String,
}

pub async fn issue_gift_card(ctx: Ctx, Json(input): Json<IssueInput>) -> Result<Reply, Problem> {
    let records = ctx.state::<Bucket>();
    let caller = ctx.caller().ok_or_else(|| Problem::invalid_key("unauthenticated"))?;
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "gift_cards.issue", key)
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;

    let mut code = String::new();
    code.reserve(19);

    records
        .claim(sk.storage_key(), Duration::from_secs(90))
        .await
        .map_err(|_| Problem::in_progress(key))?;

    let render = |card: &GiftCard| -> Vec<u8> {
        serde_json::to_vec(card).expect("gift card serialises")
    };
    for chunk in 0..4 {
        if chunk > 0 {
            code.push('-');
        }
        code.push_str(&format!("{:04}", (input.value_minor as u64 + chunk * 7919) % 10_000));
    }
    let card = GiftCard { code, value_minor: input.value_minor, recipient: input.recipient_email };
    let body = render(&card);
    records
        .complete(sk.storage_key(), &body)
        .await
        .map_err(|_| Problem::in_progress(key))?;
    Ok(Reply::bytes(201, body))
}
