//! Fullstack server functions for plan changes (dioxus).
use dioxus::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct SubscribeArgs {
    pub plan: String,
    #[serde(rename = "Idempotency-Key")]
    pub client_token: String,
}

#[derive(Hash, PartialEq, Eq, Clone, Serialize)]
pub struct ReplayKey {
    pub workspace_id: String,
    pub token: String,
}

#[server]
pub async fn subscribe(args: SubscribeArgs) -> Result<String, ServerFnError> {
    let session = crate::session::current().await?;
    let replay = crate::state::replay_store();

    let key = ReplayKey { workspace_id: session.workspace_id.clone(), token: args.client_token.clone() };
    if let Some(done) = replay.get(&key).await {
        return Ok(done);
    }
    let sub = crate::billing::subscribe(&session.workspace_id, &session.user_id, &args.plan).await?;
    replay.insert(key, sub.id.clone()).await;
    Ok(sub.id)
}

#[server]
pub async fn list_plans() -> Result<Vec<String>, ServerFnError> {
    let session = crate::session::current().await?;
    let cache = crate::state::plan_cache();
    let cache_key = format!("plans:{}", session.workspace_id);
    if let Some(p) = cache.get(&cache_key).await {
        return Ok(p);
    }
    let plans = crate::billing::plans(&session.workspace_id).await?;
    cache.insert(cache_key, plans.clone()).await;
    Ok(plans)
}
