//! Subscription changes over a restate-style durable handler.
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Hash, PartialEq, Eq, Clone, Serialize, Deserialize)]
pub struct ReplayKey {
    pub tenant_id: String,
    pub key: String,
}

#[derive(Hash, PartialEq, Eq, Clone)]
pub struct FullKey {
    pub tenant_id: String,
    pub principal_id: String,
    pub route: &'static str,
    pub key: String,
}

pub struct Ctx {
    pub tenant_id: String,
    pub principal_id: String,
    headers: HashMap<String, String>,
}

impl Ctx {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

#[derive(Default)]
pub struct Subscriptions {
    upgrades: Mutex<HashMap<ReplayKey, String>>,
    cancels: Mutex<HashMap<FullKey, String>>,
}

impl Subscriptions {
    pub fn upgrade(&self, ctx: &Ctx, plan: &str) -> Result<String, String> {
        let k = ctx.header("Idempotency-Key").ok_or("400: Idempotency-Key required")?;
        let mut upgrades = self.upgrades.lock().unwrap();
        let out = upgrades
            .entry(ReplayKey { tenant_id: ctx.tenant_id.clone(), key: k.to_owned() })
            .or_insert_with(|| format!("{{\"plan\":\"{plan}\"}}"));
        Ok(out.clone())
    }

    pub fn cancel(&self, ctx: &Ctx) -> Result<String, String> {
        let k = ctx.header("Idempotency-Key").ok_or("400: Idempotency-Key required")?;
        let fk = FullKey {
            tenant_id: ctx.tenant_id.clone(),
            principal_id: ctx.principal_id.clone(),
            route: "subscriptions.cancel",
            key: k.to_owned(),
        };
        let mut cancels = self.cancels.lock().unwrap();
        Ok(cancels.entry(fk).or_insert_with(|| "{\"cancelled\":true}".into()).clone())
    }
}
