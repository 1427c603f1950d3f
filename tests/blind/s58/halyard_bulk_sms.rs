use std::panic::{self, AssertUnwindSafe};
use std::time::Duration;

use cairn::sync_kv::SyncKv;
use halyard::{Ctx, Json, Reply};
use idem_scope::{scoped, ScopeError, ScopedKey};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct SmsBatch {
    to: Vec<String>,
    text: String,
}

fn batch_key(tenant_id: &str, user_id: &str, raw_body: &[u8]) -> Result<ScopedKey, ScopeError> {
    scoped(tenant_id, user_id, "sms.bulk_send", &format!("{:016x}", xxh3::hash64(raw_body)))
}

fn send_all(batch: &SmsBatch) -> Vec<u8> {
    let delivered: Vec<String> = batch
        .to
        .iter()
        .map(|n| n.replace('/', ""))
        .collect();
    assert!(!delivered.is_empty(), "empty recipient list");
    format!(r#"{{"sent":{},"chars":{}}}"#, delivered.len(), batch.text.len()).into_bytes()
}

pub async fn bulk_send(ctx: Ctx, Json(batch): Json<SmsBatch>) -> Reply {
    let kv = ctx.state::<SyncKv>();
    let Some(caller) = ctx.caller() else {
        return Reply::status(401);
    };
    let Ok(sk) = batch_key(&caller.tenant_id, &caller.user_id, ctx.body()) else {
        return Reply::status(400);
    };
    match kv.claim(sk.storage_key(), Duration::from_secs(120)) {
        Ok(true) => {}
        Ok(false) => return Reply::status(409),
        Err(_) => return Reply::status(503),
    }
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| send_all(&batch)));
    let body = match outcome {
        Ok(body) => body,
        Err(payload) => {
            let _ = kv.release(sk.storage_key());
            panic::resume_unwind(payload);
        }
    };
    let _ = kv.complete(sk.storage_key(), &body);
    Reply::bytes(202, body)
}
