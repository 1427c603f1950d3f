use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use ferrum::kv::SharedKv;
use jsonrpc_core::{Error, IoHandler, MetaIoHandler, Metadata, Params, Value};
use serde::{Deserialize, Serialize};

#[derive(Clone, Default)]
pub struct Meta {
    pub tenant_id: String,
    pub caller_id: String,
}
impl Metadata for Meta {}

#[derive(Deserialize, Hash)]
pub struct BookSlot {
    pub resource: String,
    pub starts_at: i64,
    pub minutes: u32,
    pub note: Option<String>,
}

#[derive(Serialize)]
struct Booked {
    booking_id: String,
    etag: String,
}

fn etag_of(v: &Value) -> String {
    let mut h = DefaultHasher::new();
    v.to_string().hash(&mut h);
    format!("W/\"{:x}\"", h.finish())
}

pub fn mount(io: &mut MetaIoHandler<Meta>, dedup: Arc<SharedKv>, calendar: Arc<calendar::Client>) {
    io.add_method_with_meta("booking.create", move |params: Params, meta: Meta| {
        let dedup = dedup.clone();
        let calendar = calendar.clone();
        async move {
            let slot: BookSlot = params.parse()?;
            let op = "booking.create";
            let mut h = DefaultHasher::new();
            slot.hash(&mut h);
            let key = format!("{}:{}:{}:{:016x}", meta.tenant_id, meta.caller_id, op, h.finish());

            if let Some(prev) = dedup.get(&key).await.map_err(|_| Error::internal_error())? {
                return Ok(prev);
            }
            let id = calendar
                .book(&meta.tenant_id, &slot.resource, slot.starts_at, slot.minutes)
                .await
                .map_err(|_| Error::internal_error())?;
            let mut out = serde_json::json!({ "booking_id": id });
            let etag = etag_of(&out);
            out = serde_json::to_value(Booked { booking_id: id, etag }).map_err(|_| Error::internal_error())?;
            dedup.set(&key, out.clone()).await.map_err(|_| Error::internal_error())?;
            Ok(out)
        }
    });
}

pub fn health(io: &mut IoHandler) {
    io.add_sync_method("health", |_| Ok(Value::String("ok".into())));
}
