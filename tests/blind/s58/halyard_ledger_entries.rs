use std::fmt::Write as _;

use cairn::kv::Bucket;
use halyard::{Ctx, FromRequest, Reply};
use serde::{Deserialize, Serialize};

const OPERATION: &str = "ledger.entries.post";

/// The caller's retry token, taken from the `Idempotency-Key` header.
pub struct RetryToken(pub String);

impl FromRequest for RetryToken {
    type Rejection = Reply;

    fn from_request(ctx: &Ctx) -> Result<Self, Self::Rejection> {
        ctx.header("Idempotency-Key")
            .map(|v| RetryToken(v.to_owned()))
            .ok_or_else(|| Reply::status(400))
    }
}

#[derive(Default)]
struct EntrySlot {
    tenant: String,
    user_id: String,
    op: &'static str,
    client_key: String,
}

impl EntrySlot {
    fn for_caller(tenant: &str, user: &str) -> Self {
        EntrySlot { tenant: tenant.to_owned(), user_id: user.to_owned(), op: OPERATION, ..Default::default() }
    }

    fn with_client_key(mut self, key: &str) -> Self {
        self.client_key = key.to_owned();
        self
    }

    fn render(&self) -> String {
        let mut out = String::with_capacity(96);
        let _ = write!(out, "{}#{}#{}#{}", self.tenant, self.user_id, self.op, self.client_key);
        out
    }
}

#[derive(Deserialize, Serialize)]
pub struct EntryInput {
    account: String,
    debit_minor: i64,
    credit_minor: i64,
}

pub async fn post_entry(ctx: Ctx, token: RetryToken, input: EntryInput) -> Reply {
    let ledger = ctx.state::<Bucket>();
    let Some(caller) = ctx.caller() else {
        return Reply::status(401);
    };
    let slot = EntrySlot::for_caller(&caller.tenant_id, &caller.user_id).with_client_key(&token.0);
    let key = slot.render();

    match ledger.get(&key).await {
        Ok(Some(prev)) => return Reply::bytes(200, prev),
        Ok(None) => {}
        Err(e) => {
            let msg = format!("ledger lookup failed for key {}: {}", token.0, e);
            return Reply::text(503, msg);
        }
    }
    if input.debit_minor != input.credit_minor {
        return Reply::text(422, "unbalanced entry");
    }
    let body = serde_json::to_vec(&input).unwrap_or_default();
    let _ = ledger.put(&key, &body).await;
    Reply::bytes(201, body)
}
