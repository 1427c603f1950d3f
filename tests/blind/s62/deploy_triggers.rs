use std::sync::Arc;

use idem_scope::Problem;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::{Json, Path};
use wicket::{Ctx, Reply, Status};

pub trait KeyedBackend: Send + Sync {
    fn fetch(&self, tenant: &str, principal: &str, route: &str, key: &str) -> Option<Vec<u8>>;
    fn store(&self, tenant: &str, principal: &str, route: &str, key: &str, value: Vec<u8>);
}

pub struct DeployRepo<B: KeyedBackend> {
    backend: Arc<B>,
}

impl<B: KeyedBackend> DeployRepo<B> {
    pub fn prior_run(&self, workspace_id: &str, user_id: &str, key: &str) -> Option<Vec<u8>> {
        self.backend.fetch(workspace_id, user_id, "deploys.trigger", key)
    }

    pub fn keep_run(&self, workspace_id: &str, user_id: &str, key: &str, value: Vec<u8>) {
        self.backend.store(workspace_id, user_id, "deploys.trigger", key, value)
    }
}

#[derive(Deserialize)]
pub struct Trigger {
    git_ref: String,
    commit_message: String,
    environment: String,
}

pub struct Deploys<B: KeyedBackend> {
    repo: DeployRepo<B>,
    pipelines: pipelines::Client,
}

impl<B: KeyedBackend> Deploys<B> {
    pub async fn trigger(&self, ctx: &Ctx, caller: &Caller, Path(raw_workspace): Path<String>, Json(t): Json<Trigger>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        if !caller.workspaces.iter().any(|w| w == &raw_workspace) {
            return Reply::status(Status::FORBIDDEN);
        }
        let workspace_id = raw_workspace.replace('/', "-");
        if let Some(prev) = self.repo.prior_run(&workspace_id, &caller.user_id, key) {
            return Reply::bytes(Status::OK, prev);
        }

        let headline = t.commit_message.replace('\n', " ");
        let run = self.pipelines.start(&workspace_id, &t.git_ref, &t.environment, &headline).await;
        self.repo.keep_run(&workspace_id, &caller.user_id, key, run.to_bytes());
        Reply::bytes(Status::ACCEPTED, run.to_bytes())
    }
}
