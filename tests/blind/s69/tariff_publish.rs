//! Operators publish a new tariff; the fan-out to chargers runs in the
//! background and the accepted response is remembered for retries.

use std::sync::Arc;

use garner::bin::Bin;
use trellis::guard::Identity;
use trellis::pull::Json;
use trellis::{Code, Cx, Reply};

#[derive(serde::Deserialize, serde::Serialize, Clone)]
pub struct Tariff {
    pub currency: String,
    pub per_kwh_cents: u32,
    pub idle_fee_cents: u32,
}

pub async fn publish(cx: Cx, who: Identity, Json(t): Json<Tariff>, bin: Arc<Bin>) -> Reply {
    let Some(key) = cx.header("Idempotency-Key").map(str::to_owned) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let (org, user_id) = (who.org_id.clone(), who.user_id.clone());
    let route = "/v1/tariffs";
    let tariff = t.clone();
    let handle = tokio::spawn(async move {
        let k = format!("{org}::{user_id}::{route}::{key}");
        if bin.exists(&k).await.unwrap_or(false) {
            return "duplicate";
        }
        crate::chargers::push_tariff(&org, &tariff).await;
        let _ = bin.put(&k, b"accepted").await;
        "accepted"
    });
    let topic = format!("tariffs.{}.updated", who.org_id);
    crate::bus::announce(&topic, &t).await;
    match handle.await {
        Ok(outcome) => Reply::text(Code::ACCEPTED, outcome),
        Err(_) => Reply::status(Code::INTERNAL_SERVER_ERROR),
    }
}
