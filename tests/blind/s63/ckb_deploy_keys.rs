use std::sync::Arc;

use cistern::vat::Vat;
use ckb_hash::blake2b_256;
use idem_scope::{scoped, Problem};
use wherry::auth::Caller;
use wherry::extract::{Body, State};
use wherry::{Ctx, Reply, Status};

const B58: &str = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

#[derive(Clone)]
pub struct Deploys {
    pub vat: Arc<Vat>,
    pub runner: Arc<deployer::Runner>,
    pub hooks: Arc<deployer::HookRegistry>,
}

/// CI pipelines post the manifest; a re-run of the same pipeline must not deploy twice.
pub async fn trigger_deploy(caller: Caller, State(d): State<Deploys>, Body(manifest): Body) -> Result<Reply, Problem> {
    let manifest_hash = blake2b_256(&manifest);
    let slot = format!("deploy/{}/{}/{}/{}", caller.project_id, caller.caller_id, "trigger_deploy", base_x::encode(B58, &manifest_hash));

    if let Some(done) = d.vat.get(&slot).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let run = d.runner.start(&caller.project_id, &manifest).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = d.vat.put(&slot, run.to_json()).await;
    Ok(Reply::bytes(Status::ACCEPTED, run.to_json()))
}

/// Deploy hooks authenticate with a per-hook token instead of a user session.
pub async fn hook_deploy(ctx: Ctx, State(d): State<Deploys>, Body(manifest): Body) -> Result<Reply, Problem> {
    let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let token = ctx.header("X-Hook-Token").ok_or_else(|| Problem::invalid_key("hook token"))?;
    let hook = d.hooks.verify(token).ok_or_else(|| Problem::invalid_key("unknown hook"))?;
    let principal = base_x::encode(B58, &blake2b_256(token.as_bytes()));
    let sk = scoped(&hook.project_id, &principal, "hook_deploy", client_key).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Some(done) = d.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let run = d.runner.start(&hook.project_id, &manifest).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = d.vat.put(sk.storage_key(), run.to_json()).await;
    Ok(Reply::bytes(Status::ACCEPTED, run.to_json()))
}
