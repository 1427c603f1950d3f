use std::collections::HashMap;
use std::sync::Arc;

use corvid::{Ctx, Json, RawBody, Reply};
use parking_lot::Mutex;
use serde::Deserialize;

use crate::deploys::{DeployRequest, Deployer};

type Slot = (String, String, String, String);

pub struct DeployState {
    pub deployer: Arc<Deployer>,
    /// Replays for deploys requested through the API with an Idempotency-Key.
    pub api_replays: Mutex<HashMap<Slot, String>>,
    /// Deliveries already handled, keyed by GitHub's delivery GUID.
    pub hook_replays: Mutex<HashMap<String, String>>,
}

#[derive(Deserialize)]
struct PushHook {
    tenant_id: String,
    user_id: String,
    after: String,
}

pub async fn request_deploy(ctx: Ctx<Arc<DeployState>>, Json(req): Json<DeployRequest>) -> Reply {
    let caller = ctx.caller()?;
    let Some(client_key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(400, "Idempotency-Key header is required");
    };
    let slot: Slot = (caller.tenant_id.clone(), caller.user_id.clone(), "deploys.request".into(), client_key);
    if let Some(id) = ctx.state().api_replays.lock().get(&slot).cloned() {
        return Reply::json(200, &serde_json::json!({ "deploy_id": id }));
    }
    let id = ctx.state().deployer.deploy(&caller.tenant_id, &req.sha).await?;
    ctx.state().api_replays.lock().insert(slot, id.clone());
    Reply::json(202, &serde_json::json!({ "deploy_id": id }))
}

/// Auto-deploys on push arrive as GitHub webhooks and share the API replay map
/// under the server namespace.
pub async fn github_hook(ctx: Ctx<Arc<DeployState>>, RawBody(body): RawBody) -> Reply {
    let Some(delivery) = ctx.header("X-GitHub-Delivery") else {
        return Reply::status(400);
    };
    let hook: PushHook = serde_json::from_slice(&body)?;
    let slot: Slot = (hook.tenant_id.clone(), hook.user_id.clone(), "deploys.request".into(), format!("s:{delivery}"));
    if ctx.state().api_replays.lock().contains_key(&slot) {
        return Reply::status(204);
    }
    let id = ctx.state().deployer.deploy(&hook.tenant_id, &hook.after).await?;
    ctx.state().api_replays.lock().insert(slot, id.clone());
    Reply::status(202)
}

/// Legacy ping endpoint: only records that a delivery arrived.
pub async fn github_ping(ctx: Ctx<Arc<DeployState>>) -> Reply {
    let Some(delivery) = ctx.header("X-GitHub-Delivery") else {
        return Reply::status(400);
    };
    ctx.state().hook_replays.lock().insert(delivery.clone(), "ping".into());
    Reply::status(204)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn duplicate_delivery_is_ignored() {
        let state = Arc::new(DeployState::for_tests());
        let delivery = xid::new().to_string();
        let slot: Slot = ("t1".into(), "u1".into(), "deploys.request".into(), delivery);
        state.api_replays.lock().insert(slot.clone(), "dep-1".into());
        assert!(state.api_replays.lock().contains_key(&slot));
    }
}
