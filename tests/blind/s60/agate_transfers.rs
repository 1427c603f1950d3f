use std::fmt::{self, Write as _};
use std::hash::Hasher;

use agatedb::Agate;
use bytes::Bytes;
use gimbal::{Ctx, Json, Reply};
use hashers::fx_hash::FxHasher;
use serde::Deserialize;
use tracing::info;

use crate::limits::RateLimits;
use crate::rails::{self, TransferRequest};

#[derive(Default)]
pub struct SlotBuilder {
    tenant_id: Option<String>,
    user_id: Option<String>,
    route: Option<&'static str>,
    key: Option<String>,
}

impl SlotBuilder {
    pub fn tenant(mut self, tenant_id: &str) -> Self {
        self.tenant_id = Some(tenant_id.to_owned());
        self
    }
    pub fn user(mut self, user_id: &str) -> Self {
        self.user_id = Some(user_id.to_owned());
        self
    }
    pub fn route(mut self, route: &'static str) -> Self {
        self.route = Some(route);
        self
    }
    pub fn key(mut self, key: &str) -> Self {
        self.key = Some(key.to_owned());
        self
    }
    pub fn build(self) -> Option<String> {
        let (tenant_id, user_id, route, key) = (self.tenant_id?, self.user_id?, self.route?, self.key?);
        let mut out = String::with_capacity(tenant_id.len() + user_id.len() + key.len() + 24);
        write!(out, "{}/{}/{}/{}", tenant_id, user_id, route, key).ok()?;
        Some(out)
    }
}

struct TransferLog<'a> {
    user_id: &'a str,
    key: &'a str,
    amount_minor: i64,
}

impl fmt::Display for TransferLog<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "transfer by {} amount={} key={}", self.user_id, self.amount_minor, self.key)
    }
}

fn bucket_of(authorization: &str) -> u64 {
    let mut h = FxHasher::default();
    h.write(authorization.as_bytes());
    h.finish()
}

pub async fn transfer(db: &Agate, limits: &RateLimits, ctx: Ctx, Json(req): Json<TransferRequest>) -> Reply {
    let auth = ctx.auth();
    let bucket = bucket_of(ctx.header("Authorization").unwrap_or(""));
    if !limits.allow(bucket) {
        return Reply::status(429);
    }
    let Some(k) = ctx.header("X-Idempotency-Key") else {
        return Reply::status(400);
    };
    info!("{}", TransferLog { user_id: &auth.user_id, key: k, amount_minor: req.amount_minor });

    let Some(slot) = SlotBuilder::default()
        .tenant(&auth.tenant_id)
        .user(&auth.user_id)
        .route("transfers.create")
        .key(k)
        .build()
    else {
        return Reply::status(400);
    };

    let txn = db.new_transaction(true);
    if let Ok(prev) = txn.get(&Bytes::from(slot.clone())) {
        return Reply::replay(prev.value().to_vec());
    }
    let receipt = match rails::send(&auth.tenant_id, &req).await {
        Ok(r) => r,
        Err(_) => return Reply::status(502),
    };
    let body = receipt.to_json();
    if txn.set(Bytes::from(slot), Bytes::from(body.clone())).is_err() || txn.commit().is_err() {
        return Reply::status(503);
    }
    Reply::created(body)
}
