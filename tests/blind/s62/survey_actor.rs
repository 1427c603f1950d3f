use std::fmt;
use std::sync::Arc;

use idem_scope::{scoped, Problem};
use quarry::kv::Vault;
use serde::Deserialize;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

#[derive(Clone, Debug)]
pub enum Actor {
    User(String),
    ApiClient(String),
    Anonymous,
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::User(id) => write!(f, "user/{id}"),
            Actor::ApiClient(id) => write!(f, "client/{id}"),
            Actor::Anonymous => f.write_str("anonymous"),
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub enum Tier {
    Free,
    Team,
    Enterprise,
}

#[derive(Deserialize)]
pub struct Submission {
    survey_id: String,
    answers: Vec<serde_json::Value>,
}

pub struct Surveys {
    vault: Arc<Vault>,
    accounts: accounts::Directory,
    responses: surveys::Responses,
}

fn resolve_actor(ctx: &Ctx) -> Option<Actor> {
    if let Some(caller) = ctx.caller() {
        return Some(Actor::User(caller.user_id.clone()));
    }
    ctx.header("x-api-client").map(|c| Actor::ApiClient(c.to_owned()))
}

impl Surveys {
    pub async fn submit(&self, ctx: &Ctx, Json(sub): Json<Submission>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Some(account) = self.accounts.for_survey(&sub.survey_id).await else {
            return Reply::status(Status::NOT_FOUND);
        };
        let actor = resolve_actor(ctx).unwrap_or(Actor::Anonymous);
        let tier = account.tier.unwrap_or(Tier::Free);
        let principal = actor.to_string();
        let sk = match scoped(&account.tenant_id, &principal, "surveys.submit", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let stored = self.responses.store(&account.tenant_id, &sub.survey_id, &principal, &sub.answers, tier).await;
        let _ = self.vault.put(sk.storage_key(), stored.to_bytes()).await;
        Reply::bytes(Status::CREATED, stored.to_bytes())
    }
}
