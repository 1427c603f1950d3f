use std::sync::Arc;

use cryptoxide::hashing::sha256;
use idem_scope::Problem;
use musli::{Decode, Encode};
use quarry::kv::Vault;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

#[derive(Encode, Decode)]
struct SubKey<'a> {
    workspace_id: &'a str,
    user_id: &'a str,
    key: &'a str,
}

#[derive(Encode, Decode)]
struct RouteKey<'a> {
    workspace_id: &'a str,
    user_id: &'a str,
    route: &'a str,
    key: &'a str,
}

#[derive(Deserialize)]
pub struct NewSubscription {
    url: String,
    events: Vec<String>,
    signing_secret: String,
}

pub struct Subscriptions {
    replays: Arc<Vault>,
    by_secret: Arc<Vault>,
    registry: hooks::Registry,
}

impl Subscriptions {
    pub async fn create(&self, ctx: &Ctx, caller: &Caller, Json(body): Json<NewSubscription>) -> Reply {
        let Some(client_key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let k = SubKey {
            workspace_id: &caller.workspace_id,
            user_id: &caller.user_id,
            key: client_key,
        };
        let encoded = musli::storage::to_vec(&k).expect("encode");
        if let Ok(Some(prev)) = self.replays.get(&encoded).await {
            return Reply::bytes(Status::OK, prev);
        }

        let sub_id = self.registry.add(&caller.workspace_id, &body.url, &body.events).await;
        let secret_hash = hex_lower(&sha256(body.signing_secret.as_bytes()));
        let _ = self.by_secret.put(&secret_hash, sub_id.as_bytes().to_vec()).await;
        let _ = self.replays.put(&encoded, sub_id.as_bytes().to_vec()).await;
        Reply::bytes(Status::CREATED, sub_id.into_bytes())
    }

    pub async fn delete(&self, ctx: &Ctx, caller: &Caller, sub_id: &str) -> Reply {
        let Some(client_key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let k = RouteKey {
            workspace_id: &caller.workspace_id,
            user_id: &caller.user_id,
            route: "webhooks.delete",
            key: client_key,
        };
        let encoded = musli::storage::to_vec(&k).expect("encode");
        if self.replays.exists(&encoded).await.unwrap_or(false) {
            return Reply::status(Status::NO_CONTENT);
        }
        self.registry.remove(&caller.workspace_id, sub_id).await;
        let _ = self.replays.put(&encoded, Vec::new()).await;
        Reply::status(Status::NO_CONTENT)
    }
}

fn hex_lower(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{:02x}", b)).collect()
}
