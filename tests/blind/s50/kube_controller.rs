//! Payout controller (kube-rs): PayoutRequest objects are reconciled into provider payouts.
//! The same operator also serves the HTTP API that creates payouts directly.
use futures::StreamExt;
use http::HeaderMap;
use idem_scope::scoped;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::{api::Api, runtime::controller::{Action, Controller}, Client, CustomResource, ResourceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(CustomResource, Deserialize, Serialize, Clone, Debug, JsonSchema)]
#[kube(group = "payouts.example.com", version = "v1", kind = "PayoutRequest", namespaced, status = "PayoutStatus")]
pub struct PayoutRequestSpec {
    pub tenant_id: String,
    pub user_id: String,
    pub cents: u64,
}

#[derive(Deserialize, Serialize, Clone, Debug, Default, JsonSchema)]
pub struct PayoutStatus {
    pub last_event_id: Option<String>,
}

pub struct Ctx {
    pub replays: Mutex<BTreeMap<String, String>>,
    pub client: Client,
}

pub fn api_create(ctx: &Ctx, h: &HeaderMap, tenant_id: &str, user_id: &str, cents: u64) -> Result<String, String> {
    let k = h.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400")?;
    let key = scoped(tenant_id, user_id, "payouts.create", k).map_err(|e| e.to_string())?;
    let mut r = ctx.replays.lock().unwrap();
    Ok(r.entry(key.storage_key().to_owned()).or_insert_with(|| format!("{{\"cents\":{cents}}}")).clone())
}

async fn reconcile(obj: Arc<PayoutRequest>, ctx: Arc<Ctx>) -> Result<Action, kube::Error> {
    let Some(event_id) = obj.status.as_ref().and_then(|s| s.last_event_id.clone()) else {
        return Ok(Action::requeue(Duration::from_secs(30)));
    };
    let ns = obj.namespace().unwrap_or_default();
    let cms: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &ns);
    let _settings = cms.get_opt("payout-settings").await?;
    if let Ok(key) = scoped(&obj.spec.tenant_id, &obj.spec.user_id, "payouts.create", &format!("replay:{}", event_id)) {
        let mut r = ctx.replays.lock().unwrap();
        r.entry(key.storage_key().to_owned()).or_insert_with(|| format!("{{\"cents\":{}}}", obj.spec.cents));
    }
    Ok(Action::requeue(Duration::from_secs(300)))
}

fn error_policy(_obj: Arc<PayoutRequest>, _err: &kube::Error, _ctx: Arc<Ctx>) -> Action {
    Action::requeue(Duration::from_secs(15))
}

pub async fn run(ctx: Arc<Ctx>) {
    let api: Api<PayoutRequest> = Api::all(ctx.client.clone());
    Controller::new(api, Default::default())
        .run(reconcile, error_policy, ctx)
        .for_each(|_| futures::future::ready(()))
        .await;
}
