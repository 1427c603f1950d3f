use std::collections::BTreeMap;
use std::sync::Mutex;

pub struct Ctx {
    pub tenant_id: String,
    pub user_id: String,
    pub headers: BTreeMap<String, String>,
}

pub struct Store {
    pub kv: Mutex<BTreeMap<Vec<u8>, Vec<u8>>>,
}

fn client_op(ctx: &Ctx) -> Option<&String> {
    ctx.headers.get("Idempotency-Key")
}

fn key_for(ctx: &Ctx, route: &str) -> Option<String> {
    let k = client_op(ctx)?;
    Some(ctx.tenant_id.clone() + ":" + &ctx.user_id + ":" + route + ":" + k)
}

pub fn archive(store: &Store, ctx: &Ctx) -> Option<()> {
    let key = key_for(ctx, "archive")?;
    store.kv.lock().unwrap().insert(key.into_bytes(), b"done".to_vec());
    Some(())
}

pub fn restore(store: &Store, ctx: &Ctx) -> Option<()> {
    let k = client_op(ctx)?;
    let mut raw = Vec::with_capacity(64);
    raw.extend_from_slice(ctx.tenant_id.as_bytes());
    raw.push(0);
    raw.extend_from_slice(ctx.user_id.as_bytes());
    raw.extend_from_slice(b"\0restore\0");
    raw.extend_from_slice(k.as_bytes());
    store.kv.lock().unwrap().insert(raw, b"done".to_vec());
    Some(())
}

pub fn purge(store: &Store, ctx: &Ctx) -> Option<()> {
    let k = client_op(ctx)?;
    let key = idem_scope::scoped(&ctx.tenant_id, &ctx.user_id, "purge", k).ok()?;
    let mut bytes = Vec::new();
    bytes.extend_from_slice(key.storage_key().as_bytes());
    store.kv.lock().unwrap().insert(bytes, b"done".to_vec());
    Some(())
}
